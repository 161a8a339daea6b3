package studio

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/webcoding/studio/wasm/filediff"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// Diff session methods (issue 19: the approval-card and history diffs are computed by the
// core; the page's views only show them). Both are reads, not tool calls: they emit no
// lifecycle event (the trace holds what users and agents asked for) and are never logged or
// exported. Rows are bounded by wasm/filediff (MaxLines rows per result, MaxLineChars per
// row, files over MaxFileLines lines summarized).
const (
	// MethodDiffCall previews what a tool call would change: the call's exact arguments run
	// in direct mode against a scratch copy of the current files (a throwaway session over a
	// memory repository at the same revision, so validation, revision guards and the tool's
	// own edit logic are the real ones) and the scratch workspace is diffed before and after.
	// workspace.undo / workspace.redo are diffed against the checkpoint they would restore;
	// tools whose effect lies outside the files (downloads, folder operations, revert) get a
	// note instead. A call that would fail gets a note with its error and no files.
	//
	//	params {"name": string, "arguments"?: object}
	//	result DiffResult
	MethodDiffCall = "workspace/diffCall"
	// MethodDiffCheckpoint diffs the current files against the checkpoint made at a revision
	// (what restoring it would change).
	//
	//	params {"revision": integer}
	//	result DiffResult; an unknown revision is -32602 with data = the
	//	       WORKSPACE_HISTORY_EMPTY tool error
	MethodDiffCheckpoint = "workspace/diffCheckpoint"
)

// DiffResult is the result of MethodDiffCall and MethodDiffCheckpoint.
type DiffResult struct {
	// Revision is the current revision the diff was computed against.
	Revision int64 `json:"revision"`
	// Note explains a diff without files ("No file changes.", "If approved now, this call
	// would fail: [CODE] message", a tool whose effect is not previewed).
	Note string `json:"note,omitempty"`
	// Files are the changed paths in path order.
	Files []filediff.File `json:"files"`
	// Truncated reports rows left out (filediff.MaxLines).
	Truncated bool `json:"truncated,omitempty"`
}

func (e *studioSession) diffMethods() map[string]rpcsession.Method {
	return map[string]rpcsession.Method{
		MethodDiffCall: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			if len(bytes.TrimSpace(params)) == 0 {
				return nil, invalidParams(MethodDiffCall + ": params {name, arguments?} are required")
			}
			m, err := mcp.DecodeObject(params, []string{"name", "arguments"}, nil)
			if err != nil {
				return nil, invalidParams(MethodDiffCall + ": " + err.Error())
			}
			var name string
			if json.Unmarshal(m["name"], &name) != nil || name == "" {
				return nil, invalidParams(MethodDiffCall + ": name must be a tool name")
			}
			args := m["arguments"]
			if len(args) == 0 || string(args) == "null" {
				args = json.RawMessage("{}")
			}
			return e.diffCall(ctx, name, args), nil
		},
		MethodDiffCheckpoint: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			rev, _, perr := historyParams(MethodDiffCheckpoint, params, false)
			if perr != nil {
				return nil, perr
			}
			snap := e.m.Snapshot()
			files, _, err := e.m.CheckpointFiles(rev)
			if err != nil {
				terr := mcp.ToolErrorOf(err)
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: MethodDiffCheckpoint + ": " + terr.Message, Data: terr}
			}
			out := DiffResult{Revision: snap.Revision}
			out.Files, out.Truncated = filediff.Workspaces(diffTexts(snap.Files), diffTexts(files))
			return out, nil
		},
	}
}

// diffCall computes MethodDiffCall's result for name(args).
func (e *studioSession) diffCall(ctx context.Context, name string, args json.RawMessage) DiffResult {
	snap := e.m.Snapshot()
	out := DiffResult{Revision: snap.Revision}
	var after []*workspace.File
	switch name {
	case "workspace.downloadFile":
		out.Note = "Downloads a file; the workspace files do not change."
		return out
	case "workspace.revertFile":
		out.Note = "Puts the file back to its last saved version (not previewed here: the saved versions stay in the workspace)."
		return out
	case "workspace.saveAll", "workspace.reloadFolder", "workspace.disconnectFolder":
		out.Note = "Works on the linked folder; its effect is not previewed here."
		return out
	case "workspace.undo", "workspace.redo":
		redo := name == "workspace.redo"
		hist := e.m.History()
		cur := -1
		for i, c := range hist {
			if c.Current {
				cur = i
			}
		}
		target := cur - 1
		if redo {
			target = cur + 1
		}
		if cur < 0 || target < 0 || target >= len(hist) {
			verb := "undo"
			if redo {
				verb = "redo"
			}
			out.Note = "Nothing to " + verb + ": this call would fail."
			return out
		}
		files, _, err := e.m.CheckpointFiles(hist[target].Revision)
		if err != nil {
			out.Note = "The change could not be previewed: " + mcp.ToolErrorOf(err).Message
			return out
		}
		after = files
	default:
		repo := &workspace.MemoryRepository{}
		repo.SetStored(workspace.Snapshot{Metadata: workspace.Metadata{RootName: snap.RootName, ActivePath: snap.ActivePath,
			Revision: snap.Revision}, Files: snap.Files}) // a hydrate keeps the stored revision (design.md §5.8)
		scratch, err := scratchRegistry(ctx, repo)
		if err != nil {
			out.Note = "The change could not be previewed: " + err.Error()
			return out
		}
		res := scratch.Call(ctx, mcp.CallToolParams{Name: name, Arguments: args,
			Meta: &mcp.CallMeta{ToolCallID: "diff-call", Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
		if res.IsError && res.Error != nil && !appliedDetails(res.Error.Details) {
			out.Note = "If approved now, this call would fail: [" + string(res.Error.Code) + "] " + res.Error.Message
			return out
		}
		stored, err := repo.Load(ctx)
		if err != nil {
			out.Note = "The change could not be previewed: " + err.Error()
			return out
		}
		after = stored.Files
	}
	out.Files, out.Truncated = filediff.Workspaces(diffTexts(snap.Files), diffTexts(after))
	if len(out.Files) == 0 {
		out.Note = "No file changes."
	}
	return out
}

// scratchRegistry is a throwaway registry of the studio tools over repo: no observer (never
// traced), no preview, no folder, no durable store, default policy.
func scratchRegistry(ctx context.Context, repo workspace.Repository) (*registry.Registry, error) {
	e, err := newStudioSession(ctx, Ports{Repository: repo})
	if err != nil {
		return nil, err
	}
	r := registry.New(registry.Options{})
	for _, t := range e.studioTools() {
		if err := r.Register(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// appliedDetails reports details.applied of a tool error (the mutation happened).
func appliedDetails(details any) bool {
	raw, _ := json.Marshal(details)
	var d struct {
		Applied bool `json:"applied"`
	}
	_ = json.Unmarshal(raw, &d)
	return d.Applied
}

// diffTexts maps files by path for filediff.
func diffTexts(files []*workspace.File) map[string]filediff.Text {
	out := make(map[string]filediff.Text, len(files))
	for _, f := range files {
		out[f.Path] = filediff.Text{Source: f.Source, Asset: f.Kind == workspace.KindAsset, Size: f.Size}
	}
	return out
}
