//go:build js && wasm

package main

import (
	"sort"
	"strings"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/ui/views"
)

// The explorer tree (REFERENCE §11 "Workspace files"): the flat, normalized workspace paths of
// workspace.listFiles drawn as a nested tree in #file-list, following the WAI-ARIA tree
// pattern:
//
//   - <ul role="tree"> with <li role="treeitem" aria-level> items; folders carry
//     aria-expanded and their children in a <ul role="group">; files carry aria-selected
//     (the workspace's active path is the one selected file) and are named "Open <path>" by
//     their name span (aria-labelledby), which is also what a pointer clicks;
//   - roving focus: exactly one treeitem has tabindex="0" (the focused one, by default the
//     active file); Up/Down move through the visible items, Home/End to the first/last,
//     Right expands a folder or enters its first child, Left collapses a folder or moves to
//     the parent, Enter/Space open a file through workspace.openFile (or toggle a folder);
//     F2 renames and Delete deletes the focused file (both through the file dialog);
//   - the per-file buttons (Rename, Download, Revert when dirty, Delete) of the focused row
//     are in the Tab order; the other rows' buttons have tabindex="-1";
//   - folders are expanded unless the user collapsed them; the collapsed set survives
//     re-renders, and the folders above a newly active file open again.
//
// Roving tabindex is applied to the DOM after each render (applyTreeFocus), not in the
// template, so moving focus never rewrites the region (a rewrite between mousedown and click
// would lose the click).

// treeNode is one rendered tree item (views.TreeNode).
type treeNode = views.TreeNode

// treeState is the explorer's own state; guarded by mu (render runs on the render loop, the
// key and focus hooks inside JS callbacks).
type treeState struct {
	mu         sync.Mutex
	collapsed  map[string]bool // folder path → collapsed by the user
	focus      string          // element id of the roving-focus item ("" = the active file)
	lastActive string          // the active path seen by the last render
	visible    []*treeNode     // visible items in document order (last render)
	byID       map[string]*treeNode
	parent     map[string]*treeNode // element id → its folder (nil at top level)
	sig        string               // treeSignature of the last render
	// pendingFocus is the item to focus once a render shows it (set after a confirmed
	// Rename or Delete, whose dialog returns focus to an item the operation removes).
	pendingFocus string
}

// folderID is a folder's element id (distinct from any file's).
func folderID(p string) string { return views.FolderID(p) }

// buildTree nests the flat file rows into the explorer's folders and files (views.BuildTree).
func (a *app) buildTree(files []fileRow, active string, collapsed map[string]bool) []*treeNode {
	in := make([]views.TreeFile, len(files))
	for i, f := range files {
		in[i] = views.TreeFile{Path: f.Path, Dirty: f.Dirty, Draft: a.hasKeptDraft(f.Path)} // keptdrafts.go
	}
	return views.BuildTree(in, active, collapsed)
}

// treeSignature is everything the tree's HTML depends on, so an unchanged tree is not rebuilt.
func (a *app) treeSignature(files []fileRow, active string, collapsed map[string]bool) string {
	var b strings.Builder
	b.WriteString(active)
	for _, f := range files {
		b.WriteByte(0)
		b.WriteString(f.Path)
		if f.Dirty {
			b.WriteString("\x00*")
		}
		if a.hasKeptDraft(f.Path) {
			b.WriteString("\x00d")
		}
	}
	keys := make([]string, 0, len(collapsed))
	for k := range collapsed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("\x01")
	b.WriteString(strings.Join(keys, "\x00"))
	return b.String()
}

// ancestors returns the folder paths above p ("a/b/c.txt" → "a", "a/b").
func ancestors(p string) []string {
	var out []string
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			out = append(out, p[:i])
		}
	}
	return out
}

func init() {
	registerFeature(&feature{name: "tree", bind: bindTree, render: renderTree, action: treeAction, key: treeKey})
}

// renderTree draws #file-list from the workspace's file list.
func renderTree(a *app) {
	a.mu.Lock()
	files := append([]fileRow(nil), a.st.files...)
	active := a.st.activePath
	a.mu.Unlock()

	a.tree.mu.Lock()
	unlock := sync.OnceFunc(a.tree.mu.Unlock) // also on a panic: the next render must not block (design.md §5.28)
	defer unlock()
	if active != a.tree.lastActive {
		a.tree.lastActive = active
		for _, d := range ancestors(active) { // show the newly active file
			delete(a.tree.collapsed, d)
		}
		a.tree.focus = "" // focus follows the active file until the user moves it
	}
	sig := a.treeSignature(files, active, a.tree.collapsed)
	if sig == a.tree.sig {
		unlock()
		a.applyPendingTreeFocus()
		return // nothing the tree shows changed
	}
	a.tree.sig = sig
	nodes := a.buildTree(files, active, a.tree.collapsed)
	a.tree.visible = a.tree.visible[:0]
	clear(a.tree.byID)
	clear(a.tree.parent)
	var walk func(list []*treeNode, par *treeNode)
	walk = func(list []*treeNode, par *treeNode) {
		for _, n := range list {
			a.tree.visible = append(a.tree.visible, n)
			a.tree.byID[n.ID] = n
			a.tree.parent[n.ID] = par
			walk(n.Children, n)
		}
	}
	walk(nodes, nil)
	unlock()

	a.setRegion("file-list", views.TreeHTML(nodes))
	a.applyTreeFocus(false)
	a.applyPendingTreeFocus()
}

// setPendingTreeFocus asks the next render that shows the item id to focus it.
func (a *app) setPendingTreeFocus(id string) {
	a.tree.mu.Lock()
	a.tree.pendingFocus = id
	a.tree.mu.Unlock()
}

// neighbourFileID returns the id of the item next to the file at path in the visible tree
// (the following item, else the preceding one; "" when it is the only one).
func (a *app) neighbourFileID(path string) string {
	a.tree.mu.Lock()
	defer a.tree.mu.Unlock()
	id := fileID(path)
	for i, n := range a.tree.visible {
		if n.ID != id {
			continue
		}
		if i+1 < len(a.tree.visible) {
			return a.tree.visible[i+1].ID
		}
		if i > 0 {
			return a.tree.visible[i-1].ID
		}
	}
	return ""
}

// applyPendingTreeFocus focuses the pending item once it is in the tree.
func (a *app) applyPendingTreeFocus() {
	a.tree.mu.Lock()
	id := a.tree.pendingFocus
	if id == "" || a.tree.byID[id] == nil {
		a.tree.mu.Unlock()
		return
	}
	a.tree.pendingFocus = ""
	a.tree.focus = id
	a.tree.mu.Unlock()
	a.applyTreeFocus(true)
}

// focusTarget returns the roving-focus item's id: the remembered one while it is visible, else
// the active file, else the first item. Call with tree.mu held.
func (a *app) focusTarget() string {
	if a.tree.byID[a.tree.focus] != nil {
		return a.tree.focus
	}
	if id := fileID(a.tree.lastActive); a.tree.byID[id] != nil {
		return id
	}
	if len(a.tree.visible) > 0 {
		return a.tree.visible[0].ID
	}
	return ""
}

// applyTreeFocus gives the roving-focus item tabindex="0" (and its row's buttons), every other
// item and button tabindex="-1"; with move it also focuses the item. It only touches the DOM.
func (a *app) applyTreeFocus(move bool) {
	a.tree.mu.Lock()
	id := a.focusTarget()
	a.tree.mu.Unlock()
	doc := js.Global().Get("document")
	list := doc.Call("getElementById", "file-list")
	if list.IsNull() || id == "" {
		return
	}
	items := list.Call("querySelectorAll", "[role=treeitem][tabindex='0'], .file-actions button[tabindex='0']")
	for i := 0; i < items.Length(); i++ {
		items.Index(i).Call("setAttribute", "tabindex", "-1")
	}
	el := doc.Call("getElementById", id)
	if el.IsNull() {
		return
	}
	el.Call("setAttribute", "tabindex", "0")
	if row := el.Call("querySelector", ":scope > .tree-row"); !row.IsNull() {
		btns := row.Call("querySelectorAll", ".file-actions button")
		for i := 0; i < btns.Length(); i++ {
			btns.Index(i).Call("setAttribute", "tabindex", "0")
		}
	}
	if move {
		el.Call("focus")
	}
}

// bindTree follows focus moves inside the tree (a click or Tab landing on an item makes it the
// roving-focus item).
func bindTree(a *app) {
	list := js.Global().Get("document").Call("getElementById", "file-list")
	if list.IsNull() {
		return
	}
	a.on(list, "focusin", func(_ js.Value, args []js.Value) any {
		t := args[0].Get("target")
		if t.Type() != js.TypeObject || attr(t, "role") != "treeitem" {
			return nil
		}
		id := t.Get("id").String()
		a.tree.mu.Lock()
		changed := a.tree.focus != id && a.tree.byID[id] != nil
		if changed {
			a.tree.focus = id
		}
		a.tree.mu.Unlock()
		if changed {
			a.applyTreeFocus(false)
		}
		return nil
	})
}

// treeAction handles a click on a folder (expand/collapse).
func treeAction(a *app, act uiAction) bool {
	if act.Name != "tree-toggle" {
		return false
	}
	toggleFolder(a, act.Get("folder"), nil)
	return true
}

// toggleFolder flips a folder (or sets it when expand is non-nil) and re-renders.
func toggleFolder(a *app, p string, expand *bool) {
	a.tree.mu.Lock()
	collapse := !a.tree.collapsed[p]
	if expand != nil {
		collapse = !*expand
	}
	if collapse {
		a.tree.collapsed[p] = true
	} else {
		delete(a.tree.collapsed, p)
	}
	a.tree.focus = folderID(p)
	a.tree.mu.Unlock()
	a.markDirty()
}

// treeKey is the tree's keyboard handler (runs inside the keydown callback: DOM focus moves
// happen here, registry calls go to goroutines).
func treeKey(a *app, k keyInfo) bool {
	if k.DialogOpen || k.Mod || k.Alt {
		return false
	}
	a.tree.mu.Lock()
	n := a.tree.byID[k.TargetID]
	if n == nil {
		a.tree.mu.Unlock()
		return false
	}
	idx := -1
	for i, v := range a.tree.visible {
		if v.ID == n.ID {
			idx = i
		}
	}
	par := a.tree.parent[n.ID]
	last := len(a.tree.visible) - 1
	var next *treeNode
	switch k.Key {
	case "ArrowDown":
		if idx < last {
			next = a.tree.visible[idx+1]
		}
	case "ArrowUp":
		if idx > 0 {
			next = a.tree.visible[idx-1]
		}
	case "Home":
		next = a.tree.visible[0]
	case "End":
		next = a.tree.visible[last]
	case "ArrowRight":
		if n.Folder && n.Expanded && len(n.Children) > 0 {
			next = n.Children[0]
		}
	case "ArrowLeft":
		if (!n.Folder || !n.Expanded) && par != nil {
			next = par
		}
	}
	if next != nil {
		a.tree.focus = next.ID
	}
	a.tree.mu.Unlock()

	switch k.Key {
	case "ArrowDown", "ArrowUp", "Home", "End":
		if next != nil {
			a.applyTreeFocus(true)
		}
		return true
	case "ArrowRight", "ArrowLeft":
		if next != nil {
			a.applyTreeFocus(true)
		} else if n.Folder {
			expand := k.Key == "ArrowRight"
			if expand != n.Expanded {
				toggleFolder(a, n.Path, &expand)
			}
		}
		return true
	case "Enter", " ":
		if n.Folder {
			toggleFolder(a, n.Path, nil)
		} else {
			p := n.Path
			jsbridge.Go("tree.open", func() { a.action("open", p, "") })
		}
		return true
	case "F2", "Delete":
		if n.Folder || k.Shift {
			return false
		}
		p, act := n.Path, map[string]string{"F2": "rename", "Delete": "delete"}[k.Key]
		jsbridge.Go("tree."+act, func() { a.action(act, p, "") })
		return true
	}
	return false
}
