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
