package preview

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

var dataJSRE = regexp.MustCompile(`data:text/javascript;charset=utf-8;base64,([A-Za-z0-9+/=]+)`)

// pageCode is a compiled document without its runtime element, followed by the decoded text
// of every data: script URL in it (defer/async scripts, modules).
func pageCode(t *testing.T, doc string) string {
	t.Helper()
	start := strings.Index(doc, "<script "+BridgeAttr+">")
	if start < 0 {
		t.Fatal("no runtime element")
	}
	end := start + strings.Index(doc[start:], "</script>") + len("</script>")
	out := doc[:start] + doc[end:]
	for _, m := range dataJSRE.FindAllStringSubmatch(out, -1) {
		b, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatal(err)
		}
		out += "\n--- data: ---\n" + string(b)
	}
	return out
}

// TestLocationRewrite (design.md §5.34): every script the compiler emits — inline classic,
// external classic (inlined, or a data: URL with defer), inline and external modules and
// their imports, and event-handler attributes (HTML and SVG) — names the virtual Location in
// place of the page's; data blocks, scripts that declare `location`, and the export (no
// runtime) are left as written.
func TestLocationRewrite(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<!doctype html><title>t</title>
<script>location.href = "a.html"; var s = "location.href";</script>
<script src="app.js"></script><script src="late.js" defer></script>
<script type="module">import "./m.js"; window.location.assign("b.html");</script>
<script type="module" src="m2.js"></script>
<script type="text/plain">location.href = "data block"</script>
<script>var location = 1; location.x = 2; document.location.hash = "k";</script>
<button onclick="location.href='p2.html?a=1&amp;b=2'" title="location">go</button>
<img src="x.png" onerror="self.location.reload()">
<form><input name="location"><button onclick="alert(location.value); location.assign('f.html')">f</button></form>
<svg><circle onclick="location.reload()"/></svg>`),
		js("app.js", `window.location = "app.html";`),
		js("late.js", `location.replace("late.html");`),
		js("m.js", `import { f } from "./lib.js"; f(location.search);`),
		js("lib.js", `export function f(q) { globalThis.location.hash = q; }`),
		js("m2.js", `document.location.search = "?m2";`),
	}
	doc := Compile(files, bridgeOpts).HTML
	// The file table keeps the text as written and adds the rewritten one to run a <script src>
	// inserted at run time.
	if !strings.Contains(doc, `"app.js":{"type":"text/javascript; charset=utf-8","text":"window.location = \"app.html\";","run":"__webcodingLocation = \"app.html\";"}`) {
		t.Errorf("the file table lacks app.js's run text")
	}
	code := pageCode(t, doc)
	for _, want := range []string{
		`__webcodingLocation.href = "a.html"; var s = "location.href";`,
		`__webcodingLocation = "app.html";`,
		`__webcodingLocation.replace("late.html");`,
		`__webcodingLocation.assign("b.html");`,
		`f(__webcodingLocation.search);`,
		`__webcodingLocation.hash = q;`,
		`__webcodingLocation.search = "?m2";`,
		`location.href = "data block"`,
		`var location = 1; location.x = 2; __webcodingLocation.hash = "k";`,
		`onclick="__webcodingLocation.href=&#39;p2.html?a=1&amp;b=2&#39;" title="location"`,
		`onerror="__webcodingLocation.reload()"`,
		`<circle onclick="__webcodingLocation.reload()"`,
		`onclick="alert(location.value); __webcodingLocation.assign(&#39;f.html&#39;)"`,
	} {
		if !strings.Contains(code, want) {
			t.Errorf("compiled page lacks %q:\n%s", want, code)
		}
	}
	if strings.Contains(code, `location.href = "a.html"`) || strings.Contains(code, `window.location`) {
		t.Errorf("a reference to the real Location is left:\n%s", code)
	}
	// The export carries no runtime: nothing is rewritten.
	export := Compile(files, Options{}).HTML
	if strings.Contains(export, locationGlobal) || strings.Contains(export, `"run":`) || !strings.Contains(export, `onclick="location.href='p2.html?a=1&amp;b=2'"`) {
		t.Errorf("the export was rewritten:\n%s", export)
	}
}
