//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"strconv"
	"sync"
	"syscall/js"
	"unicode/utf8"

	"github.com/hack-pad/safejs"

	"github.com/webcoding/studio/wasm/adapters/idb"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/workspace"
)

// Draft store (issue 4 follow-up). The editor's pending draft — text typed but not yet written
// by workspace.writeFile — survives a reload or a closed tab:
//
//   - on `pagehide` and on `visibilitychange` to hidden, the draft ({path, text, rev, base}:
//     rev is the workspace revision the editor showed, base the FNV-1a 64 hash of the file's
//     stored text the draft was typed over) is written synchronously to localStorage
//     under draftStoreKey (an asynchronous write would not finish during unload), and the
//     normal flush is started;
//   - a draft over the budget (workspace.MaxSourceChars code points) is never sent; it is
//     stored the same way at once, so it survives a reload, and written when it fits again;
//   - a successful flush of that path removes the stored draft;
//   - on the next load (feature start), a stored draft that differs from its file is put back
//     into the editor as the pending draft and flushed — but only when the file's text still
//     hashes to base (a reload alone moves the revision by one, SPEC §2.12, so the revision
//     cannot tell); otherwise (the file changed meanwhile, or is gone) the draft
//     is never written over the newer file: the chat shows it with "Save as new file"
//     (draftrescue.go) and the stored copy stays until it is saved.
//
// localStorage failures (blocked storage, quota) are ignored: the draft then lives only in
// memory, as before.

const draftStoreKey = "web-coding-studio:draft"

// storedDraft is the JSON shape kept under draftStoreKey.
type storedDraft struct {
	Path string `json:"path"`
	Text string `json:"text"`
	Rev  int64  `json:"rev"`
	Base string `json:"base"` // textHash of the file's text under the draft ("" unknown)
}

// textHash is the FNV-1a 64 hash of s in hex.
func textHash(s string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return strconv.FormatUint(h.Sum64(), 16)
}

// draftLocalStorage is window.localStorage read through settings.go's localStorage (a
// blocked storage throws on the property read itself, which a plain Get would turn into the
// end of the Go program — recover cannot catch it); undefined when blocked.
func draftLocalStorage() js.Value {
	ls, err := localStorage()
	if err != nil {
		return js.Undefined()
	}
	return safejs.Unsafe(ls)
}

// storeDraft writes d to localStorage synchronously; it reports whether it did.
func storeDraft(d storedDraft) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	ls := draftLocalStorage()
	if ls.Type() != js.TypeObject {
		return false
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return false
	}
	ls.Call("setItem", draftStoreKey, string(raw))
	return true
}

// loadStoredDraft returns the stored draft, if any.
func loadStoredDraft() (d storedDraft, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	ls := draftLocalStorage()
	if ls.Type() != js.TypeObject {
		return d, false
	}
	v := ls.Call("getItem", draftStoreKey)
	if v.Type() != js.TypeString {
		return d, false
	}
	if json.Unmarshal([]byte(v.String()), &d) != nil || d.Path == "" {
		return d, false
	}
	return d, true
}

// clearStoredDraft removes the stored draft when it belongs to path ("" any path).
func clearStoredDraft(path string) {
	defer func() { _ = recover() }()
	if d, ok := loadStoredDraft(); !ok || (path != "" && d.Path != path) {
		return
	}
	if ls := draftLocalStorage(); ls.Type() == js.TypeObject {
		ls.Call("removeItem", draftStoreKey)
	}
}

// storePendingDraft stores the editor's pending draft, if any (never blocks: a.mu only).
func (a *app) storePendingDraft() bool {
	a.mu.Lock()
	d := storedDraft{Path: a.draftPath, Text: a.draftText, Rev: a.st.revision}
	if a.st.sourcePath == d.Path {
		d.Base = textHash(a.st.source)
	}
	a.mu.Unlock()
	if d.Path == "" {
		return false
	}
	return storeDraft(d)
}

func init() {
	registerFeature(&feature{name: "draft-store", bind: bindDraftStore, start: restoreStoredDraft})
}

// bindDraftStore stores the pending draft when the page is hidden or unloaded and starts the
// normal flush.
func bindDraftStore(a *app) {
	hide := func(js.Value, []js.Value) any {
		if a.storePendingDraft() {
			jsbridge.Go("draft.hide-flush", func() { a.flushDraft(context.Background()) })
		}
		return nil
	}
	a.on(js.Global(), "pagehide", hide)
	doc := js.Global().Get("document")
	a.on(doc, "visibilitychange", func(this js.Value, args []js.Value) any {
		if doc.Get("visibilityState").String() == "hidden" {
			return hide(this, args)
		}
		return nil
	})
}

// restoreStoredDraft puts a stored draft back (see the package comment above).
func restoreStoredDraft(a *app, ctx context.Context) {
	d, ok := loadStoredDraft()
	if !ok {
		return
	}
	a.mu.Lock()
	exists, lang := false, ""
	for _, f := range a.st.files {
		if f.Path == d.Path {
			exists, lang = true, f.Language
		}
	}
	readOnly := a.lock == lockBusy
	a.mu.Unlock()
	if readOnly {
		return // another tab owns the workspace; it restores the draft
	}
	conflict := true
	if exists {
		var rf struct {
			Source string `json:"source"`
		}
		if err := a.tool(ctx, "workspace.readFile", map[string]any{"path": d.Path}, &rf); err == nil {
			if rf.Source == d.Text {
				clearStoredDraft(d.Path)
				return
			}
			conflict = d.Base == "" || textHash(rf.Source) != d.Base
		}
	}
	if !exists || conflict {
		rescueStoredDraft(a, d, exists)
		return
	}
	a.mu.Lock()
	active := a.st.activePath
	a.mu.Unlock()
	if active != d.Path {
		if err := a.tool(ctx, "workspace.openFile", map[string]any{"path": d.Path}, nil); err != nil {
			rescueStoredDraft(a, d, exists)
			return
		}
		a.reload(ctx)
	}
	a.mu.Lock()
	a.draftPath, a.draftText = d.Path, d.Text
	a.shownPath, a.shownText = d.Path, d.Text
	a.draftGen++
	a.mu.Unlock()
	if ed := editorWidget(); ed.Type() == js.TypeObject {
		ed.Call("setDocument", d.Path, d.Text, lang)
	}
	a.addEntry(entry{Kind: "info", Text: "Restored your unsaved typing in " + d.Path + "."})
	a.flushDraft(ctx)
}

// overBudget reports whether text is over the workspace's source budget, and by how much.
func overBudget(text string) (int, bool) {
	n := utf8.RuneCountInString(text) - workspace.MaxSourceChars
	return n, n > 0
}

// overBudgetNote (app.overBudgetShown) is the path whose over-budget message the chat shows ("" none), so the
// message appears once per over-budget spell, not on every idle flush.
type overBudgetNote struct {
	sync.Mutex
	path string
}

// holdOverBudget keeps a draft over the budget instead of writing it (called by flushDraft with
// flushMu held): the write would fail with TOOL_VALIDATION_FAILED, so it is not sent; the text
// stays the editor's pending draft (never truncated), is stored in localStorage so it survives
// a reload, and the chat says so once. It reports whether it held the draft; a draft that fits
// again clears the message state, and the normal write resumes.
func (a *app) holdOverBudget(path, text string, gen int) bool {
	over, isOver := overBudget(text)
	a.overBudgetShown.Lock()
	shown := a.overBudgetShown.path == path
	if !isOver {
		if shown {
			a.overBudgetShown.path = ""
		}
		a.overBudgetShown.Unlock()
		if shown {
			a.addEntry(entry{Kind: "info", Text: path + " fits the budget again; saving it."})
		}
		return false
	}
	a.overBudgetShown.path = path
	a.overBudgetShown.Unlock()
	a.mu.Lock()
	d := storedDraft{Path: path, Text: text, Rev: a.st.revision}
	if a.st.sourcePath == path {
		d.Base = textHash(a.st.source)
	}
	a.flushedGen = gen
	a.mu.Unlock()
	a.keepDraft(context.Background(), idb.Draft{Path: d.Path, Text: d.Text, Rev: d.Rev, Base: d.Base}) // keptdrafts.go: one record per file
	if !shown {
		a.addEntry(entry{Kind: "error", Text: path + " is over the " + groupThousands(workspace.MaxSourceChars) +
			"-character budget by " + groupThousands(over) + "; it is kept in this browser but not saved until it fits.",
			Actions: []entryAction{{Label: "Discard draft of " + path, Action: actDiscardDraft, Arg: path}}})
	}
	a.markDirty()
	return true
}
