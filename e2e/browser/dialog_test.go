package browser

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
)

func click(t *testing.T, tab *chromium.Tab, sel string) {
	t.Helper()
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

func waitDialog(t *testing.T, tab *chromium.Tab, open bool) {
	t.Helper()
	want := "true"
	if !open {
		want = "false"
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `document.querySelector("#file-dialog").open === `+want); err != nil {
		t.Fatalf("dialog open=%s: %v", want, err)
	}
}

func hasFile(t *testing.T, tab *chromium.Tab, path string, want bool) {
	t.Helper()
	expr := `!!document.querySelector('[aria-label="Open ` + path + `"]') === ` + map[bool]string{true: "true", false: "false"}[want]
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, expr); err != nil {
		t.Fatalf("file %s present=%v: %v", path, want, err)
	}
}

// TestFileDialogs: New file, Rename and Delete go through an in-app modal dialog (Escape
// cancels and returns focus) and then through their tools.
func TestFileDialogs(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	name := "notes/todo-" + time.Now().Format("150405.000") + ".md"
	renamed := "notes/done-" + time.Now().Format("150405.000") + ".md"

	click(t, tab, `[aria-label="Create new workspace file"]`)
	waitDialog(t, tab, true)
	if focused, _ := chromium.Eval[string](tab, 5*time.Second, `document.activeElement.id`); focused != "file-dialog-input" {
		t.Errorf("focus in the new file dialog is on %q", focused)
	}
	if err := tab.Do(10*time.Second, chromedp.KeyEvent(name), chromedp.Click(chromedp.CSS("#file-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	waitDialog(t, tab, false)
	hasFile(t, tab, name, true)

	click(t, tab, `[aria-label="Rename `+name+`"]`)
	waitDialog(t, tab, true)
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#file-dialog-input").value`); v != name {
		t.Errorf("rename dialog prefilled with %q", v)
	}
	if err := tab.Do(10*time.Second, chromedp.SetValue(chromedp.CSS("#file-dialog-input"), renamed), chromedp.Click(chromedp.CSS("#file-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	hasFile(t, tab, renamed, true)
	hasFile(t, tab, name, false)

	// Escape cancels the delete dialog; nothing is deleted and focus returns to the opener.
	del := `[aria-label="Delete ` + renamed + `"]`
	click(t, tab, del)
	waitDialog(t, tab, true)
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitDialog(t, tab, false)
	hasFile(t, tab, renamed, true)
	if ok, _ := chromium.Eval[bool](tab, 5*time.Second, `document.activeElement === document.querySelector(`+jsString(del)+`)`); !ok {
		t.Error("focus did not return to the Delete button after Escape")
	}
	click(t, tab, del)
	waitDialog(t, tab, true)
	click(t, tab, "#file-dialog-ok")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `!document.querySelector('[aria-label="Open `+renamed+`"]')`); err != nil {
		tr, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#transcript").textContent`)
		files, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#file-list").textContent + " | " + document.querySelector("#studio-status").textContent + " | " + document.querySelector("#storage-mode").textContent`)
		t.Fatalf("not deleted: %v; transcript: %s; files: %s; console: %v", err, tr, files, tab.Console())
	}
	noConsoleErrors(t, tab)
}

// TestPreviewFullScreen: the toggle shows the preview over the whole window; Escape leaves it.
func TestPreviewFullScreen(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	click(t, tab, "#fullscreen-toggle")
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#preview-panel").getBoundingClientRect().width === window.innerWidth && document.querySelector("#fullscreen-toggle").getAttribute("aria-pressed") === "true"`); err != nil {
		t.Fatalf("full screen did not fill the window: %v", err)
	}
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#preview-panel").getBoundingClientRect().width < window.innerWidth && document.querySelector("#fullscreen-toggle").getAttribute("aria-pressed") === "false"`); err != nil {
		t.Fatalf("Escape did not leave full screen: %v", err)
	}
	waitContains(t, tab, "#preview-status", "acknowledged")
	noConsoleErrors(t, tab)
}
