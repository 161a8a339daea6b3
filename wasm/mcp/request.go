package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/jsonstring"
)

// Limits on request metadata (REFERENCE §4).
const (
	MaxIdempotencyKeyChars = 256
	MaxToolCallIDChars     = 256
	MaxSessionIDChars      = 256
	MaxToolNameChars       = 128
)

// Call sources and modes (REFERENCE §1, §8).
const (
	SourceLocal = "local"
	SourceModel = "model"
	SourceMCP   = "mcp"

	ModeAgent  = "agent"
	ModeDirect = "direct"
)

var (
	callParamKeys = []string{"name", "arguments", "_meta"}
	metaKeys      = []string{"toolCallId", "sessionId", "source", "mode", "idempotencyKey", "timeoutMs", "maxOutputBytes", "coalesceKey"}
	listParamKeys = []string{"cursor", "_meta"}
)

// ParseCallToolParams decodes untrusted tools/call params.
//
// Rules: CheckJSON must pass (UTF-8, syntax, depth, no repeated key); the value is an object
// whose keys are exactly among name, arguments, _meta (case-sensitive); name is a non-empty
// string of at most MaxToolNameChars; arguments, when present, is an object; _meta, when
// present, is an object whose studio keys (CallMeta) have the right types — other _meta keys
// are ignored as MCP allows, except a key that differs from a studio key only by letter case,
// which is refused as ambiguous.
//
// # Errors
//   - TOOL_VALIDATION_FAILED (not retryable): any rule above; details {reason, field?}.
//
// Option ranges (idempotencyKey length, timeout, maxOutputBytes) are the registry's
// TOOL_INVALID_OPTIONS checks, not this parser's.
func ParseCallToolParams(raw []byte) (CallToolParams, error) {
	if err := CheckJSON(raw); err != nil {
		return CallToolParams{}, requestError("tools/call params", err)
	}
	return ParseCheckedCallToolParams(raw)
}

// ParseCheckedCallToolParams is ParseCallToolParams for bytes that already passed CheckJSON
// (for example as part of a whole JSON-RPC request): it applies every other rule without
// scanning the bytes again.
func ParseCheckedCallToolParams(raw []byte) (CallToolParams, error) {
	var p CallToolParams
	if k := jsonKind(raw); k != "object" {
		return p, requestError("tools/call params", errors.New("mcp: expected a JSON object, got "+k))
	}
	var terr error
	var nameRaw, metaRaw []byte
	eachMember(raw, func(key, val []byte) bool {
		switch string(key) {
		case "name":
			nameRaw = val
		case "arguments":
			if k := jsonKind(val); k != "object" {
				terr = invalidRequest("Tool \"arguments\" must be an object, got "+k+".", "arguments", "type")
				return false
			}
			p.Arguments = val
		case "_meta":
			metaRaw = val
		default:
			terr = requestError("tools/call params", &UnknownFieldError{Field: string(key), Allowed: callParamKeys})
			return false
		}
		return true
	})
	if terr != nil {
		return p, terr
	}
	if nameRaw == nil {
		return p, invalidRequest("tools/call params need a \"name\" string.", "name", "missing")
	}
	if jsonKind(nameRaw) != "string" {
		return p, invalidRequest("Tool \"name\" must be a string, got "+jsonKind(nameRaw)+".", "name", "type")
	}
	p.Name = jsonstring.Decode(nameRaw)
	if p.Name == "" || utf8.RuneCountInString(p.Name) > MaxToolNameChars {
		return p, invalidRequest("Tool \"name\" must be 1..128 characters.", "name", "length")
	}
	if metaRaw != nil {
		meta, terr := parseCallMeta(metaRaw)
		if terr != nil {
			return p, terr
		}
		p.Meta = meta
	}
	return p, nil
}

func parseCallMeta(raw json.RawMessage) (*CallMeta, error) {
	if jsonKind(raw) != "object" {
		return nil, invalidRequest("\"_meta\" must be an object, got "+jsonKind(raw)+".", "_meta", "type")
	}
	m := &CallMeta{}
	var terr error
	eachMember(raw, func(kb, v []byte) bool {
		var perr error
		switch string(kb) {
		case "toolCallId":
			perr = metaString(v, &m.ToolCallID, MaxToolCallIDChars)
		case "sessionId":
			perr = metaString(v, &m.SessionID, MaxSessionIDChars)
		case "coalesceKey":
			perr = metaString(v, &m.CoalesceKey, MaxToolCallIDChars)
		case "source":
			perr = metaEnum(v, &m.Source, SourceLocal, SourceModel, SourceMCP)
		case "mode":
			perr = metaEnum(v, &m.Mode, ModeAgent, ModeDirect)
		case "idempotencyKey":
			if jsonKind(v) != "string" {
				perr = errors.New("must be a string")
			} else {
				s := jsonstring.Decode(v)
				m.IdempotencyKey = &s
			}
		case "timeoutMs", "maxOutputBytes":
			f, err := strconv.ParseFloat(string(v), 64)
			if jsonKind(v) != "number" || err != nil {
				perr = errors.New("must be a number")
			} else if string(kb) == "timeoutMs" {
				m.TimeoutMs = &f
			} else {
				m.MaxOutputBytes = &f
			}
		default:
			k := string(kb)
			for _, known := range metaKeys {
				if strings.EqualFold(k, known) {
					terr = invalidRequest("\"_meta\" key \""+k+"\" differs from \""+known+"\" only by case.", "_meta."+k, "ambiguous-key")
					return false
				}
			}
			return true // other _meta keys are the client's (MCP allows them)
		}
		if perr != nil {
			terr = invalidRequest("\"_meta."+string(kb)+"\" "+perr.Error()+".", "_meta."+string(kb), "type")
			return false
		}
		return true
	})
	if terr != nil {
		return nil, terr
	}
	return m, nil
}

func metaString(v json.RawMessage, dst *string, max int) error {
	if jsonKind(v) != "string" {
		return errors.New("must be a string")
	}
	*dst = jsonstring.Decode(v)
	if n := utf8.RuneCountInString(*dst); n == 0 || n > max || strings.ContainsRune(*dst, 0) {
		return errors.New("must be 1.." + itoa(max) + " characters without NUL")
	}
	return nil
}

func metaEnum(v json.RawMessage, dst *string, allowed ...string) error {
	if jsonKind(v) != "string" {
		return errors.New("must be a string")
	}
	if t := bytes.TrimSpace(v); len(t) >= 2 {
		for _, a := range allowed {
			if string(t[1:len(t)-1]) == a { // written without escapes: the constant, no copy
				*dst = a
				return nil
			}
		}
	}
	*dst = jsonstring.Decode(v)
	if !contains(allowed, *dst) {
		return errors.New("must be one of " + strings.Join(allowed, ", "))
	}
	return nil
}

// ParseListToolsParams decodes untrusted tools/list params. present reports whether the
// request had a params member at all: an omitted params is an empty request, but an explicit
// null (or any non-object) is refused, as are unknown keys.
//
// # Errors
//   - TOOL_VALIDATION_FAILED: params null or not an object, unknown key, cursor not a string.
func ParseListToolsParams(raw []byte, present bool) (ListToolsParams, error) {
	var p ListToolsParams
	if !present {
		return p, nil
	}
	if k := jsonKind(raw); k != "object" {
		return p, invalidRequest("tools/list params must be an object when present, got "+k+".", "params", "type")
	}
	members, err := DecodeObject(raw, listParamKeys, nil)
	if err != nil {
		return p, requestError("tools/list params", err)
	}
	if c, ok := members["cursor"]; ok {
		if jsonKind(c) != "string" {
			return p, invalidRequest("\"cursor\" must be a string.", "cursor", "type")
		}
		_ = json.Unmarshal(c, &p.Cursor)
	}
	return p, nil
}

func invalidRequest(msg, field, reason string) *ToolError {
	d := map[string]any{"reason": reason}
	if field != "" {
		d["field"] = field
	}
	return &ToolError{Code: CodeToolValidationFailed, Message: "Invalid tools request: " + msg, Details: d}
}

func requestError(what string, err error) *ToolError {
	var je *JSONError
	var ue *UnknownFieldError
	switch {
	case errors.As(err, &ue):
		return invalidRequest(what+" have an unknown field \""+ue.Field+"\".", ue.Field, "unknown-field")
	case errors.As(err, &je):
		reason := map[error]string{ErrJSONInvalidUTF8: "invalid-utf8", ErrJSONSyntax: "malformed-json",
			ErrJSONTooDeep: "too-deep", ErrJSONDuplicateKey: "duplicate-key"}[je.Err]
		d := map[string]any{"reason": reason}
		if je.Pointer != "" || je.Key != "" {
			d["pointer"] = je.Pointer
		}
		if je.Key != "" {
			d["key"] = je.Key
		}
		return &ToolError{Code: CodeToolValidationFailed, Message: "Invalid tools request: " + what + ": " + je.Error() + ".", Details: d}
	}
	return invalidRequest(what+": "+strings.TrimPrefix(err.Error(), "mcp: ")+".", "", "type")
}

// ErrorResult builds the canonical failed result for e: isError true, error set, the same
// object in structuredContent, and "[CODE] message" as the only text block.
func ErrorResult(toolCallID string, e *ToolError) *CallToolResult {
	sc, err := json.Marshal(e)
	if err != nil {
		// Details that cannot be serialized are dropped rather than lost silently: say so.
		e = &ToolError{Code: e.Code, Message: e.Message, Retryable: e.Retryable,
			Details: map[string]any{"_redacted": "details were not serializable"}}
		sc, _ = json.Marshal(e)
	}
	return &CallToolResult{
		Content:           []Content{TextContent(e.Error())},
		StructuredContent: sc,
		IsError:           true,
		ToolCallID:        toolCallID,
		Error:             e,
	}
}

var codePattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// ValidCode reports whether c may appear in projections and diagnostics:
// [A-Za-z0-9._:-]{1,128} (REFERENCE §4, observability).
func ValidCode(c Code) bool { return codePattern.MatchString(string(c)) }

// ValidateCallToolResult checks a result received from an untrusted peer (or about to be
// serialized for a provider): at least one text content block, every block of an MCP type, a
// non-empty toolCallId, isError consistent with error, and well-formed error metadata (a valid
// code and a non-empty message). It returns nil when the result is canonical.
func ValidateCallToolResult(r *CallToolResult) error {
	if r == nil {
		return errors.New("mcp: result is missing")
	}
	if r.ToolCallID == "" {
		return errors.New("mcp: result has no toolCallId")
	}
	hasText := false
	for i, c := range r.Content {
		switch c.Type {
		case "text":
			hasText = true
		case "image":
			if c.Data == "" || c.MimeType == "" {
				return errors.New("mcp: image block " + itoa(i) + " needs data and mimeType")
			}
		case "resource":
			if c.Resource == nil || c.Resource.URI == "" {
				return errors.New("mcp: resource block " + itoa(i) + " needs resource.uri")
			}
		default:
			return errors.New("mcp: content block " + itoa(i) + " has unsupported type \"" + c.Type + "\"")
		}
	}
	if !hasText {
		return errors.New("mcp: result has no text content block")
	}
	if r.IsError != (r.Error != nil) {
		return errors.New("mcp: isError and error disagree")
	}
	if r.Error != nil {
		if !ValidCode(r.Error.Code) {
			return errors.New("mcp: error code is not [A-Za-z0-9._:-]{1,128}")
		}
		if strings.TrimSpace(r.Error.Message) == "" {
			return errors.New("mcp: error message is empty")
		}
	}
	if len(r.StructuredContent) > 0 && jsonKind(r.StructuredContent) != "object" {
		return errors.New("mcp: structuredContent must be an object")
	}
	return nil
}

// ParseCallToolResult decodes and validates a result from an untrusted peer, refusing unknown
// top-level fields, repeated keys and non-canonical shapes (ValidateCallToolResult).
func ParseCallToolResult(raw []byte) (*CallToolResult, error) {
	if _, err := DecodeObject(raw, []string{"content", "structuredContent", "isError", "toolCallId", "error", "replay", "_meta"}, nil); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var r CallToolResult
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	return &r, ValidateCallToolResult(&r)
}

// StringifyToolContent renders a result for a text-only view: the text blocks joined by
// newlines; when there is no text block, the structuredContent JSON; image and resource blocks
// are named, never dropped (so JSON never vanishes from a text-only view).
func StringifyToolContent(r *CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		switch c.Type {
		case "text":
			parts = append(parts, c.Text)
		case "image":
			parts = append(parts, "[image "+c.MimeType+", "+itoa(len(c.Data))+" base64 chars]")
		case "resource":
			if c.Resource != nil {
				if c.Resource.Text != "" {
					parts = append(parts, c.Resource.Text)
				} else {
					parts = append(parts, "[resource "+c.Resource.URI+"]")
				}
			}
		}
	}
	if len(parts) == 0 && len(r.StructuredContent) > 0 {
		return string(r.StructuredContent)
	}
	return strings.Join(parts, "\n")
}

// IsFiniteNonNegative reports whether f is a finite number >= 0.
func IsFiniteNonNegative(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) && f >= 0 }
