package planner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// fakeWorkspace answers calls like a registry over a workspace whose revision moves by one on
// every revision-producing tool; failOn names a tool that fails with code.
type fakeWorkspace struct {
	revision int64
	failOn   string
	code     mcp.Code
	retry    bool
	seen     []mcp.CallToolParams
}

func (f *fakeWorkspace) exec(ctx context.Context, p mcp.CallToolParams) *mcp.CallToolResult {
	f.seen = append(f.seen, p)
	if p.Name == f.failOn {
		e := &mcp.ToolError{Code: f.code, Message: "it failed.", Retryable: f.retry}
		return &mcp.CallToolResult{IsError: true, Error: e, ToolCallID: p.Meta.ToolCallID, Content: []mcp.Content{mcp.TextContent(e.Error())}}
	}
	out := map[string]any{}
	if IsRevisionProducing(p.Name) || strings.HasPrefix(p.Name, "preview.set") {
		f.revision++
		out["revision"] = f.revision
	}
	b, _ := json.Marshal(out)
	return &mcp.CallToolResult{StructuredContent: b, ToolCallID: p.Meta.ToolCallID}
}

func TestRunThreadsRevisionsAndIDs(t *testing.T) {
	f := &fakeWorkspace{revision: 5}
	rep := Run(context.Background(), f.exec, `Replace "old copy" with "new copy" in index.html`, RunOptions{SessionID: "s", Revision: 5, LiveRevision: func() int64 { return f.revision }, PreviewExecuted: true})
	if rep.Failed {
		t.Fatalf("%+v", rep)
	}
	names := []string{}
	for _, s := range rep.Calls {
		names = append(names, s.Request.Name)
	}
	if strings.Join(names, ",") != "workspace.getStatus,workspace.listFiles,workspace.readFile,workspace.applyPatch" {
		t.Fatalf("calls %v", names)
	}
	patch := rep.Calls[3].Request
	if patch.Meta.ToolCallID != "local-model-s-3-workspace.applyPatch" || patch.Meta.Source != "local" || patch.Meta.Mode != "agent" {
		t.Fatalf("meta %+v", patch.Meta)
	}
	var args map[string]any
	_ = json.Unmarshal(patch.Arguments, &args)
	if args["expectedRevision"].(float64) != 5 || args["search"] != "old copy" {
		t.Fatalf("args %v", args)
	}
	if rep.Summary != "Local agent inspected the workspace, called workspace.getStatus, workspace.listFiles, workspace.readFile, workspace.applyPatch and refreshed the sandbox preview." {
		t.Fatalf("summary %q", rep.Summary)
	}
	if rep.Retryable != nil || rep.FailedTool != "" {
		t.Fatal("failure fields on success")
	}
}

func TestRunStopsAtFirstFailure(t *testing.T) {
	f := &fakeWorkspace{revision: 2, failOn: ToolReadFile, code: mcp.CodeWorkspaceFileNotFound}
	rep := Run(context.Background(), f.exec, `Change missing.md from "old" to "new"`, RunOptions{Revision: 2})
	if !rep.Failed || rep.FailedTool != ToolReadFile || rep.ErrorCode != mcp.CodeWorkspaceFileNotFound || *rep.Retryable {
		t.Fatalf("%+v", rep)
	}
	if len(f.seen) != 3 {
		t.Fatalf("ran %d calls after a failure", len(f.seen))
	}
	if rep.Summary != "Completed workspace.getStatus, workspace.listFiles before the failure. workspace.readFile failed: [WORKSPACE_FILE_NOT_FOUND] it failed." {
		t.Fatalf("summary %q", rep.Summary)
	}
	f = &fakeWorkspace{revision: 2, failOn: ToolUndo, code: mcp.CodeWorkspaceRevisionConflict}
	rep = Run(context.Background(), f.exec, "Undo latest edit", RunOptions{Revision: 2})
	if !rep.RevisionConflict || !*rep.Retryable {
		t.Fatalf("revision conflict must be retryable: %+v", rep)
	}
}

func TestRunAmbiguousDelete(t *testing.T) {
	f := &fakeWorkspace{}
	rep := Run(context.Background(), f.exec, "Delete the file", RunOptions{})
	if rep.Summary != AskDeletePath || len(rep.Calls) != 1 {
		t.Fatalf("%+v", rep)
	}
}
