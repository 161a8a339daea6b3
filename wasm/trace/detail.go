package trace

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
)

// detail returns the redacted, indented JSON of a call's arguments (at most MaxDetailBytes
// bytes; "" for none). Top-level redacted strings (source, search, replace, secrets) become
// "[<key> redacted · <n> chars]", so the row says how much was withheld without showing it.
func (t *Trace) detail(args json.RawMessage) string {
	if len(bytes.TrimSpace(args)) == 0 {
		return ""
	}
	return t.redacted(args, lengths(args, t.policy.IsRedactedKey))
}

// resultDetail returns the redacted, indented JSON of a result: structuredContent for a
// success, {"error": {code, message, retryable, details}} for a failure.
func (t *Trace) resultDetail(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var v any
	switch {
	case res.IsError && res.Error != nil:
		v = map[string]any{"error": res.Error}
	case len(res.StructuredContent) > 0:
		v = res.StructuredContent
	default:
		types := make([]string, 0, len(res.Content))
		for _, c := range res.Content {
			types = append(types, c.Type)
		}
		v = map[string]any{"isError": res.IsError, "contentTypes": types}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return t.redacted(raw, lengths(raw, t.policy.IsRedactedKey))
}

// redacted applies the policy to raw, annotates the top-level redacted strings with their
// lengths, and indents the result when that still fits MaxDetailBytes.
func (t *Trace) redacted(raw json.RawMessage, lens map[string]int) string {
	out := t.policy.Redact(raw)
	if m, ok := out.(map[string]any); ok {
		for k, n := range lens {
			if _, present := m[k]; present {
				m[k] = "[" + k + " redacted · " + strconv.Itoa(n) + " chars]"
			}
		}
	}
	if b, err := json.MarshalIndent(out, "", "  "); err == nil && len(b) <= t.policy.MaxBytes {
		return string(b)
	}
	return string(t.policy.RedactJSON(raw))
}

// lengths returns the code-point length of every top-level string member of raw whose key
// is redacted.
func lengths(raw json.RawMessage, redacted func(string) bool) map[string]int {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	var out map[string]int
	for k, v := range m {
		if !redacted(k) || len(v) == 0 || v[0] != '"' {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		out[k] = utf8.RuneCountInString(s)
	}
	return out
}
