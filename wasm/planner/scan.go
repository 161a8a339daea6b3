package planner

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// pathExtensions are the extensions a path token may end with (REFERENCE §7.1), lower case.
var pathExtensions = map[string]bool{
	"html": true, "htm": true, "css": true, "js": true, "mjs": true, "json": true,
	"md": true, "txt": true, "ts": true, "tsx": true, "jsx": true,
}

// isSegmentByte reports whether b may appear in a path segment: [A-Za-z0-9_.-].
func isSegmentByte(b byte) bool {
	return isWordByte(b) || b == '.' || b == '-'
}

// isWordByte reports whether b is an ASCII word character [A-Za-z0-9_], the class behind the
// original's `\b`.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

// pathToken is one path-like token found in a prompt: text[start:end].
type pathToken struct {
	start, end int
}

// findPathTokens returns, left to right and without overlap, every token of s shaped like
// `dir/name.ext` (REFERENCE §7.1): zero or more non-empty segments of [A-Za-z0-9_.-] each
// followed by "/", then a final segment with at least one character before ".ext", where ext
// is one of pathExtensions (case-insensitive) and is not followed by an ASCII word character.
// Among the matches starting at the leftmost possible position the longest is taken (the
// original's greedy regular expression). Tokens that contain a ".." segment are dropped:
// the planner never proposes a path that climbs out of the workspace.
//
// The scan is linear in len(s).
func findPathTokens(s string) []pathToken {
	var out []pathToken
	for i := 0; i < len(s); {
		if !isSegmentByte(s[i]) && s[i] != '/' {
			i++
			continue
		}
		// A run of path bytes starts at i; tokens never cross its end.
		runEnd := i
		for runEnd < len(s) && (isSegmentByte(s[runEnd]) || s[runEnd] == '/') {
			runEnd++
		}
		out = scanRun(s, i, runEnd, out)
		i = runEnd
	}
	return out
}

// scanRun appends the tokens found in s[from:to], a run of segment bytes and slashes.
func scanRun(s string, from, to int, out []pathToken) []pathToken {
	pos := from
	for pos < to {
		start, end, ok := firstInRun(s, pos, to)
		if !ok {
			return out
		}
		if !hasParentSegment(s[start:end]) {
			out = append(out, pathToken{start, end})
		}
		pos = end
	}
	return out
}

// firstInRun finds the leftmost-longest token in s[from:to]. Empty segments ("//" or a
// leading "/") split the run into chains; a chain that has no match from its first byte has
// none from any later byte either, so each chain is examined once.
func firstInRun(s string, from, to int) (start, end int, ok bool) {
	chainStart := from
	for chainStart < to {
		if s[chainStart] == '/' {
			chainStart++
			continue
		}
		// Collect the chain's segments: [segStart, segEnd) pairs up to an empty segment or to.
		var segs [][2]int
		p := chainStart
		for p < to {
			q := p
			for q < to && s[q] != '/' {
				q++
			}
			if q == p {
				break // empty segment ends the chain
			}
			segs = append(segs, [2]int{p, q})
			if q == to {
				p = to
				break
			}
			p = q + 1 // past the slash
		}
		// Greedy: as many leading directory segments as possible.
		for k := len(segs) - 1; k >= 0; k-- {
			if e, found := lastExtensionEnd(s, segs[k][0], segs[k][1]); found {
				return chainStart, e, true
			}
		}
		if p <= chainStart {
			p = chainStart + 1
		}
		chainStart = p
	}
	return 0, 0, false
}

// lastExtensionEnd returns the end of the longest prefix of the segment s[a:b] that ends with
// ".ext" (at least one byte before the dot) where ext is a known extension followed by a
// non-word byte or the segment end.
func lastExtensionEnd(s string, a, b int) (int, bool) {
	for dot := b - 1; dot > a; dot-- {
		if s[dot] != '.' {
			continue
		}
		e := dot + 1
		for e < b && isWordByte(s[e]) {
			e++
		}
		if e > dot+1 && pathExtensions[strings.ToLower(s[dot+1:e])] {
			return e, true
		}
	}
	return 0, false
}

// hasParentSegment reports whether path has a ".." segment (separators "/" and "\").
func hasParentSegment(path string) bool {
	for _, seg := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
	}
	return false
}

// quoteKind tells which quotation marks delimited a quoted value.
type quoteKind uint8

const (
	quoteDouble quoteKind = iota // "…" or “…” (mixed pairs accepted, as in the original)
	quoteSingle                  // '…' with word boundaries, so apostrophes are not quotes
	quoteCorner                  // 「…」
)

// quoted is one quoted span of a prompt: prompt[start:end] including the marks, and the
// trimmed text between them.
type quoted struct {
	start, end int
	kind       quoteKind
	value      string
}

// findQuoted scans prompt left to right for quoted values (REFERENCE §7.1):
//   - double: opened by `"` or `“`, closed by the next `"` or `”`;
//   - corner: 「…」;
//   - single: '…' where the opening mark is not preceded by a letter or digit and the closing
//     mark is not followed by one (so "it's" and "don't" are apostrophes, not quotes).
//
// An opening mark with no closing mark, or with nothing between the marks, is plain text.
// Quotes do not nest: marks inside a quoted value are part of the value.
func findQuoted(prompt string) []quoted {
	isDoubleClose := func(c rune, _ int) bool { return c == '"' || c == '”' }
	isCornerClose := func(c rune, _ int) bool { return c == '」' }
	isSingleClose := func(c rune, at int) bool {
		if c != '\'' {
			return false
		}
		next, _ := utf8.DecodeRuneInString(prompt[at+1:])
		return at+1 >= len(prompt) || !isLetterOrDigit(next)
	}
	closers := [3]closer{{is: isDoubleClose}, {is: isSingleClose}, {is: isCornerClose}}

	var out []quoted
	prev := rune(-1)
	for i := 0; i < len(prompt); {
		r, size := utf8.DecodeRuneInString(prompt[i:])
		kind, opens := quoteKind(0), true
		switch {
		case r == '"' || r == '“':
			kind = quoteDouble
		case r == '「':
			kind = quoteCorner
		case r == '\'' && !isLetterOrDigit(prev):
			kind = quoteSingle
		default:
			opens = false
		}
		if opens {
			closeAt, closeSize, found := closers[kind].find(prompt, i+size)
			if found && closeAt > i+size {
				out = append(out, quoted{
					start: i,
					end:   closeAt + closeSize,
					kind:  kind,
					value: strings.TrimSpace(prompt[i+size : closeAt]),
				})
				i = closeAt + closeSize
				prev, _ = utf8.DecodeLastRuneInString(prompt[:i])
				continue
			}
		}
		prev = r
		i += size
	}
	return out
}

// closer finds closing marks of one quote kind. Searches arrive with non-decreasing start
// offsets, so the last answer is reused: the first closing mark at or after an earlier
// start that is still at or after the new start is also the first one after it, and a
// search that found nothing finds nothing later either. This keeps findQuoted linear.
type closer struct {
	is       func(r rune, at int) bool
	searched bool
	from     int
	at, size int
	found    bool
}

// find returns the byte offset and size of the first rune at or after from in s that is a
// closing mark.
func (c *closer) find(s string, from int) (int, int, bool) {
	if c.searched && from >= c.from && (!c.found || c.at >= from) {
		return c.at, c.size, c.found
	}
	c.searched, c.from, c.found = true, from, false
	for j := from; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		if c.is(r, j) {
			c.at, c.size, c.found = j, size, true
			break
		}
		j += size
	}
	return c.at, c.size, c.found
}

func isLetterOrDigit(r rune) bool {
	return r >= 0 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
