package preview

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/preview/jsscan"
)

func htmlFile(path, src string) File {
	return File{Path: path, Language: LangHTML, Kind: KindText, Source: src}
}
func css(path, src string) File {
	return File{Path: path, Language: LangCSS, Kind: KindText, Source: src}
}
func js(path, src string) File {
	return File{Path: path, Language: LangJS, Kind: KindText, Source: src}
}
func asset(path, mime string, data []byte) File {
	return File{Path: path, Kind: KindAsset, MimeType: mime, Data: data}
}

var bridgeOpts = Options{Revision: 4, Nonce: "nonce-1", Bridge: true}

func TestEntryChoice(t *testing.T) {
	files := []File{htmlFile("b.html", "<p>b</p>"), htmlFile("a.html", "<p>a</p>"), htmlFile("index.html", "<p>index</p>")}
	if r := Compile(files, bridgeOpts); r.Entry != "index.html" || !strings.Contains(r.HTML, "<p>index</p>") {
		t.Errorf("entry = %q", r.Entry)
	}
	if r := Compile(files[:2], bridgeOpts); r.Entry != "b.html" || !strings.Contains(r.HTML, "<p>b</p>") {
		t.Errorf("entry without index.html = %q, want the first html file b.html", r.Entry)
	}
	r := Compile([]File{css("a.css", "a{}"), {Path: "README.md", Language: "markdown", Kind: KindText}}, bridgeOpts)
	if r.Entry != "" || !strings.Contains(r.HTML, "Preview waiting") || !strings.Contains(r.HTML, "Add an HTML entry file") {
		t.Errorf("waiting page expected, got entry %q", r.Entry)
	}
	if strings.Count(r.HTML, BridgeAttr) != 1 || !strings.Contains(r.HTML, `"revision":4,"nonce":"nonce-1"`) {
		t.Error("waiting page must carry the bridge with revision and nonce")
	}
	if r.Diagnostics == nil || len(r.Diagnostics) != 0 {
		t.Errorf("waiting page diagnostics = %#v, want empty non-nil", r.Diagnostics)
	}
	if d := Diagnose(nil); d == nil || len(d) != 0 {
		t.Errorf("Diagnose(nil) = %#v", d)
	}
	noBridge := Compile(nil, Options{})
	if strings.Contains(noBridge.HTML, BridgeAttr) {
		t.Error("Bridge=false must not inject the bridge")
	}
}

func TestExport(t *testing.T) {
	if _, err := Export([]File{css("a.css", "")}); !errors.Is(err, ErrNoEntry) {
		t.Fatalf("err = %v, want ErrNoEntry", err)
	}
	files := []File{
		htmlFile("index.html", `<head><link rel=stylesheet href=s.css></head><img src=a.png><script src=app.js></script>`),
		css("s.css", `b{background:url(a.png)}`),
		js("app.js", `console.log(1)`),
		asset("a.png", "image/png", []byte{0x89, 'P'}),
	}
	out, err := Export(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<style data-workspace-source="s.css">b{background:url("data:image/png;base64,iVA=")}</style>`,
		`<img src="data:image/png;base64,iVA=">`,
		"<script>console.log(1)\n//# sourceURL=app.js\n</script>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, BridgeAttr) || strings.Contains(out, MessageReady) {
		t.Error("export must not carry the bridge")
	}
}

func TestAssetURLStrategy(t *testing.T) {
	var calls []string
	opts := bridgeOpts
	opts.AssetURL = func(f File) (string, bool) {
		calls = append(calls, f.Path)
		if f.Path == "no-url.png" {
			return "", false
		}
		return "blob:host/" + f.Path, true
	}
	files := []File{
		htmlFile("index.html", `<link rel=stylesheet href=s.css><img src=a.png><img src="./a.png"><img src=no-url.png><video poster=/a.png></video>`),
		css("s.css", `a{background:url(a.png)} b{background:url(no-url.png)}`),
		asset("a.png", "image/png", []byte("A")),
		asset("no-url.png", "image/png", []byte("B")),
	}
	r := Compile(files, opts)
	if len(calls) != 2 {
		t.Errorf("AssetURL calls = %v, want one per asset", calls)
	}
	if strings.Count(r.HTML, "blob:host/a.png") != 4 {
		t.Errorf("a.png not rewritten everywhere:\n%s", r.HTML)
	}
	if !strings.Contains(r.HTML, `<img src="https://workspace.invalid/no-url.png">`) || !strings.Contains(r.HTML, `url("https://workspace.invalid/no-url.png")`) {
		t.Errorf("an asset without URL must get its virtual URL in the preview:\n%s", r.HTML)
	}
}

func TestBridgeScript(t *testing.T) {
	s := BridgeScript(42, `</script><!--"'&`)
	body := strings.TrimSuffix(strings.TrimPrefix(s, "<script "+BridgeAttr+">"), "</script>")
	if jsscan.HasUnsafeSequence(body) {
		t.Fatalf("bridge body has an unsafe sequence: %s", body)
	}
	for _, want := range []string{
		`"revision":42`, `"nonce":"\u003c/script\u003e\u003c!--\"'\u0026"`,
		`"` + MessageHello + `"`, `"` + MessageReady + `"`, `"` + MessageError + `"`, `"` + MessageConsole + `"`,
		`"` + DefaultErrorMessage + `"`, `"` + DefaultRejectionMessage + `"`,
		`"error":240`, `"console":100`, `"text":500`, `"*"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("bridge lacks %s", want)
		}
	}
}

func TestStylesheetEscape(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<head><link rel=stylesheet href=s.css></head><body></body>`),
		css("s.css", `a::after{content:"</style><script>alert(1)</script>"} /* </STYLE > */`),
	}
	r := Compile(files, bridgeOpts)
	open := `<style href="s.css" data-workspace-source="s.css" data-webcoding-style="0">`
	i := strings.Index(r.HTML, open)
	if i < 0 {
		t.Fatalf("no %s in %s", open, withoutBridge(r.HTML))
	}
	end := strings.Index(strings.ToLower(r.HTML[i:]), "</style")
	if got := r.HTML[i+len(open) : i+end]; got != `a::after{content:"<\/style><script>alert(1)</script>"} /* <\/STYLE > */` {
		t.Errorf("style text = %q", got)
	}
}

// generatedScripts returns the bodies of the bridge and bootstrap scripts of doc.
func generatedScripts(doc string) []string {
	var out []string
	for _, open := range []string{"<script " + BridgeAttr + ">", "<script type=\"importmap\" " + ImportMapAttr + ">"} {
		for rest := doc; ; {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			rest = rest[i:]
			start := strings.IndexByte(rest, '>') + 1
			end := strings.Index(rest, "</script>")
			out = append(out, rest[start:end])
			rest = rest[end:]
		}
	}
	return out
}

func TestRobustness(t *testing.T) {
	bad := "\xff\xfe\xc3(\xe2\x82"
	deepHTML := strings.Repeat("<div>", 10_000) + "<img src=a.png>" + strings.Repeat("</div>", 10_000)
	deepCSS := strings.Repeat("a{", 10_000) + "b{background:url(a.png)}" + bad
	deepJS := strings.Repeat("`${", 10_000) + "import('./m.js')" + strings.Repeat("}`", 10_000)
	deepParens := strings.Repeat("(", 10_000) + bad + strings.Repeat(")", 10_000)
	hugeLine := strings.Repeat("var x = 1 < 2 && '</script>' + `<!--`; ", 50_000) // ~2 MB, one line
	var chain []File
	for i := 0; i < 10_000; i++ { // a 10,000-long module and @import chain
		chain = append(chain, js("chain/"+itoa(i)+".js", "import './"+itoa(i+1)+".js';"))
		chain = append(chain, css("chain/"+itoa(i)+".css", "@import '"+itoa(i+1)+".css';"))
	}
	files := append([]File{
		htmlFile("index.html", "<!doctype html><head><link rel=stylesheet href=deep.css><link rel=stylesheet href=chain/0.css></head><body>"+
			deepHTML+bad+"<script src=huge.js></script><script type=module src=deep.js></script>"+
			"<script type=module src=chain/0.js></script><script src=parens.js></script><script>"+bad+"</script></body>"),
		css("deep.css", deepCSS),
		js("deep.js", deepJS),
		js("m.js", bad),
		js("parens.js", deepParens),
		js("huge.js", hugeLine),
		asset("a.png", "image/png", []byte(bad)),
	}, chain...)
	r := Compile(files, bridgeOpts)
	if !utf8.ValidString(r.HTML) {
		t.Error("document is not valid UTF-8")
	}
	if strings.Count(r.HTML, BridgeAttr) != 1 {
		t.Errorf("bridge count = %d", strings.Count(r.HTML, BridgeAttr))
	}
	for _, s := range generatedScripts(r.HTML) {
		if jsscan.HasUnsafeSequence(s) {
			t.Fatal("generated script has an unsafe sequence")
		}
	}
	if !strings.Contains(r.HTML, "/* Skipped workspace @import limit at: 33.css */") {
		t.Error("the @import chain must stop at the limit")
	}
	limits := 0
	for _, d := range r.Diagnostics {
		if d.Kind == DiagModuleGraphLimit {
			limits++
		}
	}
	if limits != 1 {
		t.Errorf("module-graph-limit diagnostics = %d, want 1", limits)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestDeterministicAcrossInputOrderOfMaps(t *testing.T) {
	// Many assets and modules: output must not depend on map iteration.
	files := []File{htmlFile("index.html", "")}
	var page strings.Builder
	page.WriteString("<script type=module>")
	for i := 0; i < 40; i++ {
		n := itoa(i)
		files = append(files, asset("a"+n+".png", "image/png", []byte(n)), js("m"+n+".js", "export default "+n))
		page.WriteString("import './m" + n + ".js';")
	}
	page.WriteString("</script>")
	for i := 0; i < 40; i++ {
		page.WriteString("<img src=a" + itoa(i) + ".png>")
	}
	files[0].Source = page.String()
	first := Compile(files, bridgeOpts)
	for i := 0; i < 20; i++ {
		if again := Compile(files, bridgeOpts); again.HTML != first.HTML || len(again.Diagnostics) != len(first.Diagnostics) {
			t.Fatal("output differs between runs")
		}
	}
}

func TestInlineScriptEndsLikeABrowser(t *testing.T) {
	// After "<!--<script>" the first "</script>" does not end the element (double-escaped
	// state); the module source runs to the second one.
	page := `<head></head><script type="module">const s = "<!--<script>"; </script> still code; --></script><p>after</p>`
	r := Compile([]File{htmlFile("index.html", page)}, bridgeOpts)
	want := `const s = "<!--<script>"; </script> still code; -->` + "\n//# sourceURL=index.html\n</script>"
	if !strings.Contains(r.HTML, want) {
		t.Errorf("module source not taken up to the real end tag:\n%s", r.HTML)
	}
	if !strings.HasSuffix(r.HTML, "</script><p>after</p>") {
		t.Errorf("markup after the script lost:\n%s", r.HTML)
	}
}

func TestDiagnosticsOrderAndDedup(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<link rel=stylesheet href=a.css><img src=gone.png><script type=module>import './gone.js'; import 'lib'; import './gone.js'</script>`+
			`<script src=gone.js></script><link rel=stylesheet href=gone.css><link rel=stylesheet href=gone.css><img src=gone.png>`),
		css("a.css", `@import "b.css"; x{background:url(gone.png)}`),
		css("b.css", `@import "a.css"; @import "https://x.example/y.css"; y{background:url(https://x.example/ok.png)}`),
	}
	type d struct{ kind, source, message string }
	want := []d{
		{DiagMissingReference, "index.html", "Missing stylesheet: gone.css"},
		{DiagMissingReference, "index.html", "Missing script: gone.js"},
		{DiagMissingReference, "index.html", "Missing module import: ./gone.js"},
		{DiagUnsupportedModule, "index.html", "Bare module specifier is unavailable in the standalone preview: lib"},
		{DiagMissingReference, "index.html", "Missing asset: gone.png"},
		{DiagMissingReference, "a.css", "Missing asset: gone.png"},
		{DiagBlockedExternal, "b.css", "External stylesheet import is blocked in the sandbox: https://x.example/y.css"},
	}
	for _, got := range [][]Diagnostic{Diagnose(files), Compile(files, bridgeOpts).Diagnostics} {
		var g []d
		for _, x := range got {
			g = append(g, d{x.Kind, x.SourcePath, x.Message})
		}
		if len(g) != len(want) {
			t.Fatalf("got %d diagnostics, want %d:\n%v", len(g), len(want), g)
		}
		for i := range want {
			if g[i] != want[i] {
				t.Errorf("diagnostic %d = %v, want %v", i, g[i], want[i])
			}
		}
	}
}

func TestJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c", "<script>&</script>", "\x00\x1f\n\r\t\x7f", "\u2028\u2029é😀", "bad\xffutf8\xc3"} {
		want, _ := json.Marshal(s)
		if got := jsonString(s); got != string(want) {
			t.Errorf("jsonString(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestManyMarkupDeclarationsStayLinear(t *testing.T) {
	// 200,000 "<!x>" declarations and 100,000 unterminated url( / @import runs. A quadratic
	// scan here once took minutes (caught by the test timeout); the output must still be a
	// document with its bridge first (the declarations are bogus comments, not a doctype), and
	// the stylesheet text kept.
	page := strings.Repeat("<!x>", 200_000) + "<head></head>"
	sheet := strings.Repeat("url(", 100_000) + strings.Repeat("@import ", 100_000)
	r := Compile([]File{htmlFile("index.html", page+"<link rel=stylesheet href=s.css>"), css("s.css", sheet)}, bridgeOpts)
	if strings.Count(r.HTML, BridgeAttr) != 1 || !strings.HasPrefix(r.HTML, policyMeta(false)+"<script "+BridgeAttr+">") {
		t.Fatal("bridge missing or misplaced")
	}
	if !strings.Contains(r.HTML, sheet) {
		t.Fatal("stylesheet text changed")
	}
}

func TestEntryDiagnostic(t *testing.T) {
	if _, ok := EntryDiagnostic("index.html"); ok {
		t.Error("index.html got an entry warning")
	}
	if _, ok := EntryDiagnostic(""); ok {
		t.Error("the waiting page got an entry warning")
	}
	files := []File{{Path: "x/other.html", Language: LangHTML, Kind: KindText}}
	r := Compile(files, Options{})
	d, ok := EntryDiagnostic(r.Entry)
	if !ok || d.Kind != DiagEntryFallback || d.SourcePath != "x/other.html" || !strings.Contains(d.Message, "Previewing x/other.html") {
		t.Errorf("EntryDiagnostic(%q) = %+v, %v", r.Entry, d, ok)
	}
	for _, got := range r.Diagnostics {
		if got.Kind == DiagEntryFallback {
			t.Error("Compile's diagnostics include the entry warning (REFERENCE §5.4 output changed)")
		}
	}
}

// A meta refresh never reaches the compiled document: the preview's CSP cannot stop a
// navigation, so a refresh to another site would leave the sandbox (a new user's finding).
// One to another site is reported as blocked; one to nothing as not run; one to a workspace
// URL has no diagnostic: the runtime follows it (RuntimeConfig.Refresh, TestFidelity/meta-refresh).
func TestMetaRefreshDropped(t *testing.T) {
	for _, tc := range []struct{ content, kind string }{
		{"0;url=https://example.com/", DiagBlockedExternal},
		{"0; URL='http://127.0.0.1:9/x'", DiagBlockedExternal},
		{"5", DiagUnsupportedRefresh},
		{"1;url=about.html", ""},
	} {
		src := `<!doctype html><html><head><meta http-equiv="Refresh" content="` + tc.content + `"><title>r</title></head><body>x</body></html>`
		r := Compile([]File{htmlFile("index.html", src), htmlFile("about.html", "<p>a</p>")}, bridgeOpts)
		if strings.Contains(strings.ToLower(r.HTML), `http-equiv="refresh"`) {
			t.Errorf("%q: the refresh is in the compiled document", tc.content)
		}
		found := false
		for _, d := range r.Diagnostics {
			found = found || d.Kind == tc.kind
		}
		if tc.kind == "" && len(r.Diagnostics) > 0 {
			t.Errorf("%q: diagnostics %+v, want none", tc.content, r.Diagnostics)
		}
		if tc.kind != "" && !found {
			t.Errorf("%q: diagnostics %+v, want one of kind %s", tc.content, r.Diagnostics, tc.kind)
		}
		if want := strings.Contains(r.HTML, `"refresh":{"seconds":1,"url":"about.html"}`); want != (tc.kind == "") {
			t.Errorf("%q: runtime refresh in the config = %v", tc.content, want)
		}
	}
}

// TestParseRefresh: the content forms of the HTML standard's declarative refresh.
func TestParseRefresh(t *testing.T) {
	for _, tc := range []struct {
		in     string
		sec    int
		target string
		ok     bool
	}{
		{"0; url=docs/index.html", 0, "docs/index.html", true},
		{"3;URL='a.html?x=1#t'", 3, "a.html?x=1#t", true},
		{" 2 , \"b.html\" ", 2, "b.html", true},
		{"1.5 c.html", 1, "c.html", true},
		{".5;url=d.html", 0, "d.html", true},
		{"10", 10, "", true},
		{"99999999999999; url=e.html", 86400, "e.html", true},
		{"url=f.html", 0, "", false},
		{"", 0, "", false},
	} {
		sec, target, ok := parseRefresh(tc.in)
		if sec != tc.sec || target != tc.target || ok != tc.ok {
			t.Errorf("parseRefresh(%q) = %d, %q, %v; want %d, %q, %v", tc.in, sec, target, ok, tc.sec, tc.target, tc.ok)
		}
	}
}

// TestInlineScriptLinesAreTheHTMLFiles (new-user test of issue 17): a stack frame of an inline
// script, classic or module, names the HTML file and the line there — the script's text starts
// on its HTML line and the script ends with the HTML file's sourceURL.
func TestInlineScriptLinesAreTheHTMLFiles(t *testing.T) {
	var page strings.Builder
	page.WriteString("<!doctype html>\n<head><title>t</title></head>\n<body>\n")
	for i := 4; i <= 20; i++ {
		page.WriteString("<p>line</p>\n")
	}
	page.WriteString("<script>\nconsole.log(\"inline log\");\ninlineMissing();\n</script>\n" +
		"<script type=\"module\">\nconsole.warn(\"mod warn\");\nPromise.reject(new Error(\"rej\"));\n</script>\n" +
		"<script type=\"text/template\">\nkept</script>\n")
	r := Compile([]File{htmlFile("index.html", page.String())}, bridgeOpts)
	// lineIn is the 1-based line of needle within the text of the script element holding it.
	lineIn := func(needle string) (int, string) {
		i := strings.Index(r.HTML, needle)
		if i < 0 {
			t.Fatalf("%q missing:\n%s", needle, r.HTML)
		}
		start := strings.LastIndex(r.HTML[:i], ">") + 1
		end := strings.Index(r.HTML[i:], "</script>") + i
		return strings.Count(r.HTML[start:i], "\n") + 1, r.HTML[i:end]
	}
	// Each needle ends with a real newline: the runtime's file table holds the same text
	// JSON-escaped ("\\n").
	for needle, want := range map[string]int{"console.log(\"inline log\");\n": 22, "inlineMissing();\n": 23,
		"console.warn(\"mod warn\");\n": 26, "Promise.reject(new Error(\"rej\"));\n": 27} {
		got, rest := lineIn(needle)
		if got != want {
			t.Errorf("%s at script line %d, want the HTML line %d", needle, got, want)
		}
		if !strings.HasSuffix(rest, "\n//# sourceURL=index.html\n") {
			t.Errorf("%s: script does not end with the HTML file's sourceURL: %q", needle, rest)
		}
	}
	if !strings.Contains(r.HTML, "<script type=\"text/template\">\nkept</script>") {
		t.Errorf("a data block must stay as written:\n%s", r.HTML)
	}
}

// TestClassicScriptSrcMarked (issue 13): in the preview every classic <script src> whose src
// the compiler changed carries ScriptSrcAttr with the src as written (a page-written copy
// dropped, so the compiler's is the only one); a missing script or stylesheet is kept with its
// virtual URL and still diagnosed; a data: src stays as written; the export has no marker and
// keeps a missing reference as written.
func TestClassicScriptSrcMarked(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<link rel="stylesheet" href="css/gone.css" onerror="x()">`+
			`<script src="js/a.js?v=1" data-x="1" data-webcoding-script-src="forged"></script>`+
			`<script src="./js/a.js" defer></script>`+
			`<script src="js/gone.js" onerror="y()"></script>`+
			`<script src="data:text/javascript,1"></script>`+
			`<script src="#"></script>`),
		js("js/a.js", `var a = 1;`),
	}
	r := Compile(files, bridgeOpts)
	for _, want := range []string{
		`<link rel="stylesheet" href="https://workspace.invalid/css/gone.css" onerror="x()">`,
		`<script data-x="1" ` + ScriptSrcAttr + `="js/a.js?v=1">var a = 1;`,
		`defer ` + ScriptSrcAttr + `="./js/a.js"></script>`,
		`<script src="https://workspace.invalid/js/gone.js" onerror="y()" ` + ScriptSrcAttr + `="js/gone.js"></script>`,
		`<script src="data:text/javascript,1"></script>`,
	} {
		if !strings.Contains(r.HTML, want) {
			t.Errorf("preview lacks %s", want)
		}
	}
	// The page's markup after the runtime (whose file table holds the page's own text).
	body := r.HTML[strings.Index(r.HTML, `"tailLen":`):]
	body = body[strings.Index(body, "</script>"):]
	if strings.Contains(body, "forged") || strings.Contains(body, `<script src="#">`) {
		t.Error("a page-written marker or a fragment-only src was kept")
	}
	if i := strings.Index(r.HTML, `defer `+ScriptSrcAttr); i < 0 || !strings.Contains(r.HTML[strings.LastIndex(r.HTML[:i], "<script"):i], `src="data:text/javascript;charset=utf-8;base64,`) {
		t.Error("the defer script is not a data: URL")
	}
	missing := map[string]bool{}
	for _, d := range r.Diagnostics {
		missing[d.RequestedPath] = d.Kind == DiagMissingReference
	}
	if !missing["css/gone.css"] || !missing["js/gone.js"] {
		t.Errorf("missing diagnostics: %+v", r.Diagnostics)
	}
	ex := Compile(files, Options{})
	if strings.Contains(ex.HTML, "data-webcoding-script-src=\"js") || !strings.Contains(ex.HTML, `<script src="js/gone.js" onerror="y()"></script>`) || !strings.Contains(ex.HTML, `<link rel="stylesheet" href="css/gone.css" onerror="x()">`) {
		t.Errorf("export: %s", ex.HTML)
	}
}
