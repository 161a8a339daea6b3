package cssscan

import (
	"strings"
	"testing"
)

// FuzzScan: Scan never panics; references are in order, disjoint and inside the input, each
// span starts with "@import" or "url(" (any case) or is a string (in image-set()); Tail only
// closes comments and blocks; nothing is found inside a comment.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		`@import url("a.css") screen; @import 'b.css'; a{background:url(x.png)}`,
		`@import "a.css" x{}`, `url(`, `url("`, `@import url(`, `/*`, `a{b{c{`, `\`, `"\`,
		`@font-face{src:url(f.woff2) format("woff2")}`, `@import "x\` + "\n" + `";`,
		`a{background:image-set("a.png" 1x, url(b.png) 2x)}`, `a{b:-webkit-image-set('a.png' 1x} c{content:"x"}`, `image-set((("`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		res := Scan(src)
		last := 0
		for _, r := range res.Refs {
			if r.Start < last || r.End > len(src) || r.End <= r.Start {
				t.Fatalf("bad span %+v (last %d, len %d)", r, last, len(src))
			}
			text := strings.ToLower(src[r.Start:r.End])
			if (r.Kind == Import) != strings.HasPrefix(text, "@import") || (r.Kind == URL && !strings.HasPrefix(text, "url(") && text[0] != '"' && text[0] != '\'') {
				t.Fatalf("span %q does not match kind %d", text, r.Kind)
			}
			last = r.End
		}
		if strings.Trim(strings.TrimPrefix(res.Tail, "*/"), "}") != "" {
			t.Fatalf("tail %q", res.Tail)
		}
		if refs := Scan("/*" + strings.ReplaceAll(src, "*/", "") + "*/").Refs; len(refs) != 0 {
			t.Fatalf("found %d refs inside a comment", len(refs))
		}
	})
}
