package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// Drafts that survive a reload (wasm/cmd/browser/draftstore.go): typing just before a reload
// is stored synchronously on pagehide and written after the reload; a stored draft whose file
// changed meanwhile is never written over it but shown in the chat.

// waitFileContains polls workspace.readFile until path's source contains want.
func waitFileContains(t *testing.T, tab *chromium.Tab, path, want string) string {
	t.Helper()
	deadline := time.Now().Add(loadTimeout)
	src := ""
	for time.Now().Before(deadline) {
		src, _ = directCall(t, tab, "workspace.readFile", `{"path":`+jsString(path)+`}`)["source"].(string)
		if strings.Contains(src, want) {
			return src
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s never contained %q; it is %q", path, want, src)
	return src
}

const draftKey = `"web-coding-studio:draft"`

// TestDraftSurvivesReload: text typed and reloaded within 200 ms (before the 650 ms idle
// flush) is in the editor and in the workspace after the reload, and the stored copy is gone.
func TestDraftSurvivesReload(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "index.html")
	marker := fmt.Sprintf("<!-- typed before reload %d -->", time.Now().UnixNano())
	if err := tab.Do(10*time.Second, caretAtEnd, insertText(marker)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	src := waitFileContains(t, tab, "index.html", marker)
	if strings.Count(src, marker) != 1 {
		t.Errorf("index.html holds the typed text %d times", strings.Count(src, marker))
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `webcodingEditor.path() === "index.html" && webcodingEditor.getDocument().includes(`+jsString(marker)+`)`); err != nil {
		t.Errorf("the editor does not show the typed text after the reload: %v", err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `localStorage.getItem(`+draftKey+`) === null`); err != nil {
		t.Errorf("the stored draft was not removed after it was written: %v", err)
	}
	noConsoleErrors(t, tab)
}

// TestStoredDraftConflictKept: a stored draft typed over another text of its file (the base
// hash differs) is not written; the chat shows it with "Save as new file", which saves it.
func TestStoredDraftConflictKept(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	before := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"].(string)
	text := fmt.Sprintf("stale draft %d", time.Now().UnixNano())
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `localStorage.setItem(`+draftKey+`, JSON.stringify({path: "index.html", text: `+jsString(text)+`, rev: 1, base: "0"})), true`); err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", "from before the reload was kept")
	waitContains(t, tab, "#transcript", text)
	if src := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"]; src != before {
		t.Errorf("index.html was overwritten by the stale draft: %q", src)
	}
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#transcript button[data-action="draft-save-new"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Saved the rescued text as index (recovered).html")
	waitFileContains(t, tab, "index (recovered).html", text)
	if v, _ := chromium.Eval[bool](tab, 5*time.Second, `localStorage.getItem(`+draftKey+`) === null`); !v {
		t.Errorf("the stored draft stays after it was saved")
	}
}

// transcriptCount counts occurrences of s in the chat transcript.
func transcriptCount(t *testing.T, tab *chromium.Tab, s string) int {
	t.Helper()
	n, err := chromium.Eval[int](tab, 5*time.Second, `document.querySelector("#transcript").textContent.split(`+jsString(s)+`).length - 1`)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOverBudgetDraftKept: 85,000 pasted characters are never sent (no TOOL_VALIDATION_FAILED
// per idle pause), the chat says so once with the overshoot, the text survives a reload
// untruncated, and deleting back under the budget writes it.
func TestOverBudgetDraftKept(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "index.html")
	orig, _ := chromium.Eval[string](tab, 5*time.Second, `webcodingEditor.getDocument()`)
	paste := `(() => { const v = webcodingEditor.view(); v.dispatch({ changes: { from: v.state.doc.length, insert: "y".repeat(85000) }, userEvent: "input.paste" }); })()`
	if err := tab.Do(10*time.Second, chromedp.Evaluate[chromedp.Void](paste)); err != nil {
		t.Fatal(err)
	}
	over := len([]rune(orig)) + 85000 - 80000
	msg := fmt.Sprintf("index.html is over the 80,000-character budget by %s; it is kept in this browser but not saved until it fits.", groupDigits(over))
	waitContains(t, tab, "#transcript", msg)
	// Three more idle pauses with typing in between: no new message, no failed write.
	for i := 0; i < 3; i++ {
		if err := tab.Do(10*time.Second, caretAtEnd, insertText("z")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(900 * time.Millisecond)
	}
	if n := transcriptCount(t, tab, "over the 80,000-character budget"); n != 1 {
		t.Errorf("the over-budget message appears %d times, want once", n)
	}
	for _, bad := range []string{"TOOL_VALIDATION_FAILED", `\u003c`, `\u003e`} {
		if n := transcriptCount(t, tab, bad); n != 0 {
			t.Errorf("the chat shows %q %d times", bad, n)
		}
	}
	if src := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"]; src != orig {
		t.Error("the over-budget text was written")
	}
	// A reload keeps it (from localStorage), untruncated; still not written.
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	want := len([]rune(orig)) + 85003
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, fmt.Sprintf(`webcodingEditor.path() === "index.html" && webcodingEditor.getDocument().length === %d`, want)); err != nil {
		got, _ := chromium.Eval[int](tab, 5*time.Second, `webcodingEditor.getDocument().length`)
		t.Fatalf("after the reload the editor holds %d characters, want %d: %v", got, want, err)
	}
	waitContains(t, tab, "#editor-count", "over budget")
	if src := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"]; src != orig {
		t.Error("the over-budget text was written after the reload")
	}
	// Back under the budget: written, the stored draft removed.
	cut := `(() => { const v = webcodingEditor.view(); const n = v.state.doc.length; v.dispatch({ changes: { from: n - 84990, to: n }, userEvent: "delete" }); })()`
	if err := tab.Do(10*time.Second, chromedp.Evaluate[chromedp.Void](cut)); err != nil {
		t.Fatal(err)
	}
	waitFileContains(t, tab, "index.html", orig+"yyyyyyyyyyyyy")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `localStorage.getItem(`+draftKey+`) === null`); err != nil {
		t.Errorf("the stored draft stays after the write: %v", err)
	}
	noConsoleErrors(t, tab)
}
