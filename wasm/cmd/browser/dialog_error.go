//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
)

// A New file / Rename whose tool call fails (an invalid path, a path that exists, a limit)
// does not lose what was typed: the dialog opens again with the typed value selected and the
// error inside it (#file-dialog-error, role=alert, referenced by the input's
// aria-describedby, aria-invalid=true), like a real editor; nothing is added to the chat.

// setFileDialogError shows msg under the dialog's input ("" hides it and clears
// aria-invalid). The error paragraph is created on first use.
func setFileDialogError(msg string) {
	doc := js.Global().Get("document")
	field := doc.Call("getElementById", "file-dialog-input")
	if field.IsNull() {
		return
	}
	p := doc.Call("getElementById", "file-dialog-error")
	if p.IsNull() {
		if msg == "" {
			return
		}
		p = doc.Call("createElement", "p")
		p.Set("id", "file-dialog-error")
		p.Set("className", "dialog-error")
		p.Call("setAttribute", "role", "alert")
		field.Get("parentNode").Call("insertBefore", p, field.Get("nextSibling"))
	}
	p.Set("textContent", msg)
	p.Set("hidden", msg == "")
	if msg == "" {
		field.Call("removeAttribute", "aria-invalid")
		field.Call("removeAttribute", "aria-describedby")
		return
	}
	field.Call("setAttribute", "aria-invalid", "true")
	field.Call("setAttribute", "aria-describedby", "file-dialog-error")
}

// reopenFileDialog opens the dialog of p again with the typed value and err shown inside it.
func (a *app) reopenFileDialog(p pendingDialog, value string, err error) {
	a.openDialog(p.kind, p.path)
	msg := err.Error()
	var te *toolCallError
	if errors.As(err, &te) {
		msg = "[" + te.Code + "] " + te.Message
	}
	field := js.Global().Get("document").Call("getElementById", "file-dialog-input")
	if field.IsNull() {
		return
	}
	field.Set("value", value)
	setFileDialogError(msg)
	field.Call("focus")
	field.Call("select")
}
