//go:build js && wasm

package main

import (
	"context"
	"sync"
	"syscall/js"
)

// Workspace undo/redo availability (issue 4 follow-up). The header's Undo and Redo buttons
// (site/index.html, data-action undo/redo) and their shortcuts (Ctrl/Cmd+Z, Shift+Z, Y):
//
//   - are disabled, and the shortcuts do nothing, while an agent run is active or an approval
//     card is pending (an undo would remove the agent's previous change under it); the
//     buttons' title then ends in "locked while the agent runs";
//   - are disabled when workspace.getStatus reports history.canUndo / canRedo false (read on
//     every workspace re-read, app.reload), and the shortcut is then a no-op instead of a
//     WORKSPACE_HISTORY_EMPTY entry in the chat — unless an editor draft is pending, whose
//     flush adds a checkpoint first.

// undoRedoState (app.histState) is whether undo and redo are available.
type undoRedoState struct {
	sync.Mutex
	canUndo, canRedo bool
}

// setHistoryState records workspace.getStatus's history flags and re-renders.
func (a *app) setHistoryState(canUndo, canRedo bool) {
	a.histState.Lock()
	a.histState.canUndo, a.histState.canRedo = canUndo, canRedo
	a.histState.Unlock()
}

// refreshHistoryState re-reads history.canUndo/canRedo through workspace.getStatus (so an
// undo/redo right after another one sees the current flags, not the last re-read's) and
// re-renders. On error the cached flags stay.
func (a *app) refreshHistoryState(ctx context.Context) {
	var status struct {
		History struct {
			CanUndo bool `json:"canUndo"`
			CanRedo bool `json:"canRedo"`
		} `json:"history"`
	}
	if a.tool(ctx, "workspace.getStatus", nil, &status) == nil {
		a.setHistoryState(status.History.CanUndo, status.History.CanRedo)
		a.markDirty()
	}
}

// historyLocked reports whether an agent run is active or an approval is pending.
func (a *app) historyLocked() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.st.running != "" || len(a.st.approvals) > 0
}

// historyAvailable reports whether workspace.undo (redo false) or workspace.redo (redo true)
// has something to do, as of the last workspace re-read.
func (a *app) historyAvailable(redo bool) bool {
	a.histState.Lock()
	defer a.histState.Unlock()
	if redo {
		return a.histState.canRedo
	}
	return a.histState.canUndo
}

func init() {
	registerFeature(&feature{name: "history-lock", render: renderHistoryButtons})
}

// renderHistoryButtons sets the Undo/Redo buttons' disabled state and title.
func renderHistoryButtons(a *app) {
	locked := a.historyLocked()
	doc := js.Global().Get("document")
	for _, b := range []struct {
		action, title string
		redo          bool
	}{{"undo", "Undo (Ctrl/Cmd+Z)", false}, {"redo", "Redo (Ctrl/Cmd+Shift+Z)", true}} {
		el := doc.Call("querySelector", `.explorer-head [data-action="`+b.action+`"]`)
		if el.IsNull() {
			continue
		}
		off := locked || !a.historyAvailable(b.redo)
		title := b.title
		switch {
		case locked:
			title += " — locked while the agent runs"
		case off:
			title += " — nothing to " + b.action
		}
		if el.Get("disabled").Bool() != off {
			el.Set("disabled", off)
		}
		if attr(el, "title") != title {
			el.Call("setAttribute", "title", title)
		}
	}
}
