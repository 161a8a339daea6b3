package workspace

import (
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// Issue 14: a file and a folder with the same name ("notes" and "notes/a.css") were both
// accepted, and every save then failed. createFile and renameFile refuse the second path,
// naming the first, under the same NFC+case comparison as name collisions; two folders that
// differ only in case are refused too.
func TestFileFolderCollisionsRefused(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.CreateFile(ctx, tool("c"), "notes", "n"))(t)
	must(m.CreateFile(ctx, tool("c"), "sub/b.css", "b"))(t)
	for _, tc := range []struct{ path, other, reason, folder string }{
		{"notes/a.css", "notes", ReasonFileFolderCollision, "notes"},
		{"Notes/deep/a.css", "notes", ReasonFileFolderCollision, "Notes"},
		{"sub", "sub/b.css", ReasonFileFolderCollision, "sub"},
		{"SUB", "sub/b.css", ReasonFileFolderCollision, "SUB"},
		{"Sub/a.css", "sub/b.css", ReasonFolderNameCollision, "Sub"},
		{"Sub/x/a.css", "sub/b.css", ReasonFolderNameCollision, "Sub"},
	} {
		for _, op := range []string{"create", "rename"} {
			var err error
			if op == "create" {
				_, err = m.CreateFile(ctx, tool("c2"), tc.path, "x")
			} else {
				_, err = m.RenameFile(ctx, tool("r"), "app.js", tc.path)
			}
			te := mcp.ToolErrorOf(err)
			if te == nil || te.Code != mcp.CodeWorkspaceFileConflict {
				t.Fatalf("%s %q: %v", op, tc.path, err)
			}
			d := te.Details.(map[string]any)
			if d["reason"] != tc.reason || d["conflictsWith"] != tc.other || d["folder"] != tc.folder || d["operation"] != op ||
				!strings.Contains(te.Message, `"`+tc.other+`"`) {
				t.Fatalf("%s %q: %+v %s", op, tc.path, d, te.Message)
			}
		}
	}
	// Paths that fit are fine: a sibling, the same folder, a longer name sharing a prefix.
	for _, p := range []string{"notes.css", "sub/c.css", "subway/a.css", "notes2/a.css"} {
		must(m.CreateFile(ctx, tool("c3"), p, "ok"))(t)
	}
	// A file may move under a folder named like itself once it is gone from there.
	must(m.RenameFile(ctx, tool("r2"), "notes", "notes.txt"))(t)
	must(m.CreateFile(ctx, tool("c4"), "notes/a.css", "a"))(t)
}

// Uploads (AddFiles) skip a new path that collides, with the reason and message; the rest
// are added.
func TestAddFilesSkipsFileFolderCollision(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.CreateFile(ctx, tool("c"), "notes", "n"))(t)
	res := must(m.AddFiles(ctx, tool("u"), []*File{NewTextFile("notes/a.css", "a"), NewTextFile("ok/b.css", "b"), NewTextFile("OK/c.css", "c")}))(t)
	if len(res.Added) != 1 || res.Added[0].Path != "ok/b.css" || len(res.Skipped) != 2 ||
		res.Skipped[0].Reason != ReasonFileFolderCollision || res.Skipped[1].Reason != ReasonFolderNameCollision ||
		!strings.Contains(res.Skipped[0].Message, `"notes"`) {
		t.Fatalf("%+v", res)
	}
}

// An import reports file/folder and folder-case pairs like name collisions.
func TestImportFlagsFileFolderCollisions(t *testing.T) {
	cs := FindNameCollisions([]*File{NewTextFile("index.html", "i"), NewTextFile("sub/A.css", "a"), NewTextFile("Sub/b.css", "b"),
		NewTextFile("notes", "n"), NewTextFile("notes/a.css", "a")})
	if len(cs) != 2 || cs[0] != (NameCollision{"Sub/b.css", "sub/A.css"}) || cs[1] != (NameCollision{"notes/a.css", "notes"}) {
		t.Fatalf("%+v", cs)
	}
}

// A workspace that already holds a file and a file under it as a folder (stored before the
// refusal, or loaded so) is refused at save with a true message naming both paths, before
// anything is written. Before the fix the save wrote "notes" and then failed with
// ""notes/a.css" is a directory (not a file) in the linked folder".
func TestSaveRefusesFileUsedAsFolder(t *testing.T) {
	m, _, _ := newManager(t)
	folder := NewMemFolder("site", map[string]string{"index.html": "<p>i</p>", "notes": "n", "notes/a.css": "a"})
	must(m.ImportFolder(ctx, tool("i"), folder))(t)
	must(m.WriteFile(ctx, tool("w"), "notes", "n2"))(t)
	must(m.WriteFile(ctx, tool("w"), "notes/a.css", "a2"))(t)
	_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
	te := mcp.ToolErrorOf(err)
	if te == nil || te.Code != mcp.CodeWorkspaceFileConflict {
		t.Fatalf("save: %v", err)
	}
	d := te.Details.(map[string]any)
	if d["reason"] != ReasonFileFolderCollision || d["path"] != "notes/a.css" || d["conflictsWith"] != "notes" ||
		strings.Contains(te.Message, "is a directory") || !strings.Contains(te.Message, "nothing was written") {
		t.Fatalf("save: %+v %s", d, te.Message)
	}
	if len(folder.Writes) != 0 {
		t.Fatalf("written: %v", folder.Writes)
	}
	// Renaming one of them away makes the save go through.
	must(m.RenameFile(ctx, tool("r"), "notes", "notes.txt"))(t)
	must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
}
