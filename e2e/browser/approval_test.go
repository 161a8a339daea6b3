package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestApprovalCardDiff: the "Make it emerald" card shows the lines preview.setTheme would
// change in styles.css (the old violet tokens removed, the emerald ones added), computed in
// the page; the diff never reaches approvals/list.
func TestApprovalCardDiff(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	sendPrompt(t, tab, "Make it emerald")
	waitApproval(t, tab, "preview.setTheme")
	paletteWait(t, tab, "diff rows", `(() => {
		const c = document.querySelector(".approval-card");
		const del = [...c.querySelectorAll(".diff-del")].map(e => e.textContent);
		const add = [...c.querySelectorAll(".diff-add")].map(e => e.textContent);
		return c.querySelector(".diff-path").textContent === "styles.css" &&
			del.some(l => l.includes("--accent: #8b5cf6;")) && del.some(l => l.includes("--accent-soft: #f0eaff;")) &&
			add.some(l => l.includes("--accent: #10b981;")) && add.some(l => l.includes("--accent-soft: #e7fbf3;")) &&
			del.length === 2 && add.length === 2;
	})()`)
	list := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"approvals/list"}`)
	if s := toJSON(list); strings.Contains(s, "#10b981") || strings.Contains(s, "diff") || strings.Contains(s, `"arguments"`) {
		t.Errorf("approvals/list carries the diff or the arguments: %s", s)
	}
	// Nothing changed before approval.
	if src := directCall(t, tab, "workspace.readFile", `{"path":"styles.css"}`)["source"].(string); strings.Contains(src, "#10b981") {
		t.Fatal("the diff preview changed the workspace")
	}
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✓ preview.setTheme")
	if got, err := chromium.WaitInFrame(tab, 10*time.Second, accentExpr, "#10b981"); err != nil {
		t.Fatalf("iframe --accent = %q: %v", got, err)
	}
	noConsoleErrors(t, tab)
}

// TestApproveAllForThisRun: "Approve all for this run" on the first card of a three-edit
// prompt approves the rest of that run (no more cards), and the next run asks again.
func TestApproveAllForThisRun(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	recordEvents(t, tab)
	sendPrompt(t, tab, "Make it amber, add a feature card and update the hero")
	waitApproval(t, tab, "preview.setTheme")
	waitText(t, tab, "#approve-run-0", "Approve all for this run")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-run-0"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✓ preview.updateHero")
	waitRunDone(t, tab)
	for _, tool := range []string{"✓ preview.setTheme", "✓ preview.addFeature", "✓ preview.updateHero"} {
		waitContains(t, tab, "#transcript", tool)
	}
	// Only the first call ever showed a card.
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `window.__events.filter(e => e.kind === "approvals" && e.approvals.length > 0).map(e => e.approvals[0].id).filter((v, i, a) => a.indexOf(v) === i).length`); n != 1 {
		t.Errorf("%d distinct approval cards were shown, want 1", n)
	}
	if got, err := chromium.WaitInFrame(tab, 10*time.Second, accentExpr, "#f59e0b"); err != nil {
		t.Fatalf("iframe --accent = %q: %v", got, err)
	}
	// A later run asks again.
	sendPrompt(t, tab, "Make it rose")
	waitApproval(t, tab, "preview.setTheme")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#deny-0"))); err != nil {
		t.Fatal(err)
	}
	waitRunDone(t, tab)
	if got, _ := chromium.EvalInFrame[string](tab, 5*time.Second, accentExpr); got == "#f43f5e" {
		t.Error("the denied later run changed the theme")
	}
	noConsoleErrors(t, tab)
}
