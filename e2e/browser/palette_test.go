package browser

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
)

func ctrlKey(t *testing.T, tab *chromium.Tab, key string, shift bool) {
	t.Helper()
	mods := chromedp.ModifierCtrl
	if shift {
		mods |= chromedp.ModifierShift
	}
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(key, chromedp.KeyModifiers(mods))); err != nil {
		t.Fatal(err)
	}
}

func keys(t *testing.T, tab *chromium.Tab, s string) {
	t.Helper()
	if err := tab.Do(10*time.Second, chromedp.KeyEvent(s)); err != nil {
		t.Fatal(err)
	}
}

// pressEnter sends Enter as a raw key down and a key up (no separate char event: CDP's char
// event would reach whatever has focus by then, unlike a real key press whose keydown was
// default-prevented).
func pressEnter(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	act := chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: typ, Key: "Enter", Code: "Enter",
				WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}); err != nil {
				return chromedp.Void{}, err
			}
		}
		return chromedp.Void{}, nil
	})
	if err := tab.Do(5*time.Second, act); err != nil {
		t.Fatal(err)
	}
}

func paletteWait(t *testing.T, tab *chromium.Tab, what, expr string) {
	t.Helper()
	if _, err := chromium.WaitFor[bool](tab, 15*time.Second, expr); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestQuickOpenByKeyboard: Ctrl+P opens the quick-open combobox with focus in it, typing
// filters the paths, the arrows move the active option (aria-activedescendant), Enter opens
// the file through workspace.openFile; Escape closes and gives focus back.
func TestQuickOpenByKeyboard(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#prompt"))); err != nil {
		t.Fatal(err)
	}
	ctrlKey(t, tab, "p", false)
	paletteWait(t, tab, "quick open dialog open", `document.querySelector("#quick-open-dialog").open && document.activeElement.id === "quick-open-input"`)
	if role, _ := chromium.Eval[string](tab, 5*time.Second, `document.activeElement.getAttribute("role") + "/" + document.querySelector("#quick-open-list").getAttribute("role")`); role != "combobox/listbox" {
		t.Fatalf("roles %q", role)
	}
	paletteWait(t, tab, "all four files listed", `document.querySelectorAll("#quick-open-list [role=option]").length === 4`)
	// Escape closes and returns focus to the composer.
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "closed, focus back", `!document.querySelector("#quick-open-dialog").open && document.activeElement.id === "prompt"`)
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#status-text").textContent`); v != "Ready" {
		t.Errorf("Escape in the dialog changed the status to %q", v)
	}

	ctrlKey(t, tab, "p", false)
	paletteWait(t, tab, "reopened", `document.activeElement.id === "quick-open-input"`)
	keys(t, tab, "s")
	// "s" matches styles.css (name prefix) before app.js (s inside the name).
	paletteWait(t, tab, "filtered by s", `[...document.querySelectorAll("#quick-open-list [role=option]")].map(o => o.textContent).join() === "styles.css,app.js"`)
	keys(t, tab, "tyl")
	paletteWait(t, tab, "filtered to styles.css", `(() => { const o = [...document.querySelectorAll("#quick-open-list [role=option]")]; return o.length === 1 && o[0].textContent === "styles.css"; })()`)
	if ad, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#quick-open-input").getAttribute("aria-activedescendant")`); ad != "quick-open-option-0" {
		t.Errorf("aria-activedescendant %q", ad)
	}
	// Fuzzy: letters in order.
	for i := 0; i < 4; i++ {
		keys(t, tab, kb.Backspace)
	}
	keys(t, tab, "rdm")
	paletteWait(t, tab, "fuzzy rdm → README.md", `(() => { const o = [...document.querySelectorAll("#quick-open-list [role=option]")]; return o.length === 1 && o[0].textContent === "README.md"; })()`)
	for i := 0; i < 3; i++ {
		keys(t, tab, kb.Backspace)
	}
	paletteWait(t, tab, "all listed again", `document.querySelectorAll("#quick-open-list [role=option]").length === 4`)
	keys(t, tab, kb.ArrowDown)
	keys(t, tab, kb.ArrowDown)
	paletteWait(t, tab, "third option active", `document.querySelector("#quick-open-input").getAttribute("aria-activedescendant") === "quick-open-option-2" && document.querySelector("#quick-open-option-2").getAttribute("aria-selected") === "true"`)
	keys(t, tab, kb.ArrowUp)
	want, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#quick-open-option-1").textContent`)
	pressEnter(t, tab)
	paletteWait(t, tab, "closed", `!document.querySelector("#quick-open-dialog").open`)
	waitText(t, tab, "#editor-path", want)
	st := directCall(t, tab, "workspace.getStatus", `{}`)
	if st["activePath"] != want {
		t.Errorf("active path %v, want %q (opened through workspace.openFile)", st["activePath"], want)
	}
	noConsoleErrors(t, tab)
}

// TestWorkspaceSearchByKeyboard: Ctrl+Shift+F searches every text file case-insensitively;
// Enter opens the chosen hit without changing it and puts the caret on its line; the editor's
// unsaved draft is searched in place of the stored file.
func TestWorkspaceSearchByKeyboard(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	index := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"].(string)
	line := 0
	for i, l := range strings.Split(index, "\n") {
		if strings.Contains(l, `id="hero-title"`) {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatal("no hero-title in the seed")
	}
	rev := directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64)
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#prompt"))); err != nil {
		t.Fatal(err)
	}
	ctrlKey(t, tab, "F", true)
	paletteWait(t, tab, "search dialog open", `document.querySelector("#search-dialog").open && document.activeElement.id === "search-input"`)
	keys(t, tab, "HERO-TITLE")
	paletteWait(t, tab, "hit in index.html", `[...document.querySelectorAll("#search-list [role=option]")].some(o => o.textContent.startsWith("index.html:`+itoa(line)+`"))`)
	// Move to that hit with the arrows, then Enter.
	for i := 0; i < 20; i++ {
		txt, _ := chromium.Eval[string](tab, 5*time.Second, `(() => { const id = document.querySelector("#search-input").getAttribute("aria-activedescendant"); return id ? document.getElementById(id).textContent : ""; })()`)
		if strings.HasPrefix(txt, "index.html:"+itoa(line)) {
			break
		}
		keys(t, tab, kb.ArrowDown)
	}
	pressEnter(t, tab)
	paletteWait(t, tab, "closed", `!document.querySelector("#search-dialog").open`)
	waitText(t, tab, "#editor-path", "index.html")
	waitContains(t, tab, "#editor-cursor", "Ln "+itoa(line)+",")
	if got := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"]; got != index {
		t.Error("opening a search hit changed the file")
	}
	if got := directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64); got != rev {
		t.Errorf("revision %v after opening a search hit, want %v", got, rev)
	}

	// An unsaved draft: over the 80,000-character budget it is not written (one notice) and
	// the text stays in the editor (and the page's draft store).
	directCall(t, tab, "workspace.openFile", `{"path":"app.js"}`)
	paletteWait(t, tab, "app.js shown", `webcodingEditor.path() === "app.js"`)
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const v = webcodingEditor.view(); v.focus(); v.dispatch({ changes: { from: 0, insert: "x".repeat(80001) + "\nconst zebraQuux = 1; // draft only\n" } }); return true; })()`); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "over the 80,000-character budget") // kept, not written
	ctrlKey(t, tab, "F", true)
	paletteWait(t, tab, "search reopened", `document.activeElement.id === "search-input"`)
	keys(t, tab, "zebraquux")
	paletteWait(t, tab, "draft hit", `(() => { const o = [...document.querySelectorAll("#search-list [role=option]")]; return o.length === 1 && o[0].textContent.startsWith("app.js:2") && o[0].textContent.includes("(unsaved)") && o[0].textContent.includes("zebraQuux"); })()`)
	if src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string); strings.Contains(src, "zebraQuux") {
		t.Fatal("the draft was saved: the test needs an unsaved draft")
	}
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "closed", `!document.querySelector("#search-dialog").open`)
	// The result bound: at most 80 rows.
	body := strings.Repeat("needle line\n", 120)
	directCall(t, tab, "workspace.createFile", `{"path":"many.md","source":`+jsString(body)+`}`)
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#prompt"))); err != nil {
		t.Fatal(err)
	}
	ctrlKey(t, tab, "F", true)
	paletteWait(t, tab, "search reopened", `document.activeElement.id === "search-input"`)
	keys(t, tab, "needle")
	paletteWait(t, tab, "80 rows", `document.querySelectorAll("#search-list [role=option]").length === 80 && document.querySelector("#search-status").textContent.includes("First 80")`)
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "focus back", `document.activeElement.id === "prompt"`)
}

// TestDeepLinkFillsComposer: ?prompt= fills the composer, is removed from the address and
// never runs; a prompt over 4,000 characters is refused with a visible notice.
func TestDeepLinkFillsComposer(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "?prompt="+url.QueryEscape("Make it emerald")+"&keep=1")
	rev := directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64)
	paletteWait(t, tab, "composer filled", `document.querySelector("#prompt").value === "Make it emerald"`)
	if s, _ := chromium.Eval[string](tab, 5*time.Second, `location.search`); s != "?keep=1" {
		t.Errorf("location.search %q: the prompt must be removed, other parameters kept", s)
	}
	time.Sleep(1500 * time.Millisecond) // give a wrongly started run time to show itself
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll(".approval-card, #transcript .entry-user").length`); n != 0 {
		t.Errorf("the deep link ran the prompt (%d cards/user entries)", n)
	}
	if got := directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64); got != rev {
		t.Errorf("revision moved from %v to %v", rev, got)
	}
	// Too long: refused, visible notice, address cleaned.
	tab2 := openIsolatedStudio(t, "?prompt="+strings.Repeat("a", 4001))
	waitContains(t, tab2, "#transcript", "was not used")
	if v, _ := chromium.Eval[string](tab2, 5*time.Second, `document.querySelector("#prompt").value + "|" + location.search`); v != "|" {
		t.Errorf("composer|search after a too-long link: %q", v)
	}
	noConsoleErrors(t, tab)
}

func itoa(n int) string { return strconv.Itoa(n) }
