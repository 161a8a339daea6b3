package jsonstring

// The walk below moves over JSON that is already known to be valid (json.Valid, or
// mcp.CheckJSON): it finds where a value ends without decoding it. On other input it may
// read past the end of data and panic.

// SkipSpace returns the position of the first byte at or after pos that is not JSON
// whitespace (len(data) when there is none).
func SkipSpace(data []byte, pos int) int {
	for pos < len(data) {
		switch data[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
		default:
			return pos
		}
	}
	return pos
}

// SkipString returns the position after the string that starts at data[pos] ('"') and
// whether the string contains escapes.
func SkipString(data []byte, pos int) (end int, escaped bool) {
	pos++
	for {
		switch data[pos] {
		case '\\':
			escaped = true
			pos += 2
		case '"':
			return pos + 1, escaped
		default:
			pos++
		}
	}
}

// SkipValue returns the position after the value that starts at data[pos] (no leading space).
func SkipValue(data []byte, pos int) int {
	switch data[pos] {
	case '"':
		end, _ := SkipString(data, pos)
		return end
	case '{', '[':
		depth := 0
		for {
			switch data[pos] {
			case '"':
				pos, _ = SkipString(data, pos)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return pos + 1
				}
			}
			pos++
		}
	default: // number, true, false, null
		for pos < len(data) {
			switch data[pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return pos
			}
			pos++
		}
		return pos
	}
}
