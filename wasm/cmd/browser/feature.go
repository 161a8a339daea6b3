//go:build js && wasm

package main

import (
	"context"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/ui/views"
)

// A feature is one part of the studio UI that keeps its own state and regions (the trace
// panel, the tool catalog, provider settings, folders, quick open…). Each lives in its own
// file and registers itself from an init function, so the core app (app.go, events.go,
// render.go) only fans hooks out:
//
//   - bind runs once in bindDOM (install extra listeners with on(...));
//   - start runs once after the first tools/list and workspace read (on a goroutine);
//   - render runs on the render loop after every state change (write regions with setRegion);
//   - action handles a delegated click on an element with data-action (on a goroutine) and
//     reports whether it was the feature's action;
//   - key runs synchronously inside the keydown callback: it must not block (hand work to
//     jsbridge.Go) and reports whether it consumed the key (the caller then preventDefaults);
//   - observe receives every tool-call lifecycle event (it must not block).
//
// Every hook is optional. Features that change what is shown call a.markDirty().
type feature struct {
	name    string
	bind    func(a *app)
	start   func(a *app, ctx context.Context)
	render  func(a *app)
	action  func(a *app, act uiAction) bool
	key     func(a *app, k keyInfo) bool
	observe func(a *app, e audit.ToolCallEvent)
}

// features are the registered features in registration (file-name) order.
var features []*feature

// registerFeature adds f; call it from an init function.
func registerFeature(f *feature) { features = append(features, f) }

// uiAction is one delegated click: the element's data-action and its data-* attributes
// (dataset keys in camelCase: data-tool-name → "toolName").
type uiAction struct {
	Name string
	Data map[string]string
}

// Get returns the data attribute key ("" when absent).
func (u uiAction) Get(key string) string { return u.Data[key] }

// keyInfo is one keydown event, copied out of the event inside the callback.
type keyInfo struct {
	Key                    string
	Ctrl, Meta, Shift, Alt bool
	InText                 bool   // the target is an input, textarea, select or contenteditable
	TargetID               string // the target element's id ("" when none)
	DialogOpen             bool   // a modal dialog of the studio is open
	Mod                    bool   // Ctrl or Meta (Cmd on macOS)
}

// dataset copies an element's data-* attributes.
func dataset(el js.Value) map[string]string {
	out := map[string]string{}
	ds := el.Get("dataset")
	if ds.Type() != js.TypeObject {
		return out
	}
	keys := js.Global().Get("Object").Call("keys", ds)
	for i := 0; i < keys.Length(); i++ {
		k := keys.Index(i).String()
		out[k] = ds.Get(k).String()
	}
	return out
}

// entryAction is a recovery or follow-up button under a transcript entry
// (wasm/ui/views.EntryAction); the click reaches the feature or app action that owns Action.
type entryAction = views.EntryAction

// modalOpen reports whether any modal <dialog> of the page is open (shortcuts are off then).
func modalOpen() bool {
	return js.Global().Get("document").Call("querySelector", "dialog[open]").Truthy()
}

// confirmState (app.confirmDialog) is the shared in-app confirmation dialog (#confirm-dialog in index.html): a
// native modal <dialog> (focus trap, Escape = cancel, focus returns to the opener). confirm
// blocks the calling goroutine — never a JS callback — until the user answers or ctx ends.
type confirmState struct {
	mu      sync.Mutex // one confirmation at a time
	answers chan bool
	bound   bool
}

// confirmOptions fill the dialog. OK is the confirming button's label ("OK" when empty);
// Danger styles it as destructive.
type confirmOptions struct {
	Title, Text, OK, Cancel string
	Danger                  bool
}

// confirm shows the dialog and reports whether the user confirmed.
func (a *app) confirm(ctx context.Context, o confirmOptions) bool {
	a.confirmDialog.mu.Lock()
	defer a.confirmDialog.mu.Unlock()
	doc := js.Global().Get("document")
	dlg := doc.Call("getElementById", "confirm-dialog")
	if dlg.IsNull() || dlg.Get("showModal").Type() != js.TypeFunction {
		return false
	}
	if !a.confirmDialog.bound {
		a.confirmDialog.bound = true
		a.confirmDialog.answers = make(chan bool, 1)
		a.on(dlg, "close", func(this js.Value, _ []js.Value) any {
			if this.Get("open").Bool() {
				return nil
			}
			select {
			case a.confirmDialog.answers <- this.Get("returnValue").String() == "ok":
			default:
			}
			return nil
		})
	}
	select { // drop a stale answer
	case <-a.confirmDialog.answers:
	default:
	}
	if o.OK == "" {
		o.OK = "OK"
	}
	if o.Cancel == "" {
		o.Cancel = "Cancel"
	}
	doc.Call("getElementById", "confirm-dialog-title").Set("textContent", o.Title)
	doc.Call("getElementById", "confirm-dialog-text").Set("textContent", o.Text)
	ok := doc.Call("getElementById", "confirm-dialog-ok")
	ok.Set("textContent", o.OK)
	ok.Get("classList").Call("toggle", "danger", o.Danger)
	cancel := doc.Call("getElementById", "confirm-dialog-cancel")
	cancel.Set("textContent", o.Cancel)
	dlg.Set("returnValue", "")
	dlg.Call("showModal")
	cancel.Call("focus")
	select {
	case v := <-a.confirmDialog.answers:
		return v
	case <-ctx.Done():
		dlg.Call("close", "cancel")
		return false
	}
}
