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

// TestCoreLayout enforces STYLE §10: no forbidden dependency is reachable from a core
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

// layers orders the packages under wasm/ (paths relative to wasm/): a package may import
// only packages of a strictly lower layer, so no arrow runs from a lower layer to a higher
// one and the core (layers 0–5) never imports wasm/adapters or wasm/cmd. wasm/doc.go
// describes the same order; a new package must be given a layer here.
var layers = map[string]int{
	// 0: leaves: the JSON string encoder, the preview's scanners, the conformance vector kit.
	"jsonstring": 0, "preview/cssscan": 0, "preview/jsscan": 0, "conformance": 0,
	// 0 also: the line diff and the reflection-free HTML builder (no project imports).
	"filediff": 0, "ui/markup": 0,
	// 1: wire types and schema validation.
	"mcp": 1, "preview/pagerefs": 1, "jsonrpc": 1, "schema": 1,
	// 2: domain packages over the wire types.
	"audit": 2, "durable": 2, "workspace": 2, "preview": 2, "planner": 2, "provider": 2, "toolcatalog": 2,
	// 3: the registry, what it needs beside the domain (the zip/upload codec, the durable folder
	// save over workspace and durable), and the domain test kits.
	"registry": 3, "trace": 3, "transfer": 3, "foldersave": 3,
	"durable/memstore": 3, "durable/durabletest": 3, "workspace/workspacetest": 3,
	// 2 also: the tools/call result assertions the catalogs' tests share.
	"mcp/mcptest": 2,
	// 2 also: the schema package held to the reference validator (tests only import it).
	"schema/schematest": 2,
	// 4: loops and dispatch over the registry.
	"rpcsession": 4, "openrouter": 4,
	// 5: composition, and the UI's pure views (state → HTML; they show what the core computes).
	"studio": 5, "ui/views": 5, "chats": 5,
	// 5 also: the surface pages' pure views (issue 18).
	"ui/surfaceview": 5,
	// 6 also: the other surfaces, composed over studio (issue 18).
	"websurface":  6,
	"livesurface": 6,
	// 6–7: adapters (build-tagged edges); jsbridge is the glue the other js adapters use.
	"adapters/jsbridge": 6, "adapters/fetch": 7, "adapters/fsa": 7, "adapters/idb": 7, "adapters/iframe": 7,
	"adapters/hostcall": 7, "adapters/weblock": 7,
	// 8: entries.
	"cmd/browser": 8, "cmd/reactor": 8, "cmd/surface": 8,
}

const wasmPrefix = "github.com/webcoding/studio/wasm/"

// TestLayers enforces layers under the native, js and wasip1 builds: every package under
// wasm/ has a layer, and each of its (non-test) imports under wasm/ has a lower one. So core
// packages import neither wasm/adapters nor wasm/cmd, and adapters never import an entry.
func TestLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list three times")
	}
	for _, goos := range []string{"", "js", "wasip1"} {
		seen := 0
		for _, p := range list(t, goos) {
			rel, ok := strings.CutPrefix(p.ImportPath, wasmPrefix)
			if !ok {
				continue
			}
			seen++
			lp, ok := layers[rel]
			if !ok {
				t.Errorf("GOOS=%s: wasm/%s has no layer: add it to layers (layout_test.go) and wasm/doc.go", goos, rel)
				continue
			}
			for _, imp := range p.Imports {
				irel, ok := strings.CutPrefix(imp, wasmPrefix)
				if !ok {
					continue
				}
				li, known := layers[irel]
				switch {
				case !known:
					// reported when the imported package itself is listed
				case isCore(p.ImportPath) && !isCore(imp):
					t.Errorf("GOOS=%s: core package wasm/%s imports wasm/%s (core never imports wasm/adapters or wasm/cmd)", goos, rel, irel)
				case li >= lp:
					t.Errorf("GOOS=%s: wasm/%s (layer %d) imports wasm/%s (layer %d): a package may import only lower layers", goos, rel, lp, irel, li)
				}
			}
		}
		if seen < 10 {
			t.Fatalf("GOOS=%s: go list found only %d packages under wasm/", goos, seen)
		}
	}
}

// TestLayersNamePackages keeps layers honest: every entry names a directory that exists.
func TestLayersNamePackages(t *testing.T) {
	for rel := range layers {
		if st, err := os.Stat(rel); err != nil || !st.IsDir() {
			t.Errorf("layers names wasm/%s, which is not a directory", rel)
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

// TestPageModuleOmitsSurfaces: the page's entry (wasm/cmd/browser, GOOS=js) never depends on
// the realtime or the Live Code Editor surface; its size budget has no room for them (docs/design.md §5.15, §5.24).
func TestPageModuleOmitsSurfaces(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, p := range list(t, "js") {
		if p.ImportPath != wasmPrefix+"cmd/browser" {
			continue
		}
		for _, d := range p.Deps {
			if d == wasmPrefix+"websurface" || d == wasmPrefix+"livesurface" {
				t.Fatalf("wasm/cmd/browser depends on %s", d)
			}
		}
		return
	}
	t.Fatal("go list did not list wasm/cmd/browser")
}
