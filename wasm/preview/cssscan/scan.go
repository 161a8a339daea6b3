package cssscan

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the class of a Ref.
type Kind uint8

// Reference kinds.
const (
	// Import is an `@import url(x) media;` or `@import "x" media;` rule.
	Import Kind = iota + 1
	// URL is a `url(x)` function outside an @import prelude, or a string argument of
	// `image-set()` / `-webkit-image-set()` (which takes a string in place of url()).
	URL
)

// Ref is one reference found by Scan. Start and End are byte offsets into the source:
// for Import the span runs from '@' through the terminating ';' (or up to, not including, a
// '{' / '}' or the end of input when the rule is not terminated); for URL it is the whole
// `url(…)` function. Value is the decoded URL text (CSS escapes resolved, surrounding
// whitespace trimmed); Media is the trimmed media list of an Import ("" when absent).
type Ref struct {
	Kind       Kind
	Start, End int
	Value      string
	Media      string
}

// Result is the outcome of Scan.
type Result struct {
	Refs []Ref
	// Tail closes what the source leaves open at its end: "*/" for an unterminated comment
	// followed by one "}" per unclosed block. Empty for well-formed sources.
	Tail string
}

// Scan returns the @import and url() references of src in source order. Time and memory
// are linear in len(src).
func Scan(src string) Result {
	var res Result
	depth := 0
	// setDepth is the parenthesis depth inside an image-set() (0: outside one); a string at
	// depth 1 is an image URL.
	setDepth := 0
	i := 0
	for i < len(src) {
		c := src[i]
		if setDepth > 0 && (c == ';' || c == '{' || c == '}') {
			setDepth = 0 // an unclosed image-set() ends with its declaration or block
		}
		switch {
		case setDepth > 0 && c == '(':
			setDepth++
			i++
		case setDepth > 0 && c == ')':
			setDepth--
			i++
		case setDepth == 1 && (c == '"' || c == '\''):
			v, end, closed := scanString(src, i)
			if closed {
				res.Refs = append(res.Refs, Ref{Kind: URL, Start: i, End: end, Value: strings.TrimSpace(v)})
			}
			i = end
		case (c == 'i' || c == 'I') && hasFoldPrefix(src, i, "image-set(") && (i == 0 || !isNameChar(src[i-1]) || hasFoldSuffix(src[:i], "-webkit-")):
			setDepth = 1
			i += len("image-set(")
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				res.Tail = "*/"
				i = len(src)
				continue
			}
			i += 2 + end + 2
		case c == '"' || c == '\'':
			_, i, _ = scanString(src, i)
		case c == '\\':
			i += 2
		case c == '{':
			depth++
			i++
		case c == '}':
			if depth > 0 {
				depth--
			}
			i++
		case c == '@' && hasFoldPrefix(src, i+1, "import") && !(i+7 < len(src) && isNameChar(src[i+7])):
			if r, ok := scanImport(src, i); ok {
				res.Refs = append(res.Refs, r)
				i = r.End
			} else {
				i += 7
			}
		case (c == 'u' || c == 'U') && hasFoldPrefix(src, i, "url(") && (i == 0 || !isNameChar(src[i-1])):
			if v, end, ok := scanURL(src, i); ok {
				res.Refs = append(res.Refs, Ref{Kind: URL, Start: i, End: end, Value: v})
				i = end
			} else {
				i += 4
			}
		default:
			i++
		}
	}
	if depth > 0 {
		res.Tail += strings.Repeat("}", depth)
	}
	return res
}

// scanImport parses an @import rule starting at src[at] == '@'.
func scanImport(src string, at int) (Ref, bool) {
	i := skipSpace(src, at+7)
	var value string
	switch {
	case i < len(src) && (src[i] == '"' || src[i] == '\''):
		var closed bool
		value, i, closed = scanString(src, i)
		if !closed {
			return Ref{}, false // unterminated string: not an import we can follow
		}
	case hasFoldPrefix(src, i, "url("):
		v, end, ok := scanURL(src, i)
		if !ok {
			return Ref{}, false
		}
		value, i = v, end
	default:
		return Ref{}, false
	}
	mediaStart := i
	for i < len(src) {
		c := src[i]
		if c == ';' {
			return Ref{Kind: Import, Start: at, End: i + 1, Value: strings.TrimSpace(value), Media: strings.TrimSpace(src[mediaStart:i])}, true
		}
		if c == '{' || c == '}' {
			break
		}
		if c == '"' || c == '\'' {
			_, i, _ = scanString(src, i)
			continue
		}
		if c == '/' && i+1 < len(src) && src[i+1] == '*' {
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				break
			}
			i += 2 + end + 2
			continue
		}
		i++
	}
	if i > len(src) {
		i = len(src)
	}
	return Ref{Kind: Import, Start: at, End: i, Value: strings.TrimSpace(value), Media: strings.TrimSpace(src[mediaStart:i])}, true
}

// scanString scans a quoted string starting at src[i] and returns its decoded value and the
// offset after it; closed is false for an unterminated string, which ends before a newline
// or at the end of input.
func scanString(src string, i int) (value string, end int, closed bool) {
	q := src[i]
	j := i + 1
	hasEsc := false
	for j < len(src) {
		c := src[j]
		if c == q {
			body := src[i+1 : j]
			if hasEsc {
				body = Unescape(body)
			}
			return body, j + 1, true
		}
		if c == '\\' {
			hasEsc = true
			j += 2
			continue
		}
		if c == '\n' || c == '\r' || c == '\f' {
			break
		}
		j++
	}
	if j > len(src) {
		j = len(src)
	}
	body := src[i+1 : j]
	if hasEsc {
		body = Unescape(body)
	}
	return body, j, false
}

// scanURL parses `url(` … `)` at src[i]; ok is false when the function is malformed.
func scanURL(src string, i int) (string, int, bool) {
	j := skipSpace(src, i+4)
	if j < len(src) && (src[j] == '"' || src[j] == '\'') {
		v, k, closed := scanString(src, j)
		if !closed {
			return "", 0, false
		}
		k = skipSpace(src, k)
		if k < len(src) && src[k] == ')' {
			return strings.TrimSpace(v), k + 1, true
		}
		return "", 0, false
	}
	start := j
	hasEsc := false
	for j < len(src) {
		c := src[j]
		switch {
		case c == ')':
			v := src[start:j]
			if hasEsc {
				v = Unescape(v)
			}
			return strings.TrimSpace(v), j + 1, true
		case c == '\\':
			hasEsc = true
			j += 2
			continue
		case c == '"' || c == '\'' || c == '(':
			return "", 0, false
		case isSpace(c):
			k := skipSpace(src, j)
			if k < len(src) && src[k] == ')' {
				v := src[start:j]
				if hasEsc {
					v = Unescape(v)
				}
				return strings.TrimSpace(v), k + 1, true
			}
			return "", 0, false
		}
		j++
	}
	return "", 0, false
}

// Unescape resolves CSS escapes: backslash + 1–6 hex digits (+ one optional whitespace),
// backslash + newline (removed), backslash + any other character (that character). Code
// point 0, surrogates and values above U+10FFFF become U+FFFD.
func Unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			break
		}
		j := i + 1
		for j < len(s) && j < i+7 && isHex(s[j]) {
			j++
		}
		if j > i+1 {
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			r := rune(v)
			if v == 0 || v > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
			if j < len(s) && isSpace(s[j]) {
				if s[j] == '\r' && j+1 < len(s) && s[j+1] == '\n' {
					j++
				}
				j++
			}
			i = j - 1
			continue
		}
		i++
		switch s[i] {
		case '\n', '\f':
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 0x80 || c == '\\'
}

func hasFoldSuffix(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[len(s)-len(p):], p)
}

func hasFoldPrefix(s string, i int, p string) bool {
	return i >= 0 && len(s)-i >= len(p) && strings.EqualFold(s[i:i+len(p)], p)
}
