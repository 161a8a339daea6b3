package chromium

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// siteServer serves a small page at every path of a loopback origin.
func siteServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>page</title><p>` + r.URL.Path + `</p>`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// dirtyTab leaves site data of every kind, history, a new-document script, a viewport and
// touch emulation and console lines in a recycled tab.
func dirtyTab(t *testing.T, tab *Tab, origin string) {
	t.Helper()
	if err := tab.OnNewDocument(`window.__leftover = 1`); err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(20*time.Second,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(origin+"/one")); err != nil {
		t.Fatal(err)
	}
	ok, err := Eval[bool](tab, 20*time.Second, `(async () => {
		localStorage.setItem("k", "v");
		sessionStorage.setItem("k", "v");
		document.cookie = "c=1; max-age=3600";
		await new Promise((res, rej) => { const r = indexedDB.open("db", 1); r.onupgradeneeded = () => r.result.createObjectStore("s"); r.onsuccess = () => { r.result.close(); res(); }; r.onerror = rej; });
		const root = await navigator.storage.getDirectory();
		const f = await root.getFileHandle("f.txt", {create: true});
		const w = await f.createWritable(); await w.write("x"); await w.close();
		await (await caches.open("c")).put("/x", new Response("x"));
		console.log("LEFTOVER-LINE");
		return window.__leftover === 1 && screen.width === 390;
	})()`)
	if err != nil || !ok {
		t.Fatalf("setting up the leftovers: %v %v", ok, err)
	}
	if err := tab.Do(20*time.Second, chromedp.Navigate(origin+"/two")); err != nil {
		t.Fatal(err)
	}
	// As a studio page does: a database connection left open and a Web Lock held.
	ok, err = Eval[bool](tab, 20*time.Second, `(async () => {
		window.__db = await new Promise((res, rej) => { const r = indexedDB.open("open-db", 1); r.onupgradeneeded = () => r.result.createObjectStore("s"); r.onsuccess = () => res(r.result); r.onerror = rej; });
		let held; const got = new Promise(r => held = r);
		navigator.locks.request("held-lock", () => { held(); return new Promise(() => {}); });
		await got;
		return (await navigator.locks.query()).held.length === 1;
	})()`)
	if err != nil || !ok {
		t.Fatalf("holding a lock and a database: %v %v", ok, err)
	}
	if _, err := Eval[bool](tab, 5*time.Second, `fetch("/missing-404").then(() => true)`); err != nil {
		t.Fatal(err)
	}
}

// TestRecycledTabIsReset: a tab NewRecycledTab hands out after another test used it shows
// nothing of that test — no site data of any kind, no history beyond the blank entry, no
// script on new documents, the default viewport, no console lines — and a tab the reset may
// not clean (pages of two origins, Discard, a failed test) is never handed out again.
func TestRecycledTabIsReset(t *testing.T) {
	for _, sw := range []bool{true, false} {
		t.Run(map[bool]string{true: "with-service-workers", false: "without-service-workers"}[sw], func(t *testing.T) {
			was := ServiceWorkers
			ServiceWorkers = sw
			defer func() { ServiceWorkers = was }()
			testRecycledTabIsReset(t)
		})
	}
}

func testRecycledTabIsReset(t *testing.T) {
	parent := t
	origin := siteServer(t)
	var first *Tab
	t.Run("dirty", func(t *testing.T) {
		first = NewRecycledTab(t)
		dirtyTab(t, first, origin)
	})
	t.Run("clean", func(t *testing.T) {
		tab := NewRecycledTab(t)
		if tab != first {
			t.Fatal("the released tab was not reused (the reset failed; see the log)")
		}
		for _, e := range tab.Console() {
			if strings.Contains(e.Text, "LEFTOVER-LINE") {
				t.Errorf("the console still holds the earlier test's line %q", e.Text)
			}
		}
		if f := tab.FailedRequests(); len(f) > 0 {
			t.Errorf("the tab still holds failed requests: %v", f)
		}
		got := probe(t, tab, origin)
		// A tab of a new browser context, as NewIsolatedTab opens, reads the same but for
		// history.length: the recycled tab keeps its blank entry before the page.
		fresh := probe(t, NewIsolatedTab(t), origin)
		fresh = strings.Replace(fresh, `"history":1`, `"history":2`, 1)
		if got != fresh {
			t.Errorf("the recycled tab shows what the earlier test left:\n got %s\nwant %s (a fresh tab's)", got, fresh)
		}
		wantNothingLeft(t, got)
	})
	t.Run("dirty-from-another-tab", func(t *testing.T) {
		// A blank "profile" tab whose other tab (NewTabIn) left the site data.
		tab := NewRecycledTab(t)
		if tab != first {
			t.Fatal("the clean tab was not reused")
		}
		dirtyTab(t, NewTabIn(t, tab), origin)
	})
	t.Run("clean-again", func(t *testing.T) {
		tab := NewRecycledTab(t)
		if tab != first {
			t.Fatal("the released tab was not reused (the reset failed; see the log)")
		}
		wantNothingLeft(t, probe(t, tab, origin))
	})
	// A tab the reset may not clean is never handed out again; the tab handed out instead
	// is clean and taken by the next case.
	for _, c := range []struct {
		name, what string
		spoil      func(t *testing.T, tab *Tab)
	}{
		{"another-page-left-open", "whose context still had another page open", func(t *testing.T, tab *Tab) {
			// A page of the context that outlives the test: it is still open when the
			// reset looks (its cancel runs when the whole test ends).
			other, cancel := chromedp.NewContext(tab.Ctx)
			parent.Cleanup(cancel)
			if err := chromedp.Do(other, chromedp.Navigate(origin+"/left-open")); err != nil {
				t.Fatal(err)
			}
		}},
		{"two-origins", "whose pages were on two origins", func(t *testing.T, tab *Tab) {
			if err := tab.Do(20*time.Second, chromedp.Navigate(origin+"/a"), chromedp.Navigate(siteServer(t)+"/b")); err != nil {
				t.Fatal(err)
			}
		}},
		{"discard", "that was discarded", func(t *testing.T, tab *Tab) { tab.Discard() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab := NewRecycledTab(t)
			if tab != first {
				t.Fatal("the clean tab was not reused")
			}
			c.spoil(t, tab)
		})
		t.Run("after-"+c.name, func(t *testing.T) {
			tab := NewRecycledTab(t)
			if tab == first {
				t.Fatalf("a tab %s was handed out again", c.what)
			}
			first = tab
		})
	}
}

// probe opens origin/one in tab and reads its site data, history, new-document script and
// emulated screen as JSON.
func probe(t *testing.T, tab *Tab, origin string) string {
	t.Helper()
	if err := tab.Do(20*time.Second, chromedp.Navigate(origin+"/one")); err != nil {
		t.Fatal(err)
	}
	got, err := Eval[string](tab, 20*time.Second, `(async () => {
		const root = await navigator.storage.getDirectory();
		const files = []; for await (const k of root.keys()) files.push(k);
		return JSON.stringify({
			locks: (await navigator.locks.query()).held.length, sw: "serviceWorker" in navigator,
			local: localStorage.length, session: sessionStorage.length, cookie: document.cookie,
			idb: (await indexedDB.databases()).map(d => d.name), opfs: files, caches: await caches.keys(),
			leftover: typeof window.__leftover, screen: screen.width, inner: innerWidth, touch: navigator.maxTouchPoints,
			history: history.length,
		});
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// wantNothingLeft fails t unless a probe reads no lock, no site data of any kind and no
// injected script, and service workers offered as ServiceWorkers says.
func wantNothingLeft(t *testing.T, got string) {
	t.Helper()
	want := `"locks":0,"sw":` + strconv.FormatBool(ServiceWorkers) +
		`,"local":0,"session":0,"cookie":"","idb":[],"opfs":[],"caches":[],"leftover":"undefined"`
	if !strings.Contains(got, want) {
		t.Errorf("the recycled tab shows what an earlier test left: %s, want it to contain %s", got, want)
	}
}
