package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// slowCommitHook delays, while window.__slowCommit is true, every "complete" event of a
// readwrite IndexedDB transaction by 1.5 s (listeners and oncomplete alike): the write is
// stored, but the studio learns it only later — the window a new-user test found in which the
// header already said "Saved in this browser".
const slowCommitHook = `(() => {
  const tx0 = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (...args) {
    const tx = tx0.apply(this, args);
    if (!window.__slowCommit || args[1] !== "readwrite") return tx;
    const late = (fn) => (ev) => setTimeout(() => fn.call(tx, ev), 1500);
    const add = tx.addEventListener.bind(tx);
    tx.addEventListener = (type, fn, opts) => add(type, type === "complete" ? late(fn) : fn, opts);
    Object.defineProperty(tx, "oncomplete", { set(fn) { add("complete", late(fn)); }, configurable: true });
    return tx;
  };
})();`

// TestSavingUntilStored (docs/design.md §5.38): the preview may show an edit before its
// IndexedDB write is confirmed, but the header never says "Saved in this browser" for it
// until the write is: while the writing call runs it says "Saving…", and "Saved in this
// browser" comes back once the call has returned.
func TestSavingUntilStored(t *testing.T) {
	t.Parallel()
	tab := chromium.NewRecycledTab(t)
	func() {
		defer bootSlot(t)()
		if err := tab.Do(loadTimeout, onNewDocument(slowCommitHook), chromedp.Navigate(site(t))); err != nil {
			t.Fatal(err)
		}
		waitText(t, tab, "#status-text", "Ready")
	}()
	waitContains(t, tab, "#storage-mode", "Saved in this browser")
	start := `(() => { window.__slowCommit = true; window.__done = false;
  webcodingHandle(JSON.stringify({jsonrpc: "2.0", id: 5, method: "tools/call", params: {name: "workspace.writeFile",
    arguments: {path: "styles.css", source: "h1 { color: rgb(9, 8, 7); }"}, _meta: {source: "local", mode: "direct"}}}))
    .then(() => { window.__done = true; });
  return true; })()`
	if _, err := chromium.Eval[bool](tab, 5*time.Second, start); err != nil {
		t.Fatal(err)
	}
	sawSaving := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(40 * time.Millisecond) {
		st, err := chromium.Eval[[]any](tab, 5*time.Second, `[document.querySelector("#storage-mode").textContent, window.__done]`)
		if err != nil {
			t.Fatal(err)
		}
		text, done := st[0].(string), st[1] == true
		if done {
			break
		}
		if strings.Contains(text, "Saved in this browser") && sawSaving {
			t.Fatalf("the header went back to %q while the write was still unconfirmed", text)
		}
		sawSaving = sawSaving || strings.Contains(text, "Saving…")
	}
	if !sawSaving {
		t.Fatal(`the header never said "Saving…" while the write was unconfirmed`)
	}
	if done, _ := chromium.Eval[bool](tab, 5*time.Second, `window.__done`); !done {
		t.Fatal("the write never returned")
	}
	chromium.Eval[bool](tab, 5*time.Second, `(window.__slowCommit = false, true)`)
	waitContains(t, tab, "#storage-mode", "Saved in this browser")
}
