package jsscan

import (
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	`import a from './a.js'; export * from "./b.js"; import('./c.js')`,
	"const t = `x ${ import('./d.js') } import './no.js'`",
	`const r = /import '.\/x'/; // import './y'`,
	`var s = "</script><!--<script>"; /(?<!--)x/; <!-- c`,
	"`${`${`${",
	`import {`, `import(`, `'\`, "/[/", "/*", "a\n-->x", `\u{`,
	"x = a </script/.test(b)",
}

// FuzzFindRefs: FindRefs never panics; references are in order, disjoint, lie inside the
// input and span terminated string literals; nothing is found inside a block comment.
func FuzzFindRefs(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		last := 0
		for _, r := range FindRefs(src) {
			if r.Start < last || r.End > len(src) || r.End-r.Start < 2 {
				t.Fatalf("bad span %+v (last %d, len %d)", r, last, len(src))
			}
			if q := src[r.Start]; q != r.Quote || (q != '"' && q != '\'') || src[r.End-1] != q {
				t.Fatalf("span %q is not a string literal", src[r.Start:r.End])
			}
			last = r.End
		}
		commented := "/*" + strings.ReplaceAll(src, "*/", "") + "*/"
		if refs := FindRefs(commented); len(refs) != 0 {
			t.Fatalf("found %d refs inside a comment", len(refs))
		}
	})
}

// FuzzEscapeClassicScript: the escaped text never contains "<!--" or "</script", a <script>
// element holding it ends exactly at the appended end tag (HTML script-data states), and safe
// text is returned unchanged.
func FuzzEscapeClassicScript(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out := EscapeClassicScript(src)
		if HasUnsafeSequence(out) {
			t.Fatalf("unsafe sequence left in %q", out)
		}
		if end := ScriptDataEnd(out + "</script>"); end != len(out) {
			t.Fatalf("element ends at %d, want %d: %q", end, len(out), out)
		}
		if !HasUnsafeSequence(src) && out != src {
			t.Fatalf("safe text changed: %q → %q", src, out)
		}
	})
}

// FuzzRewriteLocation: the rewrite never panics, its spans are disjoint, in order and inside
// the input, and the output lexes exactly like the input except that each replaced span is one
// identifier token: same kinds and texts elsewhere, so no string, comment, regex or template
// boundary moves.
func FuzzRewriteLocation(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, s := range []string{
		`location.href = "a.html"; window.location = 1 / location.x / 2`,
		"`${location}` + /location/.test(document.location) // location",
		`var location; self . location = {location}`, `a[location] = 1`, `x = location\n/re/g`,
		"class A { location = location; static { location } }", `location => (location, window) => {}`,
		`if (top != self) top.location = self.location; window.top.location.href; var self = this; self.top`,
	} {
		f.Add(s)
	}
	const name = "__webcodingLocation"
	f.Fuzz(func(t *testing.T, src string) {
		spans := FindLocationRefs(src)
		last := 0
		for _, sp := range spans {
			if sp[0] < last || sp[1] > len(src) || sp[1] <= sp[0] {
				t.Fatalf("bad span %v (last %d, len %d)", sp, last, len(src))
			}
			last = sp[1]
		}
		// The handler variant keeps a subset of the spans.
		k := 0
		for _, h := range FindHandlerLocationRefs(src) {
			for k < len(spans) && spans[k] != h {
				k++
			}
			if k == len(spans) {
				t.Fatalf("handler span %v is not a span of FindLocationRefs", h)
			}
		}
		verify := func(spans [][2]int, out string) {
			type tok struct {
				k Kind
				s string
			}
			lex := func(s string) []tok {
				var ts []tok
				lx := NewLexer(s)
				for {
					t, ok := lx.Next()
					if !ok {
						return ts
					}
					ts = append(ts, tok{t.Kind, s[t.Start:t.End]})
				}
			}
			// The input's tokens with each replaced span's tokens as one identifier.
			var want []tok
			lx, i := NewLexer(src), 0
			for {
				tk, ok := lx.Next()
				if !ok {
					break
				}
				for i < len(spans) && spans[i][1] <= tk.Start {
					i++
				}
				if i < len(spans) && tk.Start >= spans[i][0] && tk.End <= spans[i][1] {
					if tk.Start == spans[i][0] {
						want = append(want, tok{Ident, name})
					}
					continue
				}
				if i < len(spans) && tk.Start < spans[i][1] && tk.End > spans[i][0] {
					t.Fatalf("token %q straddles span %v", src[tk.Start:tk.End], spans[i])
				}
				want = append(want, tok{tk.Kind, src[tk.Start:tk.End]})
			}
			got := lex(out)
			if len(got) != len(want) {
				t.Fatalf("%d tokens, want %d\nin:  %q\nout: %q", len(got), len(want), src, out)
			}
			for j := range got {
				if got[j] != want[j] {
					t.Fatalf("token %d = %v, want %v\nin:  %q\nout: %q", j, got[j], want[j], src, out)
				}
			}
		}
		out, _ := RewriteLocation(src, name)
		verify(spans, out)
		// RewritePage: the Location's and top's spans together, disjoint and in order, with the
		// same lexing guarantee (one name for both, so the check above applies).
		var page [][2]int
		last = 0
		for _, sp := range findNameSpans(src, true) {
			if sp.start < last || sp.end > len(src) || sp.end <= sp.start {
				t.Fatalf("bad page span %v (last %d, len %d)", sp, last, len(src))
			}
			last = sp.end
			page = append(page, [2]int{sp.start, sp.end})
		}
		out, _ = RewritePage(src, name, name)
		verify(page, out)
	})
}
