// Package sitebuild writes the static studio into OUT/<base without slashes>/ (SPEC §1, §3:
// `webcoding build --base /web-coding/ --out dist`).
//
// # Steps
//
//  1. Compile the browser core: GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w"
//     -gcflags=all=-l -gcflags=runtime= ./wasm/cmd/browser (inlining off but in the runtime:
//     pageGCFlags) (skipped when Options.Wasm names a prebuilt module), and the same for
//     ./wasm/cmd/surface, the module of the Live Code Editor and realtime pages (surface.wasm;
//     Options.SurfaceWasm prebuilt, left out with Options.SkipSurfaces).
//  2. Copy wasm_exec.js from the Go toolchain ($GOROOT/lib/wasm, or misc/wasm before Go 1.24).
//  3. Bundle site/js/main.js (the shim: preview bridge, CodeMirror 6 editor glue, boot),
//     site/js/preview-idb.js (fake-indexeddb for the preview frame, as an IIFE whose text the
//     shim fetches), site/js/preview-axe.js (axe-core for preview.audit, likewise, fetched only
//     when an audit is asked) and site/css/studio.css with esbuild's Go API (minified, ES2020, one file
//     each). The
//     CodeMirror packages come from site/node_modules, pinned by site/package-lock.json;
//     when site/node_modules is missing, Build runs `npm ci` in site/ first (EnsureNodeModules).
//  4. Give those assets content-hashed names under assets/ ("main.3f2a1c9d.js"; the hash
//     is the first 8 bytes of the SHA-256 of the bytes, hex).
//  5. Fill the templates: index.html and the surface pages live/index.html and
//     realtime/index.html ({{BASE}}, {{BUILD}}, {{ASSET:<logical path>}}) and
//     sw.js ({{BUILD}}, {{ASSETS}} = the JSON list the service worker precaches: "./", the
//     surface pages "live/" and "realtime/", and every hashed asset). Other files under site/ are copied as they are (package.json,
//     package-lock.json, node_modules and dot-files are skipped).
//  6. Precompress every .html, .js, .css, .wasm, .json, .svg and .webmanifest file into
//     .gz (compress/gzip, best) and .br (andybalholm/brotli, quality Options.BrotliQuality).
//
// Build requires the go command on PATH (step 1–2), npm on PATH only when site/node_modules
// is missing (step 3), and runs from the module root unless Options.Module says otherwise.
//
// # Progress
//
// A first build on a fresh machine takes minutes (step 1 compiles the Go standard library and
// every module for GOOS=js, step 3 may run npm ci, step 6 compresses the ~13 MB core with
// brotli at quality 11, about 70 s of one CPU core measured on 2026-12-02). Options.Progress receives one line as each step starts, saying what
// it does and what makes it slow the first time; `webcoding build` prints those lines to
// stderr so that `make run` is never silent.
//
// Owns: the static site build: the browser core, the bundled shim and stylesheet, hashed asset
// names, the filled templates and the precompressed copies.
//
// Must never: make the built page load anything from another origin (scripts/verify-build
// checks a built site), or serve it (host/devserver does).
package sitebuild

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/andybalholm/brotli"
	"github.com/evanw/esbuild/pkg/api"
)

// Options configure Build.
type Options struct {
	// Base is the URL path the site is served under; it must start and end with "/"
	// (default "/web-coding/").
	Base string
	// Out is the output root (default "dist"); files land in Out/<Base without slashes>/.
	Out string
	// Site is the site source directory (default "site").
	Site string
	// Module is the Go module root the core is compiled from (default ".").
	Module string
	// Wasm, when set, is a prebuilt GOOS=js module used instead of compiling one.
	Wasm string
	// SkipSurfaces leaves out the pages of the other two surfaces (SurfacePages: the Live Code
	// Editor and realtime web coding, issue 18) and their module, surface.wasm (built from
	// ./wasm/cmd/surface). Tests that serve only the studio set it to save a compile.
	SkipSurfaces bool
	// SurfaceWasm, when set, is a prebuilt surface.wasm used instead of compiling one.
	SurfaceWasm string
	// Tags are extra build tags for the core (e.g. "conformance" for the browser conformance
	// host in tests; shipped builds use none).
	Tags string
	// BrotliQuality is the brotli quality 0..11 (default 11).
	BrotliQuality int
	// Progress, when set, is called once as each step starts, with a one-line description
	// without a trailing newline (see StepLines for the exact lines). Build calls it from
	// its own goroutine, never concurrently.
	Progress func(line string)
}

// Step names one announced build step.
type Step int

// The build steps Options.Progress announces, in order. StepNpm is announced only when npm ci
// actually runs (site/node_modules missing); StepCore says "prebuilt" when Options.Wasm is set.
const (
	StepCore Step = iota
	StepSurface
	StepNpm
	StepBundle
	StepWrite
	StepCompress
)

// StepLine is the progress line for step s of a build with options o (defaults applied), dst
// being the output directory. Lines name the command run and what is slow on a first run.
func StepLine(s Step, o Options, dst string) string {
	switch s {
	case StepCore:
		if o.Wasm != "" {
			return "using the prebuilt browser core " + o.Wasm
		}
		return "compiling the browser core (GOOS=js GOARCH=wasm go build ./wasm/cmd/browser): minutes on a first run, which compiles the Go standard library and every module for wasm; seconds once the Go build cache has them"
	case StepSurface:
		return "compiling the surfaces' core (GOOS=js GOARCH=wasm go build ./" + SurfaceCommand + ": the Live Code Editor and realtime pages; seconds, it shares the Go build cache with the studio's)"
	case StepNpm:
		return "installing the pinned CodeMirror packages (npm ci in " + o.Site + "/; first build only, needs npm and the npm registry)"
	case StepBundle:
		return "bundling " + o.Site + "/js/main.js and " + o.Site + "/css/studio.css with esbuild"
	case StepWrite:
		return "writing " + dst + " (content-hashed assets, index.html, sw.js precache list)"
	case StepCompress:
		return fmt.Sprintf("precompressing every page, script and the wasm core into .gz and .br (brotli quality %d; at 11 the ~13 MB core alone takes about 70 s of one CPU core, the slowest step when the Go cache is warm)", o.BrotliQuality)
	}
	return ""
}

// Report describes a finished build.
type Report struct {
	// Dir is the directory written (Out/<base>).
	Dir string `json:"dir"`
	// Build is the build id: the first 12 hex digits of the SHA-256 over the hashed names.
	Build string `json:"build"`
	// Assets maps logical paths ("studio.wasm", "js/main.js") to the hashed paths relative to
	// Dir ("assets/studio.1a2b3c4d.wasm").
	Assets map[string]string `json:"assets"`
	// The studio module's sizes in bytes (studio.wasm): raw, gzip and brotli.
	WasmBytes  int `json:"wasmBytes"`
	WasmGzip   int `json:"wasmGzip"`
	WasmBrotli int `json:"wasmBrotli"`
	// The surface pages' module's sizes in bytes (surface.wasm; 0 with Options.SkipSurfaces).
	SurfaceWasmBytes  int `json:"surfaceWasmBytes,omitempty"`
	SurfaceWasmGzip   int `json:"surfaceWasmGzip,omitempty"`
	SurfaceWasmBrotli int `json:"surfaceWasmBrotli,omitempty"`
}

// compressible lists the extensions that get .gz and .br siblings.
var compressible = map[string]bool{".html": true, ".js": true, ".css": true, ".wasm": true, ".json": true, ".svg": true, ".webmanifest": true}

// Build writes the site and reports what it wrote.
//
// Errors: a base that is not "/…/" (or contains ".."), a missing site directory or template
// file, a failed go build, an esbuild error (with its messages), or a write failure.
func Build(o Options) (Report, error) {
	if o.Base == "" {
		o.Base = "/web-coding/"
	}
	if o.Out == "" {
		o.Out = "dist"
	}
	if o.Site == "" {
		o.Site = "site"
	}
	if o.Module == "" {
		o.Module = "."
	}
	if o.BrotliQuality == 0 {
		o.BrotliQuality = 11
	}
	var rep Report
	if !strings.HasPrefix(o.Base, "/") || !strings.HasSuffix(o.Base, "/") || strings.Contains(o.Base, "..") || strings.Contains(o.Base, "//") {
		return rep, fmt.Errorf("sitebuild: base %q must start and end with \"/\"", o.Base)
	}
	if st, err := os.Stat(o.Site); err != nil || !st.IsDir() {
		return rep, fmt.Errorf("sitebuild: site directory %q not found (run from the repository root)", o.Site)
	}
	dst := filepath.Join(o.Out, filepath.FromSlash(strings.Trim(o.Base, "/")))
	if err := os.RemoveAll(dst); err != nil {
		return rep, fmt.Errorf("sitebuild: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dst, "assets"), 0o755); err != nil {
		return rep, fmt.Errorf("sitebuild: %w", err)
	}
	rep.Dir = dst
	announce := func(s Step) {
		if o.Progress != nil {
			o.Progress(StepLine(s, o, dst))
		}
	}

	// 1–3: the four build assets.
	announce(StepCore)
	wasm, err := coreWasm(o)
	if err != nil {
		return rep, err
	}
	var surfaceWasm []byte
	if !o.SkipSurfaces {
		announce(StepSurface)
		if o.SurfaceWasm != "" {
			if surfaceWasm, err = os.ReadFile(o.SurfaceWasm); err != nil {
				return rep, fmt.Errorf("sitebuild: prebuilt surface wasm: %w", err)
			}
		} else if surfaceWasm, err = compileWasm(o, SurfaceCommand, "surface.wasm"); err != nil {
			return rep, err
		}
	}
	execJS, err := wasmExecJS()
	if err != nil {
		return rep, err
	}
	if needsNodeModules(o.Site) {
		announce(StepNpm)
	}
	if err := EnsureNodeModules(o.Site); err != nil {
		return rep, err
	}
	announce(StepBundle)
	mainJS, err := bundle(o.Site, "js/main.js")
	if err != nil {
		return rep, err
	}
	css, err := bundle(o.Site, "css/studio.css")
	if err != nil {
		return rep, err
	}
	raw := map[string][]byte{"studio.wasm": wasm, "wasm_exec.js": execJS, "js/main.js": mainJS, "css/studio.css": css}
	if surfaceWasm != nil {
		raw["surface.wasm"] = surfaceWasm
		for _, entry := range []string{"js/surface.js", "css/surface.css"} {
			b, err := bundle(o.Site, entry)
			if err != nil {
				return rep, err
			}
			raw[entry] = b
		}
	}
	for _, frameJS := range framePrograms {
		if _, err := os.Stat(filepath.Join(o.Site, filepath.FromSlash(frameJS))); err == nil {
			b, err := bundle(o.Site, frameJS)
			if err != nil {
				return rep, err
			}
			raw[frameJS] = b
		}
	}

	// 4: hashed names.
	announce(StepWrite)
	rep.Assets = map[string]string{}
	logical := make([]string, 0, len(raw))
	for name := range raw {
		logical = append(logical, name)
	}
	sort.Strings(logical)
	idHash := sha256.New()
	for _, name := range logical {
		h := hashedName(name, raw[name])
		rep.Assets[name] = h
		idHash.Write([]byte(h + "\n"))
		if err := os.WriteFile(filepath.Join(dst, filepath.FromSlash(h)), raw[name], 0o644); err != nil {
			return rep, fmt.Errorf("sitebuild: %w", err)
		}
	}
	rep.Build = hex.EncodeToString(idHash.Sum(nil))[:12]

	// 5: templates and plain files.
	if err := copySite(o, dst, rep); err != nil {
		return rep, err
	}

	// 6: precompression.
	announce(StepCompress)
	if err := precompress(dst, o.BrotliQuality, &rep); err != nil {
		return rep, err
	}
	rep.WasmBytes = len(wasm)
	rep.SurfaceWasmBytes = len(surfaceWasm)
	return rep, nil
}

// hashedName is assets/<base>.<hash8>.<ext> for a logical path.
func hashedName(logical string, b []byte) string {
	sum := sha256.Sum256(b)
	base := path.Base(logical)
	ext := path.Ext(base)
	return "assets/" + strings.TrimSuffix(base, ext) + "." + hex.EncodeToString(sum[:4]) + ext
}

// pageGCFlags switch the compiler's inlining off for every package but the runtime in the
// page module (issue 15: ≤ 2,000,000 B brotli). In Go's wasm output every inlined body is a
// fresh copy that compresses poorly: without inlining the module is about 11 % smaller under
// brotli at almost the same raw size, and an A/B of the same tree in one browser measured no
// slower cold start or edit → ack (docs/performance.md, "Size of the page module"; the
// decision: docs/design.md §5.15). Later -gcflags patterns win for the packages they match,
// so "runtime=" keeps the runtime's own inlining (allocation and scheduling fast paths). Only
// the page module uses these flags; the wasip1 module (host/wasmhost) and test binaries are
// built with the defaults.
var pageGCFlags = []string{"-gcflags=all=-l", "-gcflags=runtime="}

// PageGCFlags returns a copy of the go build flags the site build compiles the page modules
// with (pageGCFlags), for benchmarks that build a variant of a page module the same way.
func PageGCFlags() []string { return append([]string(nil), pageGCFlags...) }

// coreWasm compiles ./wasm/cmd/browser (the studio's module) for GOOS=js with pageGCFlags,
// or reads Options.Wasm.
func coreWasm(o Options) ([]byte, error) {
	if o.Wasm != "" {
		b, err := os.ReadFile(o.Wasm)
		if err != nil {
			return nil, fmt.Errorf("sitebuild: prebuilt wasm: %w", err)
		}
		return b, nil
	}
	return compileWasm(o, "wasm/cmd/browser", "studio.wasm")
}

// SurfaceCommand is the Go package of the surface pages' module (surface.wasm): the Live Code
// Editor and realtime web coding, kept out of the studio's module (docs/design.md §5.35).
const SurfaceCommand = "wasm/cmd/surface"

// SurfacePages are the site's pages of the other surfaces (issue 18), templates filled like
// index.html; each names surface.wasm. They are left out with Options.SkipSurfaces.
var SurfacePages = []string{"live/index.html", "realtime/index.html"}

// compileWasm builds ./pkg for GOOS=js with pageGCFlags and Options.Tags and returns the module.
func compileWasm(o Options, pkg, name string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "webcoding-build-")
	if err != nil {
		return nil, fmt.Errorf("sitebuild: %w", err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, name)
	args := append([]string{"build", "-trimpath", "-ldflags=-s -w"}, pageGCFlags...)
	args = append(args, "-o", out)
	if o.Tags != "" {
		args = append(args, "-tags", o.Tags)
	}
	cmd := exec.Command("go", append(args, "./"+pkg)...)
	cmd.Dir = o.Module
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("sitebuild: GOOS=js GOARCH=wasm go build ./%s: %v\n%s", pkg, err, b)
	}
	return os.ReadFile(out)
}

// wasmExecJS reads the toolchain's wasm_exec.js.
func wasmExecJS() ([]byte, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("sitebuild: go env GOROOT: %w", err)
	}
	root := strings.TrimSpace(string(out))
	for _, p := range []string{filepath.Join(root, "lib", "wasm", "wasm_exec.js"), filepath.Join(root, "misc", "wasm", "wasm_exec.js")} {
		if b, err := os.ReadFile(p); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("sitebuild: wasm_exec.js not found under %s/lib/wasm or %s/misc/wasm", root, root)
}

// npmPath finds npm; a variable so tests can simulate a machine without it.
var npmPath = func() (string, error) { return exec.LookPath("npm") }

// EnsureNodeModules installs the shim's npm dependencies when site has a package-lock.json and
// no node_modules/.package-lock.json (npm's record of a finished install): it runs
// `npm ci --ignore-scripts --no-audit --no-fund` in site, which installs exactly what
// package-lock.json pins. Errors: npm not on PATH (with what to install), or npm ci failing
// (with its output).
func EnsureNodeModules(site string) error {
	if !needsNodeModules(site) {
		return nil
	}
	// npm ci deletes node_modules before it installs: two builds running it at once (parallel
	// tests, two packages' test binaries) would pull the packages from under each other's
	// bundler. One install at a time, across processes: an exclusive lock on the lock file,
	// then look again — the build that held the lock may have installed everything already.
	unlock, err := lockFile(filepath.Join(site, "package-lock.json"))
	if err != nil {
		return fmt.Errorf("sitebuild: %w", err)
	}
	defer unlock()
	if !needsNodeModules(site) {
		return nil
	}
	npm, err := npmPath()
	if err != nil {
		return fmt.Errorf("sitebuild: %s/node_modules is missing or out of date and npm is not on PATH: install Node.js 18+ with npm (e.g. apt-get install -y nodejs npm), or run `npm ci` in %s on a machine that has it", site, site)
	}
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = site
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("sitebuild: npm ci in %s: %v\n%s", site, err, b)
	}
	return nil
}

// needsNodeModules reports whether site pins npm packages (package-lock.json) that are not
// installed as pinned: no node_modules/.package-lock.json (npm's record of what it installed),
// or a package of the lock file missing from that record or at another version (the lock file
// changed since the last npm ci, e.g. after a pull that added a dependency).
func needsNodeModules(site string) bool {
	want, err := lockedPackages(filepath.Join(site, "package-lock.json"))
	if err != nil {
		return false // no lock file: nothing pinned
	}
	have, err := lockedPackages(filepath.Join(site, "node_modules", ".package-lock.json"))
	if err != nil {
		return true
	}
	for name, v := range want {
		if have[name] != v {
			return true
		}
		// npm's record can outlive the files (an install interrupted, a folder removed by hand).
		if _, err := os.Stat(filepath.Join(site, filepath.FromSlash(name), "package.json")); err != nil {
			return true
		}
	}
	return false
}

// lockedPackages reads an npm lock file (lockfileVersion 2 or 3) and returns its installed
// packages ("node_modules/…" keys of "packages") with their versions.
func lockedPackages(file string) (map[string]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return nil, fmt.Errorf("sitebuild: %s: %w", file, err)
	}
	out := map[string]string{}
	for k, p := range lock.Packages {
		if strings.HasPrefix(k, "node_modules/") {
			out[k] = p.Version
		}
	}
	return out, nil
}

// bundle runs esbuild on one entry under site and returns the single output file.
func bundle(site, entry string) ([]byte, error) {
	abs, err := filepath.Abs(site)
	if err != nil {
		return nil, fmt.Errorf("sitebuild: %w", err)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(abs, filepath.FromSlash(entry))},
		AbsWorkingDir:     abs,
		Bundle:            true,
		Write:             false,
		Outdir:            filepath.Join(abs, "out"),
		Format:            formatFor(entry),
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		var msgs []string
		for _, m := range res.Errors {
			loc := ""
			if m.Location != nil {
				loc = fmt.Sprintf("%s:%d: ", m.Location.File, m.Location.Line)
			}
			msgs = append(msgs, loc+m.Text)
		}
		return nil, fmt.Errorf("sitebuild: esbuild %s: %s", entry, strings.Join(msgs, "; "))
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, path.Ext(entry)) {
			return f.Contents, nil
		}
	}
	return nil, fmt.Errorf("sitebuild: esbuild %s: no output", entry)
}

// framePrograms are the classic scripts whose text the shim fetches and the preview runtime
// evaluates in the frame: fake-indexeddb (when the page uses indexedDB) and axe-core (when an
// audit is asked, preview.audit).
var framePrograms = []string{"js/preview-idb.js", "js/preview-axe.js"}

func formatFor(entry string) api.Format {
	for _, f := range framePrograms {
		if entry == f { // a classic script: its text is evaluated in the preview frame
			return api.FormatIIFE
		}
	}
	if strings.HasSuffix(entry, ".js") {
		return api.FormatESModule
	}
	return api.FormatDefault
}

// copySite writes index.html and sw.js from their templates and copies every other file
// that is not a bundle input.
func copySite(o Options, dst string, rep Report) error {
	assets := []string{"./"}
	if !o.SkipSurfaces {
		for _, page := range SurfacePages {
			assets = append(assets, strings.TrimSuffix(page, "index.html"))
		}
	}
	for _, name := range sortedKeys(rep.Assets) {
		assets = append(assets, rep.Assets[name])
	}
	list, _ := json.Marshal(assets)
	src := os.DirFS(o.Site)
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, ".") || name == "node_modules") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || name == "package.json" || name == "package-lock.json" {
			return nil
		}
		// Bundle inputs are not shipped as they are.
		if strings.HasPrefix(p, "js/") || strings.HasPrefix(p, "css/") {
			return nil
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		surfacePage := false
		for _, page := range SurfacePages {
			surfacePage = surfacePage || p == page
		}
		if surfacePage && o.SkipSurfaces {
			return nil
		}
		switch {
		case p == "index.html" || surfacePage:
			b, err = fillIndex(b, o.Base, rep)
			if err != nil {
				return err
			}
		case p == "sw.js":
			b = bytes.ReplaceAll(b, []byte("{{BUILD}}"), []byte(rep.Build))
			b = bytes.ReplaceAll(b, []byte("{{ASSETS}}"), list)
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		return fmt.Errorf("sitebuild: %w", err)
	}
	return nil
}

// fillIndex replaces {{BASE}}, {{BUILD}} and {{ASSET:name}}; an unknown asset name is an
// error.
func fillIndex(b []byte, base string, rep Report) ([]byte, error) {
	s := strings.ReplaceAll(string(b), "{{BASE}}", base)
	s = strings.ReplaceAll(s, "{{BUILD}}", rep.Build)
	var out strings.Builder
	for {
		i := strings.Index(s, "{{ASSET:")
		if i < 0 {
			out.WriteString(s)
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return nil, errors.New("sitebuild: index.html: unterminated {{ASSET:")
		}
		name := s[i+len("{{ASSET:") : i+j]
		h, ok := rep.Assets[name]
		if !ok {
			return nil, fmt.Errorf("sitebuild: index.html names unknown asset %q", name)
		}
		out.WriteString(s[:i])
		out.WriteString(h)
		s = s[i+j+2:]
	}
	return []byte(out.String()), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// precompress writes .gz and .br siblings and records the wasm's compressed sizes.
func precompress(dir string, quality int, rep *Report) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[filepath.Ext(p)] {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(b)
		if err := zw.Close(); err != nil {
			return err
		}
		var br bytes.Buffer
		bw := brotli.NewWriterLevel(&br, quality)
		bw.Write(b)
		if err := bw.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(p+".gz", gz.Bytes(), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(p+".br", br.Bytes(), 0o644); err != nil {
			return err
		}
		switch filepath.ToSlash(p) {
		case filepath.ToSlash(filepath.Join(dir, rep.Assets["studio.wasm"])):
			rep.WasmGzip, rep.WasmBrotli = gz.Len(), br.Len()
		case filepath.ToSlash(filepath.Join(dir, rep.Assets["surface.wasm"])):
			rep.SurfaceWasmGzip, rep.SurfaceWasmBrotli = gz.Len(), br.Len()
		}
		return nil
	})
}

// lockFile takes an exclusive advisory lock (flock) on file, waiting for it, and returns the
// function that releases it.
func lockFile(file string) (func(), error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", file, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
