package sitebuild

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Build announces each step as it starts, in order, with the lines StepLine documents: a
// prebuilt core, no npm step when node_modules is installed (or not pinned at all).
func TestBuildProgressLines(t *testing.T) {
	site := fakeSite(t)
	wasm := filepath.Join(t.TempDir(), "core.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm fake core"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	o := Options{Base: "/x/", Out: t.TempDir(), Site: site, Wasm: wasm, SkipSurfaces: true, BrotliQuality: 4, Progress: func(l string) { got = append(got, l) }}
	rep, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"using the prebuilt browser core " + wasm,
		"bundling " + site + "/js/main.js and " + site + "/css/studio.css with esbuild",
		"writing " + rep.Dir + " (content-hashed assets, index.html, sw.js precache list)",
		"precompressing every page, script and the wasm core into .gz and .br (brotli quality 4; at 11 the ~13 MB core alone takes about 70 s of one CPU core, the slowest step when the Go cache is warm)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("progress lines:\n%q\nwant\n%q", got, want)
	}
}

// When npm ci runs, its step is announced before the bundling (and after the core), and the
// compiled-core line names the command and the first-run cost.
func TestBuildProgressAnnouncesNpm(t *testing.T) {
	site := fakeSite(t)
	writeFiles(t, site, map[string]string{"package-lock.json": `{"lockfileVersion":3}`})
	npm := filepath.Join(t.TempDir(), "npm")
	script := "#!/bin/sh\nmkdir -p node_modules && echo '{}' > node_modules/.package-lock.json\n"
	if err := os.WriteFile(npm, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	stubNpm(t, func() (string, error) { return npm, nil })
	wasm := filepath.Join(t.TempDir(), "core.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	o := Options{Out: t.TempDir(), Site: site, Wasm: wasm, SkipSurfaces: true, BrotliQuality: 1, Progress: func(l string) { got = append(got, l) }}
	if _, err := Build(o); err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || !strings.HasPrefix(got[1], "installing the pinned CodeMirror packages (npm ci in "+site+"/") || !strings.HasPrefix(got[2], "bundling ") {
		t.Fatalf("progress lines %q", got)
	}
	if _, err := os.Stat(filepath.Join(site, "node_modules", ".package-lock.json")); err != nil {
		t.Fatalf("the stub npm did not run: %v", err)
	}
	// The next build has node_modules: no npm line.
	got = nil
	if _, err := Build(o); err != nil || len(got) != 4 {
		t.Fatalf("second build: %v, lines %q", err, got)
	}
	if line := StepLine(StepCore, Options{}, "d"); !strings.Contains(line, "GOOS=js GOARCH=wasm go build ./wasm/cmd/browser") || !strings.Contains(line, "first run") {
		t.Errorf("core line %q", line)
	}
}
