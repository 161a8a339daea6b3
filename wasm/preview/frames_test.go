package preview

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// configOf decodes the runtime config the compiled document carries.
func configOf(t testing.TB, doc string) runtimeWire {
	t.Helper()
	i := strings.Index(doc, runtimeHead)
	if i < 0 {
		t.Fatal("no runtime in the document")
	}
	rest := doc[i+len(runtimeHead):]
	j := strings.Index(rest, runtimeTail+"</script>")
	if j < 0 {
		t.Fatal("runtime without its tail")
	}
	var w runtimeWire
	if err := json.Unmarshal([]byte(rest[:j]), &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestFramePagesCompiled: a static <iframe src> naming a workspace page keeps its src as
// written, gets srcdoc="" and the marker, and the page is compiled once into the config's
// pages, resolved against its own path (stylesheet inlined, image as its virtual URL, script
// inlined with its Location rewritten), without a runtime; the asset is in the document once.
func TestFramePagesCompiled(t *testing.T) {
	png := []byte("\x89PNG-the-image-bytes")
	files := []File{
		htmlFile("index.html", `<!doctype html><img src="img/a.png"><iframe id="w" src="widgets/w.html?x=1#top" title="w"></iframe><iframe src="widgets/w.html"></iframe>`),
		htmlFile("widgets/w.html", `<!doctype html><link rel="stylesheet" href="w.css"><img src="../img/a.png"><script src="w.js"></script>`),
		css("widgets/w.css", `body{background:url(../img/a.png)}`),
		js("widgets/w.js", `console.log(location.search)`),
		asset("img/a.png", "image/png", png),
	}
	doc := Compile(files, Options{Revision: 1, Nonce: "n", Bridge: true}).HTML
	if want := `<iframe id="w" src="widgets/w.html?x=1#top" title="w" srcdoc="" ` + FrameMarkerAttr + `>`; !strings.Contains(doc, want) {
		t.Errorf("iframe not rewritten to %s:\n%s", want, doc)
	}
	if n := strings.Count(doc, base64.StdEncoding.EncodeToString(png)); n != 1 {
		t.Errorf("the asset is %d times in the document, want once", n)
	}
	w := configOf(t, doc)
	if len(w.Pages) != 1 {
		t.Fatalf("pages %v, want widgets/w.html only", w.Pages)
	}
	p := w.Pages["widgets/w.html"]
	nested := p.Head + "<script>RUNTIME</script>" + p.Body
	for _, want := range []string{`data-workspace-source="widgets/w.css"`, `url("https://workspace.invalid/img/a.png")`, `<img src="https://workspace.invalid/img/a.png">`, locationGlobal + `.search`, "//# sourceURL=widgets/w.js"} {
		if !strings.Contains(nested, want) {
			t.Errorf("nested page lacks %q:\n%s", want, nested)
		}
	}
	if strings.Contains(nested, BridgeAttr) || strings.Contains(nested, "\"nonce\"") || strings.Contains(p.Head, "<script") {
		t.Errorf("nested page carries a runtime or a script before it:\n%s", nested)
	}
	if w.HeadLen != len(runtimeHead) || w.TailLen != len(runtimeTail) || w.FrameAttr != FrameMarkerAttr {
		t.Errorf("wire constants %d %d %q", w.HeadLen, w.TailLen, w.FrameAttr)
	}
	// The export has no runtime to fill frames: the iframe stays as written.
	exp, _ := Export(files)
	if !strings.Contains(exp, `<iframe id="w" src="widgets/w.html?x=1#top" title="w"></iframe>`) {
		t.Errorf("export changed the iframe:\n%s", exp)
	}
}

// TestFramePagesNotTaken: frames the runtime must not fill keep their markup: an iframe with
// its own srcdoc, one naming another site, a non-page file or no file. A page in a frame of
// itself is compiled once, as browsers show it once (the frame inside it stays empty: the
// runtime's rule, e2e/fidelity TestFrameLimits).
func TestFramePagesNotTaken(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<iframe src="w.html" srcdoc="<p>own</p>"></iframe><iframe src="https://e.example/x.html"></iframe><iframe src="doc.txt"></iframe><iframe src="gone.html"></iframe><iframe src="index.html"></iframe>`),
		htmlFile("w.html", `<p>w</p>`),
		{Path: "doc.txt", Kind: KindText, Language: "text", Source: "x"},
	}
	doc := Compile(files, Options{Revision: 1, Nonce: "n", Bridge: true}).HTML
	markup := doc[strings.LastIndex(doc, "</script>"):]
	want := `<iframe src="https://workspace.invalid/w.html" srcdoc="<p>own</p>"></iframe><iframe src="https://e.example/x.html"></iframe>` +
		`<iframe src="https://workspace.invalid/doc.txt"></iframe><iframe src="https://workspace.invalid/gone.html"></iframe><iframe src="index.html" srcdoc="" ` + FrameMarkerAttr + `></iframe>`
	if !strings.Contains(markup, want) {
		t.Errorf("frames: got\n%s\nwant\n%s", markup, want)
	}
	if w := configOf(t, doc); len(w.Pages) != 1 || w.Pages["index.html"].Body == "" {
		t.Errorf("pages %v, want only index.html (the page in a frame of itself)", w.Pages)
	}
}

// TestFramePagesBounded: pages are compiled breadth first, each once, down to MaxFrameDepth
// levels and at most MaxFramePages; pages a framed page links to are compiled too (its frame
// may show them next); the compile of a page framed many times is done once.
func TestFramePagesBounded(t *testing.T) {
	chain := []File{
		htmlFile("index.html", `<iframe src="d1.html"></iframe>`),
		htmlFile("d1.html", `<iframe src="d2.html"></iframe><a href="l1.html">l</a>`),
		htmlFile("d2.html", `<iframe src="d3.html"></iframe>`),
		htmlFile("d3.html", `<iframe src="d4.html"></iframe>`),
		htmlFile("d4.html", `<p>4</p>`),
		htmlFile("l1.html", `<p>linked</p>`),
	}
	w := configOf(t, Compile(chain, Options{Revision: 1, Nonce: "n", Bridge: true}).HTML)
	var got []string
	for k := range w.Pages {
		got = append(got, k)
	}
	for _, want := range []string{"d1.html", "d2.html", "d3.html", "l1.html"} {
		if _, ok := w.Pages[want]; !ok {
			t.Errorf("%s not compiled (pages %v)", want, got)
		}
	}
	if _, ok := w.Pages["d4.html"]; ok {
		t.Errorf("d4.html compiled beyond depth %d", MaxFrameDepth)
	}

	var many strings.Builder
	files := []File{}
	for i := 0; i < 3*MaxFramePages; i++ {
		name := "p" + strconv.Itoa(i) + ".html"
		for k := 0; k < 5; k++ { // each page framed five times
			many.WriteString(`<iframe src="` + name + `"></iframe>`)
		}
		files = append(files, htmlFile(name, `<p>`+name+`</p>`))
	}
	files = append([]File{htmlFile("index.html", many.String())}, files...)
	w = configOf(t, Compile(files, Options{Revision: 1, Nonce: "n", Bridge: true}).HTML)
	if len(w.Pages) != MaxFramePages {
		t.Errorf("%d pages compiled, want %d", len(w.Pages), MaxFramePages)
	}
	for i := 0; i < MaxFramePages; i++ {
		if _, ok := w.Pages["p"+strconv.Itoa(i)+".html"]; !ok {
			t.Errorf("the first-named page p%d.html is not compiled", i)
		}
	}
}

// FuzzFramePage: for any framed page, the compile is deterministic and the nested document
// (head + the runtime + body) has the runtime as its first script as a spec-conformant tree
// builder finds it (the nested runtime runs before any of the page's code, as the bridge
// does in the preview document).
func FuzzFramePage(f *testing.F) {
	for _, s := range []string{
		`<!doctype html><svg><style><script>1</script></style></svg>`,
		`<script type=module>import "./c.js"</script><iframe src="w.html"></iframe>`,
		"\ufeff<!--x--><!DOCTYPE html><table><svg><title><script>1</script>",
		`<base href="sub/"><link rel=stylesheet href=s.css><a href="w.html">x</a>`,
		`<noscript><script>1</script></noscript><plaintext><script>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		if strings.Contains(page, BridgeAttr) {
			return
		}
		files := []File{htmlFile("index.html", `<iframe src="w.html"></iframe>`), htmlFile("w.html", page), js("c.js", "1"), css("s.css", "p{}")}
		opts := Options{Revision: 1, Nonce: "n", Bridge: true}
		doc := Compile(files, opts).HTML
		if again := Compile(files, opts).HTML; again != doc {
			t.Fatal("not deterministic")
		}
		p, ok := configOf(t, doc).Pages["w.html"]
		if !ok {
			t.Fatal("the framed page is not compiled")
		}
		nested := p.Head + "<script " + BridgeAttr + ">1</script>" + p.Body
		if n := firstScript(nested); !isBridge(n) {
			t.Fatalf("the nested runtime is not the first script:\n%s", nested)
		}
	})
}

// TestFrameTagKeepsSrcInMarker: a static <frame> naming a workspace page loses its src (the
// browser would request it from the studio's address) and keeps it, as written and escaped,
// as the marker's value — also when self-closed; its page is compiled for frames. A <frame>
// naming no workspace page is left as written. (docs/design.md §5.48)
func TestFrameTagKeepsSrcInMarker(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<!doctype html><html><head></head><frameset cols="1,*"><frame name="l" src="a b/l.html?x=1&amp;y=&quot;2&quot;"><frame src="r.html" name="r"/><frame src="about:blank" name="m"></frameset></html>`),
		htmlFile("a b/l.html", `<!doctype html><p>l`),
		htmlFile("r.html", `<!doctype html><p>r`),
	}
	doc := Compile(files, Options{Revision: 1, Nonce: "n", Bridge: true}).HTML
	for _, want := range []string{
		`<frame name="l" ` + FrameMarkerAttr + `="a b/l.html?x=1&amp;y=&#34;2&#34;">`,
		`<frame name="r" ` + FrameMarkerAttr + `="r.html"/>`,
		`<frame src="about:blank" name="m">`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("document lacks %s:\n%s", want, doc[strings.Index(doc, "<frameset"):])
		}
	}
	w := configOf(t, doc)
	if _, ok := w.Pages["a b/l.html"]; !ok || len(w.Pages) != 2 {
		t.Errorf("pages %v, want a b/l.html and r.html", w.Pages)
	}
}

// TestFramePagesQuirks: a page compiled for a frame carries the mode it is laid out in when
// served (NestedPage.Quirks, docs/design.md §5.54), so the runtime loads a quirks-mode one from
// a blob: URL; a page with a doctype is not marked.
func TestFramePagesQuirks(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<!doctype html><iframe src="old.html"></iframe><iframe src="new.html"></iframe><iframe src="legacy.html"></iframe>`),
		htmlFile("old.html", `<html><body><p>no doctype`),
		htmlFile("new.html", `<!doctype html><p>standards`),
		htmlFile("legacy.html", `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>legacy`),
	}
	w := configOf(t, Compile(files, Options{Revision: 1, Nonce: "n", Bridge: true}).HTML)
	for p, want := range map[string]bool{"old.html": true, "new.html": false, "legacy.html": true} {
		page, ok := w.Pages[p]
		if !ok {
			t.Fatalf("%s not compiled for a frame: %v", p, w.Pages)
		}
		if page.Quirks != want {
			t.Errorf("%s: Quirks %v, want %v", p, page.Quirks, want)
		}
	}
}
