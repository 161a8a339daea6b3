package agent

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// keyword is a compiled keyword pattern with a cheap prefilter. Patterns are written in
// lower case and run on lower-cased text.
type keyword struct {
	re *regexp.Regexp
	// needles are literals of which at least one occurs in every match; nil when the
	// pattern has no such set. Checking them with strings.Contains first skips the regexp
	// for almost every pattern on almost every prompt.
	needles []string
}

// newKeyword compiles pattern; it panics on a bad pattern (a programming error, found when
// the package initializes).
func newKeyword(pattern string) *keyword {
	k := &keyword{re: regexp.MustCompile(pattern)}
	if parsed, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		if n, ok := requiredLiterals(parsed); ok {
			k.needles = n
		}
	}
	return k
}

// in reports whether the pattern matches lower, a lower-cased text.
func (k *keyword) in(lower string) bool {
	if k.needles != nil {
		found := false
		for _, n := range k.needles {
			if strings.Contains(lower, n) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return k.re.MatchString(lower)
}

// requiredLiterals returns literals of which every match of re contains at least one: the
// leading literal of each alternative. ok is false when an alternative does not begin (after
// empty-width assertions such as \b) with a literal.
func requiredLiterals(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCapture:
		return requiredLiterals(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			n, ok := requiredLiterals(sub)
			if !ok {
				return nil, false
			}
			out = append(out, n...)
		}
		return out, true
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			switch sub.Op {
			case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine,
				syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpEmptyMatch:
				continue
			}
			return requiredLiterals(sub)
		}
	}
	return nil, false
}
