package websurface

import (
	"context"
	"testing"

	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// TestWorkspacePersistsInRepository: with a Repository (the page's IndexedDB database) a write
// survives a session rebuild (a reload) and the revision never goes back.
func TestWorkspacePersistsInRepository(t *testing.T) {
	Install()
	p := studio.Ports{Repository: &workspace.MemoryRepository{}}
	build := func() *rpcsession.Session {
		s, err := studio.Builder(p)(context.Background(), rpcsession.Config{Catalog: Catalog})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	r := build().Registry
	rev := revision(t, r)
	ok(t, call(t, r, ToolWriteFile, map[string]any{"path": "notes.txt", "source": "kept\n", "expectedRevision": rev}))
	after := revision(t, r)
	if after != rev+1 {
		t.Fatalf("revision after the write %d, want %d", after, rev+1)
	}
	r2 := build().Registry
	if got := source(t, r2, "notes.txt"); got != "kept\n" {
		t.Fatalf("after a rebuild notes.txt is %q", got)
	}
	if rev2 := revision(t, r2); rev2 < after {
		t.Fatalf("after a rebuild the revision is %d, below %d", rev2, after)
	}
}
