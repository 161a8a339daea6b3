package mcp

import "unicode/utf8"

// maxValidDepth is encoding/json's own nesting limit (its scanner's maxNestingDepth): json.Valid
// refuses a value nested deeper, and so does validJSON, so CheckJSON reports such input as
// ErrJSONSyntax exactly as before.
const maxValidDepth = 10000

// validJSON reports whether data is exactly one JSON value (RFC 8259), with optional
// whitespace around it, valid UTF-8 throughout and at most maxValidDepth levels deep. It gives
// the same answer as utf8.Valid(data) && json.Valid(data) in one pass (encoding/json's
// scanner costs about 6 ns a byte through a function value per byte; docs/performance.md,
// "Native tools/call A/B (2026-12-06)"); TestValidJSONMatchesEncodingJSON and FuzzValidJSON
// hold it to that. It allocates only for documents nested more than 64 levels.
func validJSON(data []byte) bool {
	var buf [64]byte
	stack := buf[:0] // '{' or '[' per open container
	i := skipWS(data, 0)
	for {
		// A value starts at i.
		if i >= len(data) {
			return false
		}
		switch c := data[i]; c {
		case '{', '[':
			if len(stack) >= maxValidDepth {
				return false
			}
			stack = append(stack, c)
			i = skipWS(data, i+1)
			if i < len(data) && data[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				var ok bool
				if i, ok = validMemberName(data, i); !ok {
					return false
				}
			}
			continue
		case '"':
			var ok bool
			if i, ok = validString(data, i); !ok {
				return false
			}
		case 't':
			if !hasPrefixAt(data, i, "true") {
				return false
			}
			i += 4
		case 'f':
			if !hasPrefixAt(data, i, "false") {
				return false
			}
			i += 5
		case 'n':
			if !hasPrefixAt(data, i, "null") {
				return false
			}
			i += 4
		default:
			var ok bool
			if i, ok = validNumber(data, i); !ok {
				return false
			}
		}
		// A value ended before i: close containers, or go on to the next member or element.
		for {
			i = skipWS(data, i)
			if len(stack) == 0 {
				return i == len(data)
			}
			if i >= len(data) {
				return false
			}
			top := stack[len(stack)-1]
			if data[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if data[i] != ',' {
				return false
			}
			i = skipWS(data, i+1)
			if top == '{' {
				var ok bool
				if i, ok = validMemberName(data, i); !ok {
					return false
				}
			}
			break
		}
	}
}

// validMemberName checks `"name" :` and the whitespace after it, from i; it returns where the
// member's value starts.
func validMemberName(data []byte, i int) (int, bool) {
	if i >= len(data) || data[i] != '"' {
		return i, false
	}
	i, ok := validString(data, i)
	if !ok {
		return i, false
	}
	i = skipWS(data, i)
	if i >= len(data) || data[i] != ':' {
		return i, false
	}
	return skipWS(data, i+1), true
}

// plainStringByte marks the bytes a string may hold as they are: ASCII from U+0020 but '"'
// and '\\'.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func skipWS(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func hasPrefixAt(data []byte, i int, lit string) bool {
	return len(data)-i >= len(lit) && string(data[i:i+len(lit)]) == lit
}

// validString checks the string starting at data[i] == '"' and returns the index after its
// closing quote: no control character below U+0020, only the escapes of RFC 8259 §7, valid
// UTF-8.
func validString(data []byte, i int) (int, bool) {
	i++
	for i < len(data) {
		for i < len(data) && plainStringByte[data[i]] {
			i++
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(data) {
				return i, false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(data)-i < 6 {
					return i, false
				}
				for _, h := range data[i+2 : i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return i, false
					}
				}
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return i, false
			}
			i += size
		}
	}
	return i, false
}

// validNumber checks the number starting at i (RFC 8259 §6):
// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
func validNumber(data []byte, i int) (int, bool) {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = digits(data, i+1)
	default:
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		j := digits(data, i+1)
		if j == i+1 {
			return i, false
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(data, i)
		if j == i {
			return i, false
		}
		i = j
	}
	return i, true
}

func digits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}
