package browser

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
)

// tabsState is [path, aria-selected] of every tab, in order.
const tabsState = `JSON.stringify([...document.querySelectorAll("#editor-tabs [role=tab]")].map(t => [t.dataset.path, t.getAttribute("aria-selected")]))`

func tabButton(path string) string { return `#editor-tabs [role=tab][data-path="` + path + `"]` }

// workspaceFiles is path → source of every text file as JSON (to check that tabs never change
// files).
func workspaceFiles(t *testing.T, tab *chromium.Tab) string {
	t.Helper()
	raw, _ := json.Marshal(workspaceTexts(t, tab))
	return string(raw)
}

// workspaceTexts is path → source of every text file of the workspace.
func workspaceTexts(t *testing.T, tab *chromium.Tab) map[string]string {
	t.Helper()
	out := map[string]string{}
	list := directCall(t, tab, "workspace.listFiles", `{}`)
	for _, f := range list["files"].([]any) {
		p := f.(map[string]any)["path"].(string)
		if f.(map[string]any)["kind"] == "text" {
			out[p] = directCall(t, tab, "workspace.readFile", `{"path":`+jsString(p)+`}`)["source"].(string)
		}
	}
	return out
}

// TestEditorTabs: opened files become tabs of a tablist (aria-selected = the workspace's
// active path, one roving tabindex); Left/Right/Home/End move focus without opening,
// Enter opens through workspace.openFile; Close removes a tab without changing any file
// (closing the active tab opens its neighbour); a dirty file's tab is marked; a reload
// restores the tabs (sessionStorage).
func TestEditorTabs(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	extra := "tabs-" + stamp + ".md"
	directCall(t, tab, "workspace.createFile", `{"path":`+jsString(extra)+`,"source":"tabs\n"}`)
	waitTrue(t, tab, "the created file's tab", `!!document.querySelector(`+jsString(tabButton(extra))+`)`)
	var paths []string
	tabPaths := `JSON.stringify([...document.querySelectorAll("#editor-tabs [role=tab]")].map(t => t.dataset.path))`
	raw, _ := chromium.Eval[string](tab, 5*time.Second, tabPaths)
	_ = json.Unmarshal([]byte(raw), &paths)
	want := append([]string(nil), paths...)
	for _, p := range []string{"index.html", "styles.css", "app.js", extra} {
		click(t, tab, treeName(p))
		waitText(t, tab, "#editor-path", p)
		waitTrue(t, tab, "tab for "+p, `(() => { const b = document.querySelector(`+jsString(tabButton(p))+`); return !!b && b.getAttribute("aria-selected") === "true"; })()`)
		if !slices.Contains(want, p) {
			want = append(want, p) // a newly opened file's tab goes to the end
		}
	}
	waitTrue(t, tab, "tablist", `document.querySelector("#editor-tabs [role=tablist]").getAttribute("aria-label") === "Open files" && document.querySelectorAll("#editor-tabs [role=tab][aria-selected=true]").length === 1 && document.querySelectorAll("#editor-tabs [role=tab][tabindex='0']").length === 1`)
	raw, _ = chromium.Eval[string](tab, 5*time.Second, tabPaths)
	paths = nil
	_ = json.Unmarshal([]byte(raw), &paths)
	if !slices.Equal(paths, want) || len(paths) < 4 {
		t.Fatalf("tabs %v, want %v (opening order)", paths, want)
	}

	// Roving focus: Home/End/Left/Right move, activation is manual.
	before := workspaceFiles(t, tab)
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector("#editor-tabs [role=tab][tabindex='0']").focus()`)); err != nil {
		t.Fatal(err)
	}
	focused := `document.activeElement.dataset.path`
	press(t, tab, kb.Home)
	waitTrue(t, tab, "Home", focused+` === `+jsString(paths[0]))
	press(t, tab, kb.ArrowLeft)
	waitTrue(t, tab, "Left wraps to the last tab", focused+` === `+jsString(paths[len(paths)-1]))
	press(t, tab, kb.Home, kb.ArrowRight)
	waitTrue(t, tab, "Right", focused+` === `+jsString(paths[1]))
	if p, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#editor-path").textContent`); p != extra {
		t.Errorf("moving focus opened %q", p)
	}
	waitTrue(t, tab, "the roving tabindex follows focus", `document.activeElement.tabIndex === 0 && document.querySelectorAll("#editor-tabs [role=tab][tabindex='0']").length === 1`)
	press(t, tab, kb.Enter)
	waitText(t, tab, "#editor-path", paths[1])
	if got := directCall(t, tab, "workspace.listFiles", `{}`)["activePath"]; got != paths[1] {
		t.Errorf("activePath after Enter on a tab = %v, want %s", got, paths[1])
	}

	// Close a background tab, then the active one (its right neighbour opens).
	click(t, tab, `[aria-label="Close tab `+paths[0]+`"]`)
	waitTrue(t, tab, "background tab closed", `!document.querySelector(`+jsString(tabButton(paths[0]))+`)`)
	if p, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#editor-path").textContent`); p != paths[1] {
		t.Errorf("closing a background tab changed the editor to %q", p)
	}
	click(t, tab, `[aria-label="Close tab `+paths[1]+`"]`)
	waitText(t, tab, "#editor-path", paths[2])
	waitTrue(t, tab, "neighbour selected", `document.querySelector(`+jsString(tabButton(paths[2]))+`).getAttribute("aria-selected") === "true" && !document.querySelector(`+jsString(tabButton(paths[1]))+`)`)
	// Delete on the focused tab closes it too.
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+jsString(tabButton(paths[3]))+`).focus()`)); err != nil {
		t.Fatal(err)
	}
	press(t, tab, kb.Delete)
	waitTrue(t, tab, "Delete closes the focused tab", `!document.querySelector(`+jsString(tabButton(paths[3]))+`)`)
	if after := workspaceFiles(t, tab); after != before {
		t.Errorf("closing tabs changed files:\n%s\n%s", before, after)
	}

	// Dirty marker, then a reload restores the list.
	src := directCall(t, tab, "workspace.readFile", `{"path":`+jsString(paths[2])+`}`)["source"].(string)
	directCall(t, tab, "workspace.writeFile", `{"path":`+jsString(paths[2])+`,"source":`+jsString(src+"\n")+`}`) // whitespace: harmless in any language
	waitTrue(t, tab, "dirty tab", `!!document.querySelector(`+jsString(tabButton(paths[2])+` .dirty`)+`)`)
	saved, _ := chromium.Eval[string](tab, 5*time.Second, tabsState)
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, tabsState+` === `+jsString(saved)); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, tabsState)
		t.Errorf("tabs after reload %s, want %s", got, saved)
	}
	directCall(t, tab, "workspace.deleteFile", `{"path":`+jsString(extra)+`}`)
	noConsoleErrors(t, tab)
}
