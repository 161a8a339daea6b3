package workspace_test

import (
	"context"
	"fmt"

	"github.com/webcoding/studio/wasm/workspace"
)

// A tool handler's view: hydrate, edit with a revision guard, ack the preview, save.
func ExampleManager() {
	ctx := context.Background()
	m := workspace.New(workspace.Options{Repository: &workspace.MemoryRepository{}})
	m.Hydrate(ctx)

	call := workspace.Call{Tool: "workspace.applyPatch", CallID: "call-1", ExpectedRevision: workspace.Rev(m.Revision())}
	r, err := m.ApplyPatch(ctx, call, "index.html", "Start building", "Try it", workspace.OccurrenceFirst)
	fmt.Println(r.Revision, r.Replacements, err == nil)

	m.SetPreviewStatus(r.Revision, workspace.PreviewSynced, "")
	st := m.Status(ctx)
	fmt.Println(st.Preview.Status, st.DirtyPaths, st.Filesystem.Mode)

	_, err = m.UpdateHero(ctx, workspace.Call{Tool: "preview.updateHero", ExpectedRevision: workspace.Rev(2)}, "Hi", nil)
	fmt.Println(err)
	// Output:
	// 3 1 true
	// synced [index.html] browser-only
	// [WORKSPACE_REVISION_CONFLICT] Workspace revision mismatch: expected 2, current 3. Re-read the workspace status and retry with the current revision.
}
