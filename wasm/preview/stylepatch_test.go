package preview

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// mountOpts are the options of two successive mounts (another revision, nonce and storage).
func mountOpts(rev int64) Options {
	v := strconv.FormatInt(rev, 10)
	return Options{Revision: rev, Nonce: "nonce-" + v, Bridge: true,
		Runtime: RuntimeConfig{Storage: &RuntimeStorage{Local: map[string]string{"visits": v}}}}
}

// TestRuntimeConfigLayoutIsMarshal: the config the compiler writes with its layout is byte for
// byte encoding/json's (what RuntimeScript embeds), keys with escapes included.
func TestRuntimeConfigLayoutIsMarshal(t *testing.T) {
	cfg := RuntimeConfig{Revision: 9, Nonce: "n", Entry: "a b/ü.html", Storage: &RuntimeStorage{Session: map[string]string{"k": "<v>"}},
		Files: map[string]RuntimeFile{
			"z.css": {Type: "text/css", Text: "a{}</style>"}, `q"<&>.txt`: {Type: "text/plain", Text: "\u2028"},
			"é.png": {Type: "image/png", B64: "iVA="}, "A.css": {Type: "text/css"},
		}, Sheets: 3, NotImported: map[string]string{"big.css": "too large"}}
	want, err := json.Marshal(runtimeWireOf(cfg))
	if err != nil {
		t.Fatal(err)
	}
	got, lay := runtimeConfigLayout(cfg)
	if got != string(want) {
		t.Fatalf("layout JSON differs:\n%s\n%s", got, want)
	}
	if RuntimeScript(cfg) != runtimeHead+got+runtimeTail {
		t.Fatal("RuntimeScript does not embed the same JSON")
	}
	for k, s := range lay.files {
		var f RuntimeFile
		if err := json.Unmarshal([]byte(got[s.start:s.end]), &f); err != nil || f != cfg.Files[k] {
			t.Errorf("span of %q holds %q", k, got[s.start:s.end])
		}
	}
}

// styleCase is a workspace before and after one edit, and the page mounted.
type styleCase struct {
	name        string
	before      []File
	after       []File
	page        string // Runtime.Entry ("" = index.html)
	want        bool
	wantStyles  []int    // indexes of the changed styles
	wantFiles   []string // file table entries updated
	afterOpts   func(*Options)
	beforeOpts  func(*Options)
	wantOldText string // Old of the first change, when set
}

func replaceFile(files []File, f File) []File {
	out := append([]File(nil), files...)
	for i := range out {
		if out[i].Path == f.Path {
			out[i] = f
			return out
		}
	}
	return append(out, f)
}

func TestStyleOnlyChange(t *testing.T) {
	png := asset("a.png", "image/png", []byte{1, 2, 3})
	base := []File{
		htmlFile("index.html", "<!doctype html><head><link rel=stylesheet href=main.css><style>p{color:red}</style>"+
			"<link rel=\"alternate stylesheet\" title=alt href=alt.css></head><body><input id=q><p>x</p><script src=app.js></script>"+
			"<script type=module>import s from './mod.css' with {type: 'css'}; document.adoptedStyleSheets = [s];</script>"),
		htmlFile("about.html", "<!doctype html><link rel=stylesheet href=main.css><p>about</p>"),
		css("main.css", `@import "b.css"; body{background:url(a.png)}`),
		css("b.css", `b{color:red}`),
		css("alt.css", `body{color:green}`),
		css("mod.css", `i{color:blue}`),
		css("unused.css", `u{}`),
		js("app.js", `console.log(1)`),
		{Path: "data.json", Language: "json", Kind: KindText, Source: `{"a":1}`},
		png,
	}
	cases := []styleCase{
		{name: "linked sheet", after: replaceFile(base, css("main.css", `@import "b.css"; body{background:url(a.png);color:red}`)),
			want: true, wantStyles: []int{0}, wantFiles: []string{"main.css"}},
		{name: "@import-inlined sheet", after: replaceFile(base, css("b.css", `b{color:blue}`)),
			want: true, wantStyles: []int{0}, wantFiles: []string{"b.css"}, wantOldText: "b{color:red}"},
		{name: "inline style in the page", after: replaceFile(base, htmlFile("index.html", strings.Replace(base[0].Source, "p{color:red}", "p{color:green}", 1))),
			want: true, wantStyles: []int{1}, wantFiles: []string{"index.html"}},
		{name: "sheet of several pages, shown on the other page", page: "about.html", after: replaceFile(base, css("main.css", `body{}`)),
			want: true, wantStyles: []int{0}, wantFiles: []string{"main.css"}},
		{name: "CSS file no page uses (file table only)", after: replaceFile(base, css("unused.css", `u{color:red}`)),
			want: true, wantStyles: nil, wantFiles: []string{"unused.css"}},
		{name: "identical files, another revision and storage", after: base, want: true},
		{name: "JavaScript", after: replaceFile(base, js("app.js", `console.log(2)`))},
		{name: "markup", after: replaceFile(base, htmlFile("index.html", strings.Replace(base[0].Source, "<p>x</p>", "<p>y</p>", 1)))},
		{name: "alternate stylesheet (data: URL)", after: replaceFile(base, css("alt.css", `body{color:red}`))},
		{name: "CSS module (import map data: URL)", after: replaceFile(base, css("mod.css", `i{color:red}`))},
		{name: "a style element added", after: replaceFile(base, htmlFile("index.html", strings.Replace(base[0].Source, "</head>", "<style>q{}</style></head>", 1)))},
		{name: "style attribute text", after: replaceFile(base, htmlFile("index.html", strings.Replace(base[0].Source, "<p>x</p>", `<p style="color:red">x</p>`, 1)))},
		{name: "asset", after: replaceFile(base, asset("a.png", "image/png", []byte{1, 2, 4}))},
		{name: "JSON file", after: replaceFile(base, File{Path: "data.json", Language: "json", Kind: KindText, Source: `{"a":2}`})},
		{name: "another page's HTML", after: replaceFile(base, htmlFile("about.html", "<!doctype html><link rel=stylesheet href=main.css><p>About</p>"))},
		{name: "a CSS file's media type", after: replaceFile(base, File{Path: "unused.css", Language: LangCSS, Kind: KindText, MimeType: "text/plain", Source: `u{}`})},
		{name: "a file added", after: append(append([]File(nil), base...), css("new.css", `n{}`))},
		{name: "another page", after: base, afterOpts: func(o *Options) { o.Runtime.Entry = "about.html" }},
		{name: "Allow internet", after: base, afterOpts: func(o *Options) { o.Runtime.AllowInternet = true }},
		{name: "hash", after: base, afterOpts: func(o *Options) { o.Runtime.Hash = "#x" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := base
			if c.before != nil {
				before = c.before
			}
			ob, oa := mountOpts(3), mountOpts(4)
			ob.Runtime.Entry, oa.Runtime.Entry = c.page, c.page
			if c.afterOpts != nil {
				c.afterOpts(&oa)
			}
			shown, next := Compile(before, ob), Compile(c.after, oa)
			patch, ok := StyleOnlyChange(shown, next)
			if ok != c.want {
				t.Fatalf("ok = %v, want %v (patch %+v)", ok, c.want, patch)
			}
			if !ok {
				return
			}
			checkPatch(t, shown, next, patch)
			var idx []int
			for _, s := range patch.Styles {
				idx = append(idx, s.Index)
			}
			if !reflect.DeepEqual(idx, c.wantStyles) {
				t.Errorf("styles %v, want %v", idx, c.wantStyles)
			}
			var paths []string
			for p := range patch.Files {
				paths = append(paths, p)
			}
			if len(paths) != len(c.wantFiles) || (len(paths) == 1 && paths[0] != c.wantFiles[0]) {
				t.Errorf("files %v, want %v", paths, c.wantFiles)
			}
			if c.wantOldText != "" && !strings.Contains(patch.Styles[0].Old, c.wantOldText) {
				t.Errorf("old text %q lacks %q", patch.Styles[0].Old, c.wantOldText)
			}
		})
	}
}

// TestStyleOnlyChangeNeedsLayout: the export, the waiting page and documents of other
// compilers are never patched.
func TestStyleOnlyChangeNeedsLayout(t *testing.T) {
	files := []File{htmlFile("index.html", "<style>a{}</style>")}
	if _, ok := StyleOnlyChange(Compile(files, Options{}), Compile(files, Options{})); ok {
		t.Error("export documents patched")
	}
	if _, ok := StyleOnlyChange(Compile(nil, mountOpts(1)), Compile(nil, mountOpts(2))); ok {
		t.Error("waiting page patched")
	}
	r := Compile(files, mountOpts(1))
	if _, ok := StyleOnlyChange(Result{HTML: r.HTML, Entry: r.Entry}, r); ok {
		t.Error("a Result without layout patched")
	}
}

// TestStyleMarkerNotForgedByMarkup: a page-written marker on a <style> is dropped (the
// first of duplicate attributes wins in HTML), and the marker of a linked sheet likewise.
func TestStyleMarkerNotForgedByMarkup(t *testing.T) {
	r := Compile([]File{
		htmlFile("index.html", `<style data-webcoding-style="7" id=a>a{}</style><link rel=stylesheet data-webcoding-style=9 href=s.css>`),
		css("s.css", "s{}"),
	}, mountOpts(1))
	for _, want := range []string{`<style id=a data-webcoding-style="0">a{}</style>`, `data-workspace-source="s.css" data-webcoding-style="1">s{}</style>`} {
		if !strings.Contains(r.HTML, want) {
			t.Errorf("no %s in %s", want, withoutBridge(r.HTML))
		}
	}
	if h := withoutBridge(r.HTML); strings.Contains(h, `"7"`) || strings.Contains(h, `=9`) {
		t.Errorf("page-written marker kept: %s", withoutBridge(r.HTML))
	}
}

func TestParsedStyleText(t *testing.T) {
	if got := ParsedStyleText("a\r\nb\rc\x00d"); got != "a\nb\nc\uFFFDd" {
		t.Errorf("got %q", got)
	}
}

// checkPatch is the oracle of StyleOnlyChange, independent of the compiler's layout: both
// documents parsed by x/net/html (the HTML parser), the runtime config decoded from the bridge
// script's text. Applying the patch to the shown document — each marked <style>'s text (which
// must equal Old) replaced by Text, the file table entries replaced — must give the new
// document, up to the per-mount revision, nonce and storage.
func checkPatch(t *testing.T, shown, next Result, patch StylePatch) {
	t.Helper()
	docA, errA := html.Parse(strings.NewReader(shown.HTML))
	docB, errB := html.Parse(strings.NewReader(next.HTML))
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	cfgA, cfgB := takeConfig(t, docA), takeConfig(t, docB)
	files, _ := cfgA["files"].(map[string]any)
	for p, text := range patch.Files {
		f, _ := files[p].(map[string]any)
		if f == nil {
			t.Fatalf("patch names %q, not in the file table", p)
		}
		if text == "" {
			delete(f, "text") // omitempty
		} else {
			f["text"] = text
		}
	}
	for _, c := range []map[string]any{cfgA, cfgB} {
		delete(c, "revision")
		delete(c, "nonce")
		delete(c, "storage")
	}
	if !reflect.DeepEqual(cfgA, cfgB) {
		ja, _ := json.Marshal(cfgA)
		jb, _ := json.Marshal(cfgB)
		t.Fatalf("runtime config after the patch differs:\n%.2000s\n%.2000s", ja, jb)
	}
	change := map[int]StyleChange{}
	for _, s := range patch.Styles {
		change[s.Index] = s
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "style" && n.Namespace == "" {
			for _, a := range n.Attr {
				if a.Key != StyleMarkerAttr {
					continue
				}
				k, _ := strconv.Atoi(a.Val)
				if s, ok := change[k]; ok {
					if got := styleTextOf(n); got != s.Old {
						t.Fatalf("style %d holds %q, the patch expects %q", k, got, s.Old)
					}
					for n.FirstChild != nil {
						n.RemoveChild(n.FirstChild)
					}
					if s.Text != "" {
						n.AppendChild(&html.Node{Type: html.TextNode, Data: s.Text})
					}
					delete(change, k)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(docA)
	if len(change) != 0 {
		t.Fatalf("changes for styles the shown document does not have: %v", change)
	}
	var ra, rb strings.Builder
	if err := html.Render(&ra, docA); err != nil {
		t.Fatal(err)
	}
	if err := html.Render(&rb, docB); err != nil {
		t.Fatal(err)
	}
	if ra.String() != rb.String() {
		t.Fatalf("patched document differs from the new one:\n%.3000s\n---\n%.3000s", ra.String(), rb.String())
	}
}

func styleTextOf(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// takeConfig removes the bridge script from doc and returns its decoded JSON config.
func takeConfig(t *testing.T, doc *html.Node) map[string]any {
	t.Helper()
	var found *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if found != nil {
			return
		}
		if n.Type == html.ElementNode && n.Data == "script" {
			for _, a := range n.Attr {
				if a.Key == BridgeAttr {
					found = n
					return
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if found == nil {
		t.Fatal("no bridge script")
	}
	text := styleTextOf(found)
	found.Parent.RemoveChild(found)
	if !strings.HasPrefix(text, runtimeHead) || !strings.HasSuffix(text, runtimeTail) {
		t.Fatal("bridge script is not the runtime")
	}
	var cfg map[string]any
	if err := json.Unmarshal([]byte(text[len(runtimeHead):len(text)-len(runtimeTail)]), &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// FuzzStyleOnlyChange: for two arbitrary workspaces (entry page, two stylesheets, a module),
// StyleOnlyChange never reports "style-only" unless applying its patch to the first document
// gives the second (checkPatch, through the HTML parser); and a change of only the CSS files
// of a page that links them is always style-only.
func FuzzStyleOnlyChange(f *testing.F) {
	page := `<!doctype html><head><link rel=stylesheet href=s.css><style>@import "t.css"; p{color:red}</style></head><body><script src=c.js></script>`
	f.Add(page, page, `a{}`, `a{color:red}`, `b{}`, `b{}`, `x()`, `x()`)
	f.Add(page, strings.Replace(page, "red", "blue", 1), `a{}`, `a{}`, `b{}`, `b{}`, `x()`, `x()`)
	f.Add(page, page, `a{}`, `a{}`, `b{}`, `b{}`, `x()`, `y()`)
	f.Add(page, page+"<style>q{}</style>", `a{}`, `a{}`, `b{}`, `b{}`, `x()`, `x()`)
	f.Add(`<style>a{}</style><p>x</p>`, `<style>a{}</style><p>y</p>`, ``, ``, ``, ``, ``, ``)
	f.Add(`<style>a</style>`, `<style>a</style ><style>`, ``, ``, ``, ``, ``, ``)
	f.Add(`<svg><style>a{}</style></svg><template><style>b{}</style></template><noscript><style>c{}</style></noscript>`,
		`<svg><style>a{x}</style></svg><template><style>b{y}</style></template><noscript><style>c{z}</style></noscript>`, ``, ``, ``, ``, ``, ``)
	f.Add(`<link rel="alternate stylesheet" href=s.css><link rel=stylesheet href=t.css>`, `<link rel="alternate stylesheet" href=s.css><link rel=stylesheet href=t.css>`, `a{}`, `a{}\r\n`, `@import "s.css";`, `@import "s.css";`, ``, ``)
	f.Add(`<style>a{}</style>`, `<style>a{}</style><!--`, "\x00", "\r", ``, ``, ``, ``)
	f.Fuzz(func(t *testing.T, pageA, pageB, sA, sB, tA, tB, mA, mB string) {
		files := func(page, s, tt, m string) []File {
			return []File{htmlFile("index.html", page), css("s.css", s), css("t.css", tt), js("c.js", m),
				asset("a.png", "image/png", []byte("png"))}
		}
		shown, next := Compile(files(pageA, sA, tA, mA), mountOpts(1)), Compile(files(pageB, sB, tB, mB), mountOpts(2))
		patch, ok := StyleOnlyChange(shown, next)
		if ok {
			checkPatch(t, shown, next, patch)
		}
		// Completeness on plain pages (no links, sources or scripts, which could name a
		// stylesheet in a way that is not inlined text): a change of only the stylesheets is
		// style-only.
		lower := strings.ToLower(pageA)
		plain := true
		for _, w := range []string{"rel", "src", "href", "script", "data", "url", "import", "webcoding"} {
			plain = plain && !strings.Contains(lower, w)
		}
		if pageA == pageB && mA == mB && plain && !ok {
			t.Fatalf("CSS-only edit not style-only: page %q", pageA)
		}
	})
}
