package livesurface

import (
	"context"
	"testing"

	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// TestWorkspacePersistsInRepository: with a Repository (the page's IndexedDB database) an edit
// of the document survives a session rebuild (a reload), the workspace clock resumes above the
// replaced session's, and the document clock starts again at 1 (docs/design.md §5.27).
func TestWorkspacePersistsInRepository(t *testing.T) {
	repo := &workspace.MemoryRepository{}
	p := studio.Ports{Repository: repo}
	s := session(t, p, rpcsession.Config{})
	r := s.Registry
	st := ok(t, call(t, r, ToolGetStatus, nil))
	if st["storageMode"] != string(workspace.StorageIndexedDB) {
		t.Fatalf("storageMode %v, want %s", st["storageMode"], workspace.StorageIndexedDB)
	}
	doc := ok(t, call(t, r, ToolSetDocument, map[string]any{"source": "<!doctype html><p>kept</p>\n", "expectedRevision": 1}))
	wsRev := num(doc["workspaceRevision"])

	s2 := session(t, p, rpcsession.Config{})
	got := ok(t, call(t, s2.Registry, ToolGetDocument, nil))
	if got["source"] != "<!doctype html><p>kept</p>\n" {
		t.Fatalf("after a rebuild the document is %q, want the edit", got["source"])
	}
	if num(got["workspaceRevision"]) < wsRev || num(got["documentRevision"]) != 1 {
		t.Fatalf("after a rebuild: workspaceRevision %v (was %d), documentRevision %v (want 1)", got["workspaceRevision"], wsRev, got["documentRevision"])
	}
}

// TestRelinkedFolderKeepsEdits (new-user finding, no lost work): an edit made after the last
// save survives a reload (a rebuild over the same Repository); connecting the same folder again
// links it without replacing the files, so the edit is still there and dirty against the
// folder, and Save writes it. A folder with another name is imported and replaces the files.
func TestRelinkedFolderKeepsEdits(t *testing.T) {
	repo := &workspace.MemoryRepository{}
	folder := webFolder()
	approve := rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}}
	s1 := session(t, studio.Ports{Repository: repo, Folder: folder}, approve)
	ok(t, call(t, s1.Registry, ToolOpenFile, map[string]any{"path": StylePath}))
	edited := "body { color: teal; }\n"
	ok(t, call(t, s1.Registry, ToolSetDocument, map[string]any{"source": edited}))

	// The reload: a rebuild without the folder keeps the edit; the folder is not linked.
	s2 := session(t, studio.Ports{Repository: repo}, approve)
	if st := ok(t, call(t, s2.Registry, ToolGetStatus, nil)); st["filesystem"].(map[string]any)["folderLinked"] != false {
		t.Fatalf("after a reload the folder is still linked: %v", st)
	}
	// Connect folder again (same name): linked, edit kept and dirty, Save writes it.
	s3 := session(t, studio.Ports{Repository: repo, Folder: folder}, approve)
	st := ok(t, call(t, s3.Registry, ToolGetStatus, nil))
	if dirty := st["dirtyPaths"].([]any); len(dirty) != 1 || dirty[0] != StylePath {
		t.Fatalf("after relinking dirtyPaths %v, want [%s]", dirty, StylePath)
	}
	ok(t, call(t, s3.Registry, ToolOpenFile, map[string]any{"path": StylePath}))
	if doc := ok(t, call(t, s3.Registry, ToolGetDocument, nil)); doc["source"] != edited {
		t.Fatalf("after relinking style.css is %q, want the edit", doc["source"])
	}
	if b, _ := folder.ReadFile(context.Background(), StylePath); string(b) == edited {
		t.Fatal("the folder was written before Save")
	}
	ok(t, call(t, s3.Registry, ToolSaveFile, map[string]any{"path": StylePath}))
	if b, _ := folder.ReadFile(context.Background(), StylePath); string(b) != edited {
		t.Fatalf("after Save the folder holds %q", b)
	}

	// Another folder replaces the files (the page asks first).
	other := workspace.NewMemFolder("other", map[string]string{IndexPath: "<!doctype html><p>other</p>\n"})
	s4 := session(t, studio.Ports{Repository: repo, Folder: other}, approve)
	if ls := ok(t, call(t, s4.Registry, ToolListFiles, nil)); len(ls["files"].([]any)) != 1 {
		t.Fatalf("another folder did not replace the files: %v", ls["files"])
	}
}
