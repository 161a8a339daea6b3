//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall/js"

	"github.com/hack-pad/safejs"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/ui/views"
)

// The editor tabs (#editor-tabs): the files opened in this page, as a WAI-ARIA tablist.
//
//   - The active tab is the workspace's active path (workspace.listFiles activePath); opening
//     a file anywhere (explorer, quick open, agent) adds its tab. Clicking a tab, or Enter /
//     Space on it, opens the file through workspace.openFile (via the app's "open" action,
//     which flushes the editor's draft first).
//   - Roving focus: one tab has tabindex="0"; Left/Right move focus (wrapping), Home/End go to
//     the first/last tab; activation is manual (Enter/Space), so moving never writes.
//   - Each tab has a Close button (in the Tab order for the focused tab; Delete on a tab
//     closes it too). Closing only edits this list — never a file; closing the active tab
//     opens its right (else left) neighbour; closing the last one leaves the editor as it
//     is and hides that file's tab until another file becomes active.
//   - Tabs of files that no longer exist (deleted, renamed away) are dropped; a dirty file's
//     tab carries the same "•" marker as the explorer.
//   - The list lives in memory and in sessionStorage ("webcoding.tabs": a JSON array of
//     paths, at most maxTabs), so a reload of this browser tab restores it.

const (
	tabsStorageKey = "webcoding.tabs"
	maxTabs        = 50 // oldest non-active tabs are dropped past this
)

type tabView = views.Tab

type tabsState struct {
	mu         sync.Mutex
	open       []string // paths in tab order
	hidden     string   // the tab closed while active: not re-added until another file is active
	lastActive string
	focus      string // path of the roving-focus tab ("" = the active one)
	moveFocus  bool   // focus the roving tab after the next render (after a close)
	ids        map[string]string
	saved      string // what sessionStorage holds
	sig        string // the views of the last render (render loop only)
}

func tabID(p string) string { return views.TabID(p) }

func init() {
	registerFeature(&feature{name: "tabs", bind: bindTabs, render: renderTabs, action: tabsAction, key: tabsKey})
}

// bindTabs restores the list from sessionStorage and follows focus moves into the tablist.
func bindTabs(a *app) {
	if ss := sessionStorage(); ss.Truthy() {
		if v := ss.Call("getItem", tabsStorageKey); v.Type() == js.TypeString {
			var list []string
			if json.Unmarshal([]byte(v.String()), &list) == nil {
				a.tabs.mu.Lock()
				for _, p := range list {
					if p != "" && !slices.Contains(a.tabs.open, p) && len(a.tabs.open) < maxTabs {
						a.tabs.open = append(a.tabs.open, p)
					}
				}
				a.tabs.saved = v.String()
				a.tabs.mu.Unlock()
			}
		}
	}
	host := js.Global().Get("document").Call("getElementById", "editor-tabs")
	if host.IsNull() {
		return
	}
	a.on(host, "focusin", func(_ js.Value, args []js.Value) any {
		t := args[0].Get("target")
		if t.Type() != js.TypeObject || attr(t, "role") != "tab" {
			return nil
		}
		p := attr(t, "data-path")
		a.tabs.mu.Lock()
		changed := a.tabs.focus != p
		a.tabs.focus = p
		a.tabs.mu.Unlock()
		if changed {
			a.applyTabsFocus(false)
		}
		return nil
	})
}

// sessionStorage returns window.sessionStorage, or undefined when it is missing or blocked.
func sessionStorage() js.Value {
	ss, err := webStorage("sessionStorage")
	if err != nil {
		return js.Undefined()
	}
	return safejs.Unsafe(ss)
}

// renderTabs updates the list from the workspace state and draws #editor-tabs.
func renderTabs(a *app) {
	a.mu.Lock()
	files := append([]fileRow(nil), a.st.files...)
	active := a.st.activePath
	a.mu.Unlock()

	a.tabs.mu.Lock()
	unlock := sync.OnceFunc(a.tabs.mu.Unlock) // also on a panic: the next render must not block (design.md §5.28)
	defer unlock()
	if len(files) > 0 { // drop tabs of files that are gone (not before the first listFiles)
		exists := make(map[string]bool, len(files))
		for _, f := range files {
			exists[f.Path] = true
		}
		a.tabs.open = slices.DeleteFunc(a.tabs.open, func(p string) bool { return !exists[p] })
	}
	if active != a.tabs.lastActive {
		a.tabs.lastActive = active
		a.tabs.focus = ""
		if active != a.tabs.hidden {
			a.tabs.hidden = ""
		}
	}
	if active != "" && active != a.tabs.hidden && !slices.Contains(a.tabs.open, active) {
		a.tabs.open = append(a.tabs.open, active)
		for len(a.tabs.open) > maxTabs {
			i := 0
			if a.tabs.open[0] == active {
				i = 1
			}
			a.tabs.open = slices.Delete(a.tabs.open, i, i+1)
		}
	}
	dirty := map[string]bool{}
	for _, f := range files {
		dirty[f.Path] = f.Dirty
	}
	base := map[string]int{}
	for _, p := range a.tabs.open {
		base[path.Base(p)]++
	}
	list := make([]tabView, len(a.tabs.open))
	clear(a.tabs.ids)
	for i, p := range a.tabs.open {
		name := path.Base(p)
		if base[name] > 1 {
			name = p // two open files share a name: show the paths
		}
		list[i] = tabView{ID: tabID(p), Path: p, Name: name, Active: p == active, Dirty: dirty[p]}
		a.tabs.ids[list[i].ID] = p
	}
	raw, _ := json.Marshal(a.tabs.open)
	save := string(raw) != a.tabs.saved && len(files) > 0
	if save {
		a.tabs.saved = string(raw)
	}
	move := a.tabs.moveFocus
	a.tabs.moveFocus = false
	unlock()

	if save {
		if ss := sessionStorage(); ss.Truthy() {
			func() {
				defer func() { _ = recover() }() // quota or a blocked storage: memory only
				ss.Call("setItem", tabsStorageKey, string(raw))
			}()
		}
	}
	var sig strings.Builder // what the HTML depends on: skip the template when unchanged
	for _, v := range list {
		fmt.Fprintf(&sig, "%s\x00%s\x00%t%t\x01", v.Path, v.Name, v.Active, v.Dirty)
	}
	if sig.String() == a.tabs.sig {
		if move {
			a.applyTabsFocus(true)
		}
		return
	}
	a.tabs.sig = sig.String()
	a.setRegion("editor-tabs", views.TabsHTML(list))
	a.applyTabsFocus(move)
}

// rovingTab returns the roving-focus tab's path (the remembered one while open, else the
// active one, else the first). Call with tabs.mu held.
func (a *app) rovingTab() string {
	if slices.Contains(a.tabs.open, a.tabs.focus) {
		return a.tabs.focus
	}
	if slices.Contains(a.tabs.open, a.tabs.lastActive) {
		return a.tabs.lastActive
	}
	if len(a.tabs.open) > 0 {
		return a.tabs.open[0]
	}
	return ""
}

// applyTabsFocus gives the roving tab (and its Close button) tabindex="0", all others "-1";
// with move it also focuses the tab. DOM only.
func (a *app) applyTabsFocus(move bool) {
	a.tabs.mu.Lock()
	p := a.rovingTab()
	a.tabs.mu.Unlock()
	doc := js.Global().Get("document")
	host := doc.Call("getElementById", "editor-tabs")
	if host.IsNull() {
		return
	}
	old := host.Call("querySelectorAll", "[tabindex='0']")
	for i := 0; i < old.Length(); i++ {
		old.Index(i).Call("setAttribute", "tabindex", "-1")
	}
	if p == "" {
		return
	}
	id := tabID(p)
	el := doc.Call("getElementById", id)
	if el.IsNull() {
		return
	}
	el.Call("setAttribute", "tabindex", "0")
	if c := doc.Call("getElementById", id+"-close"); !c.IsNull() {
		c.Call("setAttribute", "tabindex", "0")
	}
	if move {
		el.Call("focus")
	}
}

// tabsAction handles tab-open and tab-close clicks (on a goroutine).
func tabsAction(a *app, act uiAction) bool {
	switch act.Name {
	case "tab-open":
		a.action("open", act.Get("path"), "")
		return true
	case "tab-close":
		closeTab(a, act.Get("path"))
		return true
	}
	return false
}

// closeTab removes p's tab; when it was the active file, the neighbour tab is opened through
// workspace.openFile. Files are never changed.
func closeTab(a *app, p string) {
	a.mu.Lock()
	active := a.st.activePath
	a.mu.Unlock()
	a.tabs.mu.Lock()
	i := slices.Index(a.tabs.open, p)
	if i < 0 {
		a.tabs.mu.Unlock()
		return
	}
	a.tabs.open = slices.Delete(a.tabs.open, i, i+1)
	next := ""
	if len(a.tabs.open) > 0 {
		next = a.tabs.open[min(i, len(a.tabs.open)-1)]
	}
	if p == active {
		a.tabs.hidden = p // not re-added by a render before the neighbour is open
	}
	a.tabs.focus = next
	a.tabs.moveFocus = true
	a.tabs.mu.Unlock()
	a.markDirty()
	if p == active && next != "" {
		a.action("open", next, "")
	}
}

// tabsKey moves focus in the tablist (Left/Right/Home/End) and closes with Delete. It runs in
// the keydown callback: focus moves are DOM calls, closing goes to a goroutine.
func tabsKey(a *app, k keyInfo) bool {
	if k.DialogOpen || k.Mod || k.Alt || k.Shift {
		return false
	}
	a.tabs.mu.Lock()
	p, ok := a.tabs.ids[k.TargetID]
	i := slices.Index(a.tabs.open, p)
	n := len(a.tabs.open)
	if !ok || i < 0 {
		a.tabs.mu.Unlock()
		return false
	}
	next := -1
	switch k.Key {
	case "ArrowRight":
		next = (i + 1) % n
	case "ArrowLeft":
		next = (i - 1 + n) % n
	case "Home":
		next = 0
	case "End":
		next = n - 1
	}
	if next >= 0 {
		a.tabs.focus = a.tabs.open[next]
	}
	a.tabs.mu.Unlock()
	if next >= 0 {
		a.applyTabsFocus(true)
		return true
	}
	if k.Key == "Delete" {
		jsbridge.Go("tabs.close", func() { closeTab(a, p) })
		return true
	}
	return false
}
