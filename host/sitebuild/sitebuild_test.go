package sitebuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSite writes a minimal site with the templates and bundle inputs Build needs.
func fakeSite(t *testing.T) string {
	t.Helper()
	site := t.TempDir()
	files := map[string]string{
		"index.html":     `<base href="{{BASE}}"><meta name="b" content="{{BUILD}}"><script src="{{ASSET:js/main.js}}"></script><link href="{{ASSET:css/studio.css}}"><meta content="{{ASSET:studio.wasm}}">`,
		"sw.js":          `const B="{{BUILD}}";const A={{ASSETS}};`,
		"js/main.js":     `import {x} from "./dep.js"; console.log(x);`,
		"js/dep.js":      `export const x = 42;`,
		"css/studio.css": `body { color: red; }`,
		"icon.svg":       `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"package.json":   `{}`,
		".hidden":        `x`,
	}
	for p, c := range files {
		full := filepath.Join(site, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return site
}

func TestBuild(t *testing.T) {
	site := fakeSite(t)
	wasm := filepath.Join(t.TempDir(), "core.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm fake core"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rep, err := Build(Options{Base: "/x/y/", Out: out, Site: site, Wasm: wasm, SkipSurfaces: true, BrotliQuality: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Dir != filepath.Join(out, "x", "y") || len(rep.Build) != 12 {
		t.Fatalf("report %+v", rep)
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(rep.Dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	index := read("index.html")
	for _, want := range []string{`href="/x/y/"`, rep.Build, rep.Assets["js/main.js"], rep.Assets["css/studio.css"], rep.Assets["studio.wasm"]} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %q: %s", want, index)
		}
	}
	if strings.Contains(index, "{{") {
		t.Errorf("unfilled template: %s", index)
	}
	if js := read(rep.Assets["js/main.js"]); !strings.Contains(js, "42") || strings.Contains(js, "import") {
		t.Errorf("main.js not bundled: %s", js)
	}
	if !strings.HasPrefix(rep.Assets["js/main.js"], "assets/main.") || !strings.HasSuffix(rep.Assets["studio.wasm"], ".wasm") {
		t.Errorf("hashed names %v", rep.Assets)
	}
	sw := read("sw.js")
	if !strings.Contains(sw, `"./"`) || !strings.Contains(sw, rep.Assets["studio.wasm"]) || !strings.Contains(sw, rep.Build) {
		t.Errorf("sw.js %s", sw)
	}
	for _, p := range []string{"index.html.gz", "index.html.br", rep.Assets["studio.wasm"] + ".br", "icon.svg.gz"} {
		if _, err := os.Stat(filepath.Join(rep.Dir, filepath.FromSlash(p))); err != nil {
			t.Errorf("missing %s", p)
		}
	}
	for _, p := range []string{"package.json", ".hidden", "js/main.js", "css/studio.css"} {
		if _, err := os.Stat(filepath.Join(rep.Dir, filepath.FromSlash(p))); err == nil {
			t.Errorf("%s was shipped", p)
		}
	}
	if rep.WasmBytes != len("\x00asm fake core") || rep.WasmGzip == 0 || rep.WasmBrotli == 0 {
		t.Errorf("sizes %+v", rep)
	}
	// Same input, same names (content hashes are deterministic).
	rep2, err := Build(Options{Base: "/x/y/", Out: t.TempDir(), Site: site, Wasm: wasm, SkipSurfaces: true, BrotliQuality: 4})
	if err != nil || rep2.Build != rep.Build {
		t.Errorf("rebuild %v %s != %s", err, rep2.Build, rep.Build)
	}
}

func TestBuildErrors(t *testing.T) {
	site := fakeSite(t)
	wasm := filepath.Join(t.TempDir(), "core.wasm")
	os.WriteFile(wasm, []byte("x"), 0o644)
	for _, bad := range []string{"web-coding", "/a/../b/", "/a", "//"} {
		if _, err := Build(Options{Base: bad, Out: t.TempDir(), Site: site, Wasm: wasm, SkipSurfaces: true}); err == nil {
			t.Errorf("base %q accepted", bad)
		}
	}
	if _, err := Build(Options{Out: t.TempDir(), Site: filepath.Join(site, "nope"), Wasm: wasm, SkipSurfaces: true}); err == nil {
		t.Error("missing site accepted")
	}
	os.WriteFile(filepath.Join(site, "index.html"), []byte(`{{ASSET:nope.js}}`), 0o644)
	if _, err := Build(Options{Out: t.TempDir(), Site: site, Wasm: wasm, SkipSurfaces: true}); err == nil || !strings.Contains(err.Error(), "nope.js") {
		t.Errorf("unknown asset: %v", err)
	}
	os.WriteFile(filepath.Join(site, "js", "main.js"), []byte(`import "./missing.js";`), 0o644)
	if _, err := Build(Options{Out: t.TempDir(), Site: site, Wasm: wasm, SkipSurfaces: true}); err == nil || !strings.Contains(err.Error(), "esbuild") {
		t.Errorf("esbuild error: %v", err)
	}
}

// TestBuildSurfacePages: the surface pages are filled like index.html, name surface.wasm (not
// the studio's module), are precached by the service worker, and are left out (with their
// module) under SkipSurfaces; the studio's sizes in the report are studio.wasm's.
func TestBuildSurfacePages(t *testing.T) {
	site := fakeSite(t)
	page := `<base href="{{BASE}}"><meta name="webcoding-wasm" content="{{ASSET:surface.wasm}}"><script src="{{ASSET:js/surface.js}}"></script><link href="{{ASSET:css/surface.css}}">`
	for p, c := range map[string]string{"live/index.html": page, "realtime/index.html": page,
		"js/surface.js": `import {x} from "./dep.js"; console.log("surface", x);`, "css/surface.css": `main { color: blue; }`} {
		full := filepath.Join(site, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	wasm, surface := filepath.Join(dir, "core.wasm"), filepath.Join(dir, "surface.wasm")
	os.WriteFile(wasm, []byte("\x00asm fake studio core, a little longer than the other"), 0o644)
	os.WriteFile(surface, []byte("\x00asm fake surface core"), 0o644)
	rep, err := Build(Options{Base: "/x/", Out: t.TempDir(), Site: site, Wasm: wasm, SurfaceWasm: surface, BrotliQuality: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range SurfacePages {
		b, err := os.ReadFile(filepath.Join(rep.Dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(b); !strings.Contains(s, `href="/x/"`) || !strings.Contains(s, rep.Assets["surface.wasm"]) ||
			!strings.Contains(s, rep.Assets["js/surface.js"]) || strings.Contains(s, "{{") || strings.Contains(s, rep.Assets["studio.wasm"]) {
			t.Errorf("%s: %s", p, s)
		}
	}
	sw, _ := os.ReadFile(filepath.Join(rep.Dir, "sw.js"))
	for _, want := range []string{`"live/"`, `"realtime/"`, rep.Assets["surface.wasm"]} {
		if !strings.Contains(string(sw), want) {
			t.Errorf("sw.js does not precache %s: %s", want, sw)
		}
	}
	if rep.WasmBytes != 53 || rep.SurfaceWasmBytes != 22 || rep.WasmBrotli == 0 || rep.SurfaceWasmBrotli == 0 || rep.WasmBrotli == rep.SurfaceWasmBrotli {
		t.Errorf("sizes: studio %d/%d br, surface %d/%d br", rep.WasmBytes, rep.WasmBrotli, rep.SurfaceWasmBytes, rep.SurfaceWasmBrotli)
	}

	rep2, err := Build(Options{Base: "/x/", Out: t.TempDir(), Site: site, Wasm: wasm, SkipSurfaces: true, BrotliQuality: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(rep2.Dir, "live", "index.html")); err == nil || rep2.Assets["surface.wasm"] != "" {
		t.Errorf("SkipSurfaces still wrote the surface pages or module: %v", rep2.Assets)
	}
	sw2, _ := os.ReadFile(filepath.Join(rep2.Dir, "sw.js"))
	if strings.Contains(string(sw2), "live/") {
		t.Errorf("SkipSurfaces still precaches the surface pages: %s", sw2)
	}
}
