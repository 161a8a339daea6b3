//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"strconv"
	"sync"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// Richer approval cards (issue 9, REFERENCE §8):
//
//   - a local diff of what the pending call would change. The page runs the call's exact
//     arguments (registry.Approval.Arguments: in-process only, never serialized) in direct mode
//     against a scratch copy of the current files — a throwaway studio session over a memory
//     repository at the same revision, so validation, revision guards and the tool's own
//     edit logic are the real ones — and diffs the scratch workspace before and after.
//     workspace.undo / workspace.redo are diffed against the neighbouring history checkpoint
//     instead. The diff is shown only in the card: it is never traced, logged or exported
//     (the scratch session has no observer; the current files are read with the ordinary
//     read-only tools).
//   - "Approve all for this run" (approvals/approveRun): approves this call, the other
//     pending calls of the same prompt run and the run's later calls; the scope lives in the
//     run and ends with it, so later runs ask again (registry.ApproveRun). Only calls made
//     inside a run (Approval.RunID) offer it.

// approvalView is one card: the approval plus the rendered diff and the approve-all button.
type approvalView struct {
	registry.Approval
	Index      int
	Diff       template.HTML
	ApproveAll bool
}

// approvalDiff is the computed preview of one pending call.
type approvalDiff struct {
	files     []fileDiff
	truncated bool
	note      string // "would fail: …", "no file changes", …
	done      bool
}

var approvalDiffs struct {
	mu sync.Mutex
	m  map[string]*approvalDiff // approval id → diff (pending approvals only)
	// files caches the current workspace by revision for the scratch runs.
	filesRev int64
	files    []*workspace.File
	active   string
	root     string
}

func init() {
	registerFeature(&feature{name: "approval", action: approvalAction})
}

var approvalTpl = template.Must(template.New("").Parse(`
{{define "diff"}}<section class="approval-diff" aria-label="Changes this call would make">{{if not .Done}}<p class="muted">Computing the change…</p>{{else}}{{if .Note}}<p class="approval-diff-note">{{.Note}}</p>{{end}}{{range .Files}}<details open class="diff-file"><summary><span class="diff-path">{{.Path}}</span> <span class="diff-status">{{.Status}}</span>{{if or .Added .Removed}} <span class="diff-count">+{{.Added}} −{{.Removed}}</span>{{end}}</summary>{{if .Note}}<p class="muted">{{.Note}}</p>{{end}}{{if .Rows}}<pre class="diff">{{range .Rows}}<span class="diff-{{.Kind}}">{{if eq .Kind "add"}}+ {{else if eq .Kind "del"}}- {{else if eq .Kind "gap"}}  {{else}}  {{end}}{{.Text}}</span>
{{end}}</pre>{{end}}</details>{{end}}{{if .Truncated}}<p class="muted">More changes are not shown.</p>{{end}}{{end}}</section>{{end}}
`))

func execApprovalTpl(name string, data any) template.HTML {
	var b bytes.Buffer
	if err := approvalTpl.ExecuteTemplate(&b, name, data); err != nil {
		return template.HTML(template.HTMLEscapeString(err.Error()))
	}
	return template.HTML(b.String())
}

// approvalViews prepares the cards for the approvals template (render.go) and starts the
// diff of every approval not seen before. It runs on the render loop and never blocks.
func approvalViews(a *app, list []registry.Approval) []approvalView {
	out := make([]approvalView, len(list))
	approvalDiffs.mu.Lock()
	if approvalDiffs.m == nil {
		approvalDiffs.m = map[string]*approvalDiff{}
	}
	pending := make(map[string]bool, len(list))
	for i, ap := range list {
		pending[ap.ID] = true
		d := approvalDiffs.m[ap.ID]
		if d == nil {
			d = &approvalDiff{}
			approvalDiffs.m[ap.ID] = d
			ap := ap
			jsbridge.Go("approval.diff", func() { computeApprovalDiff(a, ap) })
		}
		out[i] = approvalView{Approval: ap, Index: i, ApproveAll: ap.RunID != "",
			Diff: execApprovalTpl("diff", map[string]any{"Done": d.done, "Note": d.note, "Files": d.files, "Truncated": d.truncated})}
	}
	for id := range approvalDiffs.m {
		if !pending[id] {
			delete(approvalDiffs.m, id)
		}
	}
	approvalDiffs.mu.Unlock()
	return out
}

// computeApprovalDiff fills the diff of ap and re-renders.
func computeApprovalDiff(a *app, ap registry.Approval) {
	ctx := context.Background()
	res := &approvalDiff{done: true}
	var before, after map[string]diffText
	var err error
	switch ap.Name {
	case "workspace.downloadFile":
		res.note = "Downloads a file; the workspace files do not change."
	case "workspace.revertFile":
		res.note = "Puts the file back to its last saved version (not previewed here: the saved versions stay in the workspace)."
	case "workspace.saveAll", "workspace.reloadFolder", "workspace.disconnectFolder":
		res.note = "Works on the linked folder; its effect is not previewed here."
	case "workspace.undo", "workspace.redo":
		before, after, res.note, err = historyStepFiles(ctx, a, ap.Name == "workspace.redo")
	default:
		before, after, res.note, err = simulateCall(ctx, a, ap.Name, ap.Arguments)
	}
	if err != nil {
		res.note = "The change could not be previewed: " + err.Error()
	} else if before != nil {
		res.files, res.truncated = diffWorkspaces(before, after)
		if len(res.files) == 0 && res.note == "" {
			res.note = "No file changes."
		}
	}
	approvalDiffs.mu.Lock()
	if d := approvalDiffs.m[ap.ID]; d != nil {
		*d = *res
	}
	approvalDiffs.mu.Unlock()
	a.markDirty()
}

// currentFiles reads the current files in one workspace/files read (kept in approvalDiffs for
// the search of the same revision): a
// core read that is not a tool call, so the page's own diff and search reads add no trace rows
// (issue 9: they used to add a readFile row per file).
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
	approvalDiffs.mu.Lock()
	approvalDiffs.filesRev, approvalDiffs.files, approvalDiffs.active, approvalDiffs.root = snap.Revision, files, snap.ActivePath, snap.RootName
	approvalDiffs.mu.Unlock()
	return files, snap.ActivePath, snap.RootName, snap.Revision, nil
}

func toDiffTexts(files []*workspace.File) map[string]diffText {
	out := make(map[string]diffText, len(files))
	for _, f := range files {
		out[f.Path] = diffText{Source: f.Source, Asset: f.Kind == workspace.KindAsset, Size: f.Size}
	}
	return out
}

// simulateCall runs name(args) in direct mode on a scratch studio session holding a copy of
// the current files at the current revision, and returns the files before and after. A call
// that would fail returns no files and a note with its error.
func simulateCall(ctx context.Context, a *app, name string, args json.RawMessage) (before, after map[string]diffText, note string, err error) {
	files, active, root, rev, err := currentFiles(ctx, a)
	if err != nil {
		return nil, nil, "", err
	}
	repo := &workspace.MemoryRepository{}
	repo.SetStored(workspace.Snapshot{Metadata: workspace.Metadata{RootName: root, ActivePath: active, Revision: rev - 1}, Files: files})
	sess, err := studio.Builder(studio.Ports{Repository: repo})(rpcsession.Config{})
	if err != nil {
		return nil, nil, "", err
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	res := sess.Registry.Call(ctx, mcp.CallToolParams{Name: name, Arguments: args,
		Meta: &mcp.CallMeta{ToolCallID: "approval-diff", Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
	if res.IsError && res.Error != nil && !detailsAppliedAny(res.Error.Details) {
		return nil, nil, "If approved now, this call would fail: [" + string(res.Error.Code) + "] " + res.Error.Message, nil
	}
	snap, err := repo.Load(ctx)
	if err != nil {
		return nil, nil, "", err
	}
	return toDiffTexts(files), toDiffTexts(snap.Files), "", nil
}

func detailsAppliedAny(details any) bool {
	raw, _ := json.Marshal(details)
	return detailsApplied(raw)
}

// historyStepFiles diffs the current files against the checkpoint workspace.undo (or redo)
// would restore.
func historyStepFiles(ctx context.Context, a *app, redo bool) (before, after map[string]diffText, note string, err error) {
	list, err := loadHistory(ctx, a)
	if err != nil {
		return nil, nil, "", err
	}
	cur := -1
	for i, c := range list.Checkpoints {
		if c.Current {
			cur = i
		}
	}
	target := cur - 1
	if redo {
		target = cur + 1
	}
	if cur < 0 || target < 0 || target >= len(list.Checkpoints) {
		return nil, nil, "Nothing to " + map[bool]string{true: "redo", false: "undo"}[redo] + ": this call would fail.", nil
	}
	files, _, _, _, err := currentFiles(ctx, a)
	if err != nil {
		return nil, nil, "", err
	}
	cp, err := loadCheckpoint(ctx, a, list.Checkpoints[target].Revision)
	if err != nil {
		return nil, nil, "", err
	}
	return toDiffTexts(files), cp, "", nil
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
