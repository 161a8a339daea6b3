//go:build js && wasm

package main

import (
	"strings"
	"sync"
	"syscall/js"
)

// The inspector (#inspector, issue 9): a WAI-ARIA tablist in #inspector-tabs — Trace | Tools |
// History — over #trace-panel (trace.go), #catalog-panel (catalog.go) and #history-panel
// (history.go, another feature: this file only shows and hides it).
//
//   - Roving focus: the selected tab has tabindex="0", the others -1; Left/Right move to the
//     previous/next tab (wrapping) and Home/End to the first/last; moving selects
//     (automatic activation: showing a panel never runs anything).
//   - Each panel gets role="tabpanel" and aria-labelledby its tab; the hidden ones have the
//     hidden attribute.

type inspectorTab struct{ ID, Label, Panel string }

var inspectorTabs = []inspectorTab{
	{"trace", "Trace", "trace-panel"},
	{"tools", "Tools", "catalog-panel"},
	{"history", "History", "history-panel"},
}

// inspectorState (app.inspector) is the selected inspector tab (guarded by mu).
type inspectorState struct {
	mu       sync.Mutex
	selected string
}

func init() {
	registerFeature(&feature{name: "inspector", bind: inspectorBind, action: inspectorAction, key: inspectorKey})
}

func inspectorTabID(id string) string { return "inspector-tab-" + id }

func inspectorBind(a *app) {
	doc := js.Global().Get("document")
	box := doc.Call("getElementById", "inspector-tabs")
	if box.IsNull() {
		return
	}
	box.Call("setAttribute", "role", "tablist")
	box.Call("setAttribute", "aria-label", "Inspector")
	var b strings.Builder
	for _, t := range inspectorTabs {
		b.WriteString(`<button type="button" role="tab" class="inspector-tab" id="` + inspectorTabID(t.ID) + `" aria-controls="` +
			t.Panel + `" data-action="inspector-tab" data-tab="` + t.ID + `">` + t.Label + `</button>`)
		if p := doc.Call("getElementById", t.Panel); !p.IsNull() {
			p.Call("setAttribute", "role", "tabpanel")
			p.Call("setAttribute", "aria-labelledby", inspectorTabID(t.ID))
		}
	}
	box.Set("innerHTML", b.String())
	a.selectInspectorTab("trace", false)
	bindInspectorToggle()
}

// inspectorCollapsedKey is the localStorage key remembering a collapsed inspector ("1").
const inspectorCollapsedKey = "webcoding.inspector.collapsed"

// bindInspectorToggle adds the Inspector show/hide button (aria-expanded) before the tablist:
// collapsed, only the button row remains and the editor and preview get the height. The
// state is remembered in localStorage (expanded by default; a storage error keeps it
// expanded).
func bindInspectorToggle() {
	doc := js.Global().Get("document")
	box := doc.Call("getElementById", "inspector-tabs")
	if box.IsNull() || !doc.Call("getElementById", "inspector-toggle").IsNull() {
		return
	}
	panels := make([]string, 0, len(inspectorTabs)+1)
	panels = append(panels, "inspector-tabs")
	for _, t := range inspectorTabs {
		panels = append(panels, t.Panel)
	}
	box.Call("insertAdjacentHTML", "beforebegin", `<button type="button" id="inspector-toggle" class="inspector-toggle" data-action="inspector-toggle" aria-expanded="true" aria-controls="`+strings.Join(panels, " ")+`">Inspector</button>`)
	collapsed := false
	withLocalStorage(func(ls js.Value) { collapsed = ls.Call("getItem", inspectorCollapsedKey).String() == "1" })
	setInspectorCollapsed(collapsed, false)
}

// setInspectorCollapsed shows or hides the inspector's tabs and panels (remember stores it).
func setInspectorCollapsed(collapsed, remember bool) {
	doc := js.Global().Get("document")
	if el := doc.Call("getElementById", "inspector"); !el.IsNull() {
		el.Get("classList").Call("toggle", "collapsed", collapsed)
	}
	if b := doc.Call("getElementById", "inspector-toggle"); !b.IsNull() {
		b.Call("setAttribute", "aria-expanded", map[bool]string{true: "false", false: "true"}[collapsed])
	}
	if remember {
		withLocalStorage(func(ls js.Value) {
			ls.Call("setItem", inspectorCollapsedKey, map[bool]string{true: "1", false: "0"}[collapsed])
		})
	}
}

// withLocalStorage runs fn with window.localStorage; a blocked or failing storage (a thrown
// SecurityError or QuotaExceededError) is ignored: the inspector then stays as it is.
func withLocalStorage(fn func(ls js.Value)) {
	defer func() { _ = recover() }()
	if ls := draftLocalStorage(); ls.Truthy() {
		fn(ls)
	}
}

// selectInspectorTab shows tab id's panel, hides the others and (with focus) focuses the tab.
// It only touches the DOM synchronously, so the keydown callback may call it.
func (a *app) selectInspectorTab(id string, focus bool) {
	a.inspector.mu.Lock()
	a.inspector.selected = id
	a.inspector.mu.Unlock()
	doc := js.Global().Get("document")
	for _, t := range inspectorTabs {
		on := t.ID == id
		if tab := doc.Call("getElementById", inspectorTabID(t.ID)); !tab.IsNull() {
			tab.Call("setAttribute", "aria-selected", map[bool]string{true: "true", false: "false"}[on])
			tab.Call("setAttribute", "tabindex", map[bool]string{true: "0", false: "-1"}[on])
			if on && focus {
				tab.Call("focus")
			}
		}
		if p := doc.Call("getElementById", t.Panel); !p.IsNull() {
			p.Set("hidden", !on)
		}
	}
}

// inspectorSelected is the selected tab's id.
func (a *app) inspectorSelected() string {
	a.inspector.mu.Lock()
	defer a.inspector.mu.Unlock()
	return a.inspector.selected
}

func inspectorAction(a *app, act uiAction) bool {
	if act.Name == "inspector-toggle" {
		el := js.Global().Get("document").Call("getElementById", "inspector")
		setInspectorCollapsed(el.IsNull() || !el.Get("classList").Call("contains", "collapsed").Bool(), true)
		return true
	}
	if act.Name != "inspector-tab" {
		return false
	}
	a.selectInspectorTab(act.Get("tab"), false)
	a.markDirty()
	return true
}

// inspectorKey moves between the tabs (Left/Right/Home/End on a focused tab).
func inspectorKey(a *app, k keyInfo) bool {
	if !strings.HasPrefix(k.TargetID, "inspector-tab-") || k.Mod || k.Alt {
		return false
	}
	cur := 0
	for i, t := range inspectorTabs {
		if inspectorTabID(t.ID) == k.TargetID {
			cur = i
		}
	}
	n := len(inspectorTabs)
	next := -1
	switch k.Key {
	case "ArrowRight":
		next = (cur + 1) % n
	case "ArrowLeft":
		next = (cur + n - 1) % n
	case "Home":
		next = 0
	case "End":
		next = n - 1
	default:
		return false
	}
	a.selectInspectorTab(inspectorTabs[next].ID, true)
	a.markDirty()
	return true
}
