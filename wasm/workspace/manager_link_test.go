package workspace

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// unlinkCounter is a MemFolder that counts FolderUnlinker calls.
type unlinkCounter struct {
	*MemFolder
	n int
}

func (u *unlinkCounter) Unlinked() { u.n++ }

// LinkFolder keeps the workspace, takes the folder as the baseline (equal files clean, the
// rest dirty), keeps pending deletions, and leaves everything alone without permission.
func TestLinkFolderKeepsWorkspace(t *testing.T) {
	m, _, _ := newManager(t)
	rev := m.Revision()
	s := Seed()
	files := map[string]string{}
	for _, f := range s.Files {
		files[f.Path] = f.Source
	}
	files["index.html"] = "<h1>changed on disk</h1>"
	files["extra.txt"] = "only on disk"
	must(m.DeleteFile(ctx, tool("d"), "README.md"))(t)
	folder := &unlinkCounter{MemFolder: NewMemFolder("site", files)}

	folder.Perm = PermissionPrompt
	res := must(m.LinkFolder(ctx, folder))(t)
	if !res.Linked || res.Read || res.Permission != PermissionPrompt {
		t.Fatalf("prompt link: %+v", res)
	}
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, err, mcp.CodeWorkspaceFolderPermissionDenied, true, nil)

	folder.Perm = ""
	res = must(m.LinkFolder(ctx, folder))(t)
	if !res.Read || !slices.Equal(res.DirtyPaths, []string{"index.html"}) || res.Revision != m.Revision() {
		t.Fatalf("granted link: %+v", res)
	}
	if m.Revision() != rev+1 { // the delete; linking itself adds no revision
		t.Fatalf("revision %d, want %d", m.Revision(), rev+1)
	}
	if src := source(t, m, "index.html"); src == "<h1>changed on disk</h1>" {
		t.Fatal("LinkFolder replaced a workspace file")
	}
	saved := must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if !slices.Equal(saved.SavedPaths, []string{"index.html"}) || !slices.Equal(saved.DeletedPaths, []string{"README.md"}) {
		t.Fatalf("save after link: %+v", saved)
	}
	if _, ok := folder.Content("extra.txt"); !ok {
		t.Fatal("a file only on disk was touched")
	}
	// Replacing the link tells the old adapter.
	other := NewMemFolder("other", map[string]string{"index.html": "x"})
	must(m.LinkFolder(ctx, other))(t)
	if folder.n != 1 {
		t.Fatalf("Unlinked called %d times", folder.n)
	}
	m.DisconnectFolder(ctx)
	if m.Folder() != nil {
		t.Fatal("still linked")
	}
}

func TestLinkFolderStale(t *testing.T) {
	m, _, _ := newManager(t)
	folder := &unlinkCounter{MemFolder: NewMemFolder("gone", map[string]string{"a.txt": "a"})}
	folder.Stale = true
	_, err := m.LinkFolder(ctx, folder)
	if err == nil || mcp.ToolErrorOf(err).Code != mcp.CodeWorkspaceFolderStale {
		t.Fatalf("err %v", err)
	}
	if folder.n != 1 {
		t.Fatalf("a stale folder's persisted link must be forgotten (Unlinked %d)", folder.n)
	}
	if m.FolderLinked() {
		t.Fatal("a stale folder was linked")
	}
}

// foldFolder is a case-insensitive folder: every path is stored lower-cased.
type foldFolder struct{ *MemFolder }

func (f foldFolder) ReadFile(c context.Context, p string) ([]byte, error) {
	return f.MemFolder.ReadFile(c, strings.ToLower(p))
}
func (f foldFolder) WriteFile(c context.Context, p string, d []byte) error {
	return f.MemFolder.WriteFile(c, strings.ToLower(p), d)
}
func (f foldFolder) DeleteFile(c context.Context, p string) error {
	return f.MemFolder.DeleteFile(c, strings.ToLower(p))
}

// A rename that changes only letter case goes through a temporary copy, so a case-insensitive
// folder never loses the file; the temporary name is never reported.
func TestSaveAllCaseOnlyRename(t *testing.T) {
	m, _, _ := newManager(t)
	mem := NewMemFolder("site", map[string]string{"index.html": "<h1>x</h1>", "app.js": "let a = 1;"})
	folder := foldFolder{mem}
	must(m.ImportFolder(ctx, tool("import"), folder))(t)
	must(m.RenameFile(ctx, tool("r"), "app.js", "App.js"))(t)
	res := must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if got, ok := mem.Content("app.js"); !ok || got != "let a = 1;" {
		t.Fatalf("the case-insensitive folder lost the file: %q %v", got, ok)
	}
	want := []string{"write:app.js" + CaseRenameSuffix, "delete:app.js", "write:app.js", "delete:app.js" + CaseRenameSuffix}
	if !slices.Equal(mem.Writes, want) {
		t.Fatalf("writes %v, want %v", mem.Writes, want)
	}
	if !slices.Equal(res.SavedPaths, []string{"App.js"}) || !slices.Equal(res.DeletedPaths, []string{"app.js"}) {
		t.Fatalf("result %+v", res)
	}
	if _, ok := mem.Content("app.js" + CaseRenameSuffix); ok {
		t.Fatal("the temporary copy is left")
	}
	if st := m.Status(ctx); len(st.DirtyPaths)+len(st.DeletedPaths) != 0 {
		t.Fatalf("not clean: %+v", st)
	}
	// On a case-sensitive folder the same plan leaves exactly App.js.
	m2, _, _ := newManager(t)
	cs := NewMemFolder("site", map[string]string{"index.html": "<h1>x</h1>", "app.js": "let a = 1;"})
	must(m2.ImportFolder(ctx, tool("import"), cs))(t)
	must(m2.RenameFile(ctx, tool("r"), "app.js", "App.js"))(t)
	must(m2.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if _, ok := cs.Content("app.js"); ok {
		t.Fatal("app.js left on a case-sensitive folder")
	}
	if got, _ := cs.Content("App.js"); got != "let a = 1;" {
		t.Fatalf("App.js = %q", got)
	}
}
