//go:build js && wasm

package main

import (
	"syscall/js"
)

// Focus rescue (issue 4, focus management): when a re-render removes the focused element
// (an approval card after Approve/Deny), focus would fall to <body> and a keyboard user
// would have to start over from the top of the page. The focus feature remembers the
// last focused element and, after each render, moves focus to the next sensible target:
//   - inside #approvals: the next card's Approve button (#approve-0), else the prompt box;
//
// The explorer tree's own cases (after Rename, after Delete) are handled by tree.go
// (tree.pendingFocus), and Full screen preview makes the rest of the page inert
// (applyFullscreenInert).

// focusTracker (app.focusState) is the last element that received focus (set from the focusin callback and
// read by the render hook; both run on the JS event loop's thread, so no lock is needed
// beyond the callback order).
type focusTracker struct {
	last       js.Value
	inApproval bool
}

func init() {
	registerFeature(&feature{
		name: "focus",
		bind: func(a *app) {
			doc := js.Global().Get("document")
			a.on(doc, "focusin", func(_ js.Value, args []js.Value) any {
				if len(args) == 0 {
					return nil
				}
				t := args[0].Get("target")
				a.focusState.last = t
				ap := doc.Call("getElementById", "approvals")
				a.focusState.inApproval = !ap.IsNull() && t.Type() == js.TypeObject && ap.Call("contains", t).Bool()
				return nil
			})
		},
		render: func(a *app) { a.rescueFocus() },
	})
}

// rescueFocus moves focus off <body> when the element that had it was removed by a render.
func (a *app) rescueFocus() {
	doc := js.Global().Get("document")
	ae := doc.Get("activeElement")
	if !ae.IsNull() && ae.Truthy() && !ae.Equal(doc.Get("body")) {
		return
	}
	last := a.focusState.last
	if last.Type() != js.TypeObject || last.Get("isConnected").Bool() {
		return // focus was not lost by a removal (e.g. the user clicked the page background)
	}
	if a.focusState.inApproval {
		target := doc.Call("getElementById", "approve-0")
		if target.IsNull() {
			target = doc.Call("getElementById", "prompt")
		}
		if !target.IsNull() {
			target.Call("focus")
		}
	}
}

// applyFullscreenInert makes everything outside the preview panel inert while the preview
// fills the window (Tab cannot reach the hidden explorer, chat, editor or inspector behind
// it) and restores it on exit. Dialogs are left alone (they are modal in the top layer).
func applyFullscreenInert(on bool) {
	doc := js.Global().Get("document")
	panel := doc.Call("getElementById", "preview-panel")
	if panel.IsNull() {
		return
	}
	// Walk from the panel up to <body>: every sibling on the way is outside the panel.
	for el := panel; !el.IsNull() && !el.Equal(doc.Get("body")); el = el.Get("parentElement") {
		parent := el.Get("parentElement")
		if parent.IsNull() {
			break
		}
		kids := parent.Get("children")
		for i := 0; i < kids.Length(); i++ {
			k := kids.Index(i)
			if k.Equal(el) || k.Get("tagName").String() == "DIALOG" || k.Get("tagName").String() == "SCRIPT" {
				continue
			}
			k.Set("inert", on)
		}
	}
}
