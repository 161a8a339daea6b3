package previewc_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/wasm/preview"
)

// site is a small workspace: path → text.
type site map[string]string

func (s site) files() []preview.File {
	var out []preview.File
	for _, p := range sortedKeys(s) {
		lang := "text"
		switch {
		case strings.HasSuffix(p, ".html"):
			lang = preview.LangHTML
		case strings.HasSuffix(p, ".css"):
			lang = preview.LangCSS
		case strings.HasSuffix(p, ".js"):
			lang = preview.LangJS
		case strings.HasSuffix(p, ".json"):
			lang = "json"
		}
		out = append(out, preview.File{Path: p, Language: lang, Kind: preview.KindText, Source: s[p]})
	}
	return out
}

func sortedKeys(s site) []string {
	var k []string
	for p := range s {
		k = append(k, p)
	}
	for i := range k {
		for j := i + 1; j < len(k); j++ {
			if k[j] < k[i] {
				k[i], k[j] = k[j], k[i]
			}
		}
	}
	return k
}

// probe is page code: a log L, reported 50 ms after load — and after the page's dynamic
// import (window.P) settles, so the result does not depend on how fast a loaded machine
// fetches it — to the parent (preview) and in window.__probeDone (served over HTTP).
const probe = `<script>window.L=[];window.addEventListener("load",function(){L.push("load");setTimeout(function(){var done=function(){L=L.concat(window.D||[]);window.__probeDone=L;window["top"].postMessage({probe:L},"*")};Promise.resolve(window.P).then(done,done)},50)});document.addEventListener("DOMContentLoaded",function(){L.push("dcl")});</script>`

// overHTTP serves s on loopback and returns the page's log.
func overHTTP(t *testing.T, s site) []string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/")
		if p == "" {
			p = "index.html"
		}
		body, ok := s[p]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch {
		case strings.HasSuffix(p, ".html"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		case strings.HasSuffix(p, ".js"):
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		case strings.HasSuffix(p, ".json"):
			w.Header().Set("Content-Type", "application/json")
		case strings.HasSuffix(p, ".css"):
			w.Header().Set("Content-Type", "text/css")
		case strings.HasSuffix(p, ".png"):
			w.Header().Set("Content-Type", "image/png")
		}
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	tab := chromium.NewTab(t)
	if err := tab.Do(20*time.Second, chromedp.Navigate(srv.URL+"/index.html")); err != nil {
		t.Fatal(err)
	}
	got, err := chromium.WaitFor[[]string](tab, 15*time.Second, `window.__probeDone`)
	if err != nil {
		t.Fatalf("no probe over HTTP: %v; console: %v", err, tab.Console())
	}
	return got
}

// inPreview compiles s (bridge included) and returns the page's log from the sandboxed frame.
func inPreview(t *testing.T, s site) []string {
	t.Helper()
	r := preview.Compile(s.files(), preview.Options{Revision: 1, Nonce: "n", Bridge: true})
	return runInFrame(t, r.HTML)
}

// TestScriptTimingLikeHTTP: classic, defer, async-free module, inline module, a page import
// map, a JSON module and dynamic import() run in the browser's order in the preview (issue 13
// items 1 and 2).
func TestScriptTimingLikeHTTP(t *testing.T) {
	s := site{
		"index.html": `<!doctype html><html><head>` + probe +
			`<script type="importmap">{"imports":{"util":"./lib/util.js"}}</script>` +
			`<script src="d1.js" defer></script>` +
			`<script type="module" src="main.js"></script>` +
			`<script src="c.js"></script>` +
			`<script type="module">import {u} from "util"; L.push("inline-mod:"+u+":"+document.readyState)</script>` +
			`<script src="d2.js" defer></script>` +
			`</head><body><p id="b">x</p></body></html>`,
		"d1.js": `L.push("d1:"+!!document.getElementById("b")+":"+document.readyState)`,
		"d2.js": `L.push("d2")`,
		"c.js":  `L.push("c:"+!!document.getElementById("b"))`,
		"main.js": `import data from "./data.json" with {type: "json"};
import {u} from "./lib/util.js";
L.push("main:"+document.readyState+":"+data.v+":"+u+":"+new URL("x.png", import.meta.url).pathname);
document.addEventListener("DOMContentLoaded", () => L.push("main-dcl"));
window.P = import("./lib/dyn.js").then(m => { window.D = ["dyn:" + m.v]; });`,
		"lib/util.js": `export const u = "U";`,
		"lib/dyn.js":  `export const v = 9;`,
		"data.json":   `{"v": 7}`,
	}
	want := []string{"c:false", "d1:true:interactive", "main:interactive:7:U:/x.png", "inline-mod:U:interactive", "d2", "dcl", "main-dcl", "load", "dyn:9"}
	if got := overHTTP(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("over HTTP: %q, want %q (the test's expectation is wrong)", got, want)
	}
	if got := inPreview(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("in the preview: %q\nwant (as over HTTP): %q", got, want)
	}
}

// TestComputedDynamicImport: import(expr) with a computed relative specifier resolves against
// the importing module's location, as over HTTP.
func TestComputedDynamicImport(t *testing.T) {
	s := site{
		"index.html": `<!doctype html><html><head><script>window.L=[];</script><script type="module" src="js/main.js"></script></head><body></body></html>`,
		"js/main.js": "const name = 'b';\nconst report = () => { window.__probeDone = L; window['top'].postMessage({probe: L}, '*'); };\n" +
			"Promise.all([import(`./parts/${name}.js`), import('../top' + '.js')]).then(([m, n]) => { L.push('parts:' + m.v + ':' + n.v); report(); }, (e) => { L.push(String(e)); report(); });",
		"js/parts/b.js": `export const v = "B";`,
		"top.js":        `export const v = "T";`,
	}
	want := []string{"parts:B:T"}
	if got := overHTTP(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("over HTTP: %q, want %q (the test's expectation is wrong)", got, want)
	}
	if got := inPreview(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("in the preview: %q\nwant (as over HTTP): %q", got, want)
	}
}

// TestImportMapScopesLikeHTTP: the page import map's "scopes" give each module the file its
// scope names, as over HTTP (issue 13 item 6).
func TestImportMapScopesLikeHTTP(t *testing.T) {
	s := site{
		"index.html": `<!doctype html><html><head>` + probe +
			`<script type="importmap">{"imports":{"util":"./lib/util.js"},"scopes":{"/vendor/":{"util":"./vendor/util2.js"},"/vendor/one.js":{"util":"./lib/one.js"}}}</script>` +
			`<script type="module">import {u} from "util"; import a from "./vendor/a.js"; import o from "./vendor/one.js"; L.push("main:" + u + a + o);</script>` +
			`</head><body></body></html>`,
		"lib/util.js":     `export const u = "1";`,
		"lib/one.js":      `export const u = "4";`,
		"vendor/util2.js": `export const u = "2";`,
		"vendor/a.js":     `import {u} from "util"; export default u;`,
		"vendor/one.js":   `import {u} from "util"; export default u;`,
	}
	want := []string{"main:124", "dcl", "load"}
	if got := overHTTP(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("over HTTP: %q, want %q (the test's expectation is wrong)", got, want)
	}
	if got := inPreview(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("in the preview: %q\nwant (as over HTTP): %q", got, want)
	}
}
