package folder

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/webcoding/studio/wasm/workspace"
	"github.com/webcoding/studio/wasm/workspace/workspacetest"
)

func TestDirFolderContract(t *testing.T) {
	workspacetest.RunFolder(t, workspacetest.FolderHarness{
		New: func(t *testing.T, files map[string]string) workspace.FolderAdapter {
			dir := t.TempDir()
			for p, s := range files {
				full := filepath.Join(dir, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.Close() })
			return d
		},
		MakeStale: func(t *testing.T, f workspace.FolderAdapter) {
			if err := os.RemoveAll(f.(*DirFolder).Dir()); err != nil {
				t.Fatal(err)
			}
		},
	})
}
