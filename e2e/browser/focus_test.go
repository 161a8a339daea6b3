package browser

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
)

// focusedID is the focused element's id ("BODY" when focus fell to the body).
const focusedID = `(document.activeElement && document.activeElement !== document.body ? document.activeElement.id : "BODY")`

// TestFocusAfterApprove: approving the only approval card moves focus to the prompt box
// (never to <body>).
func TestFocusAfterApprove(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	sendPrompt(t, tab, "Make it emerald")
	waitApproval(t, tab, "preview.setTheme")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✓ preview.setTheme")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, focusedID+` === "prompt"`); err != nil {
		got, _ := chromium.Eval[string](tab, time.Second, focusedID)
		t.Fatalf("after Approve, focus is on %q, want the prompt box", got)
	}
	noConsoleErrors(t, tab)
}

// TestFocusAfterRenameAndDelete: F2 + Enter focuses the renamed file's tree item; Delete +
// confirm focuses the neighbouring item.
func TestFocusAfterRenameAndDelete(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	dir := "focus" + strconv.FormatInt(time.Now().UnixNano(), 36)
	for _, p := range []string{dir + "/a.md", dir + "/b.md", dir + "/c.md"} {
		directCall(t, tab, "workspace.createFile", `{"path":`+jsString(p)+`,"source":"# x\n"}`)
	}
	waitTrue(t, tab, "files in the tree", `!!document.querySelector(`+jsString(treeItem(dir+"/c.md"))+`)`)
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+jsString(treeItem(dir+"/b.md"))+`).focus()`)); err != nil {
		t.Fatal(err)
	}
	waitFocus(t, tab, dir+"/b.md")

	press(t, tab, kb.F2)
	waitTrue(t, tab, "rename dialog", `document.querySelector("#file-dialog").open && document.activeElement.id === "file-dialog-input"`)
	if err := tab.Do(5*time.Second, chromedp.SetValue(chromedp.CSS("#file-dialog-input"), dir+"/b2.md")); err != nil {
		t.Fatal(err)
	}
	press(t, tab, kb.Enter)
	waitTrue(t, tab, "renamed", `!!document.querySelector(`+jsString(treeItem(dir+"/b2.md"))+`)`)
	waitFocus(t, tab, dir+"/b2.md")

	press(t, tab, kb.Delete)
	waitTrue(t, tab, "delete dialog", `document.querySelector("#file-dialog").open`)
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#file-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	waitTrue(t, tab, "deleted", `!document.querySelector(`+jsString(treeItem(dir+"/b2.md"))+`)`)
	waitFocus(t, tab, dir+"/c.md")
	noConsoleErrors(t, tab)
}

// TestFullscreenInert: while the preview fills the window, everything outside it is inert
// and Tab stays inside the panel; Escape restores the page.
func TestFullscreenInert(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	waitText(t, tab, "#status-text", "Ready")
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#fullscreen-toggle"))); err != nil {
		t.Fatal(err)
	}
	waitTrue(t, tab, "browser full screen", `document.fullscreenElement === document.querySelector("#preview-panel")`)
	waitTrue(t, tab, "outside inert", `document.querySelector(".explorer").inert && document.querySelector("#inspector").inert && document.querySelector(".chat").inert && document.querySelector(".editor").inert && !document.querySelector("#preview-panel").inert && !document.querySelector("main").inert`)
	for i := 0; i < 12; i++ {
		press(t, tab, kb.Tab)
		inside, _ := chromium.Eval[bool](tab, 5*time.Second, `document.activeElement === document.body || document.querySelector("#preview-panel").contains(document.activeElement)`)
		if !inside {
			got, _ := chromium.Eval[string](tab, time.Second, `document.activeElement.outerHTML.slice(0, 120)`)
			t.Fatalf("Tab %d left the full-screen panel: %s", i+1, got)
		}
	}
	press(t, tab, kb.Escape)
	waitTrue(t, tab, "restored", `!document.querySelector("#preview-panel").classList.contains("fullscreen") && !document.querySelector(".explorer").inert && !document.querySelector("#inspector").inert && !document.querySelector(".chat").inert`)
	noConsoleErrors(t, tab)
}

// TestFullscreenEscapeAfterPreviewClick: the preview goes full screen through the browser's
// Fullscreen API; after a click inside the preview frame (focus in the frame, whose keys the
// studio never sees) Escape still leaves full screen and the layout comes back.
func TestFullscreenEscapeAfterPreviewClick(t *testing.T) {
	t.Parallel()
	// Escape leaving full screen is the browser's own (exclusive-access) UI: Chromium, not
	// the headless shell (chromium.Full).
	tab := openStudioIn(t, chromium.NewFullTab(t))
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#fullscreen-toggle"))); err != nil {
		t.Fatal(err)
	}
	waitTrue(t, tab, "browser full screen", `document.fullscreenElement === document.querySelector("#preview-panel")`)
	xy, err := chromium.Eval[[]float64](tab, 5*time.Second, `(() => { const r = document.querySelector(".preview-frame").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(5*time.Second, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		t.Fatal(err)
	}
	waitTrue(t, tab, "focus in the preview frame", `document.activeElement === document.querySelector(".preview-frame")`)
	press(t, tab, kb.Escape)
	waitTrue(t, tab, "left full screen", `document.fullscreenElement === null && !document.querySelector("#preview-panel").classList.contains("fullscreen") && !document.querySelector(".explorer").inert && document.querySelector("#fullscreen-toggle").getAttribute("aria-pressed") === "false"`)
	noConsoleErrors(t, tab)
}

// TestEscapeInEditorKeepsRun: the editor shows how to leave it by keyboard while it has focus
// (CodeMirror's Tab indents: Escape then Tab), and Escape cancels a pending run only from the
// chat or an approval card — pressed outside them (here the explorer; the editor is read-only
// while a run waits) it changes nothing.
func TestEscapeInEditorKeepsRun(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	if err := tab.Do(5*time.Second, caretAtEnd); err != nil {
		t.Fatal(err)
	}
	waitTrue(t, tab, "hint shown", `getComputedStyle(document.querySelector("#editor-hint")).visibility === "visible" && document.querySelector("#editor-host .cm-content").getAttribute("aria-describedby") === "editor-hint"`)
	press(t, tab, kb.Escape)
	press(t, tab, kb.Tab)
	waitTrue(t, tab, "Escape then Tab left the editor", `!document.querySelector("#editor-host").contains(document.activeElement) && getComputedStyle(document.querySelector("#editor-hint")).visibility === "hidden"`)
	sendPrompt(t, tab, "Make it emerald")
	waitApproval(t, tab, "preview.setTheme")
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS(`#file-list [role="treeitem"][tabindex="0"]`))); err != nil {
		t.Fatal(err)
	}
	press(t, tab, kb.Escape)
	time.Sleep(time.Second)
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#approvals .approval-card").length`); n != 1 {
		t.Fatalf("Escape outside the chat changed the pending approvals to %d", n)
	}
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	press(t, tab, kb.Escape)
	waitTrue(t, tab, "cancelled from the card", `document.querySelectorAll("#approvals .approval-card").length === 0`)
	noConsoleErrors(t, tab)
}

// TestNewFileGetsFocus: a file made with New (the dialog) gets focus in the tree, so Enter
// opens it and the keyboard user goes on from there.
func TestNewFileGetsFocus(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	name := "new-" + strconv.FormatInt(time.Now().UnixNano(), 36) + ".md"
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS(`[data-action="new-file"]`))); err != nil {
		t.Fatal(err)
	}
	waitTrue(t, tab, "new-file dialog", `document.querySelector("#file-dialog").open && document.activeElement.id === "file-dialog-input"`)
	if err := tab.Do(5*time.Second, chromedp.SetValue(chromedp.CSS("#file-dialog-input"), name)); err != nil {
		t.Fatal(err)
	}
	press(t, tab, kb.Enter)
	waitTrue(t, tab, "created", `!!document.querySelector(`+jsString(treeItem(name))+`)`)
	waitFocus(t, tab, name)
	noConsoleErrors(t, tab)
}
