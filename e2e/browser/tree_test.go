package browser

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
)

// treeItem is a selector for the treeitem of a file.
func treeItem(path string) string { return `#file-tree [role=treeitem][data-path="` + path + `"]` }

// treeName is a selector for a file's name span (named "Open <path>", it names its treeitem
// and is what a pointer clicks).
func treeName(path string) string {
	return treeItem(path) + ` > .tree-row > .tree-name[aria-label="Open ` + path + `"]`
}

// folderItem is a selector for the treeitem of a folder (data-folder is its path).
func folderItem(path string) string {
	return `#file-tree [role=treeitem][data-folder="` + path + `"]`
}

// focusedTreeItem is the focused element's aria-label or data-folder.
const focusedTreeItem = `(() => { const e = document.activeElement; return e && e.getAttribute("role") === "treeitem" ? (e.dataset.folder !== undefined ? "dir:" + e.dataset.folder : e.dataset.path) : "not a treeitem: " + (e && e.outerHTML.slice(0, 80)); })()`

func press(t *testing.T, tab *chromium.Tab, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := tab.Do(5*time.Second, chromedp.KeyEvent(k)); err != nil {
			t.Fatalf("key %q: %v", k, err)
		}
	}
}

func waitFocus(t *testing.T, tab *chromium.Tab, want string) {
	t.Helper()
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, focusedTreeItem+` === `+jsString(want)); err != nil {
		got, _ := chromium.Eval[string](tab, time.Second, focusedTreeItem)
		t.Fatalf("focused tree item: want %q, have %q", want, got)
	}
}

func waitTrue(t *testing.T, tab *chromium.Tab, what, expr string) {
	t.Helper()
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, expr); err != nil {
		t.Fatalf("%s: %v (%s)", what, err, expr)
	}
}

// TestExplorerTree: nested paths become an ARIA tree (role=tree/treeitem/group, aria-level,
// aria-expanded, aria-selected) with one roving tabindex; the keyboard moves focus
// (Up/Down/Home/End), collapses and expands folders (Left/Right; the state survives a
// re-render), opens a file with Enter through workspace.openFile, and reaches the focused
// row's actions with Tab; a written file shows its dirty marker.
func TestExplorerTree(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	top := "tree" + stamp
	deep := top + "/guide/intro.md"
	side := top + "/a.md"
	for _, p := range []string{deep, side} {
		directCall(t, tab, "workspace.createFile", `{"path":`+jsString(p)+`,"source":"# `+p+`\n"}`)
	}
	directCall(t, tab, "workspace.openFile", `{"path":"index.html"}`)
	waitText(t, tab, "#editor-path", "index.html")
	waitTrue(t, tab, "nested items", `!!document.querySelector(`+jsString(treeItem(deep))+`)`)

	// Structure: folder → group → folder → group → file, levels 1..3, folders first.
	waitTrue(t, tab, "tree semantics", `(() => {
		const f = document.querySelector(`+jsString(folderItem(top))+`), g = document.querySelector(`+jsString(folderItem(top+"/guide"))+`), d = document.querySelector(`+jsString(treeItem(deep))+`);
		return document.querySelector("#file-tree").getAttribute("role") === "tree" &&
			f.getAttribute("aria-level") === "1" && f.getAttribute("aria-expanded") === "true" &&
			g.parentElement.getAttribute("role") === "group" && g.parentElement.parentElement === f && g.getAttribute("aria-level") === "2" &&
			d.getAttribute("aria-level") === "3" && d.parentElement.parentElement === g &&
			f.querySelector(":scope > [role=group]").firstElementChild === g &&
			document.querySelectorAll("#file-tree [aria-selected=true]").length === 1 &&
			document.querySelector(`+jsString(treeItem("index.html"))+`).getAttribute("aria-selected") === "true" &&
			d.getAttribute("aria-selected") === "false";
	})()`)
	waitTrue(t, tab, "one roving tabindex on the active file", `document.querySelectorAll("#file-tree [role=treeitem][tabindex='0']").length === 1 && document.querySelector(`+jsString(treeItem("index.html"))+`).tabIndex === 0`)

	// Home/End/Up/Down.
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector("#file-tree [tabindex='0']").focus()`)); err != nil {
		t.Fatal(err)
	}
	firstDir, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#file-tree [role=treeitem]").dataset.folder || ""`)
	lastPath, _ := chromium.Eval[string](tab, 5*time.Second, `[...document.querySelectorAll("#file-tree [role=treeitem]")].pop().dataset.path || ""`)
	press(t, tab, kb.Home)
	waitFocus(t, tab, "dir:"+firstDir)
	press(t, tab, kb.End)
	waitFocus(t, tab, lastPath)
	waitTrue(t, tab, "the roving tabindex follows focus", `document.activeElement.tabIndex === 0 && document.querySelectorAll("#file-tree [role=treeitem][tabindex='0']").length === 1`)

	// Down from the folder enters it; Left goes back to the parent, Left again collapses.
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+jsString(folderItem(top))+`).focus()`)); err != nil {
		t.Fatal(err)
	}
	press(t, tab, kb.ArrowDown)
	waitFocus(t, tab, "dir:"+top+"/guide")
	press(t, tab, kb.ArrowRight)
	waitFocus(t, tab, deep)
	press(t, tab, kb.ArrowLeft)
	waitFocus(t, tab, "dir:"+top+"/guide")
	press(t, tab, kb.ArrowLeft)
	waitTrue(t, tab, "Left collapses", `document.querySelector(`+jsString(folderItem(top+"/guide"))+`).getAttribute("aria-expanded") === "false" && !document.querySelector(`+jsString(treeItem(deep))+`)`)
	waitFocus(t, tab, "dir:"+top+"/guide")
	press(t, tab, kb.ArrowDown)
	waitFocus(t, tab, side)

	// A re-render (a write elsewhere) keeps the folder collapsed and shows the dirty marker.
	directCall(t, tab, "workspace.writeFile", `{"path":`+jsString(side)+`,"source":"changed `+stamp+`"}`)
	waitTrue(t, tab, "dirty marker", `!!document.querySelector(`+jsString(treeItem(side)+` .dirty`)+`) && document.querySelector(`+jsString(treeItem(side))+`).getAttribute("aria-describedby") !== null`)
	waitTrue(t, tab, "revert offered for the dirty file", `!!document.querySelector('[aria-label="Revert `+side+`"]')`)
	if s, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector(`+jsString(folderItem(top+"/guide"))+`).getAttribute("aria-expanded")`); s != "false" {
		t.Errorf("the collapsed folder re-rendered as aria-expanded=%q", s)
	}
	waitFocus(t, tab, side) // focus restored by id after the re-render

	// Tab reaches the focused row's actions (Rename first); other rows' buttons are out of the
	// Tab order.
	press(t, tab, kb.Tab)
	if id, _ := chromium.Eval[string](tab, 5*time.Second, `document.activeElement.getAttribute("aria-label")`); id != "Rename "+side {
		t.Errorf("Tab from the tree item focused %q, want the Rename button", id)
	}
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `[...document.querySelectorAll("#file-tree .file-actions button")].filter(b => b.tabIndex === 0).length`); n < 3 || n > 4 {
		t.Errorf("%d action buttons in the Tab order, want only the focused row's", n)
	}

	// Back on the item: Up to the collapsed folder, Right expands it, Enter on a file opens it
	// (workspace.openFile: the editor shows it and it becomes the selected item).
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+jsString(treeItem(side))+`).focus()`)); err != nil {
		t.Fatal(err)
	}
	press(t, tab, kb.ArrowUp)
	waitFocus(t, tab, "dir:"+top+"/guide")
	press(t, tab, kb.ArrowRight)
	waitTrue(t, tab, "Right expands", `document.querySelector(`+jsString(folderItem(top+"/guide"))+`).getAttribute("aria-expanded") === "true" && !!document.querySelector(`+jsString(treeItem(deep))+`)`)
	press(t, tab, kb.ArrowRight)
	waitFocus(t, tab, deep)
	press(t, tab, kb.Enter)
	waitText(t, tab, "#editor-path", deep)
	if got := directCall(t, tab, "workspace.listFiles", `{}`)["activePath"]; got != deep {
		t.Errorf("activePath after Enter = %v", got)
	}
	waitTrue(t, tab, "the opened file is selected", `document.querySelector(`+jsString(treeItem(deep))+`).getAttribute("aria-selected") === "true" && document.querySelectorAll("#file-tree [aria-selected=true]").length === 1`)

	// A click on a folder row toggles it.
	click(t, tab, folderItem(top)+` > .tree-row`)
	waitTrue(t, tab, "click collapses", `document.querySelector(`+jsString(folderItem(top))+`).getAttribute("aria-expanded") === "false"`)
	click(t, tab, folderItem(top)+` > .tree-row`)
	waitTrue(t, tab, "click expands", `document.querySelector(`+jsString(folderItem(top))+`).getAttribute("aria-expanded") === "true"`)
	for _, p := range []string{deep, side} {
		directCall(t, tab, "workspace.deleteFile", `{"path":`+jsString(p)+`}`)
	}
	noConsoleErrors(t, tab)
}
