package planner

import "strings"

// keyword is a set of phrases; it matches a text when any phrase occurs in it. Keywords are
// written in lower case and run on lower-cased text. Phrase syntax:
//
//	"<"  at the start: the phrase must start a word (the byte before is not [A-Za-z0-9_])
//	">"  at the end: the phrase must end a word (the byte after is not [A-Za-z0-9_])
//	" "  one or more whitespace bytes (\t \n \f \r or space), regexp `\s+`
//	"~"  zero or more whitespace bytes, regexp `\s*`
//
// so "<start over" is the regexp `\bstart\s+over` and "처음부터~다시" is `처음부터\s*다시`.
//
// A hand-written matcher rather than package regexp: it is a few strings.Index calls per
// phrase, and its work is a pure function of the input. (regexp keeps per-call machines in a
// sync.Pool, which makes fuzzing coverage vary from run to run and stalls the fuzzer's
// minimizer.)
type keyword struct {
	phrases []phrase
	sources []string // the phrases as written, for tests and debugging
}

// phrase is one parsed phrase: literal parts separated by whitespace runs.
type phrase struct {
	parts     []string // non-empty literals
	required  []bool   // required[i]: at least one whitespace byte between parts[i] and parts[i+1]
	wordStart bool
	wordEnd   bool
}

// newKeyword parses phrases; it panics on an empty phrase or part (a programming error,
// found when the package initializes).
func newKeyword(phrases ...string) *keyword {
	k := &keyword{sources: phrases}
	for _, src := range phrases {
		var p phrase
		s := src
		if strings.HasPrefix(s, "<") {
			p.wordStart, s = true, s[1:]
		}
		if strings.HasSuffix(s, ">") {
			p.wordEnd, s = true, s[:len(s)-1]
		}
		start := 0
		for i := 0; i <= len(s); i++ {
			if i < len(s) && s[i] != ' ' && s[i] != '~' {
				continue
			}
			if i == start {
				panic("agent: empty part in keyword phrase " + src)
			}
			p.parts = append(p.parts, s[start:i])
			if i < len(s) {
				p.required = append(p.required, s[i] == ' ')
			}
			start = i + 1
		}
		k.phrases = append(k.phrases, p)
	}
	return k
}

// in reports whether any phrase occurs in lower, a lower-cased text.
func (k *keyword) in(lower string) bool {
	_, _, ok := k.find(lower, 0)
	return ok
}

// find returns the leftmost occurrence of any phrase in s at or after from (ties: the
// longest), as byte offsets s[start:end].
func (k *keyword) find(s string, from int) (start, end int, ok bool) {
	start = len(s) + 1
	for _, p := range k.phrases {
		if b, e, found := p.find(s, from); found && (b < start || b == start && e > end) {
			start, end, ok = b, e, true
		}
	}
	return start, end, ok
}

// removeAll returns s with every leftmost, non-overlapping occurrence replaced by a space.
func (k *keyword) removeAll(s string) string {
	var b strings.Builder
	last := 0
	for {
		start, end, ok := k.find(s, last)
		if !ok {
			break
		}
		b.WriteString(s[last:start])
		b.WriteByte(' ')
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// find returns the leftmost occurrence of p in s at or after from.
func (p phrase) find(s string, from int) (int, int, bool) {
	for at := from; at <= len(s); {
		i := strings.Index(s[at:], p.parts[0])
		if i < 0 {
			return 0, 0, false
		}
		b := at + i
		if e, ok := p.matchAt(s, b); ok {
			return b, e, true
		}
		at = b + 1
	}
	return 0, 0, false
}

// matchAt reports whether p matches s at offset b, where s[b:] starts with p.parts[0], and
// returns the end of the match.
func (p phrase) matchAt(s string, b int) (int, bool) {
	if p.wordStart && b > 0 && isWordByte(s[b-1]) {
		return 0, false
	}
	e := b + len(p.parts[0])
	for i, part := range p.parts[1:] {
		ws := e
		for ws < len(s) && isSpaceByte(s[ws]) {
			ws++
		}
		if p.required[i] && ws == e {
			return 0, false
		}
		// Whitespace never starts a part, so taking all of it is the only way to match.
		if !strings.HasPrefix(s[ws:], part) {
			return 0, false
		}
		e = ws + len(part)
	}
	if p.wordEnd && e < len(s) && isWordByte(s[e]) {
		return 0, false
	}
	return e, true
}

// isSpaceByte reports whether b is in regexp's \s class: \t \n \f \r or space.
func isSpaceByte(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}
