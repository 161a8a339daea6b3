//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/hack-pad/safejs"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/transfer"
)

// draftDelay is the idle time after the last keystroke before the editor's draft is written
// through workspace.writeFile (REFERENCE §11: 650 ms).
const draftDelay = 650 * time.Millisecond

func (a *app) on(target js.Value, event string, fn func(this js.Value, args []js.Value) any) {
	f := jsbridge.Func("dom."+event, fn)
	a.listeners = append(a.listeners, f)
	target.Call("addEventListener", event, f)
}

// bindDOM installs the delegated listeners. Each one reads what it needs from the event
// synchronously and hands the work to a goroutine.
func (a *app) bindDOM() {
	doc := js.Global().Get("document")
	a.on(doc, "click", func(_ js.Value, args []js.Value) any {
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
		a.on(form, "submit", func(_ js.Value, args []js.Value) any {
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
			atts := takeChips(a) // pick.go: the context chips go with this prompt, once
			jsbridge.Go("agent.run", func() { a.runPromptWith(prompt, atts) })
			return nil
		})
	}
	a.on(js.Global(), "webcoding:update", func(js.Value, []js.Value) any {
		jsbridge.Go("update", a.updateReady)
		return nil
	})
	if js.Global().Get("webcodingUpdateReady").Truthy() {
		jsbridge.Go("update", a.updateReady)
	}
	a.on(doc, "keydown", func(_ js.Value, args []js.Value) any {
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
			// Escape leaves the full-screen preview first (in the browser's full screen the
			// browser itself handles Escape, also with focus inside the preview frame; this
			// covers the in-page fallback).
			ev.Call("preventDefault")
			jsbridge.Go("fullscreen", func() { a.setFullscreen(false) })
		case key == "Escape":
			// Escape cancels a run only from the chat or an approval card (issue 15): in the
			// editor it is CodeMirror's (close search, leave the Tab trap), never a cancel.
			t := ev.Get("target")
			inChat := t.Type() == js.TypeObject && t.Get("closest").Type() == js.TypeFunction && !t.Call("closest", ".chat").IsNull()
			a.mu.Lock()
			busy := (a.st.running != "" || len(a.st.approvals) > 0) && a.dialog == nil
			a.mu.Unlock()
			if busy && inChat {
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
	a.bindFullscreen()
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
		if !a.historyAvailable(action == "redo") {
			// The cached flags date from the last re-read, which may not have run yet right
			// after a write/undo: ask the workspace before treating this as a no-op.
			a.refreshHistoryState(ctx)
			if !a.historyAvailable(action == "redo") {
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
func (a *app) runPrompt(prompt string) { a.runPromptWith(prompt, nil) }

// runPromptWith is runPrompt with context chips (pick.go): a model gets their context blocks
// after the prompt, the local agent gets them as agent/run's "context".
func (a *app) runPromptWith(prompt string, atts []planner.Attachment) {
	if a.refuseReadOnly("Agent runs are") { // lock.go (issue 14)
		return
	}
	if a.runProviderPrompt(prompt, atts) { // provider.go: a model when one is set up
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
	a.rememberRun(id, prompt) // recovery actions re-run it (recovery.go)
	defer a.forgetRun(id)
	a.addEntry(entry{Kind: "user", Text: prompt})
	for _, at := range atts {
		a.addEntry(entry{Kind: "info", Text: "With context: " + at.Label()})
	}
	chatsRunStarted(a) // chats.go: kept before the run starts
	params := map[string]any{"prompt": prompt, "sessionId": "studio"}
	if len(atts) > 0 {
		params["context"] = atts
	}
	var rep struct {
		Summary       string `json:"summary"`
		Failed        bool   `json:"failed"`
		ErrorCode     string `json:"errorCode"`
		NotUnderstood bool   `json:"notUnderstood"`
	}
	err := a.rpc(ctx, id, "agent/run", params, &rep)
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
	case rep.NotUnderstood: // its own status, never the green ✓ of a done run (issue 14)
		a.addEntry(entry{Kind: "unclear", Text: "Not understood — " + rep.Summary})
	case rep.Failed:
		a.addEntry(entry{Kind: "error", Text: a.denialSummary(rep.Summary)})
	default:
		a.addEntry(entry{Kind: "agent", Text: a.denialSummary(rep.Summary)}) // denial.go
	}
	a.chatLocalRunEnded(prompt, cancelled, err != nil || rep.Failed) // chats.go
	chatsRunEnded(a)                                                 // chats.go: the closed run is kept at once
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
	if isRevisionConflictErr(err) && !a.fileExists(ctx, path) {
		// The revision moved because the file was renamed or deleted meanwhile: the draft's file
		// is gone, which is the rescue case, not a conflict to re-read and retry.
		err = &toolCallError{Tool: "workspace.writeFile", Code: string(mcp.CodeWorkspaceFileNotFound),
			Message: fmt.Sprintf("Workspace file %q does not exist.", path)}
	}
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
		clearStoredDraft(path)     // draftstore.go
		a.dropKeptDraft(ctx, path) // keptdrafts.go: written, so no longer kept
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

// setFullscreen shows the preview panel full screen (or back in the layout). It uses the
// browser's Fullscreen API (issue 15), so Escape leaves it even after a click inside the
// preview frame (the bridge never intercepts keys); where the API is missing or refuses, the
// panel covers the window instead and the page's Escape handler leaves it. Leaving the
// browser's full screen any other way (Escape, F11) calls this with on = false through the
// fullscreenchange listener (bindFullscreen).
func (a *app) setFullscreen(on bool) {
	a.mu.Lock()
	changed := a.fullscreen != on
	a.fullscreen = on
	a.mu.Unlock()
	doc := js.Global().Get("document")
	p := doc.Call("getElementById", "preview-panel")
	if !p.IsNull() {
		p.Get("classList").Call("toggle", "fullscreen", on)
		fsEl := doc.Get("fullscreenElement")
		switch {
		case on && changed && p.Get("requestFullscreen").Type() == js.TypeFunction && (fsEl.IsNull() || fsEl.IsUndefined()):
			// A refusal (no user activation left, a policy) keeps the in-page fallback.
			if pr, err := safejs.Safe(p).Call("requestFullscreen"); err == nil {
				awaitQuietly(safejs.Unsafe(pr))
			}
		case !on && !fsEl.IsNull() && !fsEl.IsUndefined() && doc.Get("exitFullscreen").Type() == js.TypeFunction:
			if pr, err := safejs.Safe(doc).Call("exitFullscreen"); err == nil {
				awaitQuietly(safejs.Unsafe(pr))
			}
		}
	}
	applyFullscreenInert(on) // focus.go: Tab stays inside the full-screen panel
	if b := doc.Call("getElementById", "fullscreen-toggle"); !b.IsNull() {
		b.Call("setAttribute", "aria-pressed", map[bool]string{true: "true", false: "false"}[on])
		b.Set("textContent", map[bool]string{true: "Exit full screen", false: "Full screen"}[on])
	}
}

// awaitQuietly waits (at most 2 s) for a Fullscreen API Promise so a refusal is handled, not
// an unhandled rejection in the console. Callers run on a goroutine.
func awaitQuietly(p js.Value) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _ = jsbridge.Await(ctx, p)
}

// bindFullscreen follows the browser's full screen: leaving it by Escape (handled by the
// browser, also with focus inside the preview frame) or F11 restores the layout.
func (a *app) bindFullscreen() {
	doc := js.Global().Get("document")
	a.on(doc, "fullscreenchange", func(js.Value, []js.Value) any {
		if doc.Get("fullscreenElement").IsNull() && a.isFullscreen() {
			jsbridge.Go("fullscreen.exit", func() { a.setFullscreen(false) })
		}
		return nil
	})
}

// isRevisionConflictErr reports whether err is a WORKSPACE_REVISION_CONFLICT tool error.
func isRevisionConflictErr(err error) bool {
	var te *toolCallError
	return errors.As(err, &te) && te.Code == string(mcp.CodeWorkspaceRevisionConflict)
}

// fileExists re-reads the page's view of the workspace and reports whether path is a file.
func (a *app) fileExists(ctx context.Context, path string) bool {
	a.reload(ctx)
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, f := range a.st.files {
		if f.Path == path {
			return true
		}
	}
	return false
}
