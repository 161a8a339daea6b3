package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// openIsolatedStudio opens the studio (optionally with a query string) in a fresh browser
// context (its own IndexedDB: the seed workspace) and waits for "Ready" and the first ack.
func openIsolatedStudio(t *testing.T, query string) *chromium.Tab {
	t.Helper()
	tab := chromium.NewRecycledTab(t)
	defer bootSlot(t)()
	if err := tab.Do(loadTimeout, chromedp.Navigate(site(t)+query)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#preview-status", "acknowledged")
	return tab
}

// recordEvents starts collecting the page's webcodingSubscribe events in window.__events.
func recordEvents(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { window.__events = []; webcodingSubscribe(e => window.__events.push(JSON.parse(e))); return true; })()`); err != nil {
		t.Fatal(err)
	}
}

// entryActions returns the button labels under the last transcript entry containing text
// (nil when there is none), waiting for such an entry.
func entryActions(t *testing.T, tab *chromium.Tab, text string) []string {
	t.Helper()
	waitContains(t, tab, "#transcript", text)
	out, err := chromium.Eval[string](tab, 5*time.Second, `(() => {
		const es = [...document.querySelectorAll("#transcript .entry")].filter(e => e.textContent.includes(`+jsString(text)+`));
		const e = es[es.length - 1];
		return JSON.stringify([...e.querySelectorAll(".entry-actions button")].map(b => b.textContent));
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	_ = json.Unmarshal([]byte(out), &labels)
	return labels
}

// clickEntryAction clicks the button labelled label under the last entry containing text.
func clickEntryAction(t *testing.T, tab *chromium.Tab, text, label string) {
	t.Helper()
	ok, err := chromium.Eval[bool](tab, 5*time.Second, `(() => {
		const es = [...document.querySelectorAll("#transcript .entry")].filter(e => e.textContent.includes(`+jsString(text)+`));
		const b = [...es[es.length - 1].querySelectorAll(".entry-actions button")].find(b => b.textContent === `+jsString(label)+`);
		if (!b) return false;
		b.focus(); b.click(); return true;
	})()`)
	if err != nil || !ok {
		t.Fatalf("no %q button under the entry %q: %v", label, text, err)
	}
}

func countEntries(t *testing.T, tab *chromium.Tab, text string) int {
	t.Helper()
	n, _ := chromium.Eval[int](tab, 5*time.Second, `[...document.querySelectorAll("#transcript .entry")].filter(e => e.textContent.includes(`+jsString(text)+`)).length`)
	return n
}

// TestRecoveryRevisionConflictPrompt: a prompt whose approved write meets a moved workspace
// fails with WORKSPACE_REVISION_CONFLICT; the entry offers "Re-read & retry" (and no plain
// Retry); it re-inspects, runs the prompt again — which asks for approval again — and
// succeeds.
func TestRecoveryRevisionConflictPrompt(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	sendPrompt(t, tab, "Create conflict-notes.md")
	waitApproval(t, tab, "workspace.createFile")
	// The workspace moves on while the card waits: the planned expectedRevision is stale.
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":"# moved on\n"}`)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	labels := entryActions(t, tab, "✗ workspace.createFile [WORKSPACE_REVISION_CONFLICT]")
	if strings.Join(labels, "|") != "Re-read & retry" {
		t.Fatalf("actions of a revision conflict: %q, want only Re-read & retry", labels)
	}
	waitRunDone(t, tab)
	clickEntryAction(t, tab, "✗ workspace.createFile [WORKSPACE_REVISION_CONFLICT]", "Re-read & retry")
	// The prompt runs again and asks for approval again.
	waitApproval(t, tab, "workspace.createFile")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✓ workspace.createFile")
	waitRunDone(t, tab)
	directCall(t, tab, "workspace.readFile", `{"path":"conflict-notes.md"}`)
	if n := countEntries(t, tab, "Create conflict-notes.md"); n != 2 {
		t.Errorf("the prompt ran %d times, want 2 (the run and its retry)", n)
	}
	noConsoleErrors(t, tab)
}

// TestRecoveryNonRetryablePrompt: WORKSPACE_FILE_NOT_FOUND is not retryable: no Retry.
func TestRecoveryNonRetryablePrompt(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	sendPrompt(t, tab, `Change missing.md from "old" to "new"`)
	labels := entryActions(t, tab, "[WORKSPACE_FILE_NOT_FOUND]")
	waitRunDone(t, tab)
	for _, l := range labels {
		if l == "Retry" || l == "Re-read & retry" {
			t.Fatalf("a non-retryable error offers %q (actions %q)", l, labels)
		}
	}
	// The error's details are shown (REFERENCE §3.2 chat format).
	waitContains(t, tab, "#transcript .entry-details", `"path": "missing.md"`)
	noConsoleErrors(t, tab)
}

// TestRecoveryRefreshPreview: a direct edit (the editor) that makes the preview throw fails
// with PREVIEW_RUNTIME_ERROR and details.applied; the entry offers Refresh preview and no
// Retry, and Refresh preview refreshes without re-running the write.
func TestRecoveryRefreshPreview(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	directCall(t, tab, "workspace.openFile", `{"path":"app.js"}`)
	waitText(t, tab, "#editor-path", "app.js")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `webcodingEditor.path() === "app.js"`); err != nil {
		t.Fatal(err)
	}
	// Replace the editor's text as a paste would (a user edit through the widget).
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const v = webcodingEditor.view(); v.focus(); v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: 'throw new Error("boom for recovery");\n' } }); return true; })()`); err != nil {
		t.Fatal(err)
	}
	labels := entryActions(t, tab, "[PREVIEW_RUNTIME_ERROR]")
	if strings.Join(labels, "|") != "Refresh preview" {
		html, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#transcript").innerHTML`)
		t.Fatalf("actions of an applied preview failure: %q, want only Refresh preview; transcript %s", labels, html)
	}
	waitContains(t, tab, "#transcript .entry-details", `"applied": true`)
	rev := int(directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64))
	recordEvents(t, tab)
	clickEntryAction(t, tab, "[PREVIEW_RUNTIME_ERROR]", "Refresh preview")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `window.__events.some(e => e.kind === "tool" && e.name === "preview.refresh" && e.type !== "started")`); err != nil {
		t.Fatalf("Refresh preview did not call preview.refresh: %v", err)
	}
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `window.__events.filter(e => e.kind === "tool" && e.name === "workspace.writeFile").length`); n != 0 {
		t.Errorf("Refresh preview re-ran the applied write (%d writeFile events)", n)
	}
	if got := int(directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64)); got != rev {
		t.Errorf("revision %d after Refresh preview, want %d (nothing re-applied)", got, rev)
	}
	for _, e := range tab.Errors() {
		if !strings.Contains(e.Text, "boom for recovery") {
			t.Errorf("console error: %v", e)
		}
	}
}

// waitEntryCount waits until n transcript entries contain text.
func waitEntryCount(t *testing.T, tab *chromium.Tab, text string, n int) {
	t.Helper()
	expr := fmt.Sprintf(`[...document.querySelectorAll("#transcript .entry")].filter(e => e.textContent.includes(%s)).length >= %d`, jsString(text), n)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, expr); err != nil {
		t.Fatalf("want %d entries with %q: %v", n, text, err)
	}
}

// TestBrowserPackageUnitsInChromium runs wasm/cmd/browser's own Go tests (notice text, provider
// recovery, tool-call errors and the bounded re-run) compiled for GOOS=js in a page. The pure
// rules (recovery mapping, quick-open ranking, the line diff) moved to wasm/ui/views and
// wasm/filediff and run natively.
func TestBrowserPackageUnitsInChromium(t *testing.T) {
	t.Parallel()
	bin := chromium.BuildTestWasm(t, repoRoot(), "./wasm/cmd/browser")
	out, code := chromium.RunGoWasm(t, bin, 90*time.Second, "-test.v")
	if code != 0 || !strings.Contains(out, "\nPASS") || strings.Contains(out, "--- FAIL") {
		t.Fatalf("wasm/cmd/browser tests exited with %d:\n%s", code, out)
	}
	for _, name := range []string{"TestNoticeText", "TestProviderRecovery", "TestToolCallErrorAndDetails", "TestParseRequestTimeout"} {
		if !strings.Contains(out, "--- PASS: "+name) {
			t.Errorf("%s did not pass:\n%s", name, out)
		}
	}
}
