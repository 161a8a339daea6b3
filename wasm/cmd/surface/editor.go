//go:build js && wasm

package main

import (
	"context"
	"errors"
	"strings"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/mcp"
)

// The editor widget is the studio's CodeMirror widget (site/js/editor.js, globalThis.
// webcodingEditor): setDocument(path, text, language), setReadOnly(bool), listen(change(path,
// text, line, col, lines), cursor(line, col, lines), blur()). Typing becomes a draft; after
// draftDelay of idle time (or on blur) it is written through one tool call with the revision
// the text was based on as expectedRevision (live.go / realtime.go writeDraft). A refused
// write (WORKSPACE_REVISION_CONFLICT) keeps the text in the editor and says so; the user keeps
// it (written over the current revision) or takes the current text.

// draftDelay is the idle time after the last keystroke before the draft is written (the
// studio's 650 ms, REFERENCE §11).
const draftDelay = 650 * time.Millisecond

// editorState is the widget's mirror (guarded by app.mu).
type editorState struct {
	shownPath, shownText string // what the widget holds (set by Go or typed)
	draftPath, draftText string // typed text not yet written ("" none)
	draftGen, flushedGen int
	conflicted           bool // the last write of the draft was refused (any error): no automatic retry
	timer                *time.Timer
}

func editorWidget() js.Value { return js.Global().Get("webcodingEditor") }

// bindEditor subscribes to the widget's events.
func (a *app) bindEditor() {
	ed := editorWidget()
	if ed.Type() != js.TypeObject {
		return
	}
	change := jsbridge.Func("editor.change", func(_ js.Value, args []js.Value) any {
		if len(args) < 2 {
			return nil
		}
		a.draft(args[0].String(), args[1].String())
		return nil
	})
	cursor := jsbridge.Func("editor.cursor", func(js.Value, []js.Value) any { return nil })
	blur := jsbridge.Func("editor.blur", func(js.Value, []js.Value) any {
		jsbridge.Go("editor.blur", func() { a.flushDraft(context.Background()) })
		return nil
	})
	a.listeners = append(a.listeners, change, cursor, blur)
	ed.Call("listen", change, cursor, blur)
}

// draft records typed text and (re)arms the idle timer.
func (a *app) draft(path, text string) {
	if path == "" {
		return
	}
	a.mu.Lock()
	e := &a.editor
	e.shownPath, e.shownText = path, text
	e.draftPath, e.draftText = path, text
	e.draftGen++
	if e.timer != nil {
		e.timer.Stop()
	}
	conflicted := e.conflicted
	if !conflicted {
		e.timer = time.AfterFunc(draftDelay, func() {
			jsbridge.Go("editor.flush", func() { a.flushDraft(context.Background()) })
		})
	}
	a.mu.Unlock()
}

// flushDraft writes the pending draft, if any (not while a refused one waits for the user).
func (a *app) flushDraft(ctx context.Context) {
	a.flushMu.Lock()
	defer a.flushMu.Unlock()
	a.mu.Lock()
	e := &a.editor
	if e.draftPath == "" || e.flushedGen == e.draftGen || e.conflicted {
		a.mu.Unlock()
		return
	}
	path, text, gen, base := e.draftPath, e.draftText, e.draftGen, a.st.base
	a.mu.Unlock()
	a.writeText(ctx, path, text, gen, &base)
}

// writeText writes text as path's content (expected: the revision it was based on; nil writes
// over the current one) and settles the draft of generation gen.
func (a *app) writeText(ctx context.Context, path, text string, gen int, expected *int64) {
	rev, err := a.writeDraft(ctx, path, text, expected)
	applied := appliedError(err)
	a.mu.Lock()
	e := &a.editor
	if applied {
		// The text was written; only the preview failed (PREVIEW_RUNTIME_ERROR, a late
		// acknowledgement: details.applied true, SPEC §2.13). It is not a refusal: the draft is
		// settled and the preview's error is shown as such (new-user finding).
		a.st.conflict, e.conflicted = "", false
		a.st.notice = "Written; the preview reports: " + err.Error()
		if e.draftGen == gen {
			e.flushedGen = gen
			e.draftPath, e.draftText = "", ""
		}
	} else if err != nil {
		// Any refusal (a conflict, a text over the budget, a document that moved to another
		// file) keeps the text in the editor and waits for the user: Keep my text (after fixing
		// it) or Take the current text. Until then the page does not switch files, so the text
		// is never flushed somewhere else later (new-user test: a refused over-budget draft was
		// later written into the file opened next).
		e.conflicted = true
		a.st.conflict = "Your edit of " + path + " was not applied: " + err.Error() + " Your text is kept in the editor: fix it and choose Keep my text, or Take the current text."
	} else {
		a.st.conflict, e.conflicted = "", false
		if strings.HasPrefix(a.st.notice, refusedDraftNotice) {
			a.st.notice = ""
		}
		a.st.base, a.st.source = rev, text
		if e.draftGen == gen {
			e.flushedGen = gen
			e.draftPath, e.draftText = "", ""
		}
	}
	a.mu.Unlock()
	a.requestRefresh()
	a.markDirty()
}

// dropDraft forgets the draft and what the widget shows (a new session's text replaces it).
func (a *app) dropDraft() {
	a.mu.Lock()
	e := &a.editor
	if e.timer != nil {
		e.timer.Stop()
	}
	e.draftPath, e.draftText, e.conflicted = "", "", false
	e.flushedGen = e.draftGen
	e.shownPath, e.shownText = "", ""
	a.mu.Unlock()
	a.markDirty()
}

// keepMine writes the refused draft over the current revision (the user chose their text).
func (a *app) keepMine(ctx context.Context) {
	a.mu.Lock()
	e := &a.editor
	path, text, gen := e.draftPath, e.draftText, e.draftGen
	e.conflicted = false
	a.mu.Unlock()
	if path == "" {
		return
	}
	a.writeText(ctx, path, text, gen, nil)
}

// takeCurrent drops the refused draft and shows the current text.
func (a *app) takeCurrent(ctx context.Context) {
	a.dropDraft()
	a.mu.Lock()
	a.st.conflict = ""
	a.mu.Unlock()
	a.reload(ctx)
}

// renderEditor shows the active file in the widget unless a draft of it is pending; the
// widget is read-only in a tab without the workspace lock and while a prompt runs.
func (a *app) renderEditor(st state) {
	ed := editorWidget()
	if ed.Type() != js.TypeObject {
		return
	}
	a.mu.Lock()
	e := &a.editor
	pending := e.draftPath != "" && e.draftPath == st.active
	show := !pending && st.active != "" && (e.shownPath != st.active || e.shownText != st.source)
	if show {
		e.shownPath, e.shownText = st.active, st.source
	}
	a.mu.Unlock()
	ed.Call("setReadOnly", st.lock == "busy" || st.running != "")
	if show {
		ed.Call("setDocument", st.active, st.source, "")
	}
}

// conflictDraft reports whether the editor holds a refused draft.
func (a *app) conflictDraft() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.editor.conflicted && a.editor.draftPath != ""
}

// refusedDraftNotice is the notice of an action refused while a refused draft waits.
const refusedDraftNotice = "Your refused edit is still in the editor: choose Keep my text or Take the current text first."

// appliedError reports whether err is a tool error whose change was applied (details.applied
// true: the preview failed or acknowledged late, the caller gave up after the change landed).
func appliedError(err error) bool {
	var te *mcp.ToolError
	if !errors.As(err, &te) {
		return false
	}
	d, _ := te.Details.(map[string]any)
	applied, _ := d["applied"].(bool)
	return applied
}

// refusedDraftFirst keeps the editor on a refused draft's file until the user chose (Keep my
// text / Take the current text), so switching files never drops typed text silently; it
// reports whether it refused the switch.
func (a *app) refusedDraftFirst() bool {
	if !a.conflictDraft() {
		return false
	}
	a.setNotice(refusedDraftNotice)
	return true
}
