//go:build js && wasm

package main

import (
	"context"
	"github.com/webcoding/studio/wasm/transfer"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
)

// draftDelay is the idle time after the last keystroke before the editor's draft is written
// through workspace.writeFile (REFERENCE §11: 650 ms).
const draftDelay = 650 * time.Millisecond

// listeners are kept referenced for the life of the page.
var listeners []js.Func

func on(target js.Value, event string, fn func(this js.Value, args []js.Value) any) {
	f := jsbridge.Func("dom."+event, fn)
	listeners = append(listeners, f)
	target.Call("addEventListener", event, f)
}

// bindDOM installs the delegated listeners. Each one reads what it needs from the event
// synchronously and hands the work to a goroutine.
func (a *app) bindDOM() {
	doc := js.Global().Get("document")
	on(doc, "click", func(_ js.Value, args []js.Value) any {
		el := args[0].Get("target")
		if el.Get("closest").Type() != js.TypeFunction {
			return nil
		}
		btn := el.Call("closest", "[data-action]")
		if btn.IsNull() {
			return nil
		}
		action := btn.Get("dataset").Get("action").String()
		path := attr(btn, "data-path")
		if action == "recipe" {
			path = attr(btn, "data-prompt")
		}
		id := attr(btn, "data-id")
		data := dataset(btn)
		args[0].Call("preventDefault")
		jsbridge.Go("action."+action, func() {
			for _, f := range features {
				if f.action != nil && f.action(a, uiAction{Name: action, Data: data}) {
					return
				}
			}
			a.action(action, path, id)
		})
		return nil
	})
	a.bindDialog()
	if form := doc.Call("getElementById", "chat-form"); !form.IsNull() {
		on(form, "submit", func(_ js.Value, args []js.Value) any {
			args[0].Call("preventDefault")
			box := doc.Call("getElementById", "prompt")
			prompt := strings.TrimSpace(box.Get("value").String())
			if prompt == "" {
				return nil
			}
			if a.promptBusy() { // composer.go: keep the prompt, never throw it away
				jsbridge.Go("agent.busy", func() {
					a.addEntry(entry{Kind: "info", Text: "A run is already in progress: your prompt stays in the box. Send it when the run ends, or Cancel the run."})
				})
				return nil
			}
			box.Set("value", "")
			jsbridge.Go("agent.run", func() { a.runPrompt(prompt) })
			return nil
		})
	}
	on(js.Global(), "webcoding:update", func(js.Value, []js.Value) any {
		jsbridge.Go("update", a.updateReady)
		return nil
	})
	if js.Global().Get("webcodingUpdateReady").Truthy() {
		jsbridge.Go("update", a.updateReady)
	}
	on(doc, "keydown", func(_ js.Value, args []js.Value) any {
		ev := args[0]
		key := ev.Get("key").String()
		k := keyInfo{Key: key, Ctrl: ev.Get("ctrlKey").Bool(), Meta: ev.Get("metaKey").Bool(),
			Shift: ev.Get("shiftKey").Bool(), Alt: ev.Get("altKey").Bool(), InText: inTextField(ev.Get("target")),
			DialogOpen: modalOpen()}
		k.Mod = k.Ctrl || k.Meta
		if t := ev.Get("target"); t.Type() == js.TypeObject && t.Get("id").Type() == js.TypeString {
			k.TargetID = t.Get("id").String()
		}
		for _, f := range features {
			if f.key != nil && f.key(a, k) {
				ev.Call("preventDefault")
				return nil
			}
		}
		switch {
		case key == "Escape" && a.isFullscreen():
			// Escape leaves the full-screen preview first.
			ev.Call("preventDefault")
			jsbridge.Go("fullscreen", func() { a.setFullscreen(false) })
		case key == "Escape":
			a.mu.Lock()
			busy := (a.st.running != "" || len(a.st.approvals) > 0) && a.dialog == nil
			a.mu.Unlock()
			if busy {
				ev.Call("preventDefault")
				jsbridge.Go("cancel", a.cancelRun)
			}
		case (key == "s" || key == "S") && (ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()):
			ev.Call("preventDefault")
			jsbridge.Go("save", func() { a.flushDraft(context.Background()) })
		case (key == "z" || key == "Z" || key == "y" || key == "Y") && (ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()) && !inTextField(ev.Get("target")) && !a.dialogOpen():
			// Workspace undo/redo outside text fields (text fields keep their own undo).
			redo := key == "y" || key == "Y" || ev.Get("shiftKey").Bool()
			ev.Call("preventDefault")
			jsbridge.Go("history", func() {
				if redo {
					a.action("redo", "", "")
				} else {
					a.action("undo", "", "")
				}
			})
		}
		return nil
	})
	a.bindEditor()
	for _, f := range features {
		if f.bind != nil {
			f.bind(a)
		}
	}
}

// dialogOpen reports whether the file dialog is open (shortcuts are off while it is).
func (a *app) dialogOpen() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.dialog != nil
}

// inTextField reports whether el is a textarea, an input or editable content.
func inTextField(el js.Value) bool {
	if el.Type() != js.TypeObject || el.Get("tagName").Type() != js.TypeString {
		return false
	}
	switch el.Get("tagName").String() {
	case "TEXTAREA", "INPUT", "SELECT":
		return true
	}
	return el.Get("isContentEditable").Truthy()
}

func attr(el js.Value, name string) string {
	v := el.Call("getAttribute", name)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// action runs one UI button through the registry.
func (a *app) action(action, path, id string) {
	ctx := context.Background()
	var err error
	switch action {
	case "open":
		a.flushDraft(ctx)
		err = a.tool(ctx, "workspace.openFile", map[string]any{"path": path}, nil)
		a.reload(ctx)
	case "approve", "deny":
		decision := "allow"
		if action == "deny" {
			decision = "deny"
			a.rememberDenial(id, "Denied by you.") // denial.go
		}
		err = a.rpc(ctx, "", "approvals/resolve", map[string]any{"id": id, "decision": decision}, nil)
	case "cancel":
		a.cancelRun()
	case "refresh-preview":
		err = a.tool(ctx, "preview.refresh", nil, nil)
	case "save":
		a.flushDraft(ctx)
	case "undo", "redo":
		// Locked while the agent runs; with nothing to undo/redo (after the draft's flush) a
		// no-op, not a WORKSPACE_HISTORY_EMPTY entry (undo_redo_buttons.go).
		if a.historyLocked() {
			return
		}
		a.flushDraft(ctx)
		if !historyAvailable(action == "redo") {
			// The cached flags date from the last re-read, which may not have run yet right
			// after a write/undo: ask the workspace before treating this as a no-op.
			a.refreshHistoryState(ctx)
			if !historyAvailable(action == "redo") {
				return
			}
		}
		err = a.tool(ctx, "workspace."+action, map[string]any{}, nil)
		if err == nil {
			a.refreshHistoryState(ctx)
		}
	case "export":
		err = a.export(ctx)
	case "new-file":
		a.openDialog(dialogNewFile, "")
	case "rename":
		a.openDialog(dialogRename, path)
	case "delete":
		a.openDialog(dialogDelete, path)
	case "revert":
		a.openDialog(dialogRevert, path)
	case "download":
		err = a.tool(ctx, "workspace.downloadFile", map[string]any{"path": path}, nil)
	case "fullscreen":
		a.setFullscreen(!a.isFullscreen())
	case "reload-studio":
		a.flushDraft(ctx)
		js.Global().Get("location").Call("reload")
	case "recipe":
		a.runPrompt(path)
	}
	if err != nil {
		a.addEntry(a.failureEntry(err))
	} else if action != "cancel" {
		a.clearCancelledStatus()
	}
}

// clearCancelledStatus puts the status bar back to "Ready" after "Execution cancelled." once
// a later action succeeded.
func (a *app) clearCancelledStatus() {
	a.mu.Lock()
	changed := a.st.running == "" && a.st.statusText == "Execution cancelled."
	if changed {
		a.st.statusText = "Ready"
	}
	a.mu.Unlock()
	if changed {
		a.markDirty()
	}
}

// runPrompt runs the local agent through agent/run; its write calls wait for approval cards.
func (a *app) runPrompt(prompt string) {
	if a.runProviderPrompt(prompt) { // provider.go: OpenRouter when a key is set
		return
	}
	ctx := context.Background()
	a.flushDraft(ctx)
	id := "agent-" + strconv.FormatInt(a.runSeq.Add(1), 10)
	a.mu.Lock()
	if a.st.running != "" {
		a.mu.Unlock()
		a.addEntry(entry{Kind: "info", Text: "A run is already in progress."})
		return
	}
	a.st.running, a.cancelled, a.st.statusText = id, false, "Running…"
	a.mu.Unlock()
	rememberRun(id, prompt) // recovery actions re-run it (recovery.go)
	defer forgetRun(id)
	a.addEntry(entry{Kind: "user", Text: prompt})
	var rep struct {
		Summary   string `json:"summary"`
		Failed    bool   `json:"failed"`
		ErrorCode string `json:"errorCode"`
	}
	err := a.rpc(ctx, id, "agent/run", map[string]any{"prompt": prompt, "sessionId": "studio"}, &rep)
	a.mu.Lock()
	cancelled := a.cancelled
	a.st.running = ""
	switch {
	case cancelled:
		a.st.statusText = "Execution cancelled."
	case err != nil:
		a.st.statusText = "Ready"
	default:
		a.st.statusText = "Ready"
	}
	a.mu.Unlock()
	switch {
	case cancelled:
		a.addEntry(entry{Kind: "info", Text: "Execution cancelled."})
	case err != nil:
		a.addEntry(entry{Kind: "error", Text: err.Error()})
	default:
		a.addEntry(entry{Kind: "agent", Text: denialSummary(rep.Summary)}) // denial.go
	}
	a.requestRefresh()
}

// cancelRun denies every pending approval and cancels the running agent/run (Escape, Cancel).
func (a *app) cancelRun() {
	ctx := context.Background()
	a.mu.Lock()
	id := a.st.running
	if id != "" {
		a.cancelled = true
	}
	a.st.statusText = "Execution cancelled."
	a.mu.Unlock()
	a.rememberDenial("", "Denied: you cancelled the run.") // denial.go
	_ = a.rpc(ctx, "", "approvals/denyAll", nil, nil)
	if id != "" {
		a.notify(ctx, "notifications/cancelled", map[string]any{"requestId": id, "reason": "cancelled in the studio"})
	}
	focusPromptIfLost() // composer.go
	a.markDirty()
}

// notify sends a JSON-RPC notification (no id, no response).
func (a *app) notify(ctx context.Context, method string, params any) {
	raw, _ := jsonMarshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	a.handle(ctx, raw)
}

// draft records the editor's text and schedules a flush after draftDelay of idle time.
func (a *app) draft(path, text string) {
	if path == "" {
		return
	}
	a.mu.Lock()
	a.draftPath, a.draftText = path, text
	a.shownPath, a.shownText = path, text
	a.draftGen++
	gen := a.draftGen
	a.mu.Unlock()
	time.AfterFunc(draftDelay, func() {
		defer func() { _ = recover() }()
		a.mu.Lock()
		current := a.draftGen == gen
		a.mu.Unlock()
		if current {
			a.flushDraft(context.Background())
		}
	})
}

// flushDraft writes the pending draft with workspace.writeFile (direct mode, expectedRevision
// = the current revision). The draft stays in place until the write and the re-read are done
// (so a render in between never puts the old text back into the editor), and is cleared
// only if no newer keystroke arrived meanwhile and the write succeeded: a failed write (over
// the budget, a conflict) keeps the typed text in the editor until the next edit retries it
// or another file is opened (renderEditor drops it then).
func (a *app) flushDraft(ctx context.Context) {
	a.flushMu.Lock()
	defer a.flushMu.Unlock()
	a.mu.Lock()
	path, text, gen, rev := a.draftPath, a.draftText, a.draftGen, a.st.revision
	done := a.flushedGen == gen
	a.mu.Unlock()
	if path == "" || done {
		return
	}
	if a.holdOverBudget(path, text, gen) { // draftstore.go: never sent, kept in localStorage
		return
	}
	err := a.typingWrite(ctx, path, text, rev) // workspace.writeFile with the burst's coalesceKey (editor.go)
	kept := false
	if err != nil {
		// A draft whose file vanished is shown in the chat, text included (draftrescue.go).
		if kept = rescueDraft(a, path, text, err); !kept {
			a.addEntry(a.failureEntry(err))
		}
	}
	a.mu.Lock()
	a.flushedGen = gen
	a.mu.Unlock()
	a.reload(ctx)
	if err == nil {
		clearStoredDraft(path) // draftstore.go
		a.clearCancelledStatus()
	}
	a.mu.Lock()
	// A failed write (over the budget, a conflict) keeps the draft: the editor never drops or
	// truncates what was typed; the next keystroke tries again.
	if a.draftGen == gen && (err == nil || kept) {
		a.draftPath, a.draftText = "", ""
	}
	a.mu.Unlock()
	a.markDirty()
}

// export downloads the standalone HTML export (preview/export: CSS/JS inlined, assets as
// data: URLs, no bridge) as <rootName>.html. It is a core operation, not a tool (SPEC §2.11).
func (a *app) export(ctx context.Context) error {
	a.flushDraft(ctx)
	var out struct {
		HTML string `json:"html"`
	}
	if err := a.rpc(ctx, "", "preview/export", map[string]any{}, &out); err != nil {
		return err
	}
	a.mu.Lock()
	name := a.st.rootName
	a.mu.Unlock()
	name = transfer.DownloadName(name, ".html") // the name the browser saves, as the chat says
	if err := download(name, "text/html", []byte(out.HTML)); err != nil {
		return err
	}
	a.addEntry(entry{Kind: "info", Text: "Exported " + name})
	return nil
}

// updateReady shows the "new version" notice with its Reload studio button.
func (a *app) updateReady() {
	a.mu.Lock()
	a.st.updateReady = true
	a.mu.Unlock()
	a.markDirty()
}

// isFullscreen reports whether the preview panel fills the window.
func (a *app) isFullscreen() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.fullscreen
}

// setFullscreen shows the preview panel over the whole window (or back in the layout).
func (a *app) setFullscreen(on bool) {
	a.mu.Lock()
	a.fullscreen = on
	a.mu.Unlock()
	doc := js.Global().Get("document")
	if p := doc.Call("getElementById", "preview-panel"); !p.IsNull() {
		p.Get("classList").Call("toggle", "fullscreen", on)
	}
	applyFullscreenInert(on) // focus.go: Tab stays inside the full-screen panel
	if b := doc.Call("getElementById", "fullscreen-toggle"); !b.IsNull() {
		b.Call("setAttribute", "aria-pressed", map[bool]string{true: "true", false: "false"}[on])
		b.Set("textContent", map[bool]string{true: "Exit full screen", false: "Full screen"}[on])
	}
}
