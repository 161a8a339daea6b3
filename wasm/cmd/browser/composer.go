//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
)

// The composer (the prompt box and its Send/Cancel buttons):
//
//   - Send is disabled while a run is going (Cancel stays enabled); a prompt submitted
//     anyway (a form submit by script) stays in the box, and the chat says so — a prompt is
//     never thrown away (events.go's submit handler);
//   - Ctrl+Enter (Cmd+Enter on macOS) in the prompt box sends; Enter alone is a new line;
//   - after Cancel, an Escape that denies approvals, or a confirmed restore, keyboard focus
//     returns to the prompt box instead of dropping to <body> (focusPromptIfLost).
func init() {
	registerFeature(&feature{
		name: "composer",
		render: func(a *app) {
			a.mu.Lock()
			running := a.st.running != ""
			a.mu.Unlock()
			if b := js.Global().Get("document").Call("querySelector", `#chat-form button[type="submit"]`); !b.IsNull() {
				if b.Get("disabled").Bool() != running {
					b.Set("disabled", running)
				}
			}
		},
		key: func(a *app, k keyInfo) bool {
			if k.Key != "Enter" || !k.Mod || k.TargetID != "prompt" || k.DialogOpen {
				return false
			}
			form := js.Global().Get("document").Call("getElementById", "chat-form")
			if form.IsNull() {
				return false
			}
			// requestSubmit runs the form's submit handler (the one place a prompt is sent).
			jsbridge.Go("composer.send", func() { form.Call("requestSubmit") })
			return true
		},
	})
}

// promptBusy reports whether a run is going (a submitted prompt must then stay in the box).
func (a *app) promptBusy() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.st.running != ""
}

// focusPromptIfLost moves keyboard focus to the prompt box when it is on <body>, on the
// Cancel button (about to be disabled) or inside the approval cards (about to be removed).
func focusPromptIfLost() {
	doc := js.Global().Get("document")
	box := doc.Call("getElementById", "prompt")
	if box.IsNull() {
		return
	}
	ae := doc.Get("activeElement")
	lost := ae.IsNull() || ae.IsUndefined() || ae.Equal(doc.Get("body"))
	if !lost {
		id := ae.Get("id")
		lost = id.Type() == js.TypeString && id.String() == "cancel-run"
	}
	if !lost {
		if ap := doc.Call("getElementById", "approvals"); !ap.IsNull() && ap.Call("contains", ae).Bool() {
			lost = true
		}
	}
	if lost {
		box.Call("focus")
	}
}

// focusPromptWhenLost watches keyboard focus for d after an action whose controls a
// re-render replaces (a confirmed restore: the dialog returns focus to the Restore button,
// which the history panel then redraws): when focus falls to <body> it moves to the prompt
// box. It blocks for up to d: call it on a goroutine.
func focusPromptWhenLost(d time.Duration) {
	doc := js.Global().Get("document")
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(40 * time.Millisecond) {
		ae := doc.Get("activeElement")
		if ae.IsNull() || ae.IsUndefined() || ae.Equal(doc.Get("body")) {
			if box := doc.Call("getElementById", "prompt"); !box.IsNull() {
				box.Call("focus")
			}
			return
		}
	}
}
