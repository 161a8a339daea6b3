package browser

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
)

// The editor is CodeMirror 6 (SPEC §2.7): these tests drive its contenteditable .cm-content
// with real key events and read its state through globalThis.webcodingEditor.

// openInEditor clicks the explorer entry for path and waits until the editor shows it.
func openInEditor(t *testing.T, tab *chromium.Tab, path string) {
	t.Helper()
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`[aria-label="Open `+path+`"]`))); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#editor-path", path)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `webcodingEditor.path() === `+jsString(path)+` && webcodingEditor.getDocument() !== ""`); err != nil {
		t.Fatalf("the editor does not show %s: %v", path, err)
	}
}

// insertText types text into the focused element with Input.insertText (IME-style input, for
// characters that key events cannot spell, such as an emoji).
func insertText(text string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: text})
		return chromedp.Void{}, err
	}
}

// caretAtEnd focuses the editor and puts the caret at the end of the document.
var caretAtEnd = chromedp.Evaluate[chromedp.Void](`(() => { const v = webcodingEditor.view(); v.focus(); v.dispatch({ selection: { anchor: v.state.doc.length } }); })()`)

// spanColors is the set of computed colours of the highlighted spans the editor rendered.
const spanColors = `[...new Set([...document.querySelectorAll("#editor-host .cm-content .cm-line span")].map(s => getComputedStyle(s).color))]`

// TestEditorHighlighting: CSS and JS files are parsed by their language: property names and
// keywords get their own colours (rgb of the studio's highlight style).
func TestEditorHighlighting(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	cases := []struct {
		path, color, what string
		min               int // distinct token colours at least
	}{
		{"styles.css", "rgb(125, 211, 252)", "CSS property name", 3},
		{"app.js", "rgb(192, 132, 252)", "JS keyword", 3},
		{"index.html", "rgb(244, 114, 182)", "HTML tag name", 3},
		{"README.md", "rgb(244, 114, 182)", "Markdown heading", 2},
	}
	for _, c := range cases {
		openInEditor(t, tab, c.path)
		// CodeMirror parses incrementally: right after the document is set only what the
		// first parse slice reached is highlighted (under load a line or two: "only 1 distinct
		// token colours"), the rest follows from idle callbacks. So wait for the whole
		// expectation — the colour and at least min distinct colours — not its first part.
		want := `(() => { const c = ` + spanColors + `; return c.includes(` + jsString(c.color) + `) && c.length >= ` + strconv.Itoa(c.min) + ` ? c : null; })()`
		if _, err := chromium.WaitFor[[]string](tab, 10*time.Second, want); err != nil {
			got, _ := chromium.Eval[[]string](tab, 5*time.Second, spanColors)
			t.Errorf("%s: want the %s colour %s among at least %d distinct token colours, have %v", c.path, c.what, c.color, c.min, got)
		}
	}
	noConsoleErrors(t, tab)
}

// budgetCount parses "N / 80,000 chars" from the editor header.
func budgetCount(t *testing.T, tab *chromium.Tab) (int, string) {
	t.Helper()
	s, err := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#editor-count").textContent`)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.ReplaceAll(strings.SplitN(s, " / ", 2)[0], ",", ""))
	if err != nil || !strings.Contains(s, " / 80,000 chars") {
		t.Fatalf("budget text %q", s)
	}
	return n, s
}

// TestEditorBudgetCounter: the header counts code points live as you type (an emoji is one),
// shows line/column and the line count, and past 80,000 the over-budget state appears while
// the editor keeps every character (the failed write never truncates it).
func TestEditorBudgetCounter(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "README.md")
	doc, _ := chromium.Eval[string](tab, 5*time.Second, `webcodingEditor.getDocument()`)
	n0, _ := budgetCount(t, tab)
	if n0 != utf8.RuneCountInString(doc) {
		t.Errorf("budget shows %d, the document has %d code points", n0, utf8.RuneCountInString(doc))
	}
	const typed = " Grüße 😀"
	if err := tab.Do(10*time.Second, caretAtEnd, insertText(typed)); err != nil {
		t.Fatal(err)
	}
	want := n0 + utf8.RuneCountInString(typed)
	expr := `document.querySelector("#editor-count").textContent.startsWith(` + jsString(groupDigits(want)+" / 80,000 chars") + `)`
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, expr); err != nil {
		_, s := budgetCount(t, tab)
		t.Fatalf("budget after typing = %q, want %d code points", s, want)
	}
	// Line/column of the caret (CodeMirror counts columns in UTF-16 units: the emoji is two)
	// and the line count.
	lines := strings.Count(doc, "\n") + 1
	last := doc[strings.LastIndex(doc, "\n")+1:] + typed
	cursor := fmt.Sprintf("Ln %d, Col %d · %d lines", lines, len(utf16.Encode([]rune(last)))+1, lines)
	waitText(t, tab, "#editor-cursor", cursor)

	// Over the budget: 80,001 more characters (one paste-sized insert through the widget).
	big := `"x".repeat(80001)`
	if err := tab.Do(10*time.Second, chromedp.Evaluate[chromedp.Void](`(() => { const v = webcodingEditor.view(); v.dispatch({ changes: { from: v.state.doc.length, insert: `+big+` }, userEvent: "input.paste" }); })()`)); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#editor-count", "over budget")
	if over, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector("#editor-count").classList.contains("over")`); !over {
		t.Error("the over-budget state is not marked")
	}
	// The idle flush does not send a write workspace.writeFile would reject (maxLength 80,000);
	// the chat says so once, and the editor keeps the text.
	waitContains(t, tab, "#transcript", "README.md is over the 80,000-character budget by")
	time.Sleep(300 * time.Millisecond)
	if got, _ := chromium.Eval[int](tab, 5*time.Second, `webcodingEditor.view().state.doc.length`); got < 80001+len(doc) {
		t.Errorf("editor holds %d UTF-16 units after the rejected write, want ≥ %d (never truncated)", got, 80001+len(doc))
	}
	if src := readREADME(t, tab); strings.Contains(src, "xxxxxxxxxx") {
		t.Error("the over-budget text was written")
	}
	// Deleting back under the budget writes again.
	if err := tab.Do(10*time.Second, chromedp.Evaluate[chromedp.Void](`(() => { const v = webcodingEditor.view(); const n = v.state.doc.length; v.dispatch({ changes: { from: n - 80001, to: n }, userEvent: "delete" }); })()`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `webcodingHandle(`+jsString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"README.md"},"_meta":{"source":"local","mode":"direct"}}}`)+`).then(r => JSON.parse(r).result.structuredContent.source.endsWith("Grüße 😀"))`); err != nil {
		t.Errorf("the text back under the budget was not written: README.md = %q", readREADME(t, tab))
	}
	if over, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector("#editor-count").classList.contains("over")`); over {
		t.Error("still marked over budget")
	}
	waitContains(t, tab, "#transcript", "README.md fits the budget again")
	noConsoleErrors(t, tab)
}

func groupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestEditorSearchPanel: Ctrl+F in the editor opens CodeMirror's search panel with its field
// focused; a query highlights the matches.
func TestEditorSearchPanel(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "styles.css")
	focus := chromedp.Evaluate[chromedp.Void](`webcodingEditor.view().focus()`)
	if err := tab.Do(10*time.Second, focus, chromedp.KeyEvent("f", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `!!document.querySelector("#editor-host .cm-search") && document.activeElement && document.activeElement.matches("#editor-host .cm-search input[name=search]")`); err != nil {
		t.Fatalf("Ctrl+F did not open the search panel with its field focused: %v", err)
	}
	if err := tab.Do(10*time.Second, chromedp.KeyEvent("color")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelectorAll("#editor-host .cm-searchMatch").length > 0`); err != nil {
		t.Errorf("no search matches highlighted: %v", err)
	}
	noConsoleErrors(t, tab)
}

// TestEditorUndoRedoReplacesDocument: typing is written through the registry; the workspace
// Undo and Redo buttons replace the editor's document and clear CodeMirror's own history.
func TestEditorUndoRedoReplacesDocument(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "README.md")
	before, _ := chromium.Eval[string](tab, 5*time.Second, `webcodingEditor.getDocument()`)
	typed := fmt.Sprintf(" undo-me %d", time.Now().UnixNano()%100000)
	// One input event, so one debounced write and one undo step: typed key by key on a loaded
	// machine the text could reach the workspace in two writes, and one Undo reverts only the
	// last (undo is per revision; the test flaked that way).
	if err := tab.Do(10*time.Second, caretAtEnd, insertText(typed)); err != nil {
		t.Fatal(err)
	}
	readEnds := func(suffix string) string {
		return `webcodingHandle(` + jsString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"README.md"},"_meta":{"source":"local","mode":"direct"}}}`) + `).then(r => JSON.parse(r).result.structuredContent.source === ` + jsString(suffix) + `)`
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, readEnds(before+typed)); err != nil {
		t.Fatalf("typing was not written: README.md = %q", readREADME(t, tab))
	}
	if h, _ := chromium.Eval[[]int](tab, 5*time.Second, `webcodingEditor.history()`); len(h) != 2 || h[0] == 0 {
		t.Fatalf("CodeMirror history after typing = %v, want undo depth > 0", h)
	}
	click := func(label string) {
		t.Helper()
		// The button is enabled once the studio's re-read after the write has seen the history
		// (undo_redo_buttons.go); a click on it while disabled does nothing (the flake, twice).
		waitTrue(t, tab, label+" enabled", `(() => { const b = document.querySelector('[aria-label="`+label+`"]'); return !!b && !b.disabled; })()`)
		if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`[aria-label="`+label+`"]`))); err != nil {
			t.Fatal(err)
		}
	}
	click("Undo last edit")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `webcodingEditor.getDocument() === `+jsString(before)); err != nil {
		doc, _ := chromium.Eval[string](tab, 5*time.Second, `webcodingEditor.getDocument()`)
		t.Fatalf("workspace undo did not replace the editor's document: %q", doc)
	}
	if h, _ := chromium.Eval[[]int](tab, 5*time.Second, `webcodingEditor.history()`); len(h) != 2 || h[0] != 0 || h[1] != 0 {
		t.Errorf("CodeMirror history after workspace undo = %v, want [0 0]", h)
	}
	click("Redo last edit")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `webcodingEditor.getDocument() === `+jsString(before+typed)); err != nil {
		doc, _ := chromium.Eval[string](tab, 5*time.Second, `webcodingEditor.getDocument()`)
		t.Fatalf("workspace redo did not replace the editor's document: %q", doc)
	}
	if h, _ := chromium.Eval[[]int](tab, 5*time.Second, `webcodingEditor.history()`); len(h) != 2 || h[0] != 0 || h[1] != 0 {
		t.Errorf("CodeMirror history after workspace redo = %v, want [0 0]", h)
	}
	noConsoleErrors(t, tab)
}

// TestEditorLockedWhileAgentRuns: during an agent chain (a pending approval) the editor is
// read-only; cancelling the run unlocks it.
func TestEditorLockedWhileAgentRuns(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "styles.css")
	sendPrompt(t, tab, "Make it amber")
	waitApproval(t, tab, "preview.setTheme")
	if ro, _ := chromium.Eval[bool](tab, 5*time.Second, `webcodingEditor.view().state.readOnly && document.querySelector("#editor-host .cm-content").getAttribute("contenteditable") === "false"`); !ro {
		t.Error("the editor is editable while the agent runs")
	}
	waitContains(t, tab, "#editor-cursor", "locked while the agent runs")
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Execution cancelled.")
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `!webcodingEditor.view().state.readOnly && document.querySelector("#editor-host .cm-content").getAttribute("contenteditable") === "true"`); err != nil {
		t.Errorf("the editor stays locked after the run: %v", err)
	}
	noConsoleErrors(t, tab)
}

// historySince is the number of checkpoints of the workspace history (workspace/history) with a
// revision above rev (the history keeps the newest 100, so counts are taken from a revision),
// and the current revision.
func historySince(t *testing.T, tab *chromium.Tab, rev int) (n, current int) {
	t.Helper()
	resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"workspace/history","params":{}}`)
	res, _ := resp["result"].(map[string]any)
	cps, ok := res["checkpoints"].([]any)
	if !ok {
		t.Fatalf("workspace/history: %v", resp)
	}
	for _, c := range cps {
		if int(c.(map[string]any)["revision"].(float64)) > rev {
			n++
		}
	}
	return n, int(res["revision"].(float64))
}

// waitFlushed waits until the workspace's copy of path contains text (the draft was written).
func waitFlushed(t *testing.T, tab *chromium.Tab, path, text string) {
	t.Helper()
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":` + jsString(path) + `},"_meta":{"source":"local","mode":"direct"}}}`
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `webcodingHandle(`+jsString(req)+`).then(r => JSON.parse(r).result.structuredContent.source.includes(`+jsString(text)+`))`); err != nil {
		t.Fatalf("%s never contained %q: %v", path, text, err)
	}
}

// TestTypingBurstOneCheckpoint: four idle flushes of one typing burst in the editor add one
// history checkpoint; another write in between (here a direct tool call, as an agent's would
// be) ends the burst, so the next flush adds a new one.
func TestTypingBurstOneCheckpoint(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "app.js")
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	_, rev0 := historySince(t, tab, 0)
	for i := 0; i < 4; i++ {
		word := fmt.Sprintf(" /*b%s-%d*/", stamp, i)
		if err := tab.Do(10*time.Second, caretAtEnd, insertText(word)); err != nil {
			t.Fatal(err)
		}
		waitFlushed(t, tab, "app.js", word)
	}
	if n, _ := historySince(t, tab, rev0); n != 1 {
		t.Fatalf("4 flushes of one burst added %d checkpoints, want 1", n)
	}
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":"# other `+stamp+`\n"}`)
	word := " /*after-" + stamp + "*/"
	if err := tab.Do(10*time.Second, caretAtEnd, insertText(word)); err != nil {
		t.Fatal(err)
	}
	waitFlushed(t, tab, "app.js", word)
	if n, _ := historySince(t, tab, rev0); n != 3 {
		t.Fatalf("burst, other write, new burst added %d checkpoints, want 3", n)
	}
	noConsoleErrors(t, tab)
}

// buttonState is [disabled, title] of the explorer's Undo or Redo button.
func buttonState(t *testing.T, tab *chromium.Tab, action string) (bool, string) {
	t.Helper()
	v, err := chromium.Eval[[]any](tab, 5*time.Second, `(() => { const b = document.querySelector('.explorer-head [data-action="`+action+`"]'); return [b.disabled, b.title]; })()`)
	if err != nil || len(v) != 2 {
		t.Fatalf("%s button: %v %v", action, v, err)
	}
	d, _ := v[0].(bool)
	s, _ := v[1].(string)
	return d, s
}

// waitButton waits until the Undo or Redo button's disabled state is want.
func waitButton(t *testing.T, tab *chromium.Tab, action string, want bool) {
	t.Helper()
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `document.querySelector('.explorer-head [data-action="`+action+`"]').disabled === `+strconv.FormatBool(want)); err != nil {
		d, title := buttonState(t, tab, action)
		t.Fatalf("%s button disabled = %v (%q), want %v", action, d, title, want)
	}
}

// ctrlZ focuses the element sel and presses Ctrl+Z there.
func ctrlZ(t *testing.T, tab *chromium.Tab, sel string) {
	t.Helper()
	if err := tab.Do(10*time.Second, chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
}

// TestHistoryButtonsEmptyAndLocked: with nothing to undo/redo the buttons are disabled and
// Ctrl+Z on a focused button posts nothing; after a write Undo is enabled; with an approval
// card pending both are locked ("locked while the agent runs") and Ctrl+Z leaves the workspace
// alone; after the cancelled run the next successful undo puts the status back to "Ready".
func TestHistoryButtonsEmptyAndLocked(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	waitButton(t, tab, "undo", true)
	waitButton(t, tab, "redo", true)
	ctrlZ(t, tab, `.explorer-head [data-action="new-file"]`)
	time.Sleep(700 * time.Millisecond)
	if n := transcriptCount(t, tab, "WORKSPACE_HISTORY_EMPTY"); n != 0 {
		t.Errorf("Ctrl+Z with nothing to undo posted WORKSPACE_HISTORY_EMPTY %d times", n)
	}
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	marker := "# undo lock " + stamp + "\n"
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":`+jsString(marker)+`}`)
	waitButton(t, tab, "undo", false)

	sendPrompt(t, tab, "Make it amber")
	waitApproval(t, tab, "preview.setTheme")
	waitButton(t, tab, "undo", true)
	waitButton(t, tab, "redo", true)
	if _, title := buttonState(t, tab, "undo"); !strings.Contains(title, "locked while the agent runs") {
		t.Errorf("Undo title while the agent runs = %q", title)
	}
	ctrlZ(t, tab, `.approval-card button.deny`)
	time.Sleep(700 * time.Millisecond)
	if src := directCall(t, tab, "workspace.readFile", `{"path":"README.md"}`)["source"]; src != marker {
		t.Fatalf("Ctrl+Z during the run changed README.md to %q", src)
	}
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Execution cancelled.")
	waitButton(t, tab, "undo", false)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`[aria-label="Undo last edit"]`))); err != nil {
		t.Fatal(err)
	}
	waitFileNot(t, tab, "README.md", marker)
	waitText(t, tab, "#status-text", "Ready")
	waitButton(t, tab, "redo", false)
	noConsoleErrors(t, tab)
}

// waitFileNot polls workspace.readFile until path's source is no longer old.
func waitFileNot(t *testing.T, tab *chromium.Tab, path, old string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if src, _ := directCall(t, tab, "workspace.readFile", `{"path":`+jsString(path)+`}`)["source"].(string); src != old {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s stays %q", path, old)
}

// TestTypingBurstTimeBound: a typing burst that never pauses long (a flush every ~4 s for
// ~36 s) is not one checkpoint: the workspace starts a new one 30 s after the burst's first
// flush (workspace.CoalesceWindow), so long sessions keep undo points.
func TestTypingBurstTimeBound(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "app.js")
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	_, rev0 := historySince(t, tab, 0)
	start := time.Now()
	for i := 0; time.Since(start) < 36*time.Second; i++ {
		word := fmt.Sprintf(" /*t%s-%d*/", stamp, i)
		if err := tab.Do(10*time.Second, caretAtEnd, insertText(word)); err != nil {
			t.Fatal(err)
		}
		waitFlushed(t, tab, "app.js", word)
		time.Sleep(3 * time.Second)
	}
	if n, _ := historySince(t, tab, rev0); n != 2 {
		t.Fatalf("a ~36 s typing burst added %d checkpoints, want 2 (a new one 30 s after its first flush)", n)
	}
	noConsoleErrors(t, tab)
}
