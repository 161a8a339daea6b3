package preview

import (
	"strings"
	"testing"
)

// TestCSSExactly: issue 13 item 6 — import conditions, inline <style>, style attributes,
// alternate and preload links, link attributes, and the external-import comment.
func TestCSSExactly(t *testing.T) {
	png := asset("img.png", "image/png", []byte{1, 2, 3})
	d := VirtualURL(png.Path) // the runtime serves it from the file table (design.md §5.26)
	files := []File{
		htmlFile("index.html", `<!doctype html><head>`+
			`<link id="theme" class="c" rel="stylesheet" href="main.css" media="screen" title="Main">`+
			`<link rel="alternate stylesheet" title="Dark" href="dark.css">`+
			`<link rel="preload" as="style" href="pre.css">`+
			`<style id="inl">@import "b.css"; p{background:url(img.png)}</style>`+
			`</head><body><div style="background-image:url('img.png')">x</div>`+
			`<img srcset="img.png 1x, missing.png 2x" src="."><picture><source srcset="img.png"></picture><video poster="img.png"></video></body>`),
		css("main.css", `@import url(b.css) layer(base); @import "c.css" supports(display: grid) screen; @import "e.css" layer; @import url(https://fonts.example/x.css); a{}`),
		css("b.css", `b{color:red}`), css("c.css", `c{color:red}`), css("e.css", `e{color:red}`),
		css("dark.css", `body{background:black}`), css("pre.css", `pre{color:red}`),
		png,
	}
	out := Compile(files, bridgeOpts).HTML
	for _, want := range []string{
		`<style id="theme" class="c" href="main.css" media="screen" title="Main" data-workspace-source="main.css" data-webcoding-style="0">`,
		"@layer base {\nb{color:red}\n}",
		"@supports (display: grid) {\n@media screen {\nc{color:red}\n}\n}",
		"@layer {\ne{color:red}\n}",
		`@import url(https://fonts.example/x.css);`,
		`<link rel="alternate stylesheet" title="Dark" href="data:text/css;charset=utf-8;base64,`,
		`<link rel="preload" as="style" href="data:text/css;charset=utf-8;base64,`,
		`<style id="inl" data-webcoding-style="1">b{color:red}`,
		`p{background:url("` + d + `")}</style>`,
		`<div style="background-image:url(&#34;` + d + `&#34;)">`,
		`<img srcset="` + d + ` 1x, https://workspace.invalid/missing.png 2x" src="https://workspace.invalid/">`,
		`<source srcset="` + d + `">`,
		`<video poster="` + d + `">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	if strings.Contains(out, "workspace @import: https://") {
		t.Error("a blocked https:// import is called a workspace @import")
	}
	if strings.Contains(out, "@media layer(") || strings.Contains(out, "@media supports(") {
		t.Error("import conditions compiled to a never-matching @media")
	}
	if strings.Contains(out, "pre{color:red}</style>") || strings.Contains(out, "<style data-workspace-source=\"dark.css\"") {
		t.Error("preload or alternate stylesheet applied as an always-on <style>")
	}
	if t.Failed() {
		t.Log(out)
	}
}

// TestRewrittenURLsDropIntegrity: a data: URL made from a workspace file is not the file's
// bytes (CSS inlined, sourceURL appended), so a subresource-integrity hash would block it.
func TestRewrittenURLsDropIntegrity(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<link rel="alternate stylesheet" href="a.css" integrity="sha384-x" title="A"><script src="d.js" defer integrity="sha384-y"></script>`),
		css("a.css", `a{}`), js("d.js", `1`),
	}
	out := withoutBridge(Compile(files, bridgeOpts).HTML)
	if strings.Contains(out, "integrity") {
		t.Errorf("integrity kept on a rewritten URL:\n%s", out)
	}
}
