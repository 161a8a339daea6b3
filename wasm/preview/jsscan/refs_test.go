package jsscan

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func refValues(src string) []string {
	var out []string
	for _, r := range FindRefs(src) {
		if src[r.Start] != r.Quote || src[r.End-1] != r.Quote {
			panic("span does not cover the literal")
		}
		v := r.Value
		if r.Dynamic {
			v = "dyn:" + v
		}
		out = append(out, v)
	}
	return out
}

func TestFindRefs(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"default", `import a from './a.js';`, []string{"./a.js"}},
		{"named multi-line", "import {\n  a,\n  b as c,\n} from \"./b.js\"", []string{"./b.js"}},
		{"namespace", `import * as ns from '/ns.js'`, []string{"/ns.js"}},
		{"default and named", `import d, { e } from './de.js'`, []string{"./de.js"}},
		{"side effect", `import './side.js'`, []string{"./side.js"}},
		{"export star", `export * from './s.js'`, []string{"./s.js"}},
		{"export star as", `export * as x from './x.js'`, []string{"./x.js"}},
		{"export named", `export { a, b as default } from './n.js'`, []string{"./n.js"}},
		{"export local", `export { a }; export const b = 1;`, nil},
		{"dynamic", `const m = await import('./d.js')`, []string{"dyn:./d.js"}},
		{"dynamic options", `import("./o.js", { with: { type: "json" } })`, []string{"dyn:./o.js"}},
		{"dynamic computed", `import('./a' + b)`, nil},
		{"dynamic variable", `import(name)`, nil},
		{"import meta", `import.meta.url; import.meta.resolve('./x.js')`, nil},
		{"member", `obj.import('./x.js'); obj?.import('./y.js')`, nil},
		{"from as binding", `import from from './f.js'`, []string{"./f.js"}},
		{"string names", `import { "a-b" as ab } from './sn.js'`, []string{"./sn.js"}},
		{"attributes", `import j from './j.json' with { type: 'json' }`, []string{"./j.json"}},
		{"escapes", `import './a\x2ejs'; import "./\u0062.js"`, []string{"./a.js", "./b.js"}},
		{"in string", `const s = "import './no.js'"`, nil},
		{"in line comment", "// import './no.js'\nimport './yes.js'", []string{"./yes.js"}},
		{"in block comment", "/* export * from './no.js' */", nil},
		{"in regex", `const r = /import '.\/no.js'/g; import './yes.js'`, []string{"./yes.js"}},
		{"regex after paren", `if (x) y = /import('no')/; import('./yes.js')`, []string{"dyn:./yes.js"}},
		{"division", `const d = a / import_b / 2; import './yes.js'`, []string{"./yes.js"}},
		{"template text", "const t = `import './no.js'`", nil},
		{"template substitution", "const t = `a ${import('./yes.js')} import './no.js'`", []string{"dyn:./yes.js"}},
		{"nested template", "`${`${import('./deep.js')}`}` + `import './no.js'`", []string{"dyn:./deep.js"}},
		{"braces inside substitution", "`${ {a: import('./o.js')}.a } import './no.js'`", []string{"dyn:./o.js"}},
		{"unterminated string", "import './open.js\n", nil},
		{"html comment", "<!-- import './no.js'\nimport './yes.js'", []string{"./yes.js"}},
		{"html close comment", "x\n--> import './no.js'\nimport './yes.js'", []string{"./yes.js"}},
		{"object key", `const o = { import: './no.js' }`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, refValues(c.src)); diff != "" {
				t.Errorf("FindRefs(%q) (-want +got):\n%s", c.src, diff)
			}
		})
	}
}

func TestLexerDeepNesting(t *testing.T) {
	// 10,000 nested template substitutions and parentheses: no recursion, still finds the ref.
	src := strings.Repeat("`${", 10_000) + "import('./deep.js')" + strings.Repeat("}`", 10_000)
	if diff := cmp.Diff([]string{"dyn:./deep.js"}, refValues(src)); diff != "" {
		t.Error(diff)
	}
	src = strings.Repeat("(", 10_000) + "import('./p.js')" + strings.Repeat(")", 10_000)
	if diff := cmp.Diff([]string{"dyn:./p.js"}, refValues(src)); diff != "" {
		t.Error(diff)
	}
}

func TestLexerTokensCoverInput(t *testing.T) {
	src := "a = `x${ {b: /re[/]/g} }y` + 'q\\'r' /* c */ // d\n-1"
	lx := NewLexer(src)
	last := 0
	var kinds []Kind
	for {
		tok, ok := lx.Next()
		if !ok {
			break
		}
		if tok.Start < last || tok.End <= tok.Start || tok.End > len(src) {
			t.Fatalf("bad token %+v after %d", tok, last)
		}
		if strings.TrimSpace(src[last:tok.Start]) != "" {
			t.Fatalf("non-space gap %q", src[last:tok.Start])
		}
		kinds = append(kinds, tok.Kind)
		last = tok.End
	}
	want := []Kind{Ident, Punct, Template, Punct, Ident, Punct, Regex, Punct, Template, Punct, String, Comment, Comment, Punct, Number}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
}

func TestUnquote(t *testing.T) {
	cases := map[string]string{
		`plain`:      "plain",
		`a\nb`:       "a\nb",
		`\x41\u0042`: "AB",
		`\u{1F600}`:  "\U0001F600",
		`\'\"\\`:     `'"\`,
		"a\\\nb":     "ab",
		`\xZZ`:       "xZZ",
		`\u{110000}`: "u{110000}",
		`trailing\`:  `trailing\`,
	}
	for in, want := range cases {
		if got := Unquote(in); got != want {
			t.Errorf("Unquote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRefNames: the export names a static import or re-export takes from its module.
func TestRefNames(t *testing.T) {
	for src, want := range map[string][]string{
		`import x from "a"`: {"default"},
		`import x, {b, c as d, "e-f" as g, default as h} from "a"`: {"default", "b", "c", "e-f", "default"},
		`import * as ns from "a"`:                                  nil,
		`import x, * as y from "a"`:                                {"default"},
		`import "a"`:                                               nil,
		`export {a as b, c} from "a"`:                              {"a", "c"},
		`export * from "a"`:                                        nil,
		`import("a")`:                                              nil,
		`import {from} from "a"`:                                   {"from"},
	} {
		r := FindRefs(src)
		if len(r) != 1 || !slices.Equal(r[0].Names, want) {
			t.Errorf("%s: refs %+v, want names %q", src, r, want)
		}
	}
}
