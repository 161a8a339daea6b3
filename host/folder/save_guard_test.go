package folder

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

func code(t *testing.T, e error, want mcp.Code, reason string) {
	t.Helper()
	var err *mcp.ToolError
	if !errors.As(e, &err) || err.Code != want {
		t.Fatalf("got %v, want %s", e, want)
	}
	if d, _ := err.Details.(map[string]any); d["reason"] != reason {
		t.Fatalf("reason %v, want %q (%s)", d["reason"], reason, err.Message)
	}
}

func readDisk(t *testing.T, dir, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The tester's repro on a real directory: nothing the workspace did not load is overwritten.
func TestManagerNeverOverwritesUnseenFiles(t *testing.T) {
	d, dir := setup(t)
	if err := os.WriteFile(filepath.Join(dir, "latin1.txt"), []byte("caf\xe9"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := workspace.New(workspace.Options{})
	imp, terr := m.ImportFolder(ctx, workspace.Call{Tool: "import"}, d)
	if terr != nil {
		t.Fatal(terr)
	}
	if !slices.Contains(imp.Skipped, workspace.Skipped{Path: "latin1.txt", Reason: workspace.SkipNotText,
		Message: "binary or not UTF-8 text"}) {
		t.Fatalf("skipped %+v", imp.Skipped)
	}
	call := workspace.Call{Tool: "t"}
	for _, c := range []struct{ p, reason string }{
		{".env", workspace.PathReasonHidden},
		{".git/config", workspace.PathReasonHidden},
		{"node_modules/x/i.js", workspace.PathReasonIgnored},
	} {
		_, err := m.CreateFile(ctx, call, c.p, "overwrite")
		code(t, err, mcp.CodeWorkspacePathInvalid, c.reason)
	}
	if _, err := m.CreateFile(ctx, call, "latin1.txt", "café"); err != nil {
		t.Fatal(err)
	}
	_, err := m.SaveAll(ctx, call, workspace.SaveOptions{})
	code(t, err, mcp.CodeWorkspaceFileConflict, workspace.SaveConflictExists)
	if readDisk(t, dir, "latin1.txt") != "caf\xe9" || readDisk(t, dir, ".env") != "SECRET=1" {
		t.Fatal("overwritten")
	}
	if _, err := m.DeleteFile(ctx, call, "latin1.txt"); err != nil {
		t.Fatal(err)
	}

	// Changed on disk after load.
	if _, err := m.WriteFile(ctx, call, "css/site.css", "mine{}"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "css", "site.css"), []byte("theirs{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = m.SaveAll(ctx, call, workspace.SaveOptions{})
	code(t, err, mcp.CodeWorkspaceFileConflict, workspace.SaveConflictChanged)
	if readDisk(t, dir, "css/site.css") != "theirs{}" {
		t.Fatal("overwritten")
	}
	if _, err := m.RevertFile(ctx, call, "css/site.css"); err != nil {
		t.Fatal(err)
	}

	// A directory where a new file would go: a definite failure, nothing unknown.
	if err := os.MkdirAll(filepath.Join(dir, "lib", "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := m.CreateFile(ctx, call, "lib/inner", "x"); err != nil {
		t.Fatal(err)
	}
	_, err = m.SaveAll(ctx, call, workspace.SaveOptions{})
	code(t, err, mcp.CodeWorkspaceFileConflict, workspace.SaveConflictDirectory)
	if m.Status(ctx).UnknownSavePath != "" {
		t.Fatal("directory in the way is not an unknown outcome")
	}
	if _, err := m.DeleteFile(ctx, call, "lib/inner"); err != nil {
		t.Fatal(err)
	}

	// A symlink leaving the folder: its own reason, not "..".
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skip("symlinks:", err)
	}
	if _, err := m.CreateFile(ctx, call, "out/x.css", "x"); err != nil {
		t.Fatal(err)
	}
	_, err = m.SaveAll(ctx, call, workspace.SaveOptions{})
	code(t, err, mcp.CodeWorkspacePathInvalid, workspace.PathReasonEscapesFolder)
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatal("written outside")
	}
}

// DirFolder.WriteFile onto a directory is ErrFolderNotAFile and leaves the directory alone.
func TestWriteOntoDirectoryIsNotAFile(t *testing.T) {
	d, dir := setup(t)
	if err := d.WriteFile(ctx, "css", []byte("x")); !errors.Is(err, workspace.ErrFolderNotAFile) {
		t.Fatalf("%v", err)
	}
	if readDisk(t, dir, "css/site.css") != "p{}" {
		t.Fatal("directory content changed")
	}
}
