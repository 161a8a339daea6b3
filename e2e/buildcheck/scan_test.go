package buildcheck

import (
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/scripts/verify-build/verify"
)

func urls(refs []verify.Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Kind+" "+r.URL)
	}
	return out
}

func TestHTMLRefs(t *testing.T) {
	doc := `<!doctype html><HTML><head>
<base href="/web-coding/">
<meta name="webcoding-wasm" content="assets/a.wasm">
<meta name="webcoding-axe" content="assets/axe.js">
<meta name="description" content="not a url">
<LINK REL=stylesheet HREF=assets/s.css>
<script src='assets/m.js' defer></script>
<script>const s = "<img src='x-in-script.png'>"; // </scr" + "ipt>
</script>
<style>/* url(in-comment.png) */ .a { background: URL( 'bg.png' ) } .b{mask:url(m.svg#x)}</style>
<!-- <img src="in-comment.png"> -->
<textarea><img src="in-textarea.png"></textarea>
</head><body>
<img srcset="one.png 1x,  two.png 2x" src="a&amp;b.png" alt='x > y'>
<a href="https://example.com/">out</a><a href="#top">top</a>
<div style="background:url(&quot;st.png&quot;)"></div>
<video poster=p.jpg></video><object data=o.svg></object>
<form action="/web-coding/submit"></form>
</body></HTML>`
	got := urls(verify.HTMLRefs([]byte(doc)))
	want := []string{
		"resource /web-coding/", "resource assets/a.wasm", "resource assets/axe.js", "resource assets/s.css", "resource assets/m.js",
		"resource bg.png", "resource m.svg#x",
		"resource one.png", "resource two.png", "resource a&b.png",
		"link https://example.com/", "link #top", "resource st.png",
		"resource p.jpg", "resource o.svg", "link /web-coding/submit",
	}
	if !slices.Equal(got, want) {
		t.Errorf("HTMLRefs:\n got %q\nwant %q", got, want)
	}
}

func TestCSSRefs(t *testing.T) {
	css := `@import "a.css"; @IMPORT url(b.css);
/* url(no.png) @import "no.css"; */
.x::before { content: "url(not-a-url.png)"; }
.y { background: url(  c\(1\).png  ), url("d \"q\".png"), url('e.png') ; }
.z { --u: myurl(f.png); }`
	got := verify.CSSRefs([]byte(css))
	want := []string{"a.css", "b.css", "c(1).png", `d "q".png`, "e.png"}
	if !slices.Equal(got, want) {
		t.Errorf("CSSRefs:\n got %q\nwant %q", got, want)
	}
}

func TestJSRefs(t *testing.T) {
	js := `import a from "./a.js"; import "./side.js"; export { b } from '../b.js';
import x from "bare-package"; const m = await import("./lazy.js");
navigator.serviceWorker.register("sw.js", { scope: "./" });
const ASSETS = ["./","assets/x.css"];`
	got := urls(verify.JSRefs([]byte(js)))
	want := []string{"resource ./a.js", "resource ./side.js", "resource ../b.js", "resource ./lazy.js",
		"page-resource sw.js", "resource ./", "resource assets/x.css"}
	if !slices.Equal(got, want) {
		t.Errorf("JSRefs:\n got %q\nwant %q", got, want)
	}
}

// FuzzHTMLRefs: the scanner never panics, and an <img src> carrying any (entity-escaped)
// value is found with exactly that value, wherever it is placed after arbitrary markup that
// leaves the tokenizer in the data state.
func FuzzHTMLRefs(f *testing.F) {
	f.Add("<p>hi</p>", "assets/a.png")
	f.Add("<!-- x -->", "https://example.com/x?a=1&b=2")
	f.Add("<script>1<2</script>", `a"b'c<d>`)
	f.Add("<div title='>'>", "")
	f.Fuzz(func(t *testing.T, prefix, src string) {
		_ = verify.HTMLRefs([]byte(prefix))
		_ = verify.CSSRefs([]byte(prefix))
		_ = verify.JSRefs([]byte(prefix))
		// Only prefixes that are plain text keep the tokenizer in the data state.
		if strings.ContainsAny(prefix, "<>&") {
			prefix = ""
		}
		doc := prefix + `<img alt="" src="` + html.EscapeString(src) + `">`
		refs := verify.HTMLRefs([]byte(doc))
		found := false
		for _, r := range refs {
			if r.URL == src && r.Where == "<img src>" {
				found = true
			}
		}
		if !found {
			t.Fatalf("HTMLRefs(%q) = %v, want a <img src> of %q", doc, refs, src)
		}
	})
}

// FuzzCSSRefs: a double-quoted url("…") with any value (quotes and backslashes escaped, no
// newlines) is found with exactly that value.
func FuzzCSSRefs(f *testing.F) {
	f.Add("a.png")
	f.Add(`we"ird\path.png`)
	f.Add("")
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsAny(v, "\n\r\f") {
			return
		}
		esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
		got := verify.CSSRefs([]byte(`.a{background:url("` + esc + `")}`))
		if len(got) != 1 || got[0] != v {
			t.Fatalf("CSSRefs for %q = %q", v, got)
		}
	})
}

// Regression (FuzzHTMLRefs): raw text with invalid UTF-8 made the case-insensitive search for
// the closing tag return an offset into a re-encoded string, and slicing the original panicked.
func TestHTMLRefsInvalidUTF8InRawText(t *testing.T) {
	doc := "<sCript>\xb6\xb6\xb6\xb6\xb6</sCript><img src=after.png><style>\xff{background:url(x.png)}</STYLE>"
	got := urls(verify.HTMLRefs([]byte(doc)))
	want := []string{"resource after.png", "resource x.png"}
	if !slices.Equal(got, want) {
		t.Errorf("HTMLRefs = %q, want %q", got, want)
	}
}
