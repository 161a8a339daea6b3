package workspace

import (
	"strconv"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

func TestAddFilesWorkspaceLimits(t *testing.T) {
	m, repo, _ := newManager(t)
	start := m.Revision()
	n := len(m.Files())
	var files []*File
	for i := range MaxImportFiles - n + 1 {
		files = append(files, NewTextFile("f"+strconv.Itoa(i)+".txt", "x"))
	}
	files = append(files, NewTextFile("index.html", "<p>replaced</p>")) // a replacement needs no new slot
	res := must(m.AddFiles(ctx, tool("upload"), files))(t)
	if len(m.Files()) != MaxImportFiles || len(res.Added) != MaxImportFiles-n+1 || !res.Changed || res.Revision != start+1 {
		t.Fatalf("files %d, added %d, result %+v", len(m.Files()), len(res.Added), res.Skipped)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Reason != SkipFileLimit || res.Skipped[0].Path != files[len(files)-2].Path {
		t.Fatalf("skipped %+v", res.Skipped)
	}
	if f, _ := repo.Load(ctx); len(f.Files) != MaxImportFiles {
		t.Fatalf("persisted %d files", len(f.Files))
	}
	// Total bytes: growing past 12 MiB is refused, replacing with smaller bytes is not.
	m2, _, _ := newManager(t)
	big := make([]byte, MaxImportAssetBytes)
	res = must(m2.AddFiles(ctx, tool("upload"), []*File{NewAssetFile("a.png", big), NewAssetFile("b.png", big),
		NewAssetFile("c.png", big), NewAssetFile("d.png", big[:10])}))(t)
	if len(res.Added) != 3 || len(res.Skipped) != 1 || res.Skipped[0].Path != "c.png" || res.Skipped[0].Reason != SkipTotalLimit {
		t.Fatalf("total limit: added %+v skipped %+v", res.Added, res.Skipped)
	}
	res = must(m2.AddFiles(ctx, tool("upload"), []*File{NewAssetFile("a.png", big[:1])}))(t)
	if len(res.Added) != 1 || !res.Added[0].Replaced {
		t.Fatalf("shrinking replacement: %+v", res)
	}
}

func TestAddFilesKeepsRenameAndClearsDeletion(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.RenameFile(ctx, tool("rename"), "styles.css", "css/site.css"))(t)
	must(m.DeleteFile(ctx, tool("delete"), "app.js"))(t)
	res := must(m.AddFiles(ctx, tool("upload"), []*File{NewTextFile("css/site.css", "body{}"), NewTextFile("app.js", "1")}))(t)
	if !res.Changed || !res.Added[0].Replaced || res.Added[1].Replaced {
		t.Fatalf("result %+v", res)
	}
	st := m.Status(ctx)
	for _, p := range st.DeletedPaths {
		if p == "app.js" {
			t.Fatal("an uploaded path stays queued for deletion")
		}
	}
	for _, f := range m.Files() {
		if f.Path == "css/site.css" && f.RenamedFrom != "styles.css" {
			t.Fatalf("RenamedFrom lost: %+v", f)
		}
	}
	// Paths the importer would never load, a kind that does not match, and a stale guard.
	res = must(m.AddFiles(ctx, tool("upload"), []*File{{Path: ".env", Kind: KindText}, {Path: "a/../b.txt", Kind: KindText},
		{Path: "x.png", Kind: KindText}, NewTextFile("n.txt", "1"), NewTextFile("n.txt", "2")}))(t)
	if len(res.Skipped) != 4 || res.Skipped[0].Message != PathReasonHidden || res.Skipped[3].Reason != SkipDuplicate {
		t.Fatalf("skipped %+v", res.Skipped)
	}
	_, err := m.AddFiles(ctx, Call{Tool: "upload", ExpectedRevision: Rev(1)}, []*File{NewTextFile("z.txt", "")})
	wantErr(t, err, mcp.CodeWorkspaceRevisionConflict, true, nil)
}
