package workspace

import (
	"slices"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// TestRestoreCheckpoint: three edits make four checkpoints (with their tools and revisions);
// restoring the first brings its files back as a new change, undo returns to the state before
// the restore, and redo re-applies it; the restored state is persisted.
func TestRestoreCheckpoint(t *testing.T) {
	m, repo, _ := newManager(t)
	orig := source(t, m, "app.js")
	must(m.WriteFile(ctx, tool("workspace.writeFile"), "app.js", "one"))(t)
	must(m.CreateFile(ctx, tool("workspace.createFile"), "notes.md", "n"))(t)
	must(m.DeleteFile(ctx, tool("workspace.deleteFile"), "README.md"))(t)
	hist := m.History()
	if len(hist) != 4 {
		t.Fatalf("checkpoints %d, want 4", len(hist))
	}
	tools := []string{hist[0].Tool, hist[1].Tool, hist[2].Tool, hist[3].Tool}
	if !slices.Equal(tools, []string{"hydrate", "workspace.writeFile", "workspace.createFile", "workspace.deleteFile"}) {
		t.Fatalf("tools %v", tools)
	}
	for i := 1; i < 4; i++ {
		if hist[i].Revision != hist[i-1].Revision+1 {
			t.Fatalf("revisions %+v", hist)
		}
	}
	if !hist[3].Current || hist[0].Current || hist[3].Revision != m.Revision() || hist[0].Files != 4 || hist[3].Files != 4 {
		t.Fatalf("current/files %+v", hist)
	}
	files, active, err := m.CheckpointFiles(hist[0].Revision)
	if err != nil || active != "index.html" || len(files) != 4 {
		t.Fatalf("CheckpointFiles %d %q %v", len(files), active, err)
	}

	before := m.Revision()
	_, err = m.RestoreCheckpoint(ctx, Call{Tool: "workspace/restoreCheckpoint", ExpectedRevision: Rev(before - 1)}, hist[0].Revision)
	wantErr(t, err, mcp.CodeWorkspaceRevisionConflict, true, nil)
	_, err = m.RestoreCheckpoint(ctx, Call{Tool: "workspace/restoreCheckpoint"}, 999)
	wantErr(t, err, mcp.CodeWorkspaceHistoryEmpty, false, map[string]any{"direction": "restore", "revision": int64(999)})

	saves := repo.Saves
	h := must(m.RestoreCheckpoint(ctx, Call{Tool: "workspace/restoreCheckpoint", CallID: "op-1", ExpectedRevision: Rev(before)}, hist[0].Revision))(t)
	if !h.Changed || h.Direction != "restore" || h.Revision != before+1 || h.ActivePath != "index.html" {
		t.Fatalf("restore %+v", h)
	}
	if source(t, m, "app.js") != orig || slices.Contains(paths(m), "notes.md") || !slices.Contains(paths(m), "README.md") {
		t.Fatalf("restored files %v", paths(m))
	}
	if repo.Saves == saves {
		t.Fatal("restore must be persisted")
	}
	stored, lerr := repo.Load(ctx)
	if lerr != nil || stored.Revision != h.Revision || len(stored.Files) != 4 {
		t.Fatalf("stored %+v %v", stored.Metadata, lerr)
	}
	for _, f := range stored.Files {
		if f.Path == "notes.md" || (f.Path == "app.js" && f.Source != orig) {
			t.Fatalf("stored file %s not restored", f.Path)
		}
	}
	hist = m.History()
	if last := hist[len(hist)-1]; len(hist) != 5 || last.Tool != "workspace/restoreCheckpoint" || last.CallID != "op-1" || !last.Current {
		t.Fatalf("restore checkpoint %+v", hist)
	}
	// Restoring what is already current changes nothing.
	same := must(m.RestoreCheckpoint(ctx, Call{Tool: "workspace/restoreCheckpoint"}, hist[4].Revision))(t)
	if same.Changed || same.Revision != h.Revision {
		t.Fatalf("no-op restore %+v", same)
	}
	// Undo returns to the state before the restore; redo re-applies it.
	must(m.Undo(ctx, tool("workspace.undo")))(t)
	if source(t, m, "app.js") != "one" || !slices.Contains(paths(m), "notes.md") || slices.Contains(paths(m), "README.md") {
		t.Fatalf("undo after restore %v", paths(m))
	}
	must(m.Redo(ctx, tool("workspace.redo")))(t)
	if source(t, m, "app.js") != orig || slices.Contains(paths(m), "notes.md") {
		t.Fatalf("redo after restore %v", paths(m))
	}
}
