package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// killHook wraps IDBObjectStore.prototype.put so that, when window.__killStep names a step of
// persisting README.md, the page logs "WEBCODING-KILL <step>" and then hangs its main thread at
// exactly that point (the test then crashes the renderer):
//
//   - files-before: inside the transaction, before the file record is put;
//   - files-after: the file record put, the metadata not yet;
//   - meta-after: both records put, the transaction not yet committed;
//   - committed: the transaction committed, its "complete" event not yet seen by the core (the
//     tool result never reaches the caller: an unconfirmed edit that is stored).
const killHook = `(() => {
  const put = IDBObjectStore.prototype.put;
  ` + hangJS + `
  IDBObjectStore.prototype.put = function (value, key) {
    const step = window.__killStep;
    if (!step) return put.call(this, value, key);
    if (this.name === "files" && key === "README.md") {
      if (step === "files-before") hang(step);
      const r = put.call(this, value, key);
      window.__readmePut = true;
      if (step === "files-after") hang(step);
      if (step === "committed") this.transaction.addEventListener("complete", () => hang(step));
      return r;
    }
    if (this.name === "workspaces" && key === "current" && window.__readmePut) {
      const r = put.call(this, value, key);
      if (step === "meta-after") hang(step);
      return r;
    }
    return put.call(this, value, key);
  };
})();`

// hangJS defines hang(step): it logs "WEBCODING-KILL <step>" and then blocks the page's main
// thread for good, so nothing after that point runs before the test crashes the renderer.
const hangJS = `const hang = (step) => { console.log("WEBCODING-KILL " + step); for (;;) {} };`

// onNewDocument runs src in every document the tab loads from now on, before the page's own
// scripts (the fault hooks: they exist only in pages a test opened, never in the site).
func onNewDocument(src string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return chromedp.Void{}, err
	}
}

// killAt waits until the tab logged "WEBCODING-KILL step" (a hook hangs the page there), then
// crashes its renderer (Page.crash) and ends the tab's session: nothing after the step ran.
func killAt(t *testing.T, tab *chromium.Tab, step string) {
	t.Helper()
	if !waitConsole(t, tab, "WEBCODING-KILL "+step, loadTimeout) {
		t.Fatalf("the page never reached step %s; console %v", step, tab.Console())
	}
	crash := chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, page.Crash, cdp.Empty{})
		return chromedp.Void{}, err
	})
	_ = tab.Do(5*time.Second, crash) // the crash ends the session; its error is expected
	_ = chromedp.Cancel(tab.Ctx)
}

// tabAfterKill opens the studio in profile itself (the blank tab of the killed tab's browser
// context: what a user's next tab on the profile sees, without the cost of another new tab)
// once the killed tab's workspace lock is released, and checks that the tab is writable. A
// page that starts while a dying tab still holds the lock waits only lockWait (1.5 s,
// wasm/cmd/browser/lock.go) and then shows the workspace read-only; a crash can take longer
// than that to release it on a loaded machine.
// The wait is a request for the lock from a plain document of the site's origin (sw.js): it is
// granted, and released at once, when no page holds it.
func tabAfterKill(t *testing.T, profile *chromium.Tab) *chromium.Tab {
	t.Helper()
	b := profile
	if err := b.Do(loadTimeout, chromedp.Navigate(site(t)+"sw.js")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.Eval[bool](b, loadTimeout, `navigator.locks.request("web-coding-studio/workspace", () => true)`); err != nil {
		t.Fatalf("the killed tab's workspace lock was never released: %v", err)
	}
	if err := b.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, b, "#status-text", "Ready")
	if hidden, _ := chromium.Eval[bool](b, 5*time.Second, `document.querySelector("#studio-notice").hidden`); !hidden {
		t.Fatalf("the next tab is read-only although no other tab holds the workspace")
	}
	return b
}

// waitConsole waits until the tab logged a line containing s.
func waitConsole(t *testing.T, tab *chromium.Tab, s string, timeout time.Duration) bool {
	t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, e := range tab.Console() {
			if strings.Contains(e.Text, s) {
				return true
			}
		}
	}
	return false
}

// TestLostWorkFaultInjection (issue 14, fault injection): a tab is killed (renderer crash) in
// the middle of every persistence step of an edit. Afterwards a new tab on the same profile
// takes the workspace lock (writable, not read-only), nothing confirmed is lost (the
// confirmed README and every other file are intact), the interrupted edit is either fully
// there or fully absent (never torn), and the studio claims only what is stored.
func TestLostWorkFaultInjection(t *testing.T) {
	// Not t.Parallel: its parallel subtests (each in a browser context of its own, so the kills
	// touch no other tab) then run before the suite's parallel tests, four at a time, instead
	// of queueing behind them when go test reaches this test — measured, they started 251 s
	// into a 401 s run and were all that was left for its last 50 s (docs/performance.md
	// "Recycled tabs").
	for _, step := range []string{"files-before", "files-after", "meta-after", "committed"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			profile := chromium.NewRecycledTab(t)
			a := chromium.NewTabIn(t, profile)
			if err := a.Do(loadTimeout, onNewDocument(killHook), chromedp.Navigate(site(t))); err != nil {
				t.Fatal(err)
			}
			waitText(t, a, "#status-text", "Ready")
			waitContains(t, a, "#storage-mode", "Saved in this browser")
			confirmed := "confirmed before the kill " + step
			directCall(t, a, "workspace.writeFile", `{"path":"README.md","source":`+jsString(confirmed)+`}`)
			before := map[string]string{}
			for _, p := range []string{"index.html", "styles.css", "app.js"} {
				before[p] = directCall(t, a, "workspace.readFile", `{"path":"`+p+`"}`)["source"].(string)
			}
			rev := int(directCall(t, a, "workspace.getStatus", `{}`)["revision"].(float64))

			// The interrupted edit: its result must never arrive.
			unconfirmed := "interrupted edit " + step
			req := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"workspace.writeFile","arguments":{"path":"README.md","source":` + jsString(unconfirmed) + `},"_meta":{"source":"local","mode":"direct"}}}`
			if _, err := chromium.Eval[bool](a, 5*time.Second, `window.__killStep = `+jsString(step)+`, window.__e1 = null, setTimeout(() => webcodingHandle(`+jsString(req)+`).then(r => { window.__e1 = r; console.log("WEBCODING-CONFIRMED " + r); }), 0), true`); err != nil {
				t.Fatal(err)
			}
			killAt(t, a, step)
			if waitConsole(t, a, "WEBCODING-CONFIRMED", 0) {
				t.Fatalf("the interrupted edit was confirmed before the kill")
			}

			// The next tab (no wait for the preview's first ack: a crash dump under load can
			// delay the new frame's renderer past the ack timeout, which is not under test here).
			b := tabAfterKill(t, profile)
			waitContains(t, b, "#storage-mode", "Saved in this browser")
			got := readREADME(t, b)
			switch {
			case got == confirmed:
			case got == unconfirmed && step == "committed":
				// Stored by a committed transaction whose result never arrived: present, and
				// never reported as confirmed to the caller (checked above).
			default:
				t.Errorf("README after a kill at %s = %q: want the confirmed %q (the interrupted edit only if committed)", step, got, confirmed)
			}
			for p, want := range before {
				if src := directCall(t, b, "workspace.readFile", `{"path":"`+p+`"}`)["source"]; src != want {
					t.Errorf("%s changed by a kill at %s", p, step)
				}
			}
			st := directCall(t, b, "workspace.getStatus", `{}`)
			if r := int(st["revision"].(float64)); r < rev || r > rev+1 || (r == rev+1) != (got == unconfirmed) {
				t.Errorf("revision %d after a kill at %s (confirmed %d, README %q): the revision must match what is stored", r, step, rev, got)
			}
			for _, e := range b.Errors() {
				t.Errorf("console error in the next tab: %v", e)
			}
		})
	}
}
