//go:build js && wasm

package main

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/ui/views"
)

// Draft rescue (issue 8 follow-up): every UI-originated tool call that can change the
// workspace first writes the editor's pending draft (flushPending, called by app.tool), so a
// direct call (the Tools panel's Run sample renaming index.html, …) never overtakes typed
// text; and a draft whose file vanished before it could be written (WORKSPACE_FILE_NOT_FOUND)
// is never dropped: the chat shows it with its full text and "Save as new file".

const actDraftSaveNew = "draft-save-new" // arg: the rescued draft's id

// rescuedDrafts (app.rescued) holds the drafts shown in the chat until saved (id → draft).
type rescuedDrafts struct {
	mu     sync.Mutex
	next   int
	drafts map[string]rescuedDraft
}

type rescuedDraft struct {
	path, text string
	stored     bool // kept in localStorage too (draftstore.go): removed once saved
}

func init() {
	registerFeature(&feature{name: "draft-rescue", action: draftRescueAction})
}

// flushPending writes the editor's pending draft before a workspace-changing tool call. A
// flush already running (this goroutine's own reload inside flushDraft, or another
// goroutine's) is not waited for: TryLock keeps the call from deadlocking on itself.
func (a *app) flushPending(ctx context.Context) {
	a.mu.Lock()
	pending := a.draftPath != "" && a.flushedGen != a.draftGen
	a.mu.Unlock()
	if !pending || !a.flushMu.TryLock() {
		return
	}
	a.flushMu.Unlock()
	a.flushDraft(ctx)
}

// rescueStoredDraft shows a draft restored from localStorage that cannot be put back (its
// file is gone, or the workspace moved past the draft's revision) in the chat with its full
// text and "Save as new file"; the stored copy stays until it is saved.
func rescueStoredDraft(a *app, d storedDraft, exists bool) {
	why := "the file changed since it was typed (at revision " + strconv.FormatInt(d.Rev, 10) + "), so it was not written over the newer text."
	if !exists {
		why = "the file was renamed or deleted meanwhile."
	}
	a.rescued.mu.Lock()
	a.rescued.next++
	id := strconv.Itoa(a.rescued.next)
	a.rescued.drafts[id] = rescuedDraft{path: d.Path, text: d.Text, stored: true}
	a.rescued.mu.Unlock()
	a.addEntry(entry{Kind: "error",
		Text:    "Your unsaved typing in " + d.Path + " from before the reload was kept: " + why + " The text is below; save it as a new file or copy it.",
		Details: d.Text,
		Actions: []entryAction{{Label: "Save as new file", Action: actDraftSaveNew, Arg: id}}})
}

// rescueDraft shows a draft that could not be written because its file is gone (err is
// WORKSPACE_FILE_NOT_FOUND) in the chat with its full text and a "Save as new file" action;
// it reports whether it did (the caller may then drop the draft from the editor).
func rescueDraft(a *app, p, text string, err error) bool {
	var te *toolCallError
	if !errors.As(err, &te) || te.Code != string(mcp.CodeWorkspaceFileNotFound) {
		return false
	}
	a.rescued.mu.Lock()
	a.rescued.next++
	id := strconv.Itoa(a.rescued.next)
	a.rescued.drafts[id] = rescuedDraft{path: p, text: text}
	a.rescued.mu.Unlock()
	a.addEntry(entry{Kind: "error",
		Text:    "Your unsaved typing in " + p + " could not be written: the file was renamed or deleted meanwhile. The text is kept below; save it as a new file or copy it.",
		Details: text,
		Actions: []entryAction{{Label: "Save as new file", Action: actDraftSaveNew, Arg: id}}})
	return true
}

func draftRescueAction(a *app, act uiAction) bool {
	if act.Name != actDraftSaveNew {
		return false
	}
	id := act.Get("arg")
	a.rescued.mu.Lock()
	d, ok := a.rescued.drafts[id]
	a.rescued.mu.Unlock()
	if !ok {
		a.addEntry(entry{Kind: "info", Text: "That text was already saved."})
		return true
	}
	ctx := context.Background()
	var lastErr error
	for _, p := range recoveredPaths(d.path) {
		if err := a.tool(ctx, "workspace.createFile", map[string]any{"path": p, "source": d.text}, nil); err != nil {
			lastErr = err
			continue
		}
		a.rescued.mu.Lock()
		delete(a.rescued.drafts, id)
		a.rescued.mu.Unlock()
		if d.stored {
			clearStoredDraft(d.path)
		}
		a.addEntry(entry{Kind: "info", Text: "Saved the rescued text as " + p + "."})
		a.requestRefresh()
		return true
	}
	e := a.failureEntry(lastErr)
	e.Text = "Could not save the rescued text (it stays in the chat): " + e.Text
	a.addEntry(e)
	return true
}

// recoveredPaths lists the paths tried for a rescued draft of p (views.RecoveredPaths).
func recoveredPaths(p string) []string { return views.RecoveredPaths(p) }
