package folder

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

var ctx = context.Background()

func setup(t *testing.T) (*DirFolder, string) {
	t.Helper()
	dir := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", "<p>")
	write("css/site.css", "p{}")
	write(".git/HEAD", "ref")
	write("node_modules/x/i.js", "x")
	write(".env", "SECRET=1")
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, d.Dir()
}

func TestReadTreeAndImport(t *testing.T) {
	d, _ := setup(t)
	entries, err := d.ReadTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Path)
	}
	if !slices.Equal(got, []string{".env", "css/site.css", "index.html"}) {
		t.Fatalf("tree %v", got)
	}
	m := workspace.New(workspace.Options{})
	r, terr := m.ImportFolder(ctx, workspace.Call{Tool: "import"}, d)
	if terr != nil || r.FileCount != 2 || r.ActivePath != "index.html" || r.RootName != filepath.Base(d.Dir()) {
		t.Fatalf("%+v %v", r, terr)
	}
	if d.Permission(ctx) != workspace.PermissionGranted || len(d.ScopeID()) != len("folder:")+32 {
		t.Fatal("permission/scope")
	}
}

func TestWriteReadDelete(t *testing.T) {
	d, dir := setup(t)
	if err := d.WriteFile(ctx, "index.html", []byte("<p>new")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile(ctx, "deep/er/a.js", []byte("a")); err != nil {
		t.Fatal(err)
	}
	b, err := d.ReadFile(ctx, "deep/er/a.js")
	if err != nil || string(b) != "a" {
		t.Fatalf("%q %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != "<p>new" {
		t.Fatal("replace failed")
	}
	// no temp files left behind
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	if len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
	if _, err := d.ReadFile(ctx, "nope.txt"); !errors.Is(err, workspace.ErrFolderFileMissing) {
		t.Fatalf("missing: %v", err)
	}
	if err := d.DeleteFile(ctx, "deep/er/a.js"); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteFile(ctx, "deep/er/a.js"); err != nil {
		t.Fatalf("deleting an absent file must succeed: %v", err)
	}
}

func TestAtomicReplaceKeepsInodeSemantics(t *testing.T) {
	d, dir := setup(t)
	full := filepath.Join(dir, "index.html")
	if err := os.Chmod(full, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(full)
	// A reader holding the old file keeps seeing the old content: the write is a rename.
	old, err := os.Open(full)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := d.WriteFile(ctx, "index.html", []byte("<p>replaced")); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(full)
	if os.SameFile(before, after) {
		t.Fatal("write must replace the file (temp + rename), not rewrite it in place")
	}
	if after.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v not kept", after.Mode().Perm())
	}
	buf := make([]byte, 16)
	n, _ := old.Read(buf)
	if string(buf[:n]) != "<p>" {
		t.Fatalf("old handle sees %q", buf[:n])
	}
}

func TestEscapesRefused(t *testing.T) {
	d, dir := setup(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "secret.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("css", filepath.Join(dir, "inner")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../x.txt", "a/../../x", "/etc/passwd", "link/secret.txt", "link/new.txt", "secret.txt", "a\x00b", ""} {
		if err := d.WriteFile(ctx, p, []byte("x")); !errors.Is(err, workspace.ErrFolderPathEscapes) {
			t.Errorf("WriteFile(%q) = %v", p, err)
		}
		if _, err := d.ReadFile(ctx, p); !errors.Is(err, workspace.ErrFolderPathEscapes) {
			t.Errorf("ReadFile(%q) = %v", p, err)
		}
		if err := d.DeleteFile(ctx, p); !errors.Is(err, workspace.ErrFolderPathEscapes) {
			t.Errorf("DeleteFile(%q) = %v", p, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "s" {
		t.Fatal("outside file changed")
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Fatal("file created outside the root")
	}
	// a symlink that stays inside is followed
	if b, err := d.ReadFile(ctx, "inner/site.css"); err != nil || string(b) != "p{}" {
		t.Fatalf("inner link: %q %v", b, err)
	}
	entries, _ := d.ReadTree(ctx)
	for _, e := range entries {
		if e.Path == "secret.txt" || filepath.Dir(e.Path) == "link" {
			t.Fatalf("ReadTree followed a symlink: %s", e.Path)
		}
	}
}

func TestStaleRoot(t *testing.T) {
	d, dir := setup(t)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	checks := map[string]error{}
	_, checks["ReadTree"] = d.ReadTree(ctx)
	_, checks["ReadFile"] = d.ReadFile(ctx, "index.html")
	checks["WriteFile"] = d.WriteFile(ctx, "index.html", []byte("x"))
	checks["DeleteFile"] = d.DeleteFile(ctx, "index.html")
	for name, err := range checks {
		if !errors.Is(err, workspace.ErrFolderStale) {
			t.Errorf("%s: %v, want ErrFolderStale", name, err)
		}
	}
	if d.Permission(ctx) != workspace.PermissionUnknown {
		t.Error("permission of a vanished folder")
	}
	// recreated at the same path is still stale: it is a different directory
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile(ctx, "index.html", []byte("x")); !errors.Is(err, workspace.ErrFolderStale) {
		t.Errorf("replaced root: %v", err)
	}
}

func TestSaveAllThroughDirFolder(t *testing.T) {
	d, dir := setup(t)
	m := workspace.New(workspace.Options{})
	if _, err := m.ImportFolder(ctx, workspace.Call{}, d); err != nil {
		t.Fatal(err)
	}
	if _, err := m.WriteFile(ctx, workspace.Call{}, "index.html", "<h1>saved"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.RenameFile(ctx, workspace.Call{}, "css/site.css", "styles.css"); err != nil {
		t.Fatal(err)
	}
	res, err := m.SaveAll(ctx, workspace.Call{}, workspace.SaveOptions{})
	if err != nil || len(res.SavedPaths) != 2 || !slices.Equal(res.DeletedPaths, []string{"css/site.css"}) {
		t.Fatalf("%+v %v", res, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "styles.css")); string(b) != "p{}" {
		t.Fatal("renamed file not written")
	}
	if _, err := os.Stat(filepath.Join(dir, "css", "site.css")); !os.IsNotExist(err) {
		t.Fatal("old path not deleted")
	}
	os.RemoveAll(dir)
	m.WriteFile(ctx, workspace.Call{}, "index.html", "again")
	_, terr := m.SaveAll(ctx, workspace.Call{}, workspace.SaveOptions{})
	if terr == nil || mcp.ToolErrorOf(terr).Code != "WORKSPACE_FOLDER_STALE" {
		t.Fatalf("stale save: %v", terr)
	}
}

// TestDeletePrunesEmptiedFolders: deleting the last file of a folder (a rename's old folder)
// removes the folders it emptied, up to but never the root; a folder that still holds a file
// stays.
func TestDeletePrunesEmptiedFolders(t *testing.T) {
	d, dir := setup(t)
	for _, p := range []string{"old/deep/a.js", "keep/x.js", "keep/sub/y.js"} {
		if err := d.WriteFile(ctx, p, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.DeleteFile(ctx, "old/deep/a.js"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "old")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the emptied folder old/ stays: %v", err)
	}
	if err := d.DeleteFile(ctx, "keep/sub/y.js"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "keep", "sub")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("keep/sub stays: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "keep", "x.js")); err != nil {
		t.Fatalf("keep/x.js was removed: %v", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the root was removed: %v", err)
	}
}
