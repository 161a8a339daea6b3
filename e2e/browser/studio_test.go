package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

const loadTimeout = 30 * time.Second

// openStudio opens the studio in a fresh tab and waits for "Ready" and the first preview ack.
func openStudio(t *testing.T) *chromium.Tab {
	t.Helper()
	url := site(t)
	tab := chromium.NewTab(t)
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#preview-status", "acknowledged")
	return tab
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

func TestFirstLoad(t *testing.T) {
	tab := openStudio(t)
	waitContains(t, tab, "#tools-count", "tools/list · 23")
	noConsoleErrors(t, tab)
}
