package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestPaletteEnterDoesNotReopen: keyboard only, with full key presses (keydown, a separate
// char event, keyup — what CDP and some assistive tools send): Enter on the header "Quick
// open" button opens the dialog; typing "styles" and Enter opens styles.css, and the same
// Enter is consumed — the dialog stays closed, focus is in the editor (not back on the
// button), the file is unchanged. The same for Search: the caret lands on the hit's line.
func TestPaletteEnterDoesNotReopen(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	orig := directCall(t, tab, "workspace.readFile", `{"path":"styles.css"}`)["source"].(string)
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#quick-open-button"))); err != nil {
		t.Fatal(err)
	}
	keys(t, tab, "\r")
	paletteWait(t, tab, "quick open opened by Enter on its button", `document.querySelector("#quick-open-dialog").open && document.activeElement.id === "quick-open-input"`)
	keys(t, tab, "styles")
	paletteWait(t, tab, "filtered to styles.css", `(() => { const o = [...document.querySelectorAll("#quick-open-list [role=option]")]; return o.length === 1 && o[0].textContent === "styles.css"; })()`)
	keys(t, tab, "\r")
	waitText(t, tab, "#editor-path", "styles.css")
	paletteWait(t, tab, "focus in the editor", `!!(document.activeElement && document.activeElement.closest(".cm-editor"))`)
	time.Sleep(500 * time.Millisecond) // a reopened dialog would show by now
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `[document.querySelector("#quick-open-dialog").open, document.querySelector("#search-dialog").open, document.querySelector("#settings-dialog") && document.querySelector("#settings-dialog").open, !!document.activeElement.closest(".cm-editor")].join()`); v != "false,false,false,true" {
		t.Fatalf("after choosing with Enter (quick open, search, settings open; focus in editor): %s", v)
	}
	waitContains(t, tab, "#editor-cursor", "Ln 1,")

	// Search from its header button: the caret goes to the hit's line.
	line := 0
	for i, l := range strings.Split(orig, "\n") {
		if strings.Contains(strings.ToLower(l), "--accent-soft") {
			line = i + 1
			break
		}
	}
	if line == 0 {
		t.Fatal("the seed's styles.css has no --accent-soft line")
	}
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#search-button"))); err != nil {
		t.Fatal(err)
	}
	keys(t, tab, "\r")
	paletteWait(t, tab, "search opened by Enter on its button", `document.querySelector("#search-dialog").open && document.activeElement.id === "search-input"`)
	keys(t, tab, "--accent-soft")
	paletteWait(t, tab, "hit in styles.css", `(() => { const o = document.querySelector("#search-list [role=option]"); return !!o && o.textContent.startsWith("styles.css:`+itoa(line)+`"); })()`)
	keys(t, tab, "\r")
	waitContains(t, tab, "#editor-cursor", "Ln "+itoa(line)+",")
	time.Sleep(500 * time.Millisecond)
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `[document.querySelector("#search-dialog").open, !!document.activeElement.closest(".cm-editor")].join()`); v != "false,true" {
		t.Fatalf("after choosing a search hit with Enter (search open; focus in editor): %s", v)
	}
	time.Sleep(time.Second) // a stray Enter in the editor would be flushed as a draft by now
	if src := directCall(t, tab, "workspace.readFile", `{"path":"styles.css"}`)["source"]; src != orig {
		t.Fatalf("choosing results changed styles.css")
	}
	noConsoleErrors(t, tab)
}
