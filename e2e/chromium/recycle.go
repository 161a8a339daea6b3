package chromium

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Recycled tabs.
//
// Most of a browser test's cost is opening the studio, and about 40 % of a studio start in a
// fresh browser context is the context, its tab and its renderer, and the studio module's
// 11.9 MB coming through the network service: a start in a tab that an earlier test used and
// whose site data was then cleared cost 1.31–1.38 CPU-s against 2.20–2.27 in a new context
// (six starts each, idle machine; docs/performance.md "Recycled tabs"). NewRecycledTab hands a
// test such a tab.
//
// What carries over from the earlier test, and nothing else: the browser context's HTTP cache
// (the studio's files come from it, as for a returning visitor), the renderer process, and a
// committed about:blank entry before the test's first page (history.length counts it). What is
// reset when the earlier test ended: every kind of site data of the one origin its pages were
// on (Storage.clearDataForOrigin "all": IndexedDB, localStorage, the origin private file
// system, Cache Storage, cookies, service workers) and the tab's sessionStorage of it, the
// navigation history, every script added to run on new documents (OnNewDocument, or
// Page.addScriptToEvaluateOnNewDocument called directly), the viewport and touch emulation,
// the download behaviour of the context, and the tab's console, request, dialog and frame
// records. A tab whose reset cannot be done is closed instead (which disposes its context):
// the test failed, its pages visited documents of more than one origin, another page of its
// context is still open after contextAloneWait (it could hold a lock or write after the
// clearing), the page does not answer within resetTimeout, or the test called Discard.
//
// Not reset, so a test that does any of these on its tab calls Discard (or uses
// NewIsolatedTab): a listener added with chromedp.Listen (it would outlive the test), DevTools
// domains it enabled, other emulation (CPU throttling, network conditions, media features),
// permissions it granted.

// resetTimeout bounds the whole reset of a recycled tab; past it the tab is closed.
const resetTimeout = 15 * time.Second

// maxIdleTabs bounds how many reset tabs wait in the pool; a tab released when the pool is
// full is closed.
const maxIdleTabs = 6

var pool struct {
	mu   sync.Mutex
	idle []*Tab
}

// NewRecycledTab returns a tab of a browser context of its own, as NewIsolatedTab does, but
// one that an earlier test released and that was reset (see "Recycled tabs" above) when one is
// idle; a new one otherwise. When the test ends the tab is reset and put back, or closed. The
// tab's context has service workers as ServiceWorkers says. A missing Chromium fails the test.
func NewRecycledTab(t testing.TB) *Tab {
	t.Helper()
	var tab *Tab
	pool.mu.Lock()
	for i := len(pool.idle) - 1; i >= 0; i-- {
		if pool.idle[i].serviceWorkers == ServiceWorkers {
			tab = pool.idle[i]
			pool.idle = append(pool.idle[:i], pool.idle[i+1:]...)
			break
		}
	}
	pool.mu.Unlock()
	if tab == nil {
		bctx, err := Start()
		if err != nil {
			t.Fatal(err)
		}
		tab = openTab(t, bctx, ServiceWorkers, nil, chromedp.WithNewBrowserContext())
	}
	t.Cleanup(func() {
		if t.Failed() || tab.discarded() {
			tab.cancel()
			return
		}
		if err := tab.reset(); err != nil {
			t.Logf("chromium: a recycled tab was closed, not reused: %v", err)
			tab.cancel()
			return
		}
		pool.mu.Lock()
		full := len(pool.idle) >= maxIdleTabs
		if !full {
			pool.idle = append(pool.idle, tab)
		}
		pool.mu.Unlock()
		if full {
			tab.cancel()
		}
	})
	return tab
}

// Discard marks a tab from NewRecycledTab as not reusable: it is closed when its test ends
// (for a test that changed the tab in a way the reset does not undo). No effect on other tabs.
func (t *Tab) Discard() {
	t.mu.Lock()
	t.noReuse = true
	t.mu.Unlock()
}

func (t *Tab) discarded() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.noReuse
}

// documentOrigins returns the origins of the http(s) documents the tabs of t's browser context
// loaded (top-level and framed), from the requests they made.
func (t *Tab) documentOrigins() []string {
	t.site.mu.Lock()
	defer t.site.mu.Unlock()
	return slices.Sorted(maps.Keys(t.site.origins))
}

// reset undoes what a test did to a recycled tab (see "Recycled tabs"), or fails saying why.
func (t *Tab) reset() error {
	origins := t.documentOrigins()
	if len(origins) > 1 {
		return fmt.Errorf("its pages were on %d origins %v", len(origins), origins)
	}
	t.mu.Lock()
	t.accept = true // a beforeunload dialog must not hold the navigation away
	t.mu.Unlock()
	ctx, cancel := context.WithTimeout(t.Ctx, resetTimeout)
	defer cancel()
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) error {
		if err := chromedp.Do(ctx, steps...); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	// Any other page of the context (a tab the test opened with NewTabIn that did not close,
	// a window a page opened) could hold the studio's lock or write after the clearing.
	if err := t.aloneInContext(ctx); err != nil {
		return err
	}
	err := do("scripts and emulation", func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		// Scripts on new documents have identifiers "1", "2", … per target: one more added
		// tells how many there are, and every one of them is removed, first, so that none
		// runs in the pages the reset opens.
		res, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: ";"})
		if err != nil {
			return chromedp.Void{}, err
		}
		last, err := strconv.Atoi(string(res.Identifier))
		if err != nil {
			return chromedp.Void{}, fmt.Errorf("script identifier %q: %w", res.Identifier, err)
		}
		for id := 1; id <= last; id++ {
			// An identifier already removed answers an error; that is expected.
			_, _ = cdp.Call(ctx, tg, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: page.ScriptIdentifier(strconv.Itoa(id))})
		}
		if _, err := cdp.Call(ctx, tg, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err = cdp.Call(ctx, tg, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: false})
		return chromedp.Void{}, err
	})
	if err != nil {
		return err
	}
	if len(origins) == 1 {
		// sessionStorage belongs to the tab and survives navigations: clear it from a
		// document of its origin (a 404 page of the site, where no script runs).
		if err := do("a document of "+origins[0], chromedp.Navigate(origins[0]+"/.webcoding-test-reset")); err != nil {
			return err
		}
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => { sessionStorage.clear(); return sessionStorage.length; })()`))
		if err != nil || n != 0 {
			return fmt.Errorf("clearing sessionStorage: %d items left, %v", n, err)
		}
	}
	if err := do("about:blank", chromedp.Navigate("about:blank")); err != nil {
		return err
	}
	err = do("history and site data", func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, tg, page.ResetNavigationHistory, cdp.Empty{}); err != nil {
			return chromedp.Void{}, fmt.Errorf("history: %w", err)
		}
		for _, o := range origins {
			if _, err := cdp.Call(ctx, tg, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: o, StorageTypes: string(storage.TypeAll)}); err != nil {
				return chromedp.Void{}, fmt.Errorf("site data of %s: %w", o, err)
			}
		}
		if !t.serviceWorkers {
			if _, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: noServiceWorker}); err != nil {
				return chromedp.Void{}, err
			}
		}
		info, err := cdp.Call(ctx, tg, target.GetTargetInfo, target.GetTargetInfoParams{})
		if err != nil {
			return chromedp.Void{}, err
		}
		_, err = cdp.Call(ctx, tg, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDefault, BrowserContextID: info.TargetInfo.BrowserContextID})
		return chromedp.Void{}, err
	})
	if err != nil {
		return err
	}
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil || href != "about:blank" {
		return fmt.Errorf("after the reset the tab shows %q (%v)", href, err)
	}
	t.mu.Lock()
	t.console, t.urls, t.failed, t.dialogs, t.accept = nil, nil, nil, nil, false
	t.mu.Unlock()
	t.site.mu.Lock()
	t.site.origins = nil
	t.site.mu.Unlock()
	return nil
}

// aloneInContext waits up to contextAloneWait for the tab to be the only page of its browser
// context (frames and workers are not pages), or fails naming the others.
func (t *Tab) aloneInContext(ctx context.Context) error {
	var id target.ID
	var bc cdp.BrowserContextID
	if err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		info, err := cdp.Call(ctx, tg, target.GetTargetInfo, target.GetTargetInfoParams{})
		if err == nil {
			id, bc = info.TargetInfo.TargetID, info.TargetInfo.BrowserContextID
		}
		return chromedp.Void{}, err
	}); err != nil {
		return fmt.Errorf("target info: %w", err)
	}
	deadline := time.Now().Add(contextAloneWait)
	for {
		infos, err := chromedp.Targets(t.Ctx)
		if err != nil {
			return fmt.Errorf("targets: %w", err)
		}
		var others []string
		for _, in := range infos {
			if in.BrowserContextID == bc && in.TargetID != id && in.Type == "page" {
				others = append(others, string(in.Type)+" "+in.URL)
			}
		}
		if len(others) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("other pages of its browser context are still open: %v", others)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// contextAloneWait is how long a reset waits for the other tabs of the context to close (a
// closing tab can take a moment after its test's cleanup canceled it).
const contextAloneWait = 2 * time.Second

// originOf returns scheme://host[:port] of an http(s) URL, or "".
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
