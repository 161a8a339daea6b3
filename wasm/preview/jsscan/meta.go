package jsscan

// FindImportMetaURL returns the byte spans [start, end) of every `import.meta.url` member
// expression in src that the lexer attributes to code (whitespace and comments between the
// parts allowed), in source order. A property access `x.import.meta.url` and longer names
// (`import.meta.urls`) are not matches. Time and memory are linear in len(src).
func FindImportMetaURL(src string) [][2]int { return FindImportMeta(src, "url") }

// FindImportMetaResolve is FindImportMetaURL for `import.meta.resolve` (the function itself,
// whether called or only read, as in `import.meta.resolve ? import.meta.resolve(x) : …`).
func FindImportMetaResolve(src string) [][2]int { return FindImportMeta(src, "resolve") }

// FindImportMeta returns the spans of every `import.meta.<prop>` member expression, as
// FindImportMetaURL does for "url".
func FindImportMeta(src, prop string) [][2]int {
	var out [][2]int
	lx := NewLexer(src)
	want := [...]string{"import", ".", "meta", ".", prop}
	var prev Token
	matched, start := 0, 0
	for {
		t, ok := lx.Next()
		if !ok {
			return out
		}
		if t.Kind == Comment {
			continue
		}
		text := src[t.Start:t.End]
		isPart := func(i int) bool {
			if i%2 == 1 {
				return t.Kind == Punct && text == want[i]
			}
			return t.Kind == Ident && text == want[i]
		}
		switch {
		case matched > 0 && isPart(matched):
			matched++
		case isPart(0) && !isMemberDot(src, prev):
			matched, start = 1, t.Start
		default:
			matched = 0
		}
		if matched == len(want) {
			out = append(out, [2]int{start, t.End})
			matched = 0
		}
		prev = t
	}
}
