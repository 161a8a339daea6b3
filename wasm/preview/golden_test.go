package preview

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenCase is one directory testdata/<name>/: the input workspace in files/, the expected
// document in want.html and the expected diagnostics in want.diagnostics.json.
type goldenCase struct {
	name string
	// input names another case whose files/ are used (default: this case's own).
	input string
	// export compiles with Export instead of Compile.
	export bool
	// blobAssets uses a fake host asset-URL strategy ("blob:asset/<path>") instead of data: URLs.
	blobAssets bool
}

var goldenCases = []goldenCase{
	{name: "seed"},
	{name: "seed-export", input: "seed", export: true},
	{name: "css-imports"},
	{name: "css-cycle"},
	{name: "css-import-limit"},
	{name: "module-cycle"},
	{name: "module-dynamic"},
	{name: "module-limit"},
	{name: "module-specifiers"},
	{name: "masked-imports"},
	{name: "url-encoded"},
	{name: "no-entry"},
	{name: "first-html"},
	{name: "script-escape"},
	{name: "diagnostics-order"},
	{name: "assets", blobAssets: true},
	{name: "no-head"},
	{name: "no-head-no-body"},
	{name: "script-before-body"},
	{name: "svg-style"},
	{name: "script-location"},
}

const (
	goldenRevision = 7
	goldenNonce    = "golden-nonce"
)

var assetMime = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".svg": "image/svg+xml", ".webp": "image/webp", ".ico": "image/x-icon", ".mp4": "video/mp4",
	".mp3": "audio/mpeg", ".vtt": "text/vtt", ".pdf": "application/pdf", ".woff2": "font/woff2",
}

var textLanguage = map[string]string{
	".html": "html", ".htm": "html", ".css": "css", ".js": "javascript", ".mjs": "javascript",
	".json": "json", ".md": "markdown", ".ts": "typescript",
}

// loadWorkspace reads dir into Files sorted by workspace path; the extension decides kind,
// language and media type.
func loadWorkspace(t testing.TB, dir string) []File {
	t.Helper()
	var files []File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		ext := strings.ToLower(path.Ext(rel))
		if mime, ok := assetMime[ext]; ok {
			files = append(files, File{Path: rel, Kind: KindAsset, Language: "text", MimeType: mime, Data: data})
			return nil
		}
		lang := textLanguage[ext]
		if lang == "" {
			lang = "text"
		}
		files = append(files, File{Path: rel, Kind: KindText, Language: lang, MimeType: "text/plain", Source: string(data)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files
}

// runtimeMarker replaces the runtime's source in golden documents (see TestGolden).
const runtimeMarker = "/* runtime: wasm/preview/runtime.min.js (from runtime/*.js) */\n"

func fakeBlobURL(f File) (string, bool) { return "blob:asset/" + f.Path, true }

func TestGolden(t *testing.T) {
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			input := gc.input
			if input == "" {
				input = gc.name
			}
			files := loadWorkspace(t, filepath.Join("testdata", input, "files"))
			if len(files) == 0 {
				t.Fatalf("no input files in testdata/%s/files", input)
			}
			var html string
			var diags []Diagnostic
			if gc.export {
				out, err := Export(files)
				if err != nil {
					t.Fatal(err)
				}
				html, diags = out, Diagnose(files)
			} else {
				opts := Options{Revision: goldenRevision, Nonce: goldenNonce, Bridge: true}
				if gc.blobAssets {
					opts.AssetURL = fakeBlobURL
				}
				r := Compile(files, opts)
				html, diags = r.HTML, r.Diagnostics
				if d := Diagnose(files); !equalDiags(d, diags) {
					t.Errorf("Diagnose differs from Compile diagnostics:\n%v\n%v", d, diags)
				}
				again := Compile(files, opts)
				if again.HTML != html {
					t.Errorf("Compile is not deterministic")
				}
			}
			diagJSON, err := json.MarshalIndent(diags, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			diagJSON = append(diagJSON, '\n')
			if !gc.export {
				// The runtime's code (runtime.min.js, the same in every document) stands once in
				// each compiled document, before its config; the golden files hold a marker in
				// its place, so they pin what the compiler does, not the runtime's text.
				if n := strings.Count(html, runtimeHead); n != 1 {
					t.Fatalf("the runtime's code appears %d times in the document, want 1", n)
				}
				html = strings.Replace(html, runtimeHead, runtimeMarker, 1)
			}
			checkGolden(t, filepath.Join("testdata", gc.name, "want.html"), []byte(html))
			checkGolden(t, filepath.Join("testdata", gc.name, "want.diagnostics.json"), diagJSON)
		})
	}
}

func equalDiags(a, b []Diagnostic) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func checkGolden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the output; inspect the diff after go test -update\n--- got ---\n%s", file, got)
	}
}

// TestGoldenOrphans fails on a testdata directory that no golden case uses (a renamed or
// deleted case leaves one behind), and on a case whose directory lacks its golden files.
func TestGoldenOrphans(t *testing.T) {
	known := map[string]bool{"fuzz": true}
	for _, gc := range goldenCases {
		known[gc.name] = true
		for _, f := range []string{"want.html", "want.diagnostics.json"} {
			if _, err := os.Stat(filepath.Join("testdata", gc.name, f)); err != nil && !*update {
				t.Errorf("case %s: %v", gc.name, err)
			}
		}
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !known[e.Name()] {
			t.Errorf("orphaned golden directory testdata/%s: no case in goldenCases uses it", e.Name())
		}
	}
}
