//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/filediff"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/views"
)

// The version history view (#history-panel, issue 9): the checkpoints of this session (SPEC
// §2.12: revision, the tool that produced each, time), newest first. Selecting one shows its
// diff against the current files (computed by the core: workspace/diffCheckpoint); "Restore revision N" asks in the in-app
// confirm dialog and then runs the workspace/restoreCheckpoint core operation (SPEC §2.11,
// traced as an operation) with expectedRevision = the revision the diff was computed
// against, so a workspace that moved on meanwhile is refused with WORKSPACE_REVISION_CONFLICT
// and the chat offers Re-read & retry. A restore is one more change on top of the history:
// Undo returns to the files before it.

type checkpointRow struct {
	Revision int64     `json:"revision"`
	Tool     string    `json:"tool"`
	CallID   string    `json:"callId"`
	At       time.Time `json:"at"`
	Files    int       `json:"files"`
	Current  bool      `json:"current"`
}

type historyListing struct {
	Revision    int64           `json:"revision"`
	Checkpoints []checkpointRow `json:"checkpoints"`
}

// loadHistory reads workspace/history.
func loadHistory(ctx context.Context, a *app) (historyListing, error) {
	var out historyListing
	err := a.rpc(ctx, "", studio.MethodHistoryList, map[string]any{}, &out)
	return out, err
}

// historyState is the panel's own state (guarded by mu).
type historyState struct {
	mu        sync.Mutex
	list      historyListing
	err       string
	selected  int64 // the checkpoint whose diff is shown (0: none)
	diffAt    int64 // the current revision the diff was computed against
	diff      []filediff.File
	truncated bool
	diffErr   string
	busy      bool
	refresh   chan struct{}
}

func init() {
	registerFeature(&feature{name: "history", bind: historyBind, start: historyStart, render: historyRender,
		action: historyAction, observe: historyObserve})
}

func historyBind(a *app) {
	// The inspector's tabs may not exist yet: the panel shows itself.
	if p := js.Global().Get("document").Call("getElementById", "history-panel"); !p.IsNull() {
		if tabs := js.Global().Get("document").Call("querySelector", "#inspector-tabs [role=tab]"); tabs.IsNull() {
			p.Set("hidden", false)
		}
	}
}

func historyStart(a *app, ctx context.Context) {
	historyReload(ctx, a)
	for range a.hist.refresh {
		historyReload(ctx, a)
	}
}

// historyObserve re-lists after every finished change (never blocks).
func historyObserve(a *app, e audit.ToolCallEvent) {
	if e.Type == audit.EventStarted || readOnlyTools[e.Name] || e.Name == "workspace.openFile" {
		return
	}
	select {
	case a.hist.refresh <- struct{}{}:
	default:
	}
}

func historyReload(ctx context.Context, a *app) {
	list, err := loadHistory(ctx, a)
	a.hist.mu.Lock()
	if err != nil {
		a.hist.err = err.Error()
	} else {
		a.hist.list, a.hist.err = list, ""
	}
	a.hist.mu.Unlock()
	a.markDirty()
}

func historyRender(a *app) {
	// The panel is drawn only while its inspector tab is selected (selecting it marks the
	// page dirty, so it is drawn then): its rows and diff cost ~3.6 ms per render in wasm,
	// and renders follow every keystroke.
	if a.inspectorSelected() != "history" {
		return
	}
	a.hist.mu.Lock()
	rows := make([]views.HistoryRow, 0, len(a.hist.list.Checkpoints))
	for i := len(a.hist.list.Checkpoints) - 1; i >= 0; i-- { // newest first
		c := a.hist.list.Checkpoints[i]
		rows = append(rows, views.HistoryRow{Revision: c.Revision, Tool: c.Tool, At: c.At, Current: c.Current, Selected: c.Revision == a.hist.selected})
	}
	v := views.History{Revision: a.hist.list.Revision, Rows: rows, Err: a.hist.err, Selected: a.hist.selected, DiffAt: a.hist.diffAt, Busy: a.hist.busy,
		Diff: views.HistoryDiff{Files: a.hist.diff, Truncated: a.hist.truncated, Err: a.hist.diffErr}}
	a.hist.mu.Unlock()
	a.setRegion("history-panel", views.HistoryHTML(v))
}

func historyAction(a *app, act uiAction) bool {
	ctx := context.Background()
	switch act.Name {
	case "history-select":
		rev, _ := strconv.ParseInt(act.Get("revision"), 10, 64)
		historySelect(ctx, a, rev)
	case "history-restore":
		rev, _ := strconv.ParseInt(act.Get("revision"), 10, 64)
		a.hist.mu.Lock()
		expected, busy := a.hist.diffAt, a.hist.busy
		a.hist.mu.Unlock()
		if busy || rev <= 0 {
			return true
		}
		if !historyConfirm(ctx, a, rev, expected) {
			return true
		}
		historyRestore(ctx, a, rev, &expected)
		focusPromptWhenLost(1500 * time.Millisecond) // composer.go: never leave focus on <body>
	default:
		return false
	}
	return true
}

// historyConfirm asks in the in-app dialog before restoring rev over the files the diff was
// computed against (diffAt). The text names the workspace's current revision (re-listed now,
// not the one the panel last showed); when it moved past diffAt the dialog says the restore
// will be refused until the diff is re-read. It reports whether the user chose Restore.
func historyConfirm(ctx context.Context, a *app, rev, diffAt int64) bool {
	cur := diffAt
	if list, err := loadHistory(ctx, a); err == nil {
		cur = list.Revision
	}
	r := strconv.FormatInt(rev, 10)
	text := "The files of revision " + r + " replace the current files (revision " + strconv.FormatInt(cur, 10) +
		"). Undo brings the current files back."
	if cur != diffAt {
		text += " The diff shown was computed at revision " + strconv.FormatInt(diffAt, 10) +
			"; the workspace changed since, so this restore will be refused until it is re-read."
	}
	return a.confirm(ctx, confirmOptions{Title: "Restore revision " + r + "?", Text: text, OK: "Restore", Danger: true})
}

// historySelect computes the diff of checkpoint rev against the current files (0 closes it).
func historySelect(ctx context.Context, a *app, rev int64) {
	a.hist.mu.Lock()
	a.hist.selected, a.hist.diff, a.hist.diffErr, a.hist.truncated = rev, nil, "", false
	a.hist.mu.Unlock()
	a.markDirty()
	if rev == 0 {
		return
	}
	a.flushDraft(ctx)
	// The core computes the diff (workspace/diffCheckpoint, never traced); the panel shows it.
	var out studio.DiffResult
	err := a.rpc(ctx, "", studio.MethodDiffCheckpoint, map[string]any{"revision": rev}, &out)
	diff, truncated, cur := out.Files, out.Truncated, out.Revision
	a.hist.mu.Lock()
	if a.hist.selected == rev {
		a.hist.diff, a.hist.truncated, a.hist.diffAt = diff, truncated, cur
		if err != nil {
			a.hist.diffErr = err.Error()
		}
	}
	a.hist.mu.Unlock()
	historyReload(ctx, a)
}

// historyRestore runs workspace/restoreCheckpoint; a failure becomes a chat entry with its
// recovery actions (Retry restores again with the same expectedRevision; Re-read & retry
// recomputes the diff against the current files and asks in the confirm dialog again).
func historyRestore(ctx context.Context, a *app, rev int64, expected *int64) {
	a.hist.mu.Lock()
	a.hist.busy = true
	a.hist.mu.Unlock()
	a.markDirty()
	defer func() {
		a.hist.mu.Lock()
		a.hist.busy = false
		a.hist.mu.Unlock()
		a.markDirty()
	}()
	a.flushDraft(ctx)
	params := map[string]any{"revision": rev}
	if expected != nil {
		params["expectedRevision"] = *expected
	}
	var res toolResult
	err := a.rpc(ctx, "", studio.MethodHistoryRestore, params, &res)
	a.reload(ctx)
	historyReload(ctx, a)
	switch {
	case err != nil:
		a.addEntry(entry{Kind: "error", Text: err.Error()})
	case res.IsError && res.Error != nil:
		f := failure{Code: res.Error.Code, Message: res.Error.Message, Retryable: res.Error.Retryable,
			Applied: detailsApplied(res.Error.Details), Tool: studio.MethodHistoryRestore}
		if !f.Applied {
			f.Ref = a.storeRerun(func(ctx context.Context, a *app, reread bool) error {
				if !reread { // Retry: the same arguments (the same expectedRevision)
					historyRestore(ctx, a, rev, expected)
					return nil
				}
				// Re-read & retry: recompute the diff against the current files and ask again;
				// the restore then expects the revision that diff was computed against.
				historySelect(ctx, a, rev)
				a.hist.mu.Lock()
				at, diffErr := a.hist.diffAt, a.hist.diffErr
				a.hist.mu.Unlock()
				if diffErr != "" {
					return errors.New(diffErr)
				}
				if !historyConfirm(ctx, a, rev, at) {
					a.addEntry(entry{Kind: "info", Text: "Restore of revision " + strconv.FormatInt(rev, 10) + " cancelled; nothing changed."})
					return nil
				}
				historyRestore(ctx, a, rev, &at)
				return nil
			})
		}
		a.addEntry(entry{Kind: "error", Text: "Restore revision " + strconv.FormatInt(rev, 10) + ": [" + res.Error.Code + "] " + res.Error.Message,
			Details: prettyDetails(res.Error.Details), Actions: recoveryActions(f)})
	default:
		var out struct {
			Changed  bool  `json:"changed"`
			Revision int64 `json:"revision"`
		}
		_ = json.Unmarshal(res.StructuredContent, &out)
		text := "Revision " + strconv.FormatInt(rev, 10) + " is already the current state."
		if out.Changed {
			text = "Restored revision " + strconv.FormatInt(rev, 10) + " as revision " + strconv.FormatInt(out.Revision, 10) + " (Undo brings the previous files back)."
		}
		a.addEntry(entry{Kind: "info", Text: text})
		a.hist.mu.Lock()
		a.hist.selected, a.hist.diff = 0, nil
		a.hist.mu.Unlock()
	}
}
