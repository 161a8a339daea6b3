package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/workspace"
)

// TestInitWritesTheSeed: init writes exactly the seed's files, read from the core through the
// tools, and refuses a folder that is not empty.
func TestInitWritesTheSeed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	code, _, stderr := runCLIReader(t, strings.NewReader(""), "init", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := map[string]string{}
	for _, f := range workspace.Seed().Files {
		want[f.Path] = f.Source
	}
	sameTree(t, tree(t, dir), want)

	before := tree(t, dir)
	if code, _, stderr := runCLIReader(t, strings.NewReader(""), "init", dir); code != 2 || !strings.Contains(stderr, "not empty") {
		t.Fatalf("init into a non-empty folder: exit %d %s", code, stderr)
	}
	sameTree(t, tree(t, dir), before)
	if code, _, _ := runCLIReader(t, strings.NewReader(""), "init"); code != 2 {
		t.Fatalf("init without DIR: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Fatal(err)
	}
}
