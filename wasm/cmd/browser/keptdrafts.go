//go:build js && wasm

package main

import (
	"context"
	"sort"
	"sync"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/idb"
)

// Kept drafts (issue 14 item 2). A draft over the budget (workspace.MaxSourceChars code points)
// cannot be written to the workspace; it is kept per file in its own IndexedDB store
// (idb.Drafts, database "web-coding-drafts"), one record per path, so that:
//
//   - switching files never drops it: opening the file again shows the kept text, not the
//     workspace's (renderEditor asks keptDraftFor);
//   - a reload brings every kept draft back (loaded at start), not only the newest;
//   - the explorer marks each file with a kept draft ("draft");
//   - it stays until the user shortens it under the budget (the write then succeeds and the
//     record is removed) or discards it explicitly ("Discard draft" in the chat); New chat,
//     transcript limits and read-only tabs never delete one (a read-only tab reads the store
//     but neither writes nor deletes);
//   - a failure to keep it (a full quota, blocked storage) is said in the chat, never silent;
//     the text then lives in this page's memory only, which the message says.
//
// localStorage keeps only the pagehide copy of the pending draft (draftstore.go).

const actDiscardDraft = "draft-discard" // arg: the path

// keptDrafts (app.kept) are the drafts kept in IndexedDB by path (guarded by mu).
type keptDrafts struct {
	mu     sync.Mutex
	store  *idb.Drafts
	drafts map[string]idb.Draft
}

func init() {
	registerFeature(&feature{name: "kept-drafts", start: loadKeptDrafts, action: keptDraftAction})
}

// hasKeptDraft reports whether path has a kept draft (the explorer's marker).
func (a *app) hasKeptDraft(path string) bool {
	a.kept.mu.Lock()
	defer a.kept.mu.Unlock()
	_, ok := a.kept.drafts[path]
	return ok
}

// keptDraftFor returns the kept draft of path.
func (a *app) keptDraftFor(path string) (idb.Draft, bool) {
	a.kept.mu.Lock()
	defer a.kept.mu.Unlock()
	d, ok := a.kept.drafts[path]
	return d, ok
}

// keepDraft keeps d (in memory at once, then in IndexedDB) and reports a failure to store it in
// the chat. It blocks on IndexedDB: call it from a goroutine. A read-only tab keeps it in
// memory only and says so.
func (a *app) keepDraft(ctx context.Context, d idb.Draft) {
	a.kept.mu.Lock()
	a.kept.drafts[d.Path] = d
	a.kept.mu.Unlock()
	a.markDirty()
	a.mu.Lock()
	ro := a.lock == lockBusy
	a.mu.Unlock()
	if ro {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := a.kept.store.Put(ctx, d); err != nil {
		a.addEntry(entry{Kind: "error", Text: "Could not keep the over-budget draft of " + d.Path +
			" in this browser (" + err.Error() + "). It stays in this page only: copy it or shorten it before you close the tab."})
	}
}

// dropKeptDraft removes the kept draft of path (after it was written, or discarded by the
// user); a store failure is reported.
func (a *app) dropKeptDraft(ctx context.Context, path string) {
	a.kept.mu.Lock()
	_, had := a.kept.drafts[path]
	delete(a.kept.drafts, path)
	a.kept.mu.Unlock()
	if !had {
		return
	}
	a.markDirty()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := a.kept.store.Delete(ctx, path); err != nil {
		a.addEntry(entry{Kind: "error", Text: "The draft of " + path + " could not be removed from this browser's storage (" +
			err.Error() + "); it may come back after a reload."})
	}
}

// loadKeptDrafts reads every kept draft at start and names them in the chat.
func loadKeptDrafts(a *app, ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	list, err := a.kept.store.All(ctx)
	if err != nil {
		a.addEntry(entry{Kind: "error", Text: "Kept drafts could not be read from this browser's storage: " + err.Error()})
		return
	}
	if len(list) == 0 {
		return
	}
	a.kept.mu.Lock()
	for _, d := range list {
		if _, ok := a.kept.drafts[d.Path]; !ok { // a newer in-page copy wins
			a.kept.drafts[d.Path] = d
		}
	}
	a.kept.mu.Unlock()
	announceKeptDrafts(a)
	a.markDirty()
}

// announceKeptDrafts names every kept draft in the chat with its Discard action (at start, and
// after New chat emptied the transcript: the drafts themselves are never touched by it).
func announceKeptDrafts(a *app) {
	a.kept.mu.Lock()
	paths := make([]string, 0, len(a.kept.drafts))
	for p := range a.kept.drafts {
		paths = append(paths, p)
	}
	a.kept.mu.Unlock()
	sort.Strings(paths)
	for _, p := range paths {
		a.addEntry(entry{Kind: "info",
			Text:    "Kept draft of " + p + ": over the 80,000-character budget, kept in this browser and not saved until it fits. Shorten it in the editor, or discard it.",
			Actions: []entryAction{{Label: "Discard draft of " + p, Action: actDiscardDraft, Arg: p}}})
	}
}

// keptDraftAction handles "Discard draft": the kept text is removed and the editor shows the
// workspace's file again.
func keptDraftAction(a *app, act uiAction) bool {
	if act.Name != actDiscardDraft {
		return false
	}
	path := act.Get("arg")
	if !a.hasKeptDraft(path) {
		a.addEntry(entry{Kind: "info", Text: "There is no kept draft of " + path + "."})
		return true
	}
	if a.refuseReadOnly("Discarding a draft is") {
		return true
	}
	a.dropKeptDraft(context.Background(), path)
	a.mu.Lock()
	if a.draftPath == path {
		a.draftPath, a.draftText = "", ""
		a.flushedGen = a.draftGen
		a.shownPath, a.shownText = "", "" // the editor takes the workspace text again
	}
	a.mu.Unlock()
	a.overBudgetShown.Lock()
	if a.overBudgetShown.path == path {
		a.overBudgetShown.path = ""
	}
	a.overBudgetShown.Unlock()
	clearStoredDraft(path)
	a.addEntry(entry{Kind: "info", Text: "Discarded the draft of " + path + "."})
	a.requestRefresh()
	return true
}

// activateKeptDraft makes the kept draft of path the editor's draft when the editor is about to
// show path and holds no draft of it (called by renderEditor with a.mu held). It reports the
// text to show.
func (a *app) activateKeptDraftLocked(path string) (string, bool) {
	if path == "" || a.draftPath == path {
		return "", false
	}
	d, ok := a.keptDraftFor(path)
	if !ok {
		return "", false
	}
	a.draftPath, a.draftText = d.Path, d.Text
	a.flushedGen = a.draftGen // held, not pending: flushDraft keeps it while over budget
	return d.Text, true
}

// setEditorDocument shows text as path's document in the widget.
func setEditorDocument(path, text, lang string) {
	if ed := editorWidget(); ed.Type() == js.TypeObject {
		ed.Call("setDocument", path, text, lang)
	}
}
