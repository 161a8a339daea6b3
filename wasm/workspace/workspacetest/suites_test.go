package workspacetest_test

import (
	"testing"

	"github.com/webcoding/studio/wasm/workspace"
	"github.com/webcoding/studio/wasm/workspace/workspacetest"
)

func TestMemoryRepository(t *testing.T) {
	workspacetest.RunRepository(t, func(*testing.T) workspace.Repository { return &workspace.MemoryRepository{} })
}

func TestMemFolder(t *testing.T) {
	workspacetest.RunFolder(t, workspacetest.FolderHarness{
		New: func(_ *testing.T, files map[string]string) workspace.FolderAdapter {
			return workspace.NewMemFolder("site", files)
		},
		MakeStale: func(_ *testing.T, f workspace.FolderAdapter) { f.(*workspace.MemFolder).Stale = true },
	})
}
