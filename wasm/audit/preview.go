package audit

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/webcoding/studio/wasm/jsonstring"
)

// MaxPreviewValueChars bounds each value of SafeArgumentPreview in Unicode code points
// (REFERENCE §4, "Approval: safe preview value").
const MaxPreviewValueChars = 120

// PreviewSeparator joins the parts of SafeArgumentPreview.
const PreviewSeparator = " · "

// previewArguments are the only arguments an approval snapshot may show, in display order.
var previewArguments = []string{"path", "theme"}

// SafeArgumentPreview returns the approval-snapshot preview of a call's arguments
// (REFERENCE §8, "Approval snapshot"): "path: index.html · theme: dark". Only the path and
// theme arguments are shown, only when their value is a string, number or boolean, and each
// value is cut to its first MaxPreviewValueChars code points. Every other argument — sources,
// search/replace text, objects, arrays — is never shown. The result is "" when nothing
// qualifies, including for malformed or non-object arguments.
func SafeArgumentPreview(args json.RawMessage) string {
	if len(args) == 0 || !json.Valid(args) {
		return ""
	}
	var values [2][]byte // path, theme; the last of repeated keys wins, as in encoding/json
	eachMember(args, func(rawKey, value []byte) {
		for i, name := range previewArguments {
			if jsonstring.Decode(rawKey) == name {
				values[i] = value
			}
		}
	})
	var parts []string
	for i, name := range previewArguments {
		if values[i] == nil {
			continue
		}
		v, ok := previewValue(values[i])
		if !ok {
			continue
		}
		parts = append(parts, name+": "+cut(v, MaxPreviewValueChars))
	}
	return strings.Join(parts, PreviewSeparator)
}

func previewValue(raw json.RawMessage) (string, bool) {
	switch s := strings.TrimSpace(string(raw)); {
	case s == "true", s == "false":
		return s, true
	case strings.HasPrefix(s, `"`):
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return "", false
		}
		return v, true
	case validNumber(s):
		f, _ := strconv.ParseFloat(s, 64)
		return FormatNumber(f), true
	}
	return "", false
}

// cut keeps the first max code points of s.
func cut(s string, max int) string {
	count := 0
	for i := range s {
		if count == max {
			return s[:i]
		}
		count++
	}
	return s
}
