package browser

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestVersionHistory: three edits → four checkpoints listed with the tools that made them;
// selecting the first shows its diff against the current files; a restore confirmed after the
// workspace moved on is refused with WORKSPACE_REVISION_CONFLICT and "Re-read & retry"
// (no plain Retry) restores it; the files are back, the restore is traced as an operation,
// and Undo returns the files from before the restore.
func TestVersionHistory(t *testing.T) {
	tab := openIsolatedStudio(t, "")
	orig := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"console.log(\"edited for history\");\n"}`)
	directCall(t, tab, "workspace.createFile", `{"path":"history-notes.md","source":"# notes\n"}`)
	directCall(t, tab, "preview.setTheme", `{"theme":"emerald"}`)
	// Show the History tab of the inspector (when the inspector has tabs).
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const b = document.querySelector("#inspector-tab-history"); if (b) b.click(); return true; })()`); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "history panel visible with 4 checkpoints", `(() => {
		const p = document.querySelector("#history-panel");
		return !p.hidden && p.querySelectorAll(".history-row").length === 4;
	})()`)
	tools, _ := chromium.Eval[string](tab, 5*time.Second, `[...document.querySelectorAll("#history-panel .history-tool")].map(e => e.textContent).join(",")`)
	if tools != "preview.setTheme,workspace.createFile,workspace.writeFile,hydrate" {
		t.Fatalf("checkpoint tools (newest first) %q", tools)
	}
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#history-panel .history-row time").length`); n != 4 {
		t.Errorf("%d checkpoints show a time", n)
	}
	first, _ := chromium.Eval[string](tab, 5*time.Second, `[...document.querySelectorAll("#history-panel .history-row button")].pop().dataset.revision`)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#history-"+first))); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "diff against the current files", `(() => {
		const d = document.querySelector("#history-panel .history-diff");
		if (!d) return false;
		const files = [...d.querySelectorAll(".diff-file")].map(f => f.querySelector(".diff-path").textContent + " " + f.querySelector(".diff-status").textContent);
		return files.join(",") === "app.js modified,history-notes.md deleted,styles.css modified" &&
			[...d.querySelectorAll(".diff-del")].some(e => e.textContent.includes("edited for history"));
	})()`)

	// The workspace moves on after the diff was shown: the restore names a stale revision.
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":"# moved on\n"}`)
	recordEvents(t, tab)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#history-restore"))); err != nil {
		t.Fatal(err)
	}
	cur := strconv.FormatFloat(directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64), 'f', -1, 64)
	// The dialog names the current revision (not the one the diff was computed at).
	paletteWait(t, tab, "confirm dialog naming the current revision "+cur, `document.querySelector("#confirm-dialog").open && document.querySelector("#confirm-dialog-title").textContent.includes("Restore revision `+first+`") && document.querySelector("#confirm-dialog-text").textContent.includes("current files (revision `+cur+`)")`)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#confirm-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	labels := entryActions(t, tab, "[WORKSPACE_REVISION_CONFLICT]")
	if strings.Join(labels, "|") != "Re-read & retry" {
		t.Fatalf("actions of a stale restore: %q", labels)
	}
	if src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"]; src == orig {
		t.Fatal("the stale restore changed the files")
	}
	// Re-read & retry refreshes the diff against the current files and asks again; Cancel
	// restores nothing.
	clickEntryAction(t, tab, "[WORKSPACE_REVISION_CONFLICT]", "Re-read & retry")
	paletteWait(t, tab, "re-read diff and a new confirm", `document.querySelector("#confirm-dialog").open &&
		document.querySelector("#history-panel .history-diff h3").textContent.includes("Current files (revision `+cur+`)") &&
		document.querySelector("#confirm-dialog-text").textContent.includes("current files (revision `+cur+`)") &&
		!document.querySelector("#confirm-dialog-text").textContent.includes("refused")`)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#confirm-dialog-cancel"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Restore of revision "+first+" cancelled; nothing changed.")
	if src := directCall(t, tab, "workspace.readFile", `{"path":"README.md"}`)["source"]; src != "# moved on\n" {
		t.Fatalf("a cancelled re-read restore changed the files: README.md %q", src)
	}
	clickEntryAction(t, tab, "[WORKSPACE_REVISION_CONFLICT]", "Re-read & retry")
	paletteWait(t, tab, "confirm dialog again", `document.querySelector("#confirm-dialog").open`)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#confirm-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Restored revision "+first+" as revision")
	if src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"]; src != orig {
		t.Errorf("app.js after restore: %q", src)
	}
	resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"history-notes.md"},"_meta":{"source":"local","mode":"direct"}}}`)
	if !strings.Contains(toJSON(resp), "WORKSPACE_FILE_NOT_FOUND") {
		t.Errorf("history-notes.md after restoring the first checkpoint: %s", toJSON(resp))
	}
	if got, err := chromium.WaitInFrame(tab, 10*time.Second, accentExpr, "#8b5cf6"); err != nil {
		t.Errorf("iframe --accent after restore = %q: %v", got, err)
	}
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `window.__events.filter(e => e.kind === "tool" && e.name === "workspace/restoreCheckpoint").length`); n < 4 {
		t.Errorf("%d lifecycle events of workspace/restoreCheckpoint, want started+failed and started+completed", n)
	}
	paletteWait(t, tab, "restore listed as the newest checkpoint", `document.querySelector("#history-panel .history-tool").textContent === "workspace/restoreCheckpoint"`)

	// Undo returns the files from before the restore.
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`[aria-label="Undo last edit"]`))); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"]
		if src == "console.log(\"edited for history\");\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("app.js after undo: %q", src)
		}
		time.Sleep(100 * time.Millisecond)
	}
	directCall(t, tab, "workspace.readFile", `{"path":"history-notes.md"}`)
	if src := directCall(t, tab, "workspace.readFile", `{"path":"README.md"}`)["source"]; src != "# moved on\n" {
		t.Errorf("README.md after undo: %q", src)
	}
	noConsoleErrors(t, tab)
}
