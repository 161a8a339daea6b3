// Package chromium is the shared headless-Chromium harness of the browser tests (e2e/browser
// and any package that runs Go code in a page).
//
// One browser per test binary: Start launches it (lazily, once) and Shutdown, called from
// TestMain, closes it; every test opens its own tab with NewTab (PLATFORM "chromedp": browser
// start costs 1.3–1.8 s, a tab a few ms). The browser is Debian's chromium-headless-shell for
// tests (SharedKind) and its Chromium for benchmarks and NewFullTab/NewProfileTab (Kind): CHROME_PATH when
// set, else the kind's binary on PATH; when none is found the harness runs
// `apt-get install -y <package>` once (as root only) and otherwise fails the
// test with a message that says how to install it. Flags: headless, no-sandbox (tests run as
// root in containers), disable-gpu, no-first-run, disable-background-networking,
// disable-component-update, disable-sync, disable-dev-shm-usage and a fresh user-data-dir;
// outside benchmarks also --js-flags=--liftoff-only (functionalJSFlags: CPU, not behaviour).
// A test binary may open its browser contexts without service workers (ServiceWorkers; the
// top-level page has no navigator.serviceWorker, as in a browser that offers none) and open
// the tabs of its service-worker tests with NewServiceWorkerTab: installing the site's worker
// (it precaches every page's assets) cost a fresh context 1.3 CPU-s.
//
// NewRecycledTab hands a test a tab of a browser context of its own that an earlier test used
// and that was reset when that test ended (site data, sessionStorage, history, new-document
// scripts, emulation; recycle.go says what is reset and what carries over: the HTTP cache and
// the renderer): a studio start there cost 1.31–1.38 CPU-s against 2.20–2.27 in a new context.
// TestRecycledTabIsReset holds the reset to what a fresh tab reads.
//
// A Tab records the page's console messages and uncaught exceptions, so tests can assert
// "no console errors" (Tab.Errors). RunGoWasm serves a GOOS=js test binary with wasm_exec.js
// and runs it in a tab, returning its output and exit code: this is how adapter packages
// that need a real browser (IndexedDB) run their Go tests.
package chromium
