package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// Issue 14: no lost work, no false success. These tests drive the exact repros of the issue.

// toolErrorCode runs a tool in direct mode and returns its error code ("" on success).
func toolErrorCode(t *testing.T, tab *chromium.Tab, name, args string) string {
	t.Helper()
	resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`,"_meta":{"source":"local","mode":"direct"}}}`)
	res, _ := resp["result"].(map[string]any)
	if res == nil || res["isError"] != true {
		return ""
	}
	e, _ := res["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

// editorDoc returns the editor's path and document.
func editorDoc(t *testing.T, tab *chromium.Tab) (string, string) {
	t.Helper()
	v, err := chromium.Eval[[]string](tab, 5*time.Second, `[webcodingEditor.path(), webcodingEditor.getDocument()]`)
	if err != nil || len(v) != 2 {
		t.Fatalf("editor state: %v %v", v, err)
	}
	return v[0], v[1]
}

// writerAndReadOnlyTab opens the studio in a fresh profile (a, which saves the workspace) and
// then in a second tab of that profile (b, read-only while a holds the workspace lock).
func writerAndReadOnlyTab(t *testing.T) (a, b *chromium.Tab) {
	t.Helper()
	profile := chromium.NewRecycledTab(t)
	a = openStudioIn(t, profile)
	waitContains(t, a, "#storage-mode", "Saved in this browser")
	b = chromium.NewTabIn(t, profile)
	if err := b.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, b, "#status-text", "Ready")
	waitContains(t, b, "#studio-notice", "Read-only")
	return a, b
}

// TestLostWorkSecondTab (issue 14 item 1, the exact repro): tab A open, tab B read-only.
// B accepts no edit (typing, direct tool calls, agent runs, uploads); A saves "// A1"; A
// closes, B takes over, reloaded from IndexedDB; B's "// B2" lands on top of A1, and after a
// reload app.js holds A1 and B2 and never B1.
func TestLostWorkSecondTab(t *testing.T) {
	t.Parallel()
	a, b := writerAndReadOnlyTab(t)

	// B: typing does nothing.
	openInEditor(t, b, "app.js")
	_, before := editorDoc(t, b)
	if err := b.Do(10*time.Second, caretAtEnd, insertText("\n// B1")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(900 * time.Millisecond) // past the idle flush
	if _, doc := editorDoc(t, b); doc != before {
		t.Errorf("the read-only tab's editor accepted typing: %q", strings.TrimPrefix(doc, before))
	}
	// B: every edit path is refused by the core with WORKSPACE_READ_ONLY.
	for name, args := range map[string]string{
		"workspace.writeFile":  `{"path":"app.js","source":"// B1"}`,
		"workspace.createFile": `{"path":"b.js","source":"// B1"}`,
		"workspace.deleteFile": `{"path":"app.js"}`,
		"preview.setTheme":     `{"theme":"rose"}`,
	} {
		if code := toolErrorCode(t, b, name, args); code != "WORKSPACE_READ_ONLY" {
			t.Errorf("%s in the read-only tab: error %q, want WORKSPACE_READ_ONLY", name, code)
		}
	}
	up := rpc(t, b, `{"jsonrpc":"2.0","id":1,"method":"workspace/upload","params":{"files":[{"path":"up.txt","text":"x"}]}}`)
	if s := toJSON(up); !strings.Contains(s, "WORKSPACE_READ_ONLY") && !strings.Contains(s, `"error"`) {
		t.Errorf("workspace/upload in the read-only tab: %s", s)
	}
	if s := toJSON(rpc(t, b, `{"jsonrpc":"2.0","id":1,"method":"agent/run","params":{"prompt":"Change the accent color to rose"}}`)); !strings.Contains(s, "read-only") {
		t.Errorf("agent/run in the read-only tab: %s", s)
	}
	sendPrompt(t, b, "Change the accent color to rose")
	waitContains(t, b, "#transcript", "this tab is read-only")
	if n, _ := chromium.Eval[int](b, 5*time.Second, `document.querySelectorAll("#approvals [id^=approve-]").length`); n != 0 {
		t.Errorf("the read-only tab shows %d approval cards", n)
	}

	// A saves // A1.
	openInEditor(t, a, "app.js")
	if err := a.Do(10*time.Second, caretAtEnd, insertText("\n// A1")); err != nil {
		t.Fatal(err)
	}
	waitFlushed(t, a, "app.js", "// A1")
	waitContains(t, a, "#storage-mode", "Saved in this browser")

	// A closes; B takes over, re-read from IndexedDB.
	if err := chromedp.Cancel(a.Ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](b, loadTimeout, `document.querySelector("#studio-notice").hidden && document.querySelector("#storage-mode").textContent.includes("Saved in this browser")`); err != nil {
		t.Fatalf("B did not take over: %v; console %v", err, b.Console())
	}
	if _, err := chromium.WaitFor[bool](b, loadTimeout, `webcodingEditor.path() === "app.js" && webcodingEditor.getDocument().includes("// A1")`); err != nil {
		_, doc := editorDoc(t, b)
		t.Fatalf("after the take-over B's editor does not show A's saved text: %q (%v)", doc, err)
	}
	if err := b.Do(10*time.Second, caretAtEnd, insertText("\n// B2")); err != nil {
		t.Fatal(err)
	}
	waitFlushed(t, b, "app.js", "// B2")
	if err := b.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, b, "#status-text", "Ready")
	src := waitFileContains(t, b, "app.js", "// B2")
	if !strings.Contains(src, "// A1") || strings.Contains(src, "// B1") {
		t.Errorf("app.js after the reload = %q: want A1 and B2, never B1", src)
	}
	noConsoleErrors(t, b)
}

// headerRevision reads the workspace revision the header shows (#preview-status "revision N
// acknowledged").
func headerRevision(t *testing.T, tab *chromium.Tab) int { return ackedRevision(t, tab) }

// TestLostWorkReloadNoHistory (issue 14 item 3): reloads without an edit keep the revision
// (no "hydrate" checkpoint per reload), and History's current checkpoint is the header's.
func TestLostWorkReloadNoHistory(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":"one edit"}`)
	want := headerRevision(t, tab)
	for i := range 3 {
		if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
			t.Fatal(err)
		}
		waitText(t, tab, "#status-text", "Ready")
		if got := headerRevision(t, tab); got != want {
			t.Fatalf("reload %d: revision %d, want %d (a reload must not create a revision)", i+1, got, want)
		}
		resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"workspace/history","params":{}}`)
		res, _ := resp["result"].(map[string]any)
		cps, _ := res["checkpoints"].([]any)
		current := -1
		for _, c := range cps {
			if m := c.(map[string]any); m["current"] == true {
				current = int(m["revision"].(float64))
			}
		}
		if current != want || int(res["revision"].(float64)) != want {
			t.Fatalf("reload %d: History current %d, revision %v, want both %d (%s)", i+1, current, res["revision"], want, toJSON(res))
		}
	}
	noConsoleErrors(t, tab)
}

// TestLostWorkStorageBlocked (issue 14 item 9): when the indexedDB getter itself throws
// (storage blocked by policy), the studio runs in memory mode with the error shown; the core
// does not stop.
func TestLostWorkStorageBlocked(t *testing.T) {
	t.Parallel()
	url := site(t)
	tab := chromium.NewRecycledTab(t)
	block := onNewDocument(`Object.defineProperty(window, "indexedDB", {get() { throw new DOMException("Storage is blocked by policy", "SecurityError"); }, configurable: true});`)
	if err := tab.Do(loadTimeout, block, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#storage-mode", "Memory only")
	waitContains(t, tab, "#storage-mode", "blocked")
	st := directCall(t, tab, "workspace.getStatus", `{}`)
	if st["storageMode"] != "memory" {
		t.Errorf("getStatus storageMode %v, want memory", st["storageMode"])
	}
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":"memory edit"}`)
	waitContains(t, tab, "#preview-status", "acknowledged")
	for _, e := range tab.Console() {
		if strings.Contains(e.Text, "fatal error") || strings.Contains(e.Text, "has already exited") {
			t.Errorf("the core stopped: %s", e.Text)
		}
	}
	if n, _ := chromium.Eval[bool](tab, 5*time.Second, `document.body.textContent.includes("The studio core stopped")`); n {
		t.Error("the page says the studio core stopped")
	}
	_ = fmt.Sprint()
}

// pasteExpr appends n copies of ch to the editor's document as a paste.
func pasteExpr(ch string, n int) string {
	return fmt.Sprintf(`(() => { const v = webcodingEditor.view(); v.dispatch({ changes: { from: v.state.doc.length, insert: %s.repeat(%d) }, userEvent: "input.paste" }); })()`, jsString(ch), n)
}

// waitEditorLength waits until the editor shows path with exactly n UTF-16 units.
func waitEditorLength(t *testing.T, tab *chromium.Tab, path string, n int) {
	t.Helper()
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, fmt.Sprintf(`webcodingEditor.path() === %s && webcodingEditor.getDocument().length === %d`, jsString(path), n)); err != nil {
		p, doc := editorDoc(t, tab)
		t.Fatalf("the editor shows %s with %d characters, want %s with %d: %v", p, len(doc), path, n, err)
	}
}

// openByName opens path from the explorer with a click on its name element itself (an element
// click, not a pointer at coordinates: a dirty active row's actions overlap its name's centre,
// which a pointer click may hit — a tree layout matter outside these tests). It waits for the
// row: a tool call answers before the explorer draws the file it created (CI saw the click
// find no element right after workspace.createFile).
func openByName(t *testing.T, tab *chromium.Tab, path string) {
	t.Helper()
	click := `(() => { const e = document.querySelector('[aria-label="Open ` + path + `"]'); if (!e) return false; e.click(); return true; })()`
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, click); err != nil {
		t.Fatalf("no explorer row to open %s: %v", path, err)
	}
	waitText(t, tab, "#editor-path", path)
}

// TestLostWorkOverBudgetDrafts (issue 14 item 2, the exact repro): an over-budget draft
// survives switching files; two over-budget drafts of two files both survive a reload (one
// record per file in IndexedDB), are marked in the explorer, survive New chat and a read-only
// second tab, and stay until discarded.
func TestLostWorkOverBudgetDrafts(t *testing.T) {
	t.Parallel()
	profile := chromium.NewRecycledTab(t)
	tab := openStudioIn(t, profile)
	directCall(t, tab, "workspace.createFile", `{"path":"over.js","source":"// over\n"}`)
	openByName(t, tab, "over.js")
	if err := tab.Do(10*time.Second, chromedp.Evaluate[chromedp.Void](pasteExpr("x", 100000))); err != nil {
		t.Fatal(err)
	}
	overLen := len("// over\n") + 100000
	waitContains(t, tab, "#transcript", "over.js is over the 80,000-character budget")
	openByName(t, tab, "index.html")
	openByName(t, tab, "over.js")
	waitEditorLength(t, tab, "over.js", overLen) // was 0 chars / the workspace text

	// A second over-budget draft in another file.
	openByName(t, tab, "app.js")
	_, app := editorDoc(t, tab)
	if err := tab.Do(10*time.Second, chromedp.Evaluate[chromedp.Void](pasteExpr("y", 90000))); err != nil {
		t.Fatal(err)
	}
	appLen := len(app) + 90000
	waitContains(t, tab, "#transcript", "app.js is over the 80,000-character budget")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `!!document.querySelector('#file-list [data-path="over.js"] .draft-kept') && !!document.querySelector('#file-list [data-path="app.js"] .draft-kept')`); err != nil {
		t.Errorf("the explorer does not mark both kept drafts: %v", err)
	}

	// Reload: both come back; neither was written.
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", "Kept draft of app.js")
	waitContains(t, tab, "#transcript", "Kept draft of over.js")
	openByName(t, tab, "over.js")
	waitEditorLength(t, tab, "over.js", overLen)
	openByName(t, tab, "app.js")
	waitEditorLength(t, tab, "app.js", appLen)
	if src := directCall(t, tab, "workspace.readFile", `{"path":"over.js"}`)["source"]; src != "// over\n" {
		t.Errorf("over.js was written: %d characters", len(fmt.Sprint(src)))
	}

	// A read-only second tab neither shows them lost nor deletes them; New chat keeps them.
	second := chromium.NewTabIn(t, profile)
	if err := second.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, second, "#status-text", "Ready")
	waitContains(t, second, "#transcript", "Kept draft of over.js")
	if err := chromedp.Cancel(second.Ctx); err != nil {
		t.Fatal(err)
	}
	if ok, _ := chromium.Eval[bool](tab, 5*time.Second, `!!document.querySelector("#new-chat")`); ok {
		if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#new-chat`))); err != nil {
			t.Fatal(err)
		}
		waitContains(t, tab, "#transcript", "New chat")
	}
	waitContains(t, tab, "#transcript", "Kept draft of over.js")

	// Discard: gone after a reload, the workspace text shown.
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#transcript button[data-action="draft-discard"][data-arg="over.js"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Discarded the draft of over.js")
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", "Kept draft of app.js")
	if n := transcriptCount(t, tab, "Kept draft of over.js"); n != 0 {
		t.Errorf("the discarded draft came back")
	}
	openByName(t, tab, "over.js")
	waitEditorLength(t, tab, "over.js", len("// over\n"))
	noConsoleErrors(t, tab)
}

// TestLostWorkHonestAnswers (issue 14 items 6–8): the status recipes answer with the status in
// words and "Show preview status" claims no refresh; the folder recipes are offered only with a
// linked folder; a prompt the local agent does not understand gets its own "Not understood"
// entry naming what it can do, never a ✓.
func TestLostWorkHonestAnswers(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	for _, label := range []string{"Save to folder", "Reload folder", "Disconnect folder"} {
		if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll('[aria-label="Recipe: `+label+`"]').length`); n != 0 {
			t.Errorf("the %q recipe is offered without a linked folder", label)
		}
	}
	rev := ackedRevision(t, tab)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#recipes-menu > summary`)),
		chromedp.Click(chromedp.CSS(`[aria-label="Recipe: Show preview status"]`))); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("Preview at revision %d: acknowledged (runtime: sandbox iframe).", rev)
	waitContains(t, tab, "#transcript", want)
	waitRunDone(t, tab)
	if n := transcriptCount(t, tab, "refreshed the sandbox preview"); n != 0 {
		t.Errorf("Show preview status claims it refreshed the preview")
	}
	sendPrompt(t, tab, "Make the layout feel more premium")
	waitContains(t, tab, "#transcript", "Not understood")
	waitContains(t, tab, "#transcript", "It can: change the accent colour")
	waitRunDone(t, tab)
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#transcript .entry-unclear").length`); n != 1 {
		t.Errorf("%d not-understood entries, want 1", n)
	}
	if src := directCall(t, tab, "workspace.getStatus", `{}`); int(src["revision"].(float64)) != rev {
		t.Errorf("a not-understood prompt changed the revision to %v", src["revision"])
	}
	// An everyday request that is understood: the heading's text, through applyPatch.
	sendPrompt(t, tab, "Change the heading text to Hello World")
	waitApproval(t, tab, "workspace.applyPatch")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	waitRunDone(t, tab)
	waitFileContains(t, tab, "index.html", ">Hello World</h1>")
	noConsoleErrors(t, tab)
}

// TestLockLeavesWithACachedPage (issue 14, tester finding): the writing tab navigates away
// (its page may enter the back/forward cache, where it would keep the workspace lock while
// frozen); the read-only tab takes over. Going back brings the first page back as a reloaded,
// read-only page — never two read-only tabs that each say "another tab saves it".
func TestLockLeavesWithACachedPage(t *testing.T) {
	t.Parallel()
	a, b := writerAndReadOnlyTab(t)

	if err := a.Do(loadTimeout, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](b, loadTimeout, `document.querySelector("#studio-notice").hidden && document.querySelector("#storage-mode").textContent.includes("Saved in this browser")`); err != nil {
		t.Fatalf("the read-only tab did not take over when the writer navigated away: %v", err)
	}
	if err := a.Do(loadTimeout, chromedp.NavigateBack()); err != nil {
		t.Fatal(err)
	}
	waitText(t, a, "#status-text", "Ready")
	waitContains(t, a, "#studio-notice", "Read-only")
	if code := toolErrorCode(t, a, "workspace.writeFile", `{"path":"app.js","source":"// back"}`); code != "WORKSPACE_READ_ONLY" {
		t.Errorf("the page that came back writes (error %q): two writers", code)
	}
	if code := toolErrorCode(t, b, "workspace.writeFile", `{"path":"app.js","source":"// b writes"}`); code != "" {
		t.Errorf("the tab that took over cannot write: %q", code)
	}
}
