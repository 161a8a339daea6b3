package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestSameTabNavigationIsWritable: navigating the same tab to the studio again (a retyped URL,
// a ?prompt= link) must not come up read-only: the previous page still holds the workspace
// lock for a moment while it unloads, and the new page waits for it (lock.go).
func TestSameTabNavigationIsWritable(t *testing.T) {
	tab := openStudio(t)
	waitContains(t, tab, "#storage-mode", "IndexedDB")
	prev := ""
	for i, url := range []string{site(t) + "?prompt=x", site(t), site(t) + "?prompt=y"} {
		if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		waitText(t, tab, "#status-text", "Ready")
		waitContains(t, tab, "#storage-mode", "IndexedDB")
		if prev != "" {
			if got := readREADME(t, tab); got != prev {
				t.Errorf("navigation %d: README = %q, want the previous page's stored %q", i, got, prev)
			}
		}
		// Stays writable: the write is stored (the next navigation reads it back) and no
		// read-only notice is shown.
		prev = "navigation " + string(rune('0'+i))
		directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":`+jsString(prev)+`}`)
		time.Sleep(300 * time.Millisecond) // let a late read-only switch show, if any
		if mode, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#storage-mode").textContent`); !strings.Contains(mode, "IndexedDB") {
			t.Errorf("navigation %d (%s): storage %q after a write", i, url, mode)
		}
		if hidden, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector("#studio-notice").hidden`); !hidden {
			notice, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#studio-notice").textContent`)
			t.Errorf("navigation %d (%s): notice shown: %q", i, url, notice)
		}
	}
	noConsoleErrors(t, tab)
}

// TestReadOnlyTabTakesOverWhenFirstLeaves: a true second tab is read-only; when the first
// tab goes away its queued lock request is granted and it switches to writable, reloaded
// from IndexedDB (the first tab's stored README wins over its own unsaved write).
func TestReadOnlyTabTakesOverWhenFirstLeaves(t *testing.T) {
	first := openStudio(t)
	waitContains(t, first, "#storage-mode", "IndexedDB")
	stored := "stored by the first tab " + time.Now().Format(time.RFC3339Nano)
	directCall(t, first, "workspace.writeFile", `{"path":"README.md","source":`+jsString(stored)+`}`)

	second := chromium.NewTab(t)
	if err := second.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, second, "#status-text", "Ready")
	waitContains(t, second, "#studio-notice", "Read-only")
	directCall(t, second, "workspace.writeFile", `{"path":"README.md","source":"unsaved in the second tab"}`)

	if err := chromedp.Cancel(first.Ctx); err != nil { // close the first tab
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](second, loadTimeout, `document.querySelector("#storage-mode").textContent.includes("IndexedDB")`); err != nil {
		locks, _ := chromium.Eval[string](second, 5*time.Second, `navigator.locks.query().then(q => JSON.stringify(q))`)
		t.Fatalf("the second tab stays read-only after the first left: %v; locks %s; console %v", err, locks, second.Console())
	}
	if _, err := chromium.WaitFor[bool](second, loadTimeout, `document.querySelector("#studio-notice").hidden`); err != nil {
		t.Fatalf("the read-only notice stays after the first tab left: %v", err)
	}
	if got := readREADME(t, second); got != stored {
		t.Errorf("README after take-over = %q, want the stored %q", got, stored)
	}
	noConsoleErrors(t, second)
}
