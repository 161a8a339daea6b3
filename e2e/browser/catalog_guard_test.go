package browser

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestCatalogRunSampleGuards: Run sample refuses sample arguments that repeat a key
// ({"path":"index.html","path":"app.js"} used to run silently with app.js) before any call,
// and workspace.writeFile's generated sample — not destructive, but it overwrites index.html —
// asks "Run workspace.writeFile on the workspace?" naming the file; Cancel runs nothing.
func TestCatalogRunSampleGuards(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#inspector-tab-tools"))); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "catalog loaded", `!document.querySelector("#catalog-panel").hidden && !!document.querySelector("#catalog-tool-workspace-writeFile")`)
	orig := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"].(string)
	app := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	rev := directCall(t, tab, "workspace.getStatus", `{}`)["revision"]
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#catalog-tool-workspace-writeFile"))); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "writeFile sample", `document.querySelector("#catalog-sample").value.includes('"path"')`)
	time.Sleep(300 * time.Millisecond) // let the selection's reads settle
	rows := traceRowCount(t, tab)

	dup := `{"path":"index.html","path":"app.js","source":"duplicated"}`
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector("#catalog-sample"); s.value = `+jsString(dup)+`; s.dispatchEvent(new Event("input", {bubbles: true})); })()`),
		chromedp.Click(chromedp.CSS("#catalog-run"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#catalog-result", "repeats a key")
	if open, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector("#confirm-dialog").open`); open {
		t.Fatal("repeated keys reached the confirm dialog")
	}
	if n := traceRowCount(t, tab); n != rows {
		t.Fatalf("refused arguments made a call: %d trace rows, want %d", n, rows)
	}

	// The generated sample (index.html, "Sample text"): asks, names the file; Cancel runs nothing.
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector("#catalog-sample"); s.value = '{"path": "index.html", "source": "Sample text"}'; s.dispatchEvent(new Event("input", {bubbles: true})); })()`),
		chromedp.Click(chromedp.CSS("#catalog-run"))); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "confirm naming index.html", `document.querySelector("#confirm-dialog").open &&
		document.querySelector("#confirm-dialog-title").textContent === "Run workspace.writeFile on the workspace?" &&
		document.querySelector("#confirm-dialog-text").textContent.includes("existing file index.html")`)
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#confirm-dialog-cancel"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#catalog-result", "Not run")
	if n := traceRowCount(t, tab); n != rows {
		t.Fatalf("a cancelled Run sample made a call: %d trace rows, want %d", n, rows)
	}
	if src := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"]; src != orig {
		t.Fatal("index.html changed")
	}
	if src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"]; src != app {
		t.Fatal("app.js changed")
	}
	if after := directCall(t, tab, "workspace.getStatus", `{}`)["revision"]; after != rev {
		t.Fatalf("revision %v → %v", rev, after)
	}
	noConsoleErrors(t, tab)
}
