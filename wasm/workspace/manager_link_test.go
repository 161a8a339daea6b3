package workspace

import (
	"slices"
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
	folder := NewMemFolder("gone", map[string]string{"a.txt": "a"})
	folder.Stale = true
	_, err := m.LinkFolder(ctx, folder)
	if err == nil || err.Code != mcp.CodeWorkspaceFolderStale {
		t.Fatalf("err %v", err)
	}
	if m.FolderLinked() {
		t.Fatal("a stale folder was linked")
	}
}
