//go:build js && wasm

package main

import (
	"context"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
)

// The file dialog is a native modal <dialog> (site/index.html #file-dialog): showModal makes
// the rest of the page inert (focus trap), Escape cancels it, and closing returns focus to the
// element that opened it. It replaces window.confirm/prompt for New file, Rename, Delete and
// Revert; the confirmed action runs through the registry like every other UI action.

// dialogKind is what the open dialog will do when confirmed.
type dialogKind string

const (
	dialogNewFile dialogKind = "new-file"
	dialogRename  dialogKind = "rename"
	dialogDelete  dialogKind = "delete"
	dialogRevert  dialogKind = "revert"
)

// pendingDialog is the open dialog's request (guarded by app.mu).
type pendingDialog struct {
	kind dialogKind
	path string
}

// openDialog fills and shows the file dialog (called from a goroutine).
func (a *app) openDialog(kind dialogKind, path string) {
	doc := js.Global().Get("document")
	dlg := doc.Call("getElementById", "file-dialog")
	if dlg.IsNull() || dlg.Get("showModal").Type() != js.TypeFunction {
		return
	}
	if dlg.Get("open").Bool() {
		return
	}
	title, text, ok, input := "", "", "OK", false
	cancelLabel := "Close dialog"
	switch kind {
	case dialogNewFile:
		title, text, ok, input = "New file", "Path of the new file (e.g. notes.md or css/extra.css).", "Create", true
		cancelLabel = "Close new file dialog"
	case dialogRename:
		title, text, ok, input = "Rename "+path, "New path:", "Rename", true
		cancelLabel = "Close rename dialog"
	case dialogDelete:
		title, text, ok = "Delete "+path+"?", "The file is removed from the workspace (undo restores it).", "Delete"
		cancelLabel = "Close delete dialog"
	case dialogRevert:
		title, text, ok = "Revert "+path+"?", "Unsaved changes to this file are discarded.", "Revert"
		cancelLabel = "Close revert dialog"
	}
	a.mu.Lock()
	a.dialog = &pendingDialog{kind: kind, path: path}
	a.mu.Unlock()
	doc.Call("getElementById", "file-dialog-title").Set("textContent", title)
	doc.Call("getElementById", "file-dialog-text").Set("textContent", text)
	doc.Call("getElementById", "file-dialog-ok").Set("textContent", ok)
	doc.Call("getElementById", "file-dialog-cancel").Call("setAttribute", "aria-label", cancelLabel)
	field := doc.Call("getElementById", "file-dialog-input")
	label := doc.Call("getElementById", "file-dialog-label")
	field.Set("hidden", !input)
	label.Set("hidden", !input)
	value := ""
	if kind == dialogRename {
		value = path
	}
	field.Set("value", value)
	setFileDialogError("") // dialog_error.go
	dlg.Set("returnValue", "")
	dlg.Call("showModal")
	if input {
		field.Call("focus")
	} else {
		doc.Call("getElementById", "file-dialog-cancel").Call("focus")
	}
}

// bindDialog listens for the dialog's close event (submit with OK/Cancel, or Escape).
func (a *app) bindDialog() {
	dlg := js.Global().Get("document").Call("getElementById", "file-dialog")
	if dlg.IsNull() {
		return
	}
	a.on(dlg, "close", func(this js.Value, _ []js.Value) any {
		// The close event is a queued task: when it arrives after the dialog was opened
		// again, it belongs to the earlier close and must not consume the new request.
		if this.Get("open").Bool() {
			return nil
		}
		confirmed := this.Get("returnValue").String() == "ok"
		value := js.Global().Get("document").Call("getElementById", "file-dialog-input").Get("value").String()
		a.mu.Lock()
		p := a.dialog
		a.dialog = nil
		a.mu.Unlock()
		if p == nil || !confirmed {
			return nil
		}
		jsbridge.Go("dialog."+string(p.kind), func() { a.dialogConfirmed(*p, value) })
		return nil
	})
}

// dialogConfirmed runs the confirmed dialog's tool (direct mode, as the UI).
func (a *app) dialogConfirmed(p pendingDialog, value string) {
	ctx := context.Background()
	a.flushDraft(ctx)
	var err error
	switch p.kind {
	case dialogNewFile:
		err = a.tool(ctx, "workspace.createFile", map[string]any{"path": value, "source": ""}, nil)
		if err == nil {
			a.setPendingTreeFocus(fileID(value)) // the new file gets focus (issue 15; tree.go)
		}
	case dialogRename:
		err = a.tool(ctx, "workspace.renameFile", map[string]any{"fromPath": p.path, "toPath": value}, nil)
		if err == nil {
			a.setPendingTreeFocus(fileID(value)) // focus follows the renamed file (tree.go)
		}
	case dialogDelete:
		next := a.neighbourFileID(p.path) // before the item leaves the tree
		err = a.tool(ctx, "workspace.deleteFile", map[string]any{"path": p.path}, nil)
		if err == nil && next != "" {
			a.setPendingTreeFocus(next)
		}
	case dialogRevert:
		err = a.tool(ctx, "workspace.revertFile", map[string]any{"path": p.path}, nil)
	}
	if err != nil && (p.kind == dialogNewFile || p.kind == dialogRename) {
		a.reload(ctx)
		a.reopenFileDialog(p, value, err) // the typed name is kept, the error shown inside (dialog_error.go)
		return
	}
	if err != nil {
		a.addEntry(a.failureEntry(err))
	}
	a.reload(ctx)
}
