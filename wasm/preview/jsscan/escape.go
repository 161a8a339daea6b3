package jsscan

import "strings"

// unsafeAt reports the length of the unsafe sequence starting at s[i] ('<' expected): 4 for
// "<!--", 8 for "</script" (ASCII case-insensitive), 0 otherwise.
func unsafeAt(s string, i int) int {
	if hasPrefixAt(s, i, "<!--") {
		return 4
	}
	if len(s)-i >= 8 && s[i+1] == '/' && strings.EqualFold(s[i+2:i+8], "script") {
		return 8
	}
	return 0
}

// HasUnsafeSequence reports whether s contains "<!--" or "</script" (ASCII case-insensitive):
// the two sequences that make text unsafe between <script> and </script>.
func HasUnsafeSequence(s string) bool {
	for i := 0; ; i++ {
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			return false
		}
		i += k
		if unsafeAt(s, i) > 0 {
			return true
		}
	}
}

// EscapeClassicScript returns src rewritten so that it can be placed between <script> and
// </script> in an HTML document, executed as a classic script, with the same meaning.
//
// The HTML tokenizer ends script data at "</script" and, after "<!--", enters the "script data
// escaped" states in which a later "<script" makes the real "</script>" stop ending the element
// (HTML Living Standard §13.2.5.4–§13.2.5.27). Removing every "<!--" and every "</script" from the
// text (ASCII case-insensitive) therefore keeps the element intact whatever else it contains.
// Each occurrence is rewritten according to the lexical region its '<' is in:
//
//   - string literal, template text, regular expression: '<' becomes `\x3C` (an escaped `\<`
//     becomes `\x3C` as a whole). Inside a regex, `(?<!--` (a lookbehind) becomes
//     `(?<!(?:)--`, because `\x3C` would not be valid there.
//   - comment: a backslash is inserted after '<' (comment text has no meaning); an HTML-like
//     comment opener "<!--" itself becomes "//--", which is the same line comment.
//   - code: "</" becomes "< /" (the two punctuators are unchanged).
//
// The only observable change for a program is the raw text of template literals (String.raw,
// tagged templates) and of Function.prototype.toString. Text that contains neither sequence
// is returned unchanged. The result never contains either sequence: a final pass enforces it
// even if the lexer misattributed a region (only meaning, never safety, depends on the lexer).
//
// Time is linear in len(src).
func EscapeClassicScript(src string) string {
	if !HasUnsafeSequence(src) {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 64)
	last := 0
	lx := NewLexer(src)
	var cls classTracker
	for {
		t, ok := lx.Next()
		if !ok {
			break
		}
		for i := t.Start; i < t.End; i++ {
			k := strings.IndexByte(src[i:t.End], '<')
			if k < 0 {
				break
			}
			i += k
			n := unsafeAt(src, i)
			if n == 0 {
				continue
			}
			// hexLT replaces the '<' at i, with the backslash escaping it if any, by \x3C.
			hexLT := func() {
				if backslashes(src, t.Start, i)%2 == 1 {
					b.WriteString(src[last : i-1])
				} else {
					b.WriteString(src[last:i])
				}
				b.WriteString(`\x3C`)
				last = i + 1
			}
			switch t.Kind {
			case String, Template:
				hexLT()
			case Regex:
				if !cls.at(src, t.Start, i) && i-t.Start >= 2 && src[i-2:i] == "(?" && n == 4 {
					b.WriteString(src[last : i+2])
					b.WriteString("(?:)")
					last = i + 2
				} else {
					hexLT()
				}
			case Comment:
				b.WriteString(src[last:i])
				if i == t.Start && n == 4 {
					b.WriteString("//--")
					last = i + 4
				} else {
					b.WriteString(`<\`)
					last = i + 1
				}
			default: // code: only "</" can start here ("<!--" always lexes as a comment)
				b.WriteString(src[last : i+1])
				b.WriteByte(' ')
				last = i + 1
			}
			i += n - 1
		}
	}
	b.WriteString(src[last:])
	out := b.String()
	if HasUnsafeSequence(out) { // defensive: cannot happen if every '<' lies inside a token
		out = bruteEscape(out)
	}
	return out
}

// bruteEscape breaks every unsafe sequence by inserting a backslash after '<'.
func bruteEscape(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '<' && unsafeAt(s, i) > 0 {
			b.WriteString(s[last : i+1])
			b.WriteByte('\\')
			last = i + 1
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// backslashes counts the consecutive backslashes that end at s[i-1], not before from.
func backslashes(s string, from, i int) int {
	n := 0
	for j := i - 1; j >= from && s[j] == '\\'; j-- {
		n++
	}
	return n
}

// classTracker answers "is offset i inside a character class of the regex literal that
// starts at start" incrementally, so repeated queries on one literal stay linear overall.
type classTracker struct {
	start, pos int
	in         bool
	valid      bool
}

func (c *classTracker) at(s string, start, i int) bool {
	if !c.valid || c.start != start || i < c.pos {
		*c = classTracker{start: start, pos: start + 1, valid: true}
	}
	j := c.pos
	for ; j < i; j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			c.in = true
		case ']':
			c.in = false
		}
	}
	c.pos = j
	return c.in
}
