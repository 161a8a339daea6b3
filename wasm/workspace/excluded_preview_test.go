package workspace

import (
	"testing"

	"github.com/webcoding/studio/wasm/preview"
)

// TestExcludedPathAgreesWithPreview: the preview's ExcludedPath (which tells a reference the
// workspace can never satisfy from a missing one, docs/design.md §5.51) and the workspace's
// own rule (ExcludedPathReason, applied wherever a file is created) agree.
func TestExcludedPathAgreesWithPreview(t *testing.T) {
	for _, p := range []string{"a.js", ".env", ".git/config", "a/.b/c.css", "node_modules", "node_modules/x/i.js",
		"x/node_modules/y.js", "a..b/c.md", "node_modules_x/a.js", "b/x.node_modules", "é/.ß", "dir/.hidden/", "img/.x.png"} {
		if got, want := preview.ExcludedPath(p), ExcludedPathReason(p) != ""; got != want {
			t.Errorf("%q: preview.ExcludedPath %v, workspace.ExcludedPathReason %q", p, got, ExcludedPathReason(p))
		}
	}
}
