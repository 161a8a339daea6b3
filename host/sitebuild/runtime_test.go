package sitebuild

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestRuntimeMinIsFresh: the preview runtime the compiler embeds (wasm/preview/runtime.min.js)
// is exactly what genruntime makes of wasm/preview/runtime/*.js now (docs/design.md §5.29), so
// an edit to the sources cannot ship without its regeneration.
func TestRuntimeMinIsFresh(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := MinifiedRuntime(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, RuntimeMinFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale (%d bytes, the sources give %d): run `go generate ./wasm/preview`", RuntimeMinFile, len(got), len(want))
	}
}

// TestMinifiedRuntimeRefusesBadSource: a syntax error in a runtime source is an error naming
// the line, not a silently broken runtime.
func TestMinifiedRuntimeRefusesBadSource(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, RuntimeSources)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "00-a.js"), []byte("var a = 1;\nvar = ;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := MinifiedRuntime(root); err == nil || !bytes.Contains([]byte(err.Error()), []byte("line 3")) {
		t.Fatalf("err = %v, want a syntax error at line 3 (the wrapper adds one line)", err)
	}
}
