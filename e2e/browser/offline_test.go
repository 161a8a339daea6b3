package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestOfflineReload: after one visit the service worker has precached the build, so a reload
// with the server stopped still opens the studio (SPEC §2.8). CDP network emulation does not
// cover service-worker fetches, so the server really stops (a server of the test's own).
func TestOfflineReload(t *testing.T) {
	t.Parallel()
	url, stop := ownSite(t)
	tab := chromium.NewServiceWorkerTab(t)
	loadStudioAt(t, tab, url)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!!navigator.serviceWorker.controller`); err != nil {
		t.Fatalf("the service worker never controlled the page: %v", err)
	}
	// Wait until the precache is complete (install finished before activation/claim).
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `caches.keys().then(k => k.some(n => n.startsWith("webcoding-")))`); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	stop()
	t.Logf("stopped at %v", time.Since(t0))
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatalf("reload with the server stopped: %v", err)
	}
	t.Logf("reloaded at %v", time.Since(t0))
	waitText(t, tab, "#status-text", "Ready")
	t.Logf("ready at %v", time.Since(t0))
	waitContains(t, tab, "#tools-count", "tools/list · 26")
	waitContains(t, tab, "#preview-status", "acknowledged")
	for _, e := range tab.Errors() {
		// The page's own fetches while offline are served by the worker; a failed network
		// request for the navigation itself is expected to be logged by nothing.
		if !strings.Contains(e.Text, "net::ERR_CONNECTION_REFUSED") {
			t.Errorf("console error offline: %v", e)
		}
	}
}

// TestMemoryModeWithoutIndexedDB: a page where IndexedDB is unavailable runs in memory mode
// with the storage error visible in the header and returned in tool results.
func TestMemoryModeWithoutIndexedDB(t *testing.T) {
	t.Parallel()
	url := site(t)
	tab := chromium.NewRecycledTab(t)
	hide := onNewDocument(`Object.defineProperty(window, "indexedDB", {value: undefined, configurable: true});`)
	if err := tab.Do(loadTimeout, hide, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#storage-mode", "Memory only")
	waitContains(t, tab, "#storage-mode", "IndexedDB is not available")
	st := directCall(t, tab, "workspace.getStatus", `{}`)
	if st["storageMode"] != "memory" || !strings.Contains(st["storageError"].(string), "IndexedDB") {
		t.Errorf("getStatus persistence meta: %v / %v", st["storageMode"], st["storageError"])
	}
	waitContains(t, tab, "#preview-status", "acknowledged")
	noConsoleErrors(t, tab)
}
