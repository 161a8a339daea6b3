//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

// The editor widget is CodeMirror 6 (SPEC §2.7), mounted by site/js/editor.js as
// globalThis.webcodingEditor. The shim only bridges the widget:
//
//   - setDocument(path, text, language): show a file (a different text is a fresh
//     CodeMirror state, so its keystroke history is cleared; the same text is a no-op);
//   - setReadOnly(bool);
//   - listen(change(path, text, line, col, lines), cursor(line, col, lines), blur()).
//
// Everything else — the draft, its flushes through workspace.writeFile, the budget and the
// header text — is here.

// editorCursor is the caret as the widget last reported it (1-based line and column) and
// the document's line count.
type editorCursor struct {
	Line, Col, Lines int
}

// editorWidget returns globalThis.webcodingEditor, or a non-object when the shim did not
// install it.
func editorWidget() js.Value { return js.Global().Get("webcodingEditor") }

// bindEditor subscribes to the widget's events. change records the draft synchronously
// (a.draft only takes the mutex and arms a timer, so the callback never blocks), which keeps
// a render in between from putting the old text back; blur hands the flush to a goroutine.
func (a *app) bindEditor() {
	ed := editorWidget()
	if ed.Type() != js.TypeObject {
		return
	}
	change := jsbridge.Func("editor.change", func(_ js.Value, args []js.Value) any {
		if len(args) < 5 {
			return nil
		}
		a.setCursor(editorCursor{args[2].Int(), args[3].Int(), args[4].Int()})
		a.draft(args[0].String(), args[1].String())
		return nil
	})
	cursor := jsbridge.Func("editor.cursor", func(_ js.Value, args []js.Value) any {
		if len(args) < 3 {
			return nil
		}
		a.setCursor(editorCursor{args[0].Int(), args[1].Int(), args[2].Int()})
		return nil
	})
	blur := jsbridge.Func("editor.blur", func(js.Value, []js.Value) any {
		jsbridge.Go("editor.blur", func() { a.flushDraft(context.Background()) })
		return nil
	})
	a.listeners = append(a.listeners, change, cursor, blur)
	ed.Call("listen", change, cursor, blur)
}

func (a *app) setCursor(c editorCursor) {
	a.mu.Lock()
	changed := a.cursor != c
	a.cursor = c
	a.mu.Unlock()
	if changed {
		a.markDirty()
	}
}

// renderEditor shows the active file in the widget and fills the editor header. The widget's
// document follows the workspace unless a local draft of that file is pending; shownPath and
// shownText mirror what the widget holds (set here, and by a.draft on every user edit), so an
// unchanged file costs no call into the widget. Direct editing is locked while an agent chain
// runs and for binary assets.
func (a *app) renderEditor(st state) {
	a.mu.Lock()
	if a.draftPath != "" && a.draftPath != st.sourcePath && a.flushedGen == a.draftGen {
		// A draft whose write failed, left behind by opening another file.
		a.draftPath, a.draftText = "", ""
	}
	keptText, keptShown := a.activateKeptDraftLocked(st.sourcePath) // keptdrafts.go: a file switch never drops it
	draftPath, draftText := a.draftPath, a.draftText
	shownPath, shownText := a.shownPath, a.shownText
	cur := a.cursor
	readOnlyTab := a.lock == lockBusy
	a.mu.Unlock()

	ed := editorWidget()
	if ed.Type() != js.TypeObject {
		return
	}
	binary := strings.HasPrefix(st.source, "(binary asset")
	locked := st.running != "" || binary || readOnlyTab // a read-only tab accepts no typing (issue 14)
	ed.Call("setReadOnly", locked)
	if host := js.Global().Get("document").Call("getElementById", "editor-host"); !host.IsNull() {
		host.Get("classList").Call("toggle", "readonly", locked)
	}
	if st.sourcePath != "" && draftPath != st.sourcePath && (shownPath != st.sourcePath || shownText != st.source) {
		lang := ""
		for _, f := range st.files {
			if f.Path == st.sourcePath {
				lang = f.Language
			}
		}
		ed.Call("setDocument", st.sourcePath, st.source, lang)
		a.mu.Lock()
		a.shownPath, a.shownText = st.sourcePath, st.source
		a.mu.Unlock()
		shownPath, shownText = st.sourcePath, st.source
	}
	if keptShown {
		lang := ""
		for _, f := range st.files {
			if f.Path == st.sourcePath {
				lang = f.Language
			}
		}
		setEditorDocument(st.sourcePath, keptText, lang)
		a.mu.Lock()
		a.shownPath, a.shownText = st.sourcePath, keptText
		a.mu.Unlock()
		shownPath, shownText = st.sourcePath, keptText
	}
	text := shownText
	if draftPath == st.sourcePath && draftPath != "" {
		text = draftText
	}
	n := utf8.RuneCountInString(text)
	setText("editor-path", st.sourcePath)
	setText("editor-count", budgetText(n))
	if c := js.Global().Get("document").Call("getElementById", "editor-count"); !c.IsNull() {
		c.Get("classList").Call("toggle", "over", n > workspace.MaxSourceChars)
	}
	cursorText := ""
	if shownPath != "" && cur.Line > 0 {
		cursorText = "Ln " + strconv.Itoa(cur.Line) + ", Col " + strconv.Itoa(cur.Col) + " · " + strconv.Itoa(cur.Lines) + plural(cur.Lines, " line", " lines")
	}
	if locked && st.running != "" {
		cursorText += " · locked while the agent runs"
	}
	if readOnlyTab {
		cursorText += " · read-only (open in another tab)"
	}
	setText("editor-cursor", cursorText)
	a.applyCaret() // palette.go: a chosen result's caret once its file is shown
}

// budgetText is the live budget line: "N / 80,000 chars" (N in Unicode code points, as the
// workspace counts them), with " — over budget" past workspace.MaxSourceChars. The editor
// never truncates; workspace.writeFile rejects an over-budget source with its error.
func budgetText(n int) string {
	s := groupThousands(n) + " / " + groupThousands(workspace.MaxSourceChars) + " chars"
	if n > workspace.MaxSourceChars {
		s += " — over budget"
	}
	return s
}

// groupThousands is mcp.Thousands for an int (80000 → "80,000").
func groupThousands(n int) string { return mcp.Thousands(int64(n)) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Typing bursts. The draft's flushes of one burst — the same file, no other action in
// between — carry the same _meta.coalesceKey ("type:<path>#<n>"), so workspace.writeFile folds
// them into one history checkpoint (the registry honours the key only for source local + mode
// direct; agent and model writes never coalesce). Any other tool call that changes something
// (an agent or model call, another UI action, opening a file, undo/redo) ends the burst, and
// so does a flush of another file; the workspace starts a new checkpoint once a burst is
// workspace.CoalesceWindow (30 s) old, counted from its first flush, so a long typing session
// still gets an undo point every 30 s. Typing therefore adds one checkpoint per burst and cannot push the agent's
// edits out of the 100-checkpoint history.
// typingBurst (app.burst) is the current burst (guarded by mu).
type typingBurst struct {
	mu     sync.Mutex
	path   string
	seq    int
	broken bool
}

// burstKey returns the coalescing key for a flush of path, starting a new burst when the last
// one was for another file or was ended.
func (a *app) burstKey(path string) string {
	a.burst.mu.Lock()
	defer a.burst.mu.Unlock()
	if a.burst.path != path || a.burst.broken || a.burst.seq == 0 {
		a.burst.seq++
		a.burst.path, a.burst.broken = path, false
	}
	return "type:" + path + "#" + strconv.Itoa(a.burst.seq)
}

// endBurst ends the current typing burst.
func (a *app) endBurst() {
	a.burst.mu.Lock()
	a.burst.broken = true
	a.burst.mu.Unlock()
}

// typingRead are the tools whose calls do not end a burst: the reads the UI makes after every
// change (the editor's own writes are recognized by their coalesce key, see typingWrite).
var typingRead = map[string]bool{"workspace.listFiles": true, "workspace.getStatus": true,
	"workspace.readFile": true, "preview.getStatus": true}

// typingWriteFlag (app.typingWriting) is set while typingWrite's call runs (its lifecycle events do not end the
// burst). Flushes are serialized by app.flushMu.
type typingWriteFlag struct {
	mu sync.Mutex
	on bool
}

func init() {
	registerFeature(&feature{name: "typing", observe: func(a *app, e audit.ToolCallEvent) {
		if typingRead[e.Name] {
			return
		}
		a.typingWriting.mu.Lock()
		own := a.typingWriting.on && e.Name == "workspace.writeFile" && e.Mode == "direct"
		a.typingWriting.mu.Unlock()
		if !own {
			a.endBurst()
		}
	}})
}

// typingWrite is the draft flush's workspace.writeFile: direct mode as the UI, with
// expectedRevision and the burst's coalesceKey. A tool error is returned as a *toolCallError
// ("[CODE] message"; recovery.go offers its recovery actions).
func (a *app) typingWrite(ctx context.Context, path, text string, rev int64) error {
	key := a.burstKey(path)
	a.typingWriting.mu.Lock()
	a.typingWriting.on = true
	a.typingWriting.mu.Unlock()
	defer func() {
		a.typingWriting.mu.Lock()
		a.typingWriting.on = false
		a.typingWriting.mu.Unlock()
	}()
	var res toolResult
	params := map[string]any{"name": "workspace.writeFile",
		"arguments": map[string]any{"path": path, "source": text, "expectedRevision": rev},
		"_meta":     map[string]any{"source": "local", "mode": "direct", "coalesceKey": key}}
	if err := a.rpc(ctx, "", "tools/call", params, &res); err != nil {
		return err
	}
	if res.IsError {
		if res.Error != nil {
			return &toolCallError{Tool: "workspace.writeFile", Args: params["arguments"], Code: res.Error.Code,
				Message: res.Error.Message, Retryable: res.Error.Retryable, Details: res.Error.Details}
		}
		return fmt.Errorf("workspace.writeFile failed")
	}
	return nil
}
