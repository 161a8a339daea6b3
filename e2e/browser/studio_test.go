package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
)

// loadTimeout bounds a page load (studio Ready and the first preview ack) and the waits of
// the helpers. 60 s: on two cores shared with other work (load average 30–50) a single start
// measured 10–40 s; a studio that never starts still fails.
const loadTimeout = 60 * time.Second

// bootSlots bounds how many studio pages start at once. A start (wasm compile, the core's
// init and hydration, the first preview mount in a new process) is the CPU-heavy part of a
// test; with parallel tabs, four starting together on two loaded cores each took longer than
// loadTimeout. Tests queue for a slot before they navigate, so the wait is not counted
// against loadTimeout, and release it once the studio is ready.
var bootSlots = make(chan struct{}, 2)

// bootSlot takes a start slot and returns its release (idempotent; also run at cleanup).
func bootSlot(t testing.TB) (release func()) {
	t.Helper()
	bootSlots <- struct{}{}
	var once sync.Once
	release = func() { once.Do(func() { <-bootSlots }) }
	t.Cleanup(release)
	return release
}

// openStudio opens the studio in a tab of its own browser context with no site data (no
// IndexedDB, storage, service worker or locks, so no test sees another's workspace: a
// chromium.NewRecycledTab, whose HTTP cache may hold the studio's files as a returning
// visitor's does) and waits for "Ready" and the first preview ack. A second tab on the same
// profile: chromium.NewTabIn.
func openStudio(t *testing.T) *chromium.Tab {
	t.Helper()
	return openStudioIn(t, nil)
}

// openStudioIn is openStudio in a new tab of profile's browser context (nil: a recycled tab of
// its own, as openStudio).
// Tests of several tabs on one profile open a blank "profile" tab of a context of its own and
// every studio tab in it, so closing one studio tab never disposes the context of the others.
func openStudioIn(t *testing.T, profile *chromium.Tab) *chromium.Tab {
	t.Helper()
	var tab *chromium.Tab
	if profile == nil {
		tab = chromium.NewRecycledTab(t)
	} else {
		tab = chromium.NewTabIn(t, profile)
	}
	loadStudio(t, tab)
	return tab
}

// openServiceWorkerStudio is openStudio in a browser context whose pages may use service
// workers (chromium.NewServiceWorkerTab): for the tests of the worker, since this binary's
// tabs have none otherwise (TestMain).
func openServiceWorkerStudio(t *testing.T) *chromium.Tab {
	t.Helper()
	tab := chromium.NewServiceWorkerTab(t)
	loadStudio(t, tab)
	return tab
}

// loadStudio navigates tab to the studio (after taking a boot slot) and waits for "Ready" and
// the first preview ack.
func loadStudio(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	loadStudioAt(t, tab, site(t))
}

// loadStudioAt is loadStudio with the studio at url (ownSite).
func loadStudioAt(t *testing.T, tab *chromium.Tab, url string) {
	t.Helper()
	defer bootSlot(t)()
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#preview-status", "acknowledged")
}

func waitText(t *testing.T, tab *chromium.Tab, sel, want string) {
	t.Helper()
	expr := `(() => { const e = document.querySelector(` + jsString(sel) + `); return !!e && e.textContent.trim() === ` + jsString(want) + `; })()`
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, expr); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector(`+jsString(sel)+`)||{}).textContent || ""`)
		t.Fatalf("%s: want %q, have %q (%v); console: %v", sel, want, got, err, tab.Console())
	}
}

func waitContains(t *testing.T, tab *chromium.Tab, sel, want string) {
	t.Helper()
	expr := `(() => { const e = document.querySelector(` + jsString(sel) + `); return !!e && e.textContent.includes(` + jsString(want) + `); })()`
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, expr); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector(`+jsString(sel)+`)||{}).textContent || ""`)
		t.Fatalf("%s: want it to contain %q, have %q (%v); console: %v", sel, want, got, err, tab.Console())
	}
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func noConsoleErrors(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	if errs := tab.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// TestFirstLoad: a fresh profile reaches Ready, tools/list and the first preview ack with no
// console error (a first ack later than the port's 2.5 s timeout logs one). It is a serial
// test on purpose: Go starts the parallel tests only after every serial one has finished, so
// this page boots alone instead of sharing two cores with other tabs' boots (which made the
// first ack late for reasons outside the page).
func TestFirstLoad(t *testing.T) {
	start := time.Now()
	tab := chromium.NewIsolatedTab(t) // a first visit: a new context, not a recycled tab
	loadStudio(t, tab)
	t.Logf("tab + navigation → Ready and first preview ack: %v", time.Since(start).Round(time.Millisecond))
	waitContains(t, tab, "#tools-count", "tools/list · 26")
	noConsoleErrors(t, tab)
}

// rpc calls globalThis.webcodingHandle in the page and returns the decoded response.
func rpc(t *testing.T, tab *chromium.Tab, req string) map[string]any {
	t.Helper()
	out, err := chromium.Eval[string](tab, loadTimeout, `webcodingHandle(`+jsString(req)+`)`)
	if err != nil {
		t.Fatalf("webcodingHandle(%s): %v\nthe tab's console: %v", req, err, tab.Console())
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("response %q: %v", out, err)
	}
	return m
}

// directCall runs a tool in direct mode (like a UI button) and returns structuredContent,
// failing the test on a tool error.
func directCall(t *testing.T, tab *chromium.Tab, name, args string) map[string]any {
	t.Helper()
	resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`,"_meta":{"source":"local","mode":"direct"}}}`)
	res, _ := resp["result"].(map[string]any)
	if res == nil || res["isError"] == true {
		t.Fatalf("%s failed: %v", name, resp)
	}
	sc, _ := res["structuredContent"].(map[string]any)
	return sc
}

// ackedRevision reads "revision N acknowledged" from the preview status.
func ackedRevision(t *testing.T, tab *chromium.Tab) int {
	t.Helper()
	waitContains(t, tab, "#preview-status", "acknowledged")
	s, err := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#preview-status").textContent`)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if _, err := fmt.Sscanf(s, "revision %d acknowledged", &n); err != nil {
		t.Fatalf("preview status %q: %v", s, err)
	}
	return n
}

const accentExpr = `getComputedStyle(document.documentElement).getPropertyValue("--accent").trim()`

// frameAccent is the preview's --accent once it is set (every seed theme sets it); it fails
// the test when the frame has none within loadTimeout.
func frameAccent(t *testing.T, tab *chromium.Tab) string {
	t.Helper()
	deadline := time.Now().Add(loadTimeout)
	for {
		got, err := chromium.EvalInFrame[string](tab, 5*time.Second, accentExpr)
		if err == nil && got != "" {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the preview has no --accent after %s (last error: %v)", loadTimeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func sendPrompt(t *testing.T, tab *chromium.Tab, prompt string) {
	t.Helper()
	if err := tab.Do(10*time.Second,
		chromedp.SetValue(chromedp.CSS("#prompt"), prompt),
		chromedp.Click(chromedp.CSS(`#chat-form button[type="submit"]`)),
	); err != nil {
		t.Fatal(err)
	}
}

// waitApproval waits for the first approval card's button for tool and checks it has focus.
func waitApproval(t *testing.T, tab *chromium.Tab, tool string) {
	t.Helper()
	waitText(t, tab, "#approve-0", "Approve "+tool)
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.activeElement && document.activeElement.id === "approve-0"`); err != nil {
		t.Errorf("the first approval button is not focused: %v", err)
	}
}

func TestEmeraldApproved(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	// Start from another theme (the profile is shared by the tests of this binary).
	before := int(directCall(t, tab, "preview.setTheme", `{"theme":"violet"}`)["revision"].(float64))
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d acknowledged", before))
	if got, _ := chromium.EvalInFrame[string](tab, 5*time.Second, accentExpr); got == "#10b981" {
		t.Fatalf("--accent is already emerald before the prompt")
	}
	sendPrompt(t, tab, "Make it emerald")
	waitApproval(t, tab, "preview.setTheme")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d acknowledged", before+1))
	if got, err := chromium.WaitInFrame(tab, 10*time.Second, accentExpr, "#10b981"); err != nil {
		t.Fatalf("iframe --accent = %q: %v", got, err)
	}
	waitContains(t, tab, "#transcript", "✓ preview.setTheme")
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll(".approval-card").length`); n != 0 {
		t.Errorf("%d approval cards left", n)
	}
	noConsoleErrors(t, tab)
}

func TestEscapeCancelsPendingApproval(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	before := ackedRevision(t, tab)
	// The acknowledged revision may still be followed by the hydrated one (design.md §5.8),
	// whose fresh frame has no styles for a moment: wait for the seed's accent to be set.
	accent := frameAccent(t, tab)
	sendPrompt(t, tab, "Make it amber")
	waitApproval(t, tab, "preview.setTheme")
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Execution cancelled.")
	waitContains(t, tab, "#transcript", "Execution cancelled.")
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll(".approval-card").length`); n != 0 {
		t.Errorf("%d approval cards left after Escape", n)
	}
	st := directCall(t, tab, "workspace.getStatus", `{}`)
	if rev, _ := st["revision"].(float64); int(rev) != before {
		t.Errorf("revision %v after a cancelled run, want %d (nothing executed)", st["revision"], before)
	}
	if got, _ := chromium.EvalInFrame[string](tab, 5*time.Second, accentExpr); got != accent {
		t.Errorf("--accent changed from %q to %q by a cancelled run", accent, got)
	}
	noConsoleErrors(t, tab)
}

func TestReloadRestoresFromIndexedDB(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	waitContains(t, tab, "#storage-mode", "Saved in this browser")
	marker := fmt.Sprintf("# reload marker %d", time.Now().UnixNano())
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":`+jsString(marker)+`}`)
	directCall(t, tab, "workspace.openFile", `{"path":"README.md"}`)
	st := directCall(t, tab, "workspace.getStatus", `{}`)
	rev := int(st["revision"].(float64))
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	after := directCall(t, tab, "workspace.getStatus", `{}`)
	// The revision is the stored one: a reload creates no revision (issue 14; this overrides
	// SPEC §2.12's stored+1).
	if got := int(after["revision"].(float64)); got != rev {
		t.Errorf("revision after reload = %d, want the stored %d", got, rev)
	}
	if after["activePath"] != "README.md" {
		t.Errorf("active path after reload = %v", after["activePath"])
	}
	if src := directCall(t, tab, "workspace.readFile", `{"path":"README.md"}`)["source"]; src != marker {
		t.Errorf("README.md after reload = %q", src)
	}
	waitContains(t, tab, "#editor-host .cm-content", marker[2:]) // CodeMirror shows the file
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `webcodingEditor.getDocument()`); v != marker {
		t.Errorf("editor shows %q after reload, want the marker", v)
	}
	noConsoleErrors(t, tab)
}

// TestForgedAcksIgnored: the preview document itself posts an error for a forged nonce and
// one for the right nonce but another revision; both are ignored, and the real ready is
// accepted. The forger posts to the studio through `window["top"]`: `top` and `parent` are
// the page's own window to its code (docs/design.md §5.47).
func TestForgedAcksIgnored(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	forger := `
(function(){
  var el = document.querySelector("[data-webcoding-preview-bridge]"), text = el ? el.textContent : ""; // the bridge removes its element (preview_test.go)
  var rev = Number((text.match(/REVISION=(\d+)/)||[])[1]);
  var nonce = (text.match(/NONCE="([0-9a-f]+)"/)||[])[1];
  window["top"].postMessage({type:"webcoding.preview.error", revision: rev, nonce: "forged", message: "forged nonce"}, "*");
  window["top"].postMessage({type:"webcoding.preview.error", revision: rev + 1, nonce: nonce, message: "forged revision"}, "*");
  window["top"].postMessage({type:"webcoding.preview.ready", revision: rev + 1, nonce: nonce}, "*");
})();
`
	defer directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)
	res := directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(forger+src)+`}`)
	rev := int(res["revision"].(float64))
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d acknowledged", rev))
	time.Sleep(200 * time.Millisecond)
	if s, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#preview-status").textContent`); s != fmt.Sprintf("revision %d acknowledged", rev) {
		t.Errorf("preview status %q after forged messages", s)
	}
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#preview-error [role=alert]").length`); n != 0 {
		t.Error("a forged error was shown as a runtime error")
	}
	noConsoleErrors(t, tab)
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
