package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

func readREADME(t *testing.T, tab *chromium.Tab) string {
	t.Helper()
	return directCall(t, tab, "workspace.readFile", `{"path":"README.md"}`)["source"].(string)
}

// TestUndoRedoShortcuts: Ctrl+Z / Ctrl+Shift+Z outside text fields run workspace.undo/redo.
func TestUndoRedoShortcuts(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	before := readREADME(t, tab)
	marker := before + "\nundo marker " + time.Now().Format(time.RFC3339Nano)
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":`+jsString(marker)+`}`)
	blur := chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`)
	if err := tab.Do(10*time.Second, blur, chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `webcodingHandle(`+jsString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"README.md"},"_meta":{"source":"local","mode":"direct"}}}`)+`).then(r => JSON.parse(r).result.structuredContent.source === `+jsString(before)+`)`); err != nil {
		t.Fatalf("Ctrl+Z did not undo the write: README.md = %q", readREADME(t, tab))
	}
	if err := tab.Do(10*time.Second, chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl, chromedp.ModifierShift))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `webcodingHandle(`+jsString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"README.md"},"_meta":{"source":"local","mode":"direct"}}}`)+`).then(r => JSON.parse(r).result.structuredContent.source === `+jsString(marker)+`)`); err != nil {
		t.Fatalf("Ctrl+Shift+Z did not redo: README.md = %q", readREADME(t, tab))
	}
	noConsoleErrors(t, tab)
}

// TestRecipesExportAndPersistence: the recipes (without the folder ones: no folder linked) are shown and run through agent/run; Export
// downloads the standalone HTML; the studio asked for persistent storage and shows the answer.
func TestRecipesExportAndPersistence(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	// Without a linked folder the three folder recipes are not offered (issue 14 item 8).
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#recipes button").length`); n != 11 {
		t.Errorf("%d recipe buttons, want 11 (14 less the folder recipes)", n)
	}
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#recipes-menu > summary`)), chromedp.Click(chromedp.CSS(`[aria-label="Recipe: Show workspace status"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Show workspace status")
	waitContains(t, tab, "#transcript", "✓ workspace.getStatus")
	waitContains(t, tab, "#transcript", "Workspace canvas-landing at revision") // the status in words (issue 14 item 7)
	waitRunDone(t, tab)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`[aria-label="Export standalone HTML"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Exported canvas-landing.html")
	waitContains(t, tab, "#persistence", "persistent storage")
	noConsoleErrors(t, tab)
}

// TestTypingWritesThroughTheRegistry: typing in the editor is written by workspace.writeFile
// after the idle delay and the preview acknowledges the new revision.
func TestTypingWritesThroughTheRegistry(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`[aria-label="Open index.html"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#editor-path", "index.html")
	rev := ackedRevision(t, tab)
	// Type a marker into the hero title through real key events.
	set := chromedp.Evaluate[chromedp.Void](`(() => { const v = webcodingEditor.view(); const m = v.state.doc.toString().indexOf('id="hero-title">'); if (m < 0) throw new Error("no hero title"); const i = m + 'id="hero-title">'.length; v.focus(); v.dispatch({ selection: { anchor: i } }); window.__typedAt = i; })()`)
	typed := fmt.Sprintf("Typed%d ", time.Now().UnixNano()%100000)
	if err := tab.Do(10*time.Second, set, chromedp.KeyEvent(typed)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitInFrame(tab, 10*time.Second, `document.querySelector("#hero-title").textContent.startsWith(`+jsString(typed)+`)`, true); err != nil {
		t.Fatalf("typed text did not reach the preview: %v", err)
	}
	if got := ackedRevision(t, tab); got <= rev {
		t.Errorf("revision %d after typing, want > %d", got, rev)
	}
	// The write and the re-render keep the text and the caret where the user typed.
	time.Sleep(300 * time.Millisecond)
	if ok, _ := chromium.Eval[bool](tab, 5*time.Second, `(() => { const s = webcodingEditor.view().state; return s.doc.toString().includes('id="hero-title">' + `+jsString(typed)+`) && s.selection.main.head === window.__typedAt + `+jsString(typed)+`.length; })()`); !ok {
		pos, _ := chromium.Eval[[]int](tab, 5*time.Second, `[webcodingEditor.view().state.selection.main.head, window.__typedAt]`)
		t.Errorf("caret moved by the flush: selectionStart/typedAt = %v", pos)
	}
	noConsoleErrors(t, tab)
}

// TestSecondTabIsReadOnly: a second tab on the same workspace (Web Locks) shows a read-only
// notice and never overwrites the first tab's stored workspace.
func TestSecondTabIsReadOnly(t *testing.T) {
	t.Parallel()
	profile := chromium.NewRecycledTab(t)
	first := openStudioIn(t, profile)
	waitContains(t, first, "#storage-mode", "Saved in this browser")
	stored := readREADME(t, first)

	second := chromium.NewTabIn(t, profile)
	if err := second.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, second, "#status-text", "Ready")
	waitContains(t, second, "#studio-notice", "Read-only")
	waitContains(t, second, "#storage-mode", "open in another tab")
	if code := toolErrorCode(t, second, "workspace.writeFile", `{"path":"README.md","source":"written by the second tab"}`); code != "WORKSPACE_READ_ONLY" {
		t.Errorf("writeFile in the read-only tab: %q, want WORKSPACE_READ_ONLY", code)
	}

	// The first tab still writes to IndexedDB, and what is stored is its README.
	waitContains(t, first, "#storage-mode", "Saved in this browser")
	if n, _ := chromium.Eval[bool](first, 5*time.Second, `document.querySelector("#studio-notice").hidden`); !n {
		t.Error("the first tab shows the read-only notice")
	}
	if err := first.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, first, "#status-text", "Ready")
	if got := readREADME(t, first); got != stored {
		t.Errorf("README.md after the second tab wrote = %q, want the first tab's %q", got, stored)
	}
	noConsoleErrors(t, first)
	noConsoleErrors(t, second)
}
