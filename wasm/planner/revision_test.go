package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/webcoding/studio/wasm/mcp"
)

func TestGuardedTools(t *testing.T) {
	want := []string{ToolReset, ToolCreateFile, ToolRenameFile, ToolDeleteFile, ToolWriteFile,
		ToolSaveAll, ToolSaveCheckpoint, ToolReloadFolder, ToolApplyPatch, ToolRevertFile, ToolUndo, ToolRedo}
	if diff := cmp.Diff(want, GuardedTools()); diff != "" {
		t.Errorf("GuardedTools mismatch (-want +got):\n%s", diff)
	}
	for _, name := range []string{ToolDisconnectFolder, ToolDownloadFile, ToolSetTheme, ToolGetStatus} {
		if IsGuarded(name) {
			t.Errorf("IsGuarded(%s) = true", name)
		}
	}
	if IsRevisionProducing(ToolSaveAll) || IsRevisionProducing(ToolSaveCheckpoint) || !IsRevisionProducing(ToolUndo) {
		t.Error("IsRevisionProducing: saves must not produce revisions, undo must")
	}
}

func TestThreadRevision(t *testing.T) {
	patch := newCall(ToolApplyPatch, "path", "a.md")
	ThreadRevision(&patch, 4)
	if got := patch.Arguments[ArgExpectedRevision]; got != int64(4) {
		t.Errorf("applyPatch expectedRevision = %#v, want int64(4)", got)
	}
	// An explicit value is kept, even 0.
	kept := newCall(ToolUndo, ArgExpectedRevision, int64(0))
	ThreadRevision(&kept, 9)
	if got := kept.Arguments[ArgExpectedRevision]; got != int64(0) {
		t.Errorf("explicit expectedRevision replaced: %#v", got)
	}
	// Unguarded tools are not touched.
	theme := newCall(ToolSetTheme, "theme", ThemeRose)
	ThreadRevision(&theme, 3)
	if _, ok := theme.Arguments[ArgExpectedRevision]; ok {
		t.Error("setTheme got an expectedRevision")
	}
	// A nil map is allocated.
	bare := Call{Name: ToolSaveAll}
	ThreadRevision(&bare, 2)
	if bare.Arguments[ArgExpectedRevision] != int64(2) {
		t.Errorf("saveAll arguments = %#v", bare.Arguments)
	}
	ThreadRevision(nil, 1) // must not panic
}

func TestNextPlannedRevision(t *testing.T) {
	r := func(v int64) *int64 { return &v }
	tests := []struct {
		tool          string
		result        *int64
		live, planned int64
		want          int64
	}{
		{ToolApplyPatch, r(8), 99, 7, 8},
		{ToolGetStatus, r(5), 99, 7, 5}, // any result revision wins
		{ToolApplyPatch, nil, 12, 7, 12},
		{ToolReset, nil, 1, 7, 1},
		{ToolSaveAll, nil, 12, 7, 7},
		{ToolSaveCheckpoint, nil, 12, 7, 7},
		{ToolSetTheme, nil, 12, 7, 7},
		{ToolListFiles, nil, 12, 7, 7},
	}
	for _, tt := range tests {
		if got := NextPlannedRevision(tt.tool, tt.result, tt.live, tt.planned); got != tt.want {
			t.Errorf("NextPlannedRevision(%s, %v, %d, %d) = %d, want %d", tt.tool, tt.result, tt.live, tt.planned, got, tt.want)
		}
	}
}

func TestCallID(t *testing.T) {
	if got := CallID("s1", 0, ToolGetStatus); got != "local-model-s1-0-workspace.getStatus" {
		t.Errorf("CallID = %q", got)
	}
	if got := CallID("", 12, ToolSetTheme); got != "local-model-run-12-preview.setTheme" {
		t.Errorf("CallID without session = %q", got)
	}
}

func TestSummaries(t *testing.T) {
	tests := []struct {
		ambiguous Ambiguity
		called    []string
		want      string
	}{
		{NotAmbiguous, []string{ToolGetStatus},
			"Local agent inspected the workspace, called workspace.getStatus."},
		{NotAmbiguous, []string{ToolGetStatus, ToolSetTheme},
			"Local agent inspected the workspace, called workspace.getStatus, preview.setTheme and refreshed the sandbox preview."},
		{NotAmbiguous, []string{ToolGetStatus, ToolUndo},
			"Local agent inspected the workspace, called workspace.getStatus, workspace.undo and refreshed the sandbox preview."},
		// Saves and downloads do not refresh the preview; preview.getStatus counts as preview.*.
		{NotAmbiguous, []string{ToolGetStatus, ToolSaveCheckpoint},
			"Local agent inspected the workspace, called workspace.getStatus, workspace.saveCheckpoint."},
		{NotAmbiguous, []string{ToolGetStatus, ToolListFiles, ToolDownloadFile},
			"Local agent inspected the workspace, called workspace.getStatus, workspace.listFiles, workspace.downloadFile."},
		{NotAmbiguous, []string{ToolPreviewStatus},
			// Reading the preview's status refreshes nothing (issue 14 item 7).
			"Local agent inspected the workspace, called preview.getStatus."},
		{AmbiguousDelete, []string{ToolListFiles}, AskDeletePath},
		{AmbiguousDownload, []string{ToolListFiles}, AskDownloadPath},
		{NotAmbiguous, []string{ToolListFiles},
			"Local agent inspected the workspace, called workspace.listFiles."},
	}
	for _, tt := range tests {
		if got := SuccessSummary(tt.ambiguous, tt.called, true); got != tt.want {
			t.Errorf("SuccessSummary(%q, %v) = %q, want %q", tt.ambiguous, tt.called, got, tt.want)
		}
		// Headless (no page runs, issue 14): the same calls never claim a sandbox refresh.
		want := strings.Replace(tt.want, " and refreshed the sandbox preview.", " and compiled the preview (not run headless).", 1)
		if got := SuccessSummary(tt.ambiguous, tt.called, false); got != want || strings.Contains(got, "sandbox") {
			t.Errorf("headless SuccessSummary(%q, %v) = %q, want %q", tt.ambiguous, tt.called, got, want)
		}
	}

	e := mcp.NewError(mcp.CodeWorkspacePatchNotFound, false, nil, "No match in index.html.")
	got := FailureSummary([]string{ToolGetStatus, ToolListFiles, ToolReadFile}, ToolApplyPatch, e.Error())
	want := "Completed workspace.getStatus, workspace.listFiles, workspace.readFile before the failure. " +
		"workspace.applyPatch failed: [WORKSPACE_PATCH_NOT_FOUND] No match in index.html."
	if got != want {
		t.Errorf("FailureSummary = %q, want %q", got, want)
	}
	if got := FailureSummary(nil, ToolListFiles, "[X] y"); got != "workspace.listFiles failed: [X] y" {
		t.Errorf("FailureSummary without completed calls = %q", got)
	}
}

func TestIsRevisionConflict(t *testing.T) {
	if !IsRevisionConflict(mcp.CodeWorkspaceRevisionConflict, "") {
		t.Error("code not recognized")
	}
	if !IsRevisionConflict(mcp.CodeToolExecutionFailed, "[TOOL_EXECUTION_FAILED] Workspace revision mismatch: expected 1, current 2.") {
		t.Error("text not recognized")
	}
	if IsRevisionConflict(mcp.CodeWorkspacePatchNotFound, "[WORKSPACE_PATCH_NOT_FOUND] no match") {
		t.Error("false positive")
	}
}
