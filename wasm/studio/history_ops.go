package studio

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// Version history session methods (issue 9, the browser's history panel). Listing and reading
// checkpoints are reads; restoring an arbitrary checkpoint is a core operation that is not a
// tool (SPEC §2.11): models never see it, and it still reports to the trace through
// ObserveOperation (started, then completed or failed, Name "workspace/restoreCheckpoint").
// Undo and redo stay the workspace.undo / workspace.redo tools; a restore is one more change
// on top of the history, so undo afterwards returns to the state before it.
const (
	// MethodHistoryList lists the checkpoints of this session, oldest first (at most
	// workspace.MaxHistory; history starts again after a reload, SPEC §2.12).
	//
	//	params {} (or absent)
	//	result {"revision": current, "checkpoints": [{"revision", "tool", "callId"?, "at",
	//	       "files", "current"}…]}
	MethodHistoryList = "workspace/history"
	// MethodHistoryCheckpoint returns the files of the checkpoint made at a revision (for a
	// diff against the current files). Assets carry their size only.
	//
	//	params {"revision": integer}
	//	result {"revision", "activePath", "files": [{"path", "kind", "language", "size",
	//	       "source"?}…]}; an unknown revision is -32602 with data = the
	//	       WORKSPACE_HISTORY_EMPTY tool error {code, message, retryable, details}
	MethodHistoryCheckpoint = "workspace/checkpoint"
	// MethodHistoryRestore makes that checkpoint the current state (workspace.Manager
	// RestoreCheckpoint) and waits for the preview of the new revision, like workspace.undo.
	//
	//	params {"revision": integer, "expectedRevision"?: integer}
	//	result a CallToolResult: structuredContent {"direction": "restore", "changed",
	//	       "activePath", "revision", "preview"?, "storageMode", "storageError"?}, or
	//	       isError with error WORKSPACE_REVISION_CONFLICT (retryable), WORKSPACE_HISTORY_EMPTY,
	//	       WORKSPACE_SOURCE_LIMIT, PREVIEW_* (details.applied true: never restore again,
	//	       refresh the preview) or TOOL_CANCELLED
	MethodHistoryRestore = "workspace/restoreCheckpoint"
	// MethodCurrentFiles returns the current files in one read, for the page's own views
	// (approval-card and history diffs, workspace search). Like workspace/checkpoint it is a
	// read, not a tool call: it emits no lifecycle event, so those UI reads never crowd the
	// execution trace (REFERENCE §8 traces what the user and the agent do). Assets carry their
	// size only.
	//
	//	params {} (or absent)
	//	result {"revision", "activePath", "rootName", "files": [{"path", "kind", "language",
	//	       "size", "source"?}…]} — one consistent snapshot
	MethodCurrentFiles = "workspace/files"
)

// checkpointFile is one file of MethodHistoryCheckpoint's result.
type checkpointFile struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Language string `json:"language"`
	Size     int    `json:"size"`
	Source   string `json:"source,omitempty"`
}

// restoreOut is MethodHistoryRestore's structuredContent.
type restoreOut struct {
	Direction  string `json:"direction"`
	Changed    bool   `json:"changed"`
	ActivePath string `json:"activePath"`
	Revision   int64  `json:"revision"`
	Preview    string `json:"preview,omitempty"`
	persist
}

// historyMethods returns the history methods (and the current-files read) over e's workspace; p.Observer receives
// the restore's lifecycle events.
func (e *studioSession) historyMethods(p Ports) map[string]rpcsession.Method {
	return map[string]rpcsession.Method{
		MethodHistoryList: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			if err := noParams(params); err != nil {
				return nil, err
			}
			return map[string]any{"revision": e.m.Revision(), "checkpoints": e.m.History()}, nil
		},
		MethodHistoryCheckpoint: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			rev, _, perr := historyParams(MethodHistoryCheckpoint, params, false)
			if perr != nil {
				return nil, perr
			}
			files, active, err := e.m.CheckpointFiles(rev)
			if err != nil {
				terr := mcp.ToolErrorOf(err)
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: MethodHistoryCheckpoint + ": " + terr.Message, Data: terr}
			}
			out := make([]checkpointFile, len(files))
			for i, f := range files {
				out[i] = checkpointFile{Path: f.Path, Kind: f.Kind, Language: f.Language, Size: f.Size}
				if f.Kind != workspace.KindAsset {
					out[i].Source = f.Source
				}
			}
			return map[string]any{"revision": rev, "activePath": active, "files": out}, nil
		},
		MethodCurrentFiles: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			if err := noParams(params); err != nil {
				return nil, err
			}
			snap := e.m.Snapshot()
			out := make([]checkpointFile, len(snap.Files))
			for i, f := range snap.Files {
				out[i] = checkpointFile{Path: f.Path, Kind: f.Kind, Language: f.Language, Size: f.Size}
				if f.Kind != workspace.KindAsset {
					out[i].Source = f.Source
				}
			}
			return map[string]any{"revision": snap.Revision, "activePath": snap.ActivePath, "rootName": snap.RootName, "files": out}, nil
		},
		MethodHistoryRestore: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			rev, expected, perr := historyParams(MethodHistoryRestore, params, true)
			if perr != nil {
				return nil, perr
			}
			done := ObserveOperation(p, MethodHistoryRestore, map[string]any{"revision": rev})
			res := e.restore(ctx, rev, expected)
			done(res)
			return res, nil
		},
	}
}

// restore runs MethodHistoryRestore and returns its result (never nil).
func (e *studioSession) restore(ctx context.Context, rev int64, expected *int64) *mcp.CallToolResult {
	h, terr := e.m.RestoreCheckpoint(ctx, workspace.Call{Tool: MethodHistoryRestore, ExpectedRevision: expected}, rev)
	if terr != nil {
		return mcp.ErrorResult("", mcp.ToolErrorOf(terr))
	}
	out := restoreOut{Direction: h.Direction, Changed: h.Changed, ActivePath: h.ActivePath, Revision: h.Revision}
	if h.Changed {
		if err := e.sync(ctx, h.Revision, true, false); err != nil {
			if te, ok := err.(*mcp.ToolError); ok {
				return mcp.ErrorResult("", te)
			}
			return mcp.ErrorResult("", mcp.NewError(mcp.CodeToolCancelled, true, map[string]any{"applied": true, "revision": h.Revision},
				"Restore of revision %d was applied; waiting for the preview was cancelled.", rev))
		}
		out.Preview = workspace.PreviewSynced
	}
	out.persist = e.meta(ctx)
	sc, _ := json.Marshal(out)
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent(string(sc))}, StructuredContent: sc}
}

// historyParams decodes {"revision", "expectedRevision"?} (expectedRevision only when
// withExpected).
func historyParams(method string, params json.RawMessage, withExpected bool) (int64, *int64, *jsonrpc.Error) {
	if len(bytes.TrimSpace(params)) == 0 {
		return 0, nil, invalidParams(method + ": params {revision} are required")
	}
	allowed := []string{"revision"}
	if withExpected {
		allowed = append(allowed, "expectedRevision")
	}
	m, err := mcp.DecodeObject(params, allowed, nil)
	if err != nil {
		return 0, nil, invalidParams(method + ": " + err.Error())
	}
	var rev int64
	if raw, ok := m["revision"]; !ok || json.Unmarshal(raw, &rev) != nil || rev < 1 {
		return 0, nil, invalidParams(method + ": revision must be a positive integer")
	}
	var expected *int64
	if raw, ok := m["expectedRevision"]; ok {
		var x int64
		if json.Unmarshal(raw, &x) != nil || x < 0 {
			return 0, nil, invalidParams(method + ": expectedRevision must be a non-negative integer")
		}
		expected = &x
	}
	return rev, expected, nil
}
