// Package jsonstring is the one JSON string encoder and decoder of the module (RFC 8259 §7),
// and its one walk over already-validated raw JSON (SkipSpace, SkipString, SkipValue). Append
// escapes in three modes:
//
//   - HTMLSafe: the escaping of encoding/json's default mode, so the literal is safe inside
//     HTML and inside a JavaScript string: '"', '\\' and control characters, plus '<', '>',
//     '&', U+2028 and U+2029 as \u escapes (mcp's canonical result encoding, the preview's
//     bridge and module scripts).
//   - Plain: the escaping of JavaScript's JSON.stringify: only '"', '\\' and control
//     characters (audit's stable serialization, which fingerprints hash: its bytes are a
//     persisted form and must not change).
//   - NoHTML: the escaping of an encoding/json Encoder with SetEscapeHTML(false): Plain plus
//     U+2028 and U+2029 as \u escapes (the webcoding CLI's requests).
//
// In both modes \b, \f, \n, \r and \t use their short escapes, other control characters
// \u00XX with lower-case hex, and a byte that is not valid UTF-8 becomes \ufffd.
//
// Decode turns a raw string literal back into its value, as encoding/json does (decode.go).
//
// Owns: JSON string escaping and decoding, and the walk over raw JSON known to be valid.
//
// Must never: import another package of this module, or grow a second copy elsewhere
// (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package jsonstring

import "unicode/utf8"

// Mode selects the escaping of Append.
type Mode uint8

const (
	// Plain escapes like JSON.stringify: '"', '\\' and control characters only.
	Plain Mode = iota
	// HTMLSafe also escapes '<', '>', '&', U+2028 and U+2029, like encoding/json.
	HTMLSafe
	// NoHTML escapes like Plain and also U+2028 and U+2029, like an encoding/json Encoder
	// with SetEscapeHTML(false).
	NoHTML
)

const hexDigits = "0123456789abcdef"

// Append appends s to b as a JSON string literal, quotes included, escaped as mode says.
func Append(b []byte, s string, mode Mode) []byte {
	html := mode == HTMLSafe
	lineSep := mode != Plain // U+2028 and U+2029
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&') {
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
		if lineSep && (r == '\u2028' || r == '\u2029') {
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

// String returns s as a JSON string literal, escaped as mode says.
func String(s string, mode Mode) string {
	return string(Append(make([]byte, 0, len(s)+2), s, mode))
}
