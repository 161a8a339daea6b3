package preview

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/preview/jsscan"
)

// FuzzCompile drives the HTML rewriter with an arbitrary entry document, stylesheet and
// module. Invariants: no panic; byte-identical output for identical input; valid UTF-8;
// exactly one bridge script (when the inputs do not spell its marker themselves) and none
// without Bridge; generated scripts never contain "<!--" or "</script"; Diagnose agrees with
// Compile.
func FuzzCompile(f *testing.F) {
	f.Add(`<!doctype html><head><link rel=stylesheet href=s.css></head><body><script src=c.js></script><script type=module src=m.js></script><img src=a.png></body>`,
		`@import "t.css" print; a{background:url(a.png)}`, `import './m.js'; import('x'); export * from "https://e/x.js"`)
	f.Add(`<html><body><script type="module">import a from './m.js'</script>`, `@import url(s.css);`, "`${import('./c.js')}`")
	f.Add(`<head`, `url(`, `import`)
	f.Add(`<!-- <head> --><script>`+"\xff"+`</script><body>`, `</style>`, `"</script><!--"`)
	f.Add(`<img src="a%20b.png" data=x poster=/a.png><link href=s.css?x><script src='c.js' async></script><plaintext><head>`, `@import "../s.css"`, `import "/m.js"`)
	f.Add(`<!doctype html><script type=importmap>{"imports":{"x":"./m.js","y/":"./"}}</script><style>@import "s.css" layer(a) supports(display:grid) print;p{background:url(a.png)}</style><img srcset="a.png 1x,, c.js 2x" style="background:url(a.png)"><link rel="alternate stylesheet" id=t href=s.css><script src=c.js defer></script><script type=module>import "x"; import "y/c.js"; new URL("a.png", import.meta.url)</script>`,
		`@import url(t.css) layer; @import "https://e/x.css" screen;`, `import d from "./s.css" with {type:"css"}; import.meta.url`)
	// design.md §5.26: <base>, SVG sprites, legacy background, image-set(), external links.
	f.Add(`<base href="sub/"><base href=/x/><link rel=stylesheet href="https://e/x.css"><svg><use href="a.png#h"/><use xlink:href="/a.png"/><image href=../a.png /></svg><table background=a.png><td background="a.png"><iframe src=s.css></iframe><object data=a.png></object>`,
		`p{background:image-set("a.png" 1x, url(a.png) 2x);mask:url(#m)} q{background:-webkit-image-set('a.png' 1x}`, `import "./m.js"`)
	f.Fuzz(func(t *testing.T, page, sheet, module string) {
		files := []File{
			htmlFile("index.html", page),
			css("s.css", sheet),
			css("t.css", "@import 's.css';"+sheet),
			js("m.js", module),
			js("c.js", module),
			asset("a.png", "image/png", []byte(sheet)),
		}
		opts := Options{Revision: 1, Nonce: "n", Bridge: true}
		r := Compile(files, opts)
		if again := Compile(files, opts); again.HTML != r.HTML {
			t.Fatal("not deterministic")
		}
		if !utf8.ValidString(r.HTML) {
			t.Fatal("invalid UTF-8 in the document")
		}
		inputs := page + sheet + module
		if !strings.Contains(inputs, BridgeAttr) {
			if n := strings.Count(r.HTML, BridgeAttr); n != 1 {
				t.Fatalf("%d bridge scripts", n)
			}
			if strings.Contains(Compile(files, Options{}).HTML, BridgeAttr) {
				t.Fatal("bridge injected without Bridge")
			}
		}
		if !strings.Contains(inputs, ImportMapAttr) && !strings.Contains(inputs, BridgeAttr) {
			for _, s := range generatedScripts(r.HTML) {
				if jsscan.HasUnsafeSequence(s) {
					t.Fatalf("generated script with an unsafe sequence: %q", s)
				}
			}
		}
		if !equalDiags(Diagnose(files), r.Diagnostics) {
			t.Fatal("Diagnose differs from Compile")
		}
	})
}

// FuzzBridgeFirst: for any entry document, the tokens cover the input exactly, and the bridge
// is the first script element that a spec-conformant tree builder (golang.org/x/net/html)
// finds in the compiled document, an HTML script element (issue 13 item 8).
func FuzzBridgeFirst(f *testing.F) {
	for _, s := range []string{
		`<!doctype html><svg><style><script>1</script></style></svg>`,
		`<math><mi><style><script>1</script></style></mi></math>`,
		"\ufeff<!--x--><!DOCTYPE html><table><svg><title><script>1</script>",
		`<svg><foreignObject><style></style></foreignObject><desc><script>`,
		`<select><svg><style><script>1</script>`,
		`<template><svg><style><script>1</script></style></svg></template><script>2</script>`,
		`<svg><![CDATA[</svg><script>1</script>]]>`,
		`<noscript><script>1</script></noscript><plaintext><script>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		if strings.Contains(page, BridgeAttr) {
			return
		}
		toks, _ := tokenize(page)
		pos := 0
		for _, tk := range toks {
			if tk.start != pos || tk.end < tk.start {
				t.Fatalf("token %+v does not continue at %d", tk, pos)
			}
			pos = tk.end
		}
		if pos != len(page) {
			t.Fatalf("tokens cover %d of %d bytes", pos, len(page))
		}
		out := Compile([]File{htmlFile("index.html", page), js("c.js", "1")}, Options{Revision: 1, Nonce: "n", Bridge: true}).HTML
		if n := firstScript(out); !isBridge(n) {
			t.Fatalf("first script is not the bridge:\n%s", out)
		}
	})
}
