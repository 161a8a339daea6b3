//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/filediff"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/views"
	"github.com/webcoding/studio/wasm/workspace"
)

// Richer approval cards (issue 9, REFERENCE §8):
//
//   - a diff of what the pending call would change, computed by the core (studio
//     MethodDiffCall, workspace/diffCall: the call's exact arguments — registry.Approval.
//     Arguments, in-process only — run on a scratch copy of the current files; undo/redo are
//     diffed against the checkpoint they would restore) and shown by views.ApprovalsHTML. The
//     diff is shown only in the card: it is never traced, logged or exported.
//   - "Approve all for this run" (approvals/approveRun): approves this call, the other
//     pending calls of the same prompt run and the run's later calls; the scope lives in the
//     run and ends with it, so later runs ask again (registry.ApproveRun). Only calls made
//     inside a run (Approval.RunID) offer it.

// approvalDiff is the computed preview of one pending call.
type approvalDiff struct {
	files     []filediff.File
	truncated bool
	note      string // "would fail: …", "no file changes", …
	done      bool
}

// approvalDiffTable (app.approvalDiffs) holds the diffs of the pending approvals.
type approvalDiffTable struct {
	mu sync.Mutex
	m  map[string]*approvalDiff // approval id → diff (pending approvals only)
}

func init() {
	registerFeature(&feature{name: "approval", action: approvalAction})
}

// approvalViews prepares the cards for the approvals template (render.go) and starts the
// diff of every approval not seen before. It runs on the render loop and never blocks.
func approvalViews(a *app, list []registry.Approval) []views.Approval {
	out := make([]views.Approval, len(list))
	a.approvalDiffs.mu.Lock()
	if a.approvalDiffs.m == nil {
		a.approvalDiffs.m = map[string]*approvalDiff{}
	}
	pending := make(map[string]bool, len(list))
	for i, ap := range list {
		pending[ap.ID] = true
		d := a.approvalDiffs.m[ap.ID]
		if d == nil {
			d = &approvalDiff{}
			a.approvalDiffs.m[ap.ID] = d
			ap := ap
			jsbridge.Go("approval.diff", func() { computeApprovalDiff(a, ap) })
		}
		out[i] = views.Approval{ID: ap.ID, Name: ap.Name, Description: ap.Description, Source: string(ap.Source),
			SafeArgumentPreview: ap.SafeArgumentPreview, ApproveAll: ap.RunID != "",
			Diff: views.ApprovalDiff{Done: d.done, Note: d.note, Files: d.files, Truncated: d.truncated}}
	}
	for id := range a.approvalDiffs.m {
		if !pending[id] {
			delete(a.approvalDiffs.m, id)
		}
	}
	a.approvalDiffs.mu.Unlock()
	return out
}

// computeApprovalDiff asks the core what ap would change (workspace/diffCall: the call's
// exact arguments on a scratch copy of the current files; never traced) and re-renders.
func computeApprovalDiff(a *app, ap registry.Approval) {
	res := &approvalDiff{done: true}
	var out studio.DiffResult
	args := ap.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if err := a.rpc(context.Background(), "", studio.MethodDiffCall, map[string]any{"name": ap.Name, "arguments": args}, &out); err != nil {
		res.note = "The change could not be previewed: " + err.Error()
	} else {
		res.files, res.truncated, res.note = out.Files, out.Truncated, out.Note
	}
	a.approvalDiffs.mu.Lock()
	if d := a.approvalDiffs.m[ap.ID]; d != nil {
		*d = *res
	}
	a.approvalDiffs.mu.Unlock()
	a.markDirty()
}

// currentFiles reads the current files in one workspace/files read: a core read that is not
// a tool call, so the page's search adds no trace rows.
func currentFiles(ctx context.Context, a *app) (files []*workspace.File, active, root string, rev int64, err error) {
	var snap struct {
		Revision   int64  `json:"revision"`
		ActivePath string `json:"activePath"`
		RootName   string `json:"rootName"`
		Files      []struct {
			Path   string `json:"path"`
			Kind   string `json:"kind"`
			Source string `json:"source"`
		} `json:"files"`
	}
	if err := a.rpc(ctx, "", studio.MethodCurrentFiles, map[string]any{}, &snap); err != nil {
		return nil, "", "", 0, err
	}
	for _, f := range snap.Files {
		if f.Kind == workspace.KindAsset {
			files = append(files, workspace.NewAssetFile(f.Path, nil))
			continue
		}
		files = append(files, workspace.NewTextFile(f.Path, f.Source))
	}
	return files, snap.ActivePath, snap.RootName, snap.Revision, nil
}

// approvalAction handles "Approve all for this run".
func approvalAction(a *app, act uiAction) bool {
	if act.Name != "approve-run" {
		return false
	}
	var out struct {
		Approved int `json:"approved"`
	}
	if err := a.rpc(context.Background(), "", "approvals/approveRun", map[string]any{"id": act.Get("id")}, &out); err != nil {
		a.addEntry(entry{Kind: "error", Text: err.Error()})
		return true
	}
	a.addEntry(entry{Kind: "info", Text: "Approved all calls of this run (" + strconv.Itoa(out.Approved) + " pending); later runs ask again."})
	return true
}
