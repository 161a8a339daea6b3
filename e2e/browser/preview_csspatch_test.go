package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

// The page of TestPreviewCSSEditInPlace: a linked sheet, an inline <style>, an input, a long
// body to scroll, a button that fetches styles.css at run time, and a token app.js draws per
// document (a remount draws a new one).
const patchPage = `<!doctype html><html><head><link rel=stylesheet href=styles.css><style>#box{width:10px}</style></head><body>
<input id=q><button id=f>fetch</button><pre id=out></pre><a id=about href=about.html>about</a><div id=box>box</div>
<div style="height:4000px"></div><p id=t>text</p><script src=app.js></script></body></html>`

const patchApp = `document.body.dataset.boot = String(Math.random());
var f = document.getElementById("f");
if (f) f.onclick = function () { fetch("styles.css").then(function (r) { return r.text(); }).then(function (t) { document.getElementById("out").textContent = t; }); };`

const patchAbout = `<!doctype html><html><head><link rel=stylesheet href=styles.css></head><body><input id=q><p id=t>about</p>
<script>document.body.dataset.boot = String(Math.random());</script></body></html>`

// frameState is what a remount loses: the page's scroll position, the input's value and the
// token the page's script drew, plus the computed colour of #t.
type frameState struct {
	Scroll float64 `json:"scroll"`
	Value  string  `json:"value"`
	Boot   string  `json:"boot"`
	Color  string  `json:"color"`
	Width  string  `json:"width"`
}

const frameStateExpr = `(() => ({scroll: scrollY, value: document.getElementById("q").value, boot: document.body.dataset.boot || "",
	color: getComputedStyle(document.getElementById("t")).color, width: (document.getElementById("box") ? getComputedStyle(document.getElementById("box")).width : "")}))()`

func readFrameState(t *testing.T, tab *chromium.Tab) frameState {
	t.Helper()
	st, err := chromium.EvalInFrame[frameState](tab, 5*time.Second, frameStateExpr)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// scrollAndType scrolls the preview page to y and types text into its input (focused in the
// frame, typed with Input.insertText as a user's IME would).
func scrollAndType(t *testing.T, tab *chromium.Tab, y int, text string) frameState {
	t.Helper()
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `(() => { const q = document.getElementById("q"); q.value = ""; q.focus(); return true; })()`); err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(5*time.Second, insertText(text)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, fmt.Sprintf(`(scrollTo(0, %d), true)`, y)); err != nil {
		t.Fatal(err)
	}
	st := readFrameState(t, tab)
	if st.Value != text {
		// The frame did not have the keyboard focus: give the input its value directly (what a
		// remount loses is the same).
		t.Logf("Input.insertText did not reach the frame's input (value %q); setting it", st.Value)
		_, _ = chromium.EvalInFrame[bool](tab, 5*time.Second, `(document.getElementById("q").value = `+jsString(text)+`, true)`)
		st = readFrameState(t, tab)
	}
	if st.Scroll != float64(y) || st.Value != text || st.Boot == "" {
		t.Fatalf("frame state before the edit: %+v", st)
	}
	return st
}

// writeAcked writes path through a tools/call (what a model's or the agent's edit does) and
// waits until the status line says its revision is acknowledged; it returns that revision.
func writeAcked(t *testing.T, tab *chromium.Tab, path, src string) int {
	t.Helper()
	res := toolCall(t, tab, "workspace.writeFile", `{"path":`+jsString(path)+`,"source":`+jsString(src)+`}`)
	if res["isError"] == true {
		t.Fatalf("write %s: %s", path, toJSON(res))
	}
	sc, _ := res["structuredContent"].(map[string]any)
	rev := int(sc["revision"].(float64))
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d acknowledged", rev))
	return rev
}

// lastMount is the shim's record of the last mount or patch (timings()).
func lastMount(t *testing.T, tab *chromium.Tab) map[string]any {
	t.Helper()
	m, err := chromium.Eval[map[string]any](tab, 5*time.Second, `(() => { const t = webcodingPreview.timings(); return t[t.length - 1]; })()`)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPreviewCSSEditInPlace (issue 20, design.md §5.33): with the page scrolled and text typed
// into its input, a CSS edit made through a tool call changes the computed style while the
// scroll position, the input's value and the script's state stay, the status line and
// preview.getStatus say the new revision is acknowledged, and fetch("styles.css") in the page
// reads the new text; an inline <style> edit of the page is applied in place too; a JS edit
// remounts (the typed value is gone); after the page navigated itself (location.reload()) a CSS
// edit remounts; after a workspace link (the parent mounts about.html) a CSS edit of the sheet
// both pages link is applied in place on about.html.
func TestPreviewCSSEditInPlace(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	for _, p := range []string{"app.js", "styles.css", "index.html"} { // restored in reverse order
		src := directCall(t, tab, "workspace.readFile", `{"path":"`+p+`"}`)["source"].(string)
		defer directCall(t, tab, "workspace.writeFile", `{"path":"`+p+`","source":`+jsString(src)+`}`)
	}
	directCall(t, tab, "workspace.createFile", `{"path":"about.html","source":`+jsString(patchAbout)+`}`)
	defer directCall(t, tab, "workspace.deleteFile", `{"path":"about.html"}`)
	writeAcked(t, tab, "app.js", patchApp)
	writeAcked(t, tab, "index.html", patchPage)
	writeAcked(t, tab, "styles.css", "#t { color: rgb(1, 2, 3); }")
	if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `getComputedStyle(document.getElementById("t")).color`, "rgb(1, 2, 3)"); err != nil {
		t.Fatal(err)
	}

	// A CSS file edited through a tool call: applied in place.
	before := scrollAndType(t, tab, 1500, "typed")
	start := time.Now()
	rev := writeAcked(t, tab, "styles.css", "#t { color: rgb(200, 0, 0); }")
	after := readFrameState(t, tab)
	t.Logf("CSS edit → status acknowledged in %v; %+v", time.Since(start).Round(time.Millisecond), after)
	if after.Color != "rgb(200, 0, 0)" || after.Scroll != before.Scroll || after.Value != "typed" || after.Boot != before.Boot {
		t.Fatalf("after the CSS edit: %+v (before %+v)", after, before)
	}
	if m := lastMount(t, tab); m["inPlace"] != true || m["ack"] == nil {
		t.Fatalf("the edit was not applied in place: %v", m)
	}
	if st := directCall(t, tab, "preview.getStatus", `{}`); st["status"] != "synced" || int(st["revision"].(float64)) != rev {
		t.Fatalf("preview.getStatus after the in-place edit: %s", toJSON(st))
	}
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `(document.getElementById("f").click(), true)`); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitInFrame[string](tab, 5*time.Second, `document.getElementById("out").textContent`, "#t { color: rgb(200, 0, 0); }"); err != nil {
		t.Fatalf("fetch(\"styles.css\") after the patch: %v", err)
	}

	// The page's own inline <style>: in place too (the fetched text above moved the scroll
	// anchor, so the position is compared with the one after it).
	mid := readFrameState(t, tab)
	writeAcked(t, tab, "index.html", strings.Replace(patchPage, "#box{width:10px}", "#box{width:30px}", 1))
	if st := readFrameState(t, tab); st.Width != "30px" || st.Value != "typed" || st.Boot != before.Boot || st.Scroll != mid.Scroll {
		t.Fatalf("after the inline <style> edit: %+v (before %+v)", st, mid)
	}
	if m := lastMount(t, tab); m["inPlace"] != true {
		t.Fatalf("the inline <style> edit was not applied in place: %v", m)
	}

	// A JS edit remounts: the typed value and the token are gone.
	writeAcked(t, tab, "app.js", patchApp+"\n// edited")
	if st := readFrameState(t, tab); st.Value != "" || st.Boot == before.Boot || st.Color != "rgb(200, 0, 0)" {
		t.Fatalf("after the JS edit (want a fresh document): %+v", st)
	}
	if m := lastMount(t, tab); m["inPlace"] == true {
		t.Fatalf("the JS edit was applied in place: %v", m)
	}

	// The page navigates itself (a reload the parent did not start): the next CSS edit remounts.
	scrollAndType(t, tab, 700, "again")
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `(setTimeout(() => location.reload(), 0), true)`); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#preview-status", "navigated away")
	writeAcked(t, tab, "styles.css", "#t { color: rgb(0, 0, 200); }")
	if m := lastMount(t, tab); m["inPlace"] == true {
		t.Fatalf("a CSS edit after the page navigated was applied in place: %v", m)
	}
	if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `getComputedStyle(document.getElementById("t")).color`, "rgb(0, 0, 200)"); err != nil {
		t.Fatal(err)
	}
	if st := readFrameState(t, tab); st.Value != "" || st.Scroll != 0 {
		t.Fatalf("after the CSS edit that remounted: %+v", st)
	}

	// A workspace link: the parent mounts about.html; an edit of the sheet both pages link is
	// applied in place on about.html.
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `(document.getElementById("about").click(), true)`); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#preview-status", "about.html")
	waitContains(t, tab, "#preview-status", "acknowledged")
	if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.getElementById("t").textContent`, "about"); err != nil {
		t.Fatal(err)
	}
	about := scrollAndType(t, tab, 0, "on about")
	writeAcked(t, tab, "styles.css", "#t { color: rgb(0, 128, 0); }")
	if st := readFrameState(t, tab); st.Color != "rgb(0, 128, 0)" || st.Value != "on about" || st.Boot != about.Boot {
		t.Fatalf("CSS edit on about.html: %+v (before %+v)", st, about)
	}
	if m := lastMount(t, tab); m["inPlace"] != true {
		t.Fatalf("the CSS edit on about.html remounted: %v", m)
	}
	noConsoleErrors(t, tab)
}

// TestPreviewCSSPatchRefused (design.md §5.33): where an in-place patch would leave text the
// frame shows stale or could hit the wrong element, the runtime refuses it and the revision is
// mounted in full (the typed value is gone, the new colour shows, the status says
// acknowledged): a page script that inserted a marked <style> before the compiler's, a theme
// switcher that swapped the sheet through href, and a page that added a <link> to a CSS file.
func TestPreviewCSSPatchRefused(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	for _, p := range []string{"app.js", "styles.css", "index.html"} { // restored in reverse order
		src := directCall(t, tab, "workspace.readFile", `{"path":"`+p+`"}`)["source"].(string)
		defer directCall(t, tab, "workspace.writeFile", `{"path":"`+p+`","source":`+jsString(src)+`}`)
	}
	directCall(t, tab, "workspace.createFile", `{"path":"dark.css","source":"#t { background: rgb(0, 0, 0); }"}`)
	defer directCall(t, tab, "workspace.deleteFile", `{"path":"dark.css"}`)
	writeAcked(t, tab, "app.js", patchApp)
	writeAcked(t, tab, "styles.css", "#t { color: rgb(1, 2, 3); }")
	for i, c := range []struct{ name, page, css string }{
		{"forged marker", strings.Replace(patchPage, "<link rel=stylesheet", `<script>var s = document.createElement("style"); s.setAttribute("data-webcoding-style", "0"); document.head.appendChild(s);</script><link rel=stylesheet`, 1), "styles.css"},
		{"theme swap", strings.Replace(patchPage, "<link rel=stylesheet", `<link id=theme rel=stylesheet`, 1) + `<script>document.getElementById("theme").href = "dark.css";</script>`, "dark.css"},
		{"link added by the page", patchPage + `<script>var l = document.createElement("link"); l.rel = "stylesheet"; l.href = "dark.css"; document.head.appendChild(l);</script>`, "dark.css"},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeAcked(t, tab, "index.html", c.page)
			before := scrollAndType(t, tab, 0, "typed")
			want := fmt.Sprintf("rgb(%d, 0, 0)", 100+i)
			writeAcked(t, tab, c.css, fmt.Sprintf("#t { color: %s; }", want))
			if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `getComputedStyle(document.getElementById("t")).color`, want); err != nil {
				t.Fatal(err)
			}
			st := readFrameState(t, tab)
			if st.Value != "" || st.Boot == before.Boot {
				t.Fatalf("the refused patch did not remount: %+v (before %+v)", st, before)
			}
			tm, err := chromium.Eval[[]map[string]any](tab, 5*time.Second, `webcodingPreview.timings().slice(-2)`)
			if err != nil || len(tm) != 2 || tm[0]["refused"] != true || tm[1]["inPlace"] == true {
				t.Fatalf("want a refused patch then a mount: %v %v", tm, err)
			}
		})
	}
}
