package buildcheck

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/webcoding/studio/host/sitebuild"
	"github.com/webcoding/studio/scripts/verify-build/verify"
)

const base = "/web-coding/"

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

var (
	buildOnce sync.Once
	buildDir  string
	buildRep  sitebuild.Report
	buildErr  error
)

// built builds the site once per test binary and returns the site directory (OUT/web-coding).
func built(t *testing.T) (string, sitebuild.Report) {
	t.Helper()
	buildOnce.Do(func() {
		out, err := os.MkdirTemp("", "webcoding-buildcheck-")
		if err != nil {
			buildErr = err
			return
		}
		root := repoRoot()
		buildRep, buildErr = sitebuild.Build(sitebuild.Options{Base: base, Out: out,
			Site: filepath.Join(root, "site"), Module: root, BrotliQuality: 5})
		buildDir = buildRep.Dir
	})
	if buildErr != nil {
		t.Fatalf("building the site: %v", buildErr)
	}
	return buildDir, buildRep
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(filepath.Dir(buildDir))
	}
	os.Exit(code)
}

// copyDir copies the site so a test can doctor it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "web-coding")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestBuiltSitePasses(t *testing.T) {
	dir, rep := built(t)
	probs, err := verify.Dir(dir, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Errorf("problem in a fresh build: %s", p)
	}
	// The verifier must actually see the build's assets, or passing would mean nothing: each is
	// named by one of the site's pages (the studio's index.html, the surface pages).
	seen := map[string]bool{}
	for _, page := range append([]string{"index.html"}, sitebuild.SurfacePages...) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range verify.HTMLRefs(b) {
			seen[r.URL] = true
		}
	}
	sw, err := os.ReadFile(filepath.Join(dir, "sw.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range verify.JSRefs(sw) {
		seen["sw:"+r.URL] = true
	}
	if len(rep.Assets) == 0 {
		t.Fatal("the build report names no assets")
	}
	for logical, hashed := range rep.Assets {
		if !seen[hashed] {
			t.Errorf("no page references %s (%s) in a scanned attribute; scanned: %v", hashed, logical, seen)
		}
		if !seen["sw:"+hashed] {
			t.Errorf("sw.js does not precache %s (%s)", hashed, logical)
		}
	}
}

// problemsMatching returns the problems whose text contains every one of subs.
func problemsMatching(probs []verify.Problem, subs ...string) []verify.Problem {
	var out []verify.Problem
next:
	for _, p := range probs {
		s := p.String()
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

// doctor makes a broken copy of the build and returns it with the problems it must produce
// (each a set of substrings one problem line must contain).
func doctor(t *testing.T) (string, [][]string) {
	t.Helper()
	dir, rep := built(t)
	bad := copyDir(t, dir)
	css := rep.Assets["css/studio.css"]
	if css == "" {
		t.Fatalf("no css/studio.css in the build report: %v", rep.Assets)
	}
	// 1. A missing asset (with its precompressed siblings).
	for _, suf := range []string{"", ".gz", ".br"} {
		if err := os.Remove(filepath.Join(bad, filepath.FromSlash(css+suf))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	// 2. Other-origin resources in the page, and a reference outside the base.
	idx := filepath.Join(bad, "index.html")
	b, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	inject := `<script src="https://cdn.example.com/lib.js"></script>` +
		`<link rel="stylesheet" href="//fonts.example.net/font.css">` +
		`<img srcset="assets/none.png 1x, https://img.example.org/a.png 2x" alt="">` +
		`<style>body{background:url( "https://bg.example.com/x.png" )}</style>` +
		`<div style="background-image:url(/elsewhere/bg.png)"></div>` +
		`<a href="https://github.com/webcoding/studio">source</a>` + // navigation: allowed
		`<script>var s = '<img src="https://inside.script.example/x.png">';</script>` + // script text: not markup
		`<!-- <img src="https://commented.example/x.png"> -->`
	b = bytes.Replace(b, []byte("</body>"), []byte(inject+"</body>"), 1)
	if err := os.WriteFile(idx, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// 3. A CSS url() to another origin and an @import of a missing file, in a surviving stylesheet.
	if err := os.WriteFile(filepath.Join(bad, "assets", "extra.css"),
		[]byte(`/* url(https://comment.example/x) */ @import "missing.css"; .a{background:url(https://css.example.com/x.png)}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// 4. A precompressed sibling that no longer matches its original.
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte("stale"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(bad, "index.html.gz"), zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// 5. A precache entry that does not exist.
	swp := filepath.Join(bad, "sw.js")
	sw, err := os.ReadFile(swp)
	if err != nil {
		t.Fatal(err)
	}
	sw = bytes.Replace(sw, []byte(`const ASSETS = [`), []byte(`const ASSETS = ["assets/gone.0000.js",`), 1)
	if err := os.WriteFile(swp, sw, 0o644); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"index.html", css, "missing"},
		{"sw.js", css, "missing"},
		{"sw.js", "assets/gone.0000.js", "missing"},
		{"index.html", "https://cdn.example.com/lib.js", "another origin"},
		{"index.html", "//fonts.example.net/font.css", "another origin"},
		{"index.html", "https://img.example.org/a.png", "another origin"},
		{"index.html", "assets/none.png", "missing"},
		{"index.html", "https://bg.example.com/x.png", "another origin"},
		{"index.html", "/elsewhere/bg.png", "outside the base"},
		{"assets/extra.css", "https://css.example.com/x.png", "another origin"},
		{"assets/extra.css", "missing.css", "missing"},
		// Editing index.html and sw.js also made their untouched .br/.gz siblings stale.
		{"index.html.gz", "different bytes"},
		{"index.html.br", "different bytes"},
		{"sw.js.gz", "different bytes"},
		{"sw.js.br", "different bytes"},
	}
	return bad, want
}

func TestDoctoredBuildFails(t *testing.T) {
	bad, want := doctor(t)
	probs, err := verify.Dir(bad, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if len(problemsMatching(probs, w...)) == 0 {
			t.Errorf("no problem reported containing %q", w)
		}
	}
	for _, notWanted := range []string{"github.com/webcoding", "inside.script.example", "comment.example", "commented.example"} {
		if m := problemsMatching(probs, notWanted); len(m) > 0 {
			t.Errorf("false positive for %s: %v", notWanted, m)
		}
	}
	if len(probs) != len(want) {
		t.Errorf("got %d problems, want %d:\n%v", len(probs), len(want), probs)
	}
}

// TestCommand runs the real command: exit 0 on the fresh build, 1 with the problem list on the
// doctored copy, 2 on a directory that does not exist.
func TestCommand(t *testing.T) {
	dir, _ := built(t)
	bad, want := doctor(t)
	bin := filepath.Join(t.TempDir(), "verify-build")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(repoRoot(), "scripts", "verify-build")).CombinedOutput(); err != nil {
		t.Fatalf("go build verify-build: %v\n%s", err, out)
	}
	run := func(args ...string) (int, string) {
		out, err := exec.Command(bin, args...).CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := run(dir, base); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("fresh build: exit %d, output:\n%s", code, out)
	}
	code, out := run(bad, base)
	if code != 1 {
		t.Errorf("doctored build: exit %d, want 1; output:\n%s", code, out)
	}
	if !strings.Contains(out, "problem(s)") || !strings.Contains(out, "https://cdn.example.com/lib.js") || !strings.Contains(out, want[0][1]) {
		t.Errorf("doctored build: the output does not list the problems:\n%s", out)
	}
	if code, _ := run(filepath.Join(t.TempDir(), "nope"), base); code != 2 {
		t.Errorf("missing directory: exit %d, want 2", code)
	}
	if code, _ := run(dir, "web-coding"); code != 2 {
		t.Errorf("malformed base: exit %d, want 2", code)
	}
}
