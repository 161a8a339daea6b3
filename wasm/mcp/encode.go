package mcp

import (
	"encoding/json"

	"github.com/webcoding/studio/wasm/jsonstring"
)

// AppendCallToolResult appends the JSON of r to b, exactly as encoding/json would lay it out
// but without re-validating StructuredContent, which the registry produced with encoding/json
// (or checked) itself. It is the hot path of every host: one tools/call result per call.
func AppendCallToolResult(b []byte, r *CallToolResult) ([]byte, error) {
	b = append(b, `{"content":[`...)
	for i, c := range r.Content {
		if i > 0 {
			b = append(b, ',')
		}
		if c.Type == "text" && c.Resource == nil && c.Data == "" && c.MimeType == "" {
			b = append(b, `{"type":"text","text":`...)
			b = AppendString(b, c.Text)
			b = append(b, '}')
			continue
		}
		cb, err := json.Marshal(c)
		if err != nil {
			return b, err
		}
		b = append(b, cb...)
	}
	b = append(b, ']')
	if len(r.StructuredContent) > 0 {
		b = append(b, `,"structuredContent":`...)
		b = append(b, r.StructuredContent...)
	}
	if r.IsError {
		b = append(b, `,"isError":true,"toolCallId":`...)
	} else {
		b = append(b, `,"isError":false,"toolCallId":`...)
	}
	b = AppendString(b, r.ToolCallID)
	if r.Error != nil {
		eb, err := json.Marshal(r.Error)
		if err != nil {
			return b, err
		}
		b = append(b, `,"error":`...)
		b = append(b, eb...)
	}
	return append(b, '}'), nil
}

// AppendString appends s as a JSON string (RFC 8259 §7) in the escaping of encoding/json's
// default mode: quotes, backslashes and control characters escaped; <, > and & escaped as
// \u003c, \u003e, \u0026 and U+2028/U+2029 as escapes (so the text is safe inside HTML and
// JavaScript); invalid UTF-8 becomes U+FFFD. It is jsonstring.Append in HTMLSafe mode.
func AppendString(b []byte, s string) []byte { return jsonstring.Append(b, s, jsonstring.HTMLSafe) }
