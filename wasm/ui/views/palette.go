package views

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// QuickOpenMatches ranks paths for q: name substring, path substring, then fuzzy (letters in
// order), each group in path order, at most limit items; an empty q lists every path.
func QuickOpenMatches(paths []string, q string, limit int) []PaletteItem {
	q = strings.ToLower(strings.TrimSpace(q))
	type scored struct {
		path  string
		score int
	}
	var hits []scored
	for _, p := range paths {
		lp := strings.ToLower(p)
		name := lp[strings.LastIndexByte(lp, '/')+1:]
		switch {
		case q == "":
			hits = append(hits, scored{p, 0})
		case strings.HasPrefix(name, q):
			hits = append(hits, scored{p, 0})
		case strings.Contains(name, q):
			hits = append(hits, scored{p, 1})
		case strings.Contains(lp, q):
			hits = append(hits, scored{p, 2})
		case Subsequence(lp, q):
			hits = append(hits, scored{p, 3})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score < hits[j].score
		}
		return hits[i].path < hits[j].path
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]PaletteItem, len(hits))
	for i, h := range hits {
		out[i] = PaletteItem{ID: "quick-open-option-" + strconv.Itoa(i), Path: h.path}
	}
	return out
}

// Subsequence reports whether the runes of q appear in s in order.
func Subsequence(s, q string) bool {
	for _, r := range q {
		i := strings.IndexRune(s, r)
		if i < 0 {
			return false
		}
		s = s[i+utf8.RuneLen(r):]
	}
	return true
}

// PreviewLine is the line trimmed and clipped to limit code points around the first match of
// needle (lower-case).
func PreviewLine(line, needle string, limit int) string {
	line = strings.TrimSpace(line)
	r := []rune(line)
	if len(r) <= limit {
		return line
	}
	at := utf8.RuneCountInString(line[:max(0, strings.Index(strings.ToLower(line), needle))])
	if strings.ToLower(line) != line && len(strings.ToLower(line)) != len(line) {
		at = 0 // lowering changed byte offsets: show the start
	}
	start := max(0, at-limit/3)
	end := min(len(r), start+limit)
	s := string(r[start:end])
	if start > 0 {
		s = "…" + s
	}
	if end < len(r) {
		s += "…"
	}
	return s
}
