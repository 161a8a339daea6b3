package livesurface

import (
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
