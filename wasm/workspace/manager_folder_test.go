package workspace

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

func linked(t *testing.T) (*Manager, *MemFolder) {
	t.Helper()
	m, _, _ := newManager(t)
	s := Seed()
	files := map[string]string{}
	for _, f := range s.Files {
		files[f.Path] = f.Source
	}
	folder := NewMemFolder("site", files)
	must(m.ImportFolder(ctx, tool("import"), folder))(t)
	return m, folder
}

func TestSaveAllNotConnectedAndNothingToSave(t *testing.T) {
	m, _, _ := newManager(t)
	_, err := m.SaveAll(ctx, tool("workspace.saveAll"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFolderNotConnected, true, map[string]any{"operation": "save"})

	m, folder := linked(t)
	res := must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if len(res.SavedPaths)+len(res.DeletedPaths) != 0 || res.CheckpointUpdated != nil || res.SavedPaths == nil {
		t.Fatalf("%+v", res)
	}
	if len(folder.Writes) != 0 {
		t.Fatal("nothing should be written")
	}
	folder.Perm = PermissionDenied
	_, err = m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFolderPermissionDenied, true, map[string]any{"operation": "save", "permission": "denied"})
	folder.Perm = ""
	c, cancel := context.WithCancel(ctx)
	cancel()
	_, err = m.SaveAll(c, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeToolCancelled, true, nil)
	if mcp.ToolErrorOf(err).Message != "Save cancelled." {
		t.Fatal(mcp.ToolErrorOf(err).Message)
	}
}

func dirtyWorkspace(t *testing.T, m *Manager) {
	t.Helper()
	must(m.WriteFile(ctx, tool("w"), "app.js", "saved()"))(t)
	must(m.RenameFile(ctx, tool("r"), "README.md", "docs/readme.md"))(t)
	must(m.DeleteFile(ctx, tool("d"), "styles.css"))(t)
}

func TestSaveAllWritesThenDeletesInOrder(t *testing.T) {
	m, folder := linked(t)
	dirtyWorkspace(t, m)
	rev := m.Revision()
	var keys []string
	res := must(m.SaveAll(ctx, tool("workspace.saveAll"), SaveOptions{Perform: func(ctx context.Context, it SaveItem, do func(context.Context) error) error {
		keys = append(keys, it.OperationKey()+" "+it.Fingerprint())
		return do(ctx)
	}}))(t)
	wantWrites := []string{"write:docs/readme.md", "write:app.js", "delete:README.md", "delete:styles.css"}
	if !slices.Equal(folder.Writes, wantWrites) {
		t.Fatalf("writes %v", folder.Writes)
	}
	if !slices.Equal(res.SavedPaths, []string{"docs/readme.md", "app.js"}) || !slices.Equal(res.DeletedPaths, []string{"README.md", "styles.css"}) ||
		res.CheckpointUpdated == nil || res.Revision != rev {
		t.Fatalf("%+v", res)
	}
	if c, _ := folder.Content("app.js"); c != "saved()" {
		t.Fatal("content not written")
	}
	if _, ok := folder.Content("styles.css"); ok {
		t.Fatal("deletion not applied")
	}
	st := m.Status(ctx)
	if len(st.DirtyPaths)+len(st.DeletedPaths) != 0 || st.Revision != rev {
		t.Fatalf("%+v", st)
	}
	h := SourceHash([]byte("saved()"))
	wantKey := "workspace.saveAll:folder:mem-site:" + itoa(rev) + ":write:app.js workspace.saveAll:write:app.js:" + h
	if keys[1] != wantKey || !strings.HasSuffix(keys[3], ":delete:styles.css workspace.saveAll:delete:styles.css:delete") {
		t.Fatalf("keys %q", keys)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestSaveAllPartialFailureKeepsRestDirty(t *testing.T) {
	m, folder := linked(t)
	dirtyWorkspace(t, m)
	writes := 0
	folder.FailWrite = func(op, p string) error {
		writes++
		if writes > 1 {
			return errors.New("disk full")
		}
		return nil
	}
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceSideEffectUnknown, false, nil)
	prefix := "Folder save completed 1 item(s): docs/readme.md. Remaining changes stay in the workspace, not yet written to the folder. "
	if !strings.HasPrefix(mcp.ToolErrorOf(err).Message, prefix) {
		t.Fatalf("message %q", mcp.ToolErrorOf(err).Message)
	}
	d := mcp.ToolErrorOf(err).Details.(map[string]any)
	if d["path"] != "app.js" || d["state"] != "unknown" || d["reason"] != "disk full" || d["operation"] != "save" {
		t.Fatalf("details %v", d)
	}
	st := m.Status(ctx)
	if !slices.Equal(st.DirtyPaths, []string{"app.js"}) || !slices.Equal(st.DeletedPaths, []string{"README.md", "styles.css"}) {
		t.Fatalf("after partial save %+v", st)
	}
	if st.UnknownSavePath != "app.js" {
		t.Fatal("unknown outcome must be recorded")
	}
	// The next save reconciles first (re-read: missing → known), then completes.
	folder.FailWrite = nil
	res := must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if !slices.Equal(res.SavedPaths, []string{"app.js"}) || len(res.DeletedPaths) != 2 || res.CheckpointUpdated == nil {
		t.Fatalf("%+v", res)
	}
	if st := m.Status(ctx); st.UnknownSavePath != "" || len(st.DirtyPaths) != 0 {
		t.Fatalf("%+v", st)
	}
}

// flakyRead fails ReadFile once broken is set, to keep an unknown outcome unreconciled.
type flakyRead struct {
	*MemFolder
	broken bool
}

func (f *flakyRead) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if f.broken {
		return nil, errors.New("io error")
	}
	return f.MemFolder.ReadFile(ctx, p)
}

func TestSaveAllBlockedUntilReconciled(t *testing.T) {
	m, _, _ := newManager(t)
	mem := NewMemFolder("site", map[string]string{"index.html": "<p>"})
	folder := &flakyRead{MemFolder: mem}
	must(m.ImportFolder(ctx, tool("i"), folder))(t)
	must(m.WriteFile(ctx, tool("w"), "index.html", "<p>2"))(t)
	mem.FailWrite = func(op, p string) error { return errors.New("maybe written") }
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceSideEffectUnknown, false, nil)
	mem.FailWrite, folder.broken = nil, true
	n := len(mem.Writes)
	_, err = m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceSideEffectUnknown, false, nil)
	if !strings.Contains(mcp.ToolErrorOf(err).Details.(map[string]any)["reason"].(string), "reconcile") || len(mem.Writes) != n {
		t.Fatal("a save must not write before the unknown outcome is reconciled")
	}
	m.DisconnectFolder(ctx)
	if m.Status(ctx).UnknownSavePath != "" {
		t.Fatal("disconnect forgets the unknown outcome")
	}
}

func TestSaveAllStaleAndRevisionMoved(t *testing.T) {
	m, folder := linked(t)
	dirtyWorkspace(t, m)
	folder.FailWrite = func(op, p string) error {
		if p == "app.js" {
			folder.Stale = true
			return ErrFolderStale
		}
		return nil
	}
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFolderStale, true, nil)
	d := mcp.ToolErrorOf(err).Details.(map[string]any)
	if d["operation"] != "save" || d["folderName"] != "site" || !strings.HasPrefix(mcp.ToolErrorOf(err).Message, "Folder save completed 1 item(s): docs/readme.md.") {
		t.Fatalf("%v %q", d, mcp.ToolErrorOf(err).Message)
	}
	if m.FolderLinked() {
		t.Fatal("a stale folder must be unlinked")
	}

	m, _ = linked(t)
	dirtyWorkspace(t, m)
	rev := m.Revision()
	calls := 0
	_, err = m.SaveAll(ctx, tool("s"), SaveOptions{Perform: func(ctx context.Context, it SaveItem, do func(context.Context) error) error {
		calls++
		if err := do(ctx); err != nil {
			return err
		}
		if calls == 1 { // a concurrent edit lands while the first file is being written
			must(m.WriteFile(ctx, tool("typing"), "index.html", "<p>new"))(t)
		}
		return nil
	}})
	wantErr(t, err, mcp.CodeWorkspaceRevisionConflict, true, map[string]any{"expectedRevision": rev, "currentRevision": rev + 1, "operation": "save"})
	if !strings.HasPrefix(mcp.ToolErrorOf(err).Message, "Folder save completed 1 item(s): docs/readme.md. ") || calls != 1 {
		t.Fatalf("%q after %d calls", mcp.ToolErrorOf(err).Message, calls)
	}
	st := m.Status(ctx)
	if !slices.Contains(st.DirtyPaths, "docs/readme.md") || len(st.DeletedPaths) != 2 {
		t.Fatalf("a path written after the revision moved must stay dirty: %+v", st)
	}
}

// editingFolder makes an edit while its tree is read.
type editingFolder struct {
	*MemFolder
	m *Manager
	t *testing.T
}

func (f editingFolder) ReadTree(ctx context.Context) ([]ImportEntry, error) {
	must(f.m.WriteFile(ctx, tool("typing"), "index.html", "edited meanwhile"))(f.t)
	return f.MemFolder.ReadTree(ctx)
}

func TestReloadFolder(t *testing.T) {
	m, _, _ := newManager(t)
	_, err := m.ReloadFolder(ctx, tool("workspace.reloadFolder"))
	wantErr(t, err, mcp.CodeWorkspaceFolderNotConnected, true, map[string]any{"operation": "reload"})

	m, folder := linked(t)
	dirtyWorkspace(t, m)
	_ = folder.WriteFile(ctx, "extra.css", []byte("b{}"))
	_ = folder.WriteFile(ctx, ".hidden", []byte("x"))
	rev := m.Revision()
	r := must(m.ReloadFolder(ctx, Call{Tool: "workspace.reloadFolder", ExpectedRevision: Rev(rev)}))(t)
	if r.Revision != rev+1 || r.FileCount != 5 || !slices.Equal(r.Skipped, []Skipped{{Path: ".hidden", Reason: SkipHidden}}) {
		t.Fatalf("%+v", r)
	}
	st := m.Status(ctx)
	if len(st.DirtyPaths)+len(st.DeletedPaths) != 0 || !st.Filesystem.FolderLinked || st.History.CanUndo {
		t.Fatalf("%+v", st)
	}
	if source(t, m, "README.md") == "" {
		t.Fatal("reload must restore the folder's files")
	}

	mem := NewMemFolder("site", map[string]string{"index.html": "<p>"})
	m2, _, _ := newManager(t)
	ef := editingFolder{mem, m2, t}
	must(m2.ImportFolder(ctx, tool("i"), mem))(t)
	m2.DisconnectFolder(ctx)
	// link the editing wrapper through an import that reads a plain tree first
	must(m2.ImportFolder(ctx, tool("i"), ef))(t)
	_, err = m2.ReloadFolder(ctx, tool("reload"))
	wantErr(t, err, mcp.CodeWorkspaceRevisionConflict, true, nil)
	if mcp.ToolErrorOf(err).Details.(map[string]any)["operation"] != "reload" || source(t, m2, "index.html") != "edited meanwhile" {
		t.Fatal("an edit made during the read must survive and fail the reload")
	}

	m3, folder3 := linked(t)
	folder3.Stale = true
	_, err = m3.ReloadFolder(ctx, tool("reload"))
	wantErr(t, err, mcp.CodeWorkspaceFolderStale, true, nil)
	if d := mcp.ToolErrorOf(err).Details.(map[string]any); d["operation"] != "reload" || d["folderName"] != "site" || d["cause"] == "" {
		t.Fatalf("%v", d)
	}
	if m3.FolderLinked() {
		t.Fatal("stale folder must be unlinked")
	}
}

func TestRevertAfterSavedRenameChain(t *testing.T) {
	m, folder := linked(t)
	must(m.RenameFile(ctx, tool("r"), "app.js", "b.js"))(t)
	must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if _, ok := folder.Content("app.js"); ok {
		t.Fatal("old path must be deleted in the folder")
	}
	must(m.RenameFile(ctx, tool("r"), "b.js", "c.js"))(t)
	r := must(m.RevertFile(ctx, tool("v"), "c.js"))(t)
	if r.Path != "b.js" || slices.Contains(paths(m), "c.js") {
		t.Fatalf("revert must go back to the last saved path b.js: %+v %v", r, paths(m))
	}
	if st := m.Status(ctx); len(st.DirtyPaths)+len(st.DeletedPaths) != 0 {
		t.Fatalf("%+v", st)
	}
}

func TestUndoRestoresDeletions(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.DeleteFile(ctx, tool("d"), "README.md"))(t)
	must(m.Undo(ctx, tool("u")))(t)
	if st := m.Status(ctx); len(st.DeletedPaths) != 0 || st.FileCount != 4 {
		t.Fatalf("%+v", st)
	}
	must(m.Redo(ctx, tool("r")))(t)
	if st := m.Status(ctx); !slices.Equal(st.DeletedPaths, []string{"README.md"}) {
		t.Fatalf("%+v", st)
	}
}
