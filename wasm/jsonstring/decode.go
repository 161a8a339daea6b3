package jsonstring

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode returns the value of the JSON string literal raw (quotes included) taken from valid
// JSON. It gives what encoding/json's Unmarshal into a string gives, with one exception: a
// literal without escapes is returned as its bytes, so invalid UTF-8 in it is kept rather than
// replaced by U+FFFD (callers that must not see invalid UTF-8 check utf8.Valid first, as
// mcp.CheckJSON does). With escapes, invalid escapes, lone surrogates and invalid UTF-8
// become U+FFFD. On input that is not a literal the result is unspecified, but Decode never
// reads outside raw.
func Decode(raw []byte) string {
	if len(raw) < 2 {
		return ""
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	return unescape(body)
}

// unescape decodes the body of a JSON string with escapes (RFC 8259 §7).
func unescape(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(b[i:])
			out = utf8.AppendRune(out, r) // U+FFFD for a byte that is not valid UTF-8
			i += size - 1
			continue
		}
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		i++
		switch b[i] {
		case '"', '\\', '/':
			out = append(out, b[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(b, i+1)
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+2 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					r2 = hex4(b, i+3)
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					i += 6
					r = dec
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			out = append(out, b[i])
		}
	}
	return string(out)
}

// hex4 reads four hex digits at b[i:]; -1 when they are missing or invalid.
func hex4(b []byte, i int) rune {
	if i+4 > len(b) {
		return -1
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
