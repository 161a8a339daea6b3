package workspace

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// The workspace never holds a path the importer would skip: create and rename refuse them.
func TestCreateRenameRefuseExcludedPaths(t *testing.T) {
	m, _ := linked(t)
	rev := m.Revision()
	for _, c := range []struct{ in, path, reason string }{
		{".env", ".env", PathReasonHidden},
		{".git/config", ".git/config", PathReasonHidden},
		{"./src/.cache/x.js", "src/.cache/x.js", PathReasonHidden},
		{"node_modules/x/index.js", "node_modules/x/index.js", PathReasonIgnored},
		{"lib\\node_modules\\a.js", "lib/node_modules/a.js", PathReasonIgnored},
	} {
		_, err := m.CreateFile(ctx, tool("c"), c.in, "x")
		wantErr(t, err, mcp.CodeWorkspacePathInvalid, false, map[string]any{"path": c.path, "reason": c.reason})
		if !strings.Contains(mcp.ToolErrorOf(err).Message, "never imported") {
			t.Errorf("message should say why: %s", mcp.ToolErrorOf(err).Message)
		}
		_, err = m.RenameFile(ctx, tool("r"), "app.js", c.in)
		wantErr(t, err, mcp.CodeWorkspacePathInvalid, false, map[string]any{"path": c.path, "reason": c.reason})
	}
	if m.Revision() != rev {
		t.Fatal("refused edits must not change the workspace")
	}
	// Names that merely contain a dot or the word are fine.
	must(m.CreateFile(ctx, tool("c"), "a.b/x.env.js", "x"))(t)
	must(m.CreateFile(ctx, tool("c"), "my_node_modules/x.js", "x"))(t)
}

// Bug repro: a new workspace file at a path that exists on disk but was never loaded (here a
// file beyond the import) must not be overwritten by saveAll.
func TestSaveAllRefusesOverwritingUnloadedFile(t *testing.T) {
	m, folder := linked(t)
	_ = folder.WriteFile(ctx, "notes.md", []byte("precious"))
	folder.Writes = nil
	must(m.WriteFile(ctx, tool("w"), "app.js", "saved()"))(t)
	must(m.CreateFile(ctx, tool("c"), "notes.md", "mine"))(t)
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": "notes.md", "operation": "save", "reason": SaveConflictExists})
	if !strings.HasPrefix(mcp.ToolErrorOf(err).Message, "Folder save completed 1 item(s): app.js.") {
		t.Fatalf("prefix: %s", mcp.ToolErrorOf(err).Message)
	}
	if got, _ := folder.Content("notes.md"); got != "precious" {
		t.Fatalf("notes.md overwritten: %q", got)
	}
	if !slices.Equal(folder.Writes, []string{"write:app.js"}) {
		t.Fatalf("writes %v", folder.Writes)
	}
	// Renaming onto an unloaded file is refused the same way.
	must(m.DeleteFile(ctx, tool("d"), "notes.md"))(t)
	must(m.RenameFile(ctx, tool("r"), "app.js", "notes.md"))(t)
	_, err = m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": "notes.md", "operation": "save", "reason": SaveConflictExists})
	if got, _ := folder.Content("notes.md"); got != "precious" {
		t.Fatalf("notes.md overwritten: %q", got)
	}
	if _, ok := folder.Content("app.js"); !ok {
		t.Fatal("nothing may be deleted after a refused item")
	}
	// Once the folder's file is gone the save goes through.
	_ = folder.DeleteFile(ctx, "notes.md")
	res := must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if !slices.Equal(res.SavedPaths, []string{"notes.md"}) || !slices.Equal(res.DeletedPaths, []string{"app.js"}) {
		t.Fatalf("%+v", res)
	}
}

// A new file the folder already holds with exactly the bytes to write is no conflict.
func TestSaveAllSameBytesOnDiskIsNoConflict(t *testing.T) {
	m, folder := linked(t)
	_ = folder.WriteFile(ctx, "same.txt", []byte("same"))
	must(m.CreateFile(ctx, tool("c"), "same.txt", "same"))(t)
	res := must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if !slices.Equal(res.SavedPaths, []string{"same.txt"}) {
		t.Fatalf("%+v", res)
	}
}

// Files skipped by the 200-file limit are on disk but not in the workspace.
func TestSaveAllRefusesFileBeyondImportLimit(t *testing.T) {
	m, _, _ := newManager(t)
	files := map[string]string{}
	for i := range MaxImportFiles + 1 {
		files[fmt.Sprintf("f%03d.txt", i)] = fmt.Sprintf("disk %d", i)
	}
	folder := NewMemFolder("big", files)
	r := must(m.ImportFolder(ctx, tool("i"), folder))(t)
	if r.FileCount != MaxImportFiles {
		t.Fatalf("%+v", r)
	}
	must(m.CreateFile(ctx, tool("c"), "f200.txt", "workspace"))(t)
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": "f200.txt", "operation": "save", "reason": SaveConflictExists})
	if got, _ := folder.Content("f200.txt"); got != "disk 200" {
		t.Fatalf("overwritten: %q", got)
	}
}

// Bug repro: edits made on disk after load must not be overwritten (or deleted) by saveAll.
func TestSaveAllRefusesChangedInFolder(t *testing.T) {
	m, folder := linked(t)
	must(m.WriteFile(ctx, tool("w"), "app.js", "mine()"))(t)
	_ = folder.WriteFile(ctx, "app.js", []byte("theirs()"))
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": "app.js", "operation": "save", "reason": SaveConflictChanged})
	if !strings.Contains(mcp.ToolErrorOf(err).Message, "workspace.reloadFolder") {
		t.Fatalf("message must point at reload: %s", mcp.ToolErrorOf(err).Message)
	}
	if got, _ := folder.Content("app.js"); got != "theirs()" {
		t.Fatalf("overwritten: %q", got)
	}
	// Reverting the workspace file makes it clean: nothing to save, nothing overwritten.
	must(m.RevertFile(ctx, tool("v"), "app.js"))(t)
	res := must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if len(res.SavedPaths) != 0 {
		t.Fatalf("%+v", res)
	}

	// A pending deletion of a file changed on disk is a conflict too.
	must(m.DeleteFile(ctx, tool("d"), "styles.css"))(t)
	_ = folder.WriteFile(ctx, "styles.css", []byte("changed{}"))
	_, err = m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": "styles.css", "operation": "save", "reason": SaveConflictChanged})
	if got, _ := folder.Content("styles.css"); got != "changed{}" {
		t.Fatal("changed file deleted")
	}
	// Reloading takes the folder's version.
	must(m.ReloadFolder(ctx, tool("reload")))(t)
	if source(t, m, "styles.css") != "changed{}" || source(t, m, "app.js") != "theirs()" {
		t.Fatal("reload")
	}

	// A baseline file deleted on disk is not silently recreated; a deletion of an already
	// absent file is fine.
	must(m.WriteFile(ctx, tool("w"), "app.js", "again()"))(t)
	_ = folder.DeleteFile(ctx, "app.js")
	_, err = m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": "app.js", "operation": "save", "reason": SaveConflictChanged})
	must(m.ReloadFolder(ctx, tool("reload")))(t)
	must(m.DeleteFile(ctx, tool("d"), "styles.css"))(t)
	_ = folder.DeleteFile(ctx, "styles.css")
	res = must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if !slices.Equal(res.DeletedPaths, []string{"styles.css"}) {
		t.Fatalf("%+v", res)
	}
}

// What a save wrote is the new reference, even when the revision moved during the save.
func TestSaveAllTracksItsOwnWrites(t *testing.T) {
	m, folder := linked(t)
	must(m.WriteFile(ctx, tool("w"), "app.js", "one()"))(t)
	must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	must(m.WriteFile(ctx, tool("w"), "app.js", "two()"))(t)
	must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if got, _ := folder.Content("app.js"); got != "two()" {
		t.Fatal(got)
	}
	// The revision moves between the write and its bookkeeping: the baseline stays old, but
	// the next save must still recognise the folder's bytes as its own.
	must(m.WriteFile(ctx, tool("w"), "app.js", "three()"))(t)
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{Perform: func(c context.Context, it SaveItem, do func(context.Context) error) error {
		if err := do(c); err != nil {
			return err
		}
		must(m.WriteFile(ctx, tool("w"), "app.js", "four()"))(t)
		return nil
	}})
	wantErr(t, err, mcp.CodeWorkspaceRevisionConflict, true, nil)
	if got, _ := folder.Content("app.js"); got != "three()" {
		t.Fatal(got)
	}
	res := must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if !slices.Equal(res.SavedPaths, []string{"app.js"}) {
		t.Fatalf("%+v", res)
	}
	if got, _ := folder.Content("app.js"); got != "four()" {
		t.Fatal(got)
	}
}

func TestSaveAllDirectoryInTheWay(t *testing.T) {
	m, folder := linked(t)
	_ = folder.WriteFile(ctx, "lib/inner.js", []byte("x"))
	folder.Writes = nil
	must(m.CreateFile(ctx, tool("c"), "lib", "text"))(t)
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": "lib", "operation": "save", "reason": SaveConflictDirectory})
	if len(folder.Writes) != 0 || m.Status(ctx).UnknownSavePath != "" {
		t.Fatal("a definite failure: nothing written, nothing unknown")
	}
}

// An adapter refusing a path that leads outside the folder is reported as such, not as "..".
func TestSaveAllEscapingPath(t *testing.T) {
	m, folder := linked(t)
	must(m.WriteFile(ctx, tool("w"), "app.js", "x()"))(t)
	folder.FailWrite = func(op, p string) error { return ErrFolderPathEscapes }
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspacePathInvalid, false, map[string]any{"path": "app.js", "reason": PathReasonEscapesFolder})
	if strings.Contains(mcp.ToolErrorOf(err).Message, "..") || !strings.Contains(mcp.ToolErrorOf(err).Message, "outside the linked folder") {
		t.Fatal(mcp.ToolErrorOf(err).Message)
	}
	if m.Status(ctx).UnknownSavePath != "" {
		t.Fatal("a refused path is a definite failure")
	}
}

// Found by FuzzOperations (testdata a991eabb72afdd61): reverting a rename must not take away
// the last HTML file.
func TestRevertRenameKeepsAnHTMLEntry(t *testing.T) {
	m, _ := linked(t)
	must(m.RenameFile(ctx, tool("r"), "README.md", "b.html"))(t)
	must(m.DeleteFile(ctx, tool("d"), "index.html"))(t)
	rev := m.Revision()
	_, err := m.RevertFile(ctx, tool("v"), "b.html")
	wantErr(t, err, mcp.CodeWorkspacePreviewEntryRequired, false, map[string]any{"operation": "revert", "path": "b.html"})
	if m.Revision() != rev {
		t.Fatal("refused revert changed the workspace")
	}
}
