package studio

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/planner"
)

// decodeAttachments decodes agent/run's optional "context": a JSON array of at most
// planner.MaxAttachments objects, each with exactly the members of planner.Attachment (no
// unknown member), kind "element", "error" or "audit", strings valid UTF-8 within their
// bounds (selector, path, message ≤ planner.MaxAttachmentFieldChars; text ≤
// planner.MaxAttachmentTextChars; outerHTML ≤ planner.MaxAttachmentHTMLChars; console ≤
// planner.MaxAttachmentConsole; tag, fontSize, rule, impact, box ≤
// planner.MaxAttachmentShortChars; role, name ≤ planner.MaxAttachmentTextChars; styles,
// ancestors ≤ planner.MaxAttachmentFieldChars), line 0..planner.MaxAttachmentLine and count
// 0..planner.MaxAttachmentCount.
// Absent or null: none. It returns the reason of the first problem ("" when valid). The
// attachments are data for the planner (docs/design.md §5.23): nothing in them is a request.
func decodeAttachments(raw json.RawMessage) ([]planner.Attachment, string) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, ""
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, "must be an array"
	}
	if len(items) > planner.MaxAttachments {
		return nil, "at most " + strconv.Itoa(planner.MaxAttachments) + " items"
	}
	out := make([]planner.Attachment, 0, len(items))
	for i, it := range items {
		var a planner.Attachment
		dec := json.NewDecoder(bytes.NewReader(it))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return nil, "item " + strconv.Itoa(i) + ": " + err.Error()
		}
		if a.Kind != planner.AttachElement && a.Kind != planner.AttachError && a.Kind != planner.AttachAudit {
			return nil, "item " + strconv.Itoa(i) + ": kind must be element, error or audit"
		}
		for _, f := range []struct {
			v string
			n int
		}{{a.Selector, planner.MaxAttachmentFieldChars}, {a.Path, planner.MaxAttachmentFieldChars}, {a.Message, planner.MaxAttachmentFieldChars},
			{a.Text, planner.MaxAttachmentTextChars}, {a.OuterHTML, planner.MaxAttachmentHTMLChars}, {a.Console, planner.MaxAttachmentConsole},
			{a.Tag, planner.MaxAttachmentShortChars}, {a.FontSize, planner.MaxAttachmentShortChars},
			{a.Rule, planner.MaxAttachmentShortChars}, {a.Impact, planner.MaxAttachmentShortChars},
			{a.Role, planner.MaxAttachmentTextChars}, {a.Name, planner.MaxAttachmentTextChars}, {a.Box, planner.MaxAttachmentShortChars},
			{a.Styles, planner.MaxAttachmentFieldChars}, {a.Ancestors, planner.MaxAttachmentFieldChars}} {
			if !utf8.ValidString(f.v) || utf8.RuneCountInString(f.v) > f.n {
				return nil, "item " + strconv.Itoa(i) + ": a string is longer than " + strconv.Itoa(f.n) + " characters"
			}
		}
		if a.Line < 0 || a.Line > planner.MaxAttachmentLine {
			return nil, "item " + strconv.Itoa(i) + ": line out of range"
		}
		if a.Count < 0 || a.Count > planner.MaxAttachmentCount {
			return nil, "item " + strconv.Itoa(i) + ": count out of range"
		}
		out = append(out, a)
	}
	return out, ""
}
