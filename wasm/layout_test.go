package wasm

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// forbiddenDeps may not be reachable from a core package in any build.
var forbiddenDeps = []string{
	"github.com/hack-pad/", "github.com/tetratelabs/wazero", "github.com/redis/",
	"github.com/jackc/", "github.com/chromedp/", "github.com/evanw/esbuild", "net/http", "os/exec",
	"github.com/modelcontextprotocol/", "github.com/mark3labs/", "github.com/webcoding/studio/host/",
}

// forbiddenImports may not be imported directly by a core package (they are reachable through
// libraries, but the core itself must go through ports).
var forbiddenImports = []string{"os", "net", "io/fs", "path/filepath"}

type pkg struct {
	Standard   bool
	ImportPath string
	Imports    []string
	Deps       []string
	GoFiles    []string
	Dir        string
}

func list(t *testing.T, goos string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Env = append(os.Environ(), "GOARCH=wasm", "GOOS="+goos)
	if goos == "" {
		cmd.Env = os.Environ()
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list (GOOS=%s): %v", goos, err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func isCore(path string) bool {
	if !strings.HasPrefix(path, "github.com/webcoding/studio/wasm") {
		return false
	}
	rel := strings.TrimPrefix(path, "github.com/webcoding/studio/wasm")
	return !strings.HasPrefix(rel, "/adapters") && !strings.HasPrefix(rel, "/cmd")
}

// isKit reports test kits (conformance, *test): they may use the file system for -update.
func isKit(path string) bool {
	return strings.HasSuffix(path, "/conformance") || strings.HasSuffix(path, "test")
}

// TestCoreLayout enforces STYLE.md §10: no forbidden dependency is reachable from a core
// package under the native, js and wasip1 builds, and no core package imports os, net or the
// file-system packages directly.
func TestCoreLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list three times")
	}
	for _, goos := range []string{"", "js", "wasip1"} {
		pkgs := list(t, goos)
		byPath := map[string]pkg{}
		for _, p := range pkgs {
			byPath[p.ImportPath] = p
		}
		cores := 0
		for _, p := range pkgs {
			if !isCore(p.ImportPath) {
				continue
			}
			cores++
			for _, d := range append([]string{p.ImportPath}, p.Deps...) {
				for _, f := range forbiddenDeps {
					if d == f || strings.HasPrefix(d, f) {
						t.Errorf("GOOS=%s: core package %s reaches %s", goos, p.ImportPath, d)
					}
				}
				// The standard library reaches syscall/js on GOOS=js; no other package may.
				if dp, ok := byPath[d]; ok && !dp.Standard {
					for _, imp := range dp.Imports {
						if imp == "syscall/js" {
							t.Errorf("GOOS=%s: core package %s reaches syscall/js through %s", goos, p.ImportPath, d)
						}
					}
				}
			}
			if isKit(p.ImportPath) {
				continue
			}
			for _, imp := range p.Imports {
				for _, f := range forbiddenImports {
					if imp == f {
						t.Errorf("GOOS=%s: core package %s imports %s directly", goos, p.ImportPath, imp)
					}
				}
			}
		}
		if cores < 5 {
			t.Fatalf("GOOS=%s: go list found only %d core packages", goos, cores)
		}
	}
}

// TestAdapterTags checks that every file of a js or wasip1 adapter states its constraint.
func TestAdapterTags(t *testing.T) {
	for dir, tag := range map[string]string{"adapters/hostcall": "//go:build wasip1", "cmd/reactor": "//go:build wasip1"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			b, err := os.ReadFile(dir + "/" + e.Name())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(tag)) {
				t.Errorf("%s/%s lacks %q", dir, e.Name(), tag)
			}
		}
	}
}
