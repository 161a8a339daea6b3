package mcp

import (
	"encoding/json"
	"unicode/utf8"
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
	if r.Replay != nil {
		rb, err := json.Marshal(r.Replay)
		if err != nil {
			return b, err
		}
		b = append(b, `,"replay":`...)
		b = append(b, rb...)
	}
	return append(b, '}'), nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string (RFC 8259 §7): quotes, backslashes and control
// characters escaped; <, > and & escaped as \u003c, \u003e, \u0026 and U+2028/U+2029 as
// escapes (as encoding/json does, so the text is safe inside HTML and JavaScript); invalid
// UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
