package realsites

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/e2e/fidelity/harness"
)

// TestListFileParses: the pins the measurement script reads are well formed (no network).
func TestListFileParses(t *testing.T) {
	for _, list := range []string{"realsites.txt", "realsites-more.txt"} {
		f, err := os.Open(filepath.Join(harness.RepoRoot(), "scripts", list))
		if err != nil {
			t.Fatal(err)
		}
		pins, err := ParseList(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", list, err)
		}
		if len(pins) < 20 {
			t.Fatalf("%s: %d pins, want at least 20", list, len(pins))
		}
	}
	for _, bad := range []string{"a b", "A x@1 .", "a x .", "a x@1 ../up", "a x@1 /abs", "a x@1 .\na y@2 ."} {
		if _, err := ParseList(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseList(%q) accepted", bad)
		}
	}
	got, err := ParseList(strings.NewReader("# c\n\n@s/p-q @s/p-q@1.2.3 dist/site\n"))
	if err == nil || len(got) != 0 {
		t.Errorf("a name with @ accepted: %v %v", got, err)
	}
	got, err = ParseList(strings.NewReader("# c\n\nsp @s/p-q@1.2.3 dist/site\n"))
	if err != nil || len(got) != 1 || got[0] != (Pin{"sp", "@s/p-q@1.2.3", "dist/site"}) {
		t.Errorf("scoped pin: %v %v", got, err)
	}
}

func pngOf(t *testing.T, w, h int, paint func(x, y int) color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, paint(x, y))
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDiffShare(t *testing.T) {
	white := func(int, int) color.Color { return color.White }
	a := pngOf(t, 10, 10, white)
	near := pngOf(t, 10, 10, func(int, int) color.Color { return color.RGBA{250, 240, 255, 255} }) // within PixelDelta
	quarter := pngOf(t, 10, 10, func(x, y int) color.Color {
		if x < 5 && y < 5 {
			return color.Black
		}
		return color.White
	})
	wide := pngOf(t, 20, 10, white)
	for _, c := range []struct {
		b    []byte
		want float64
	}{{a, 0}, {near, 0}, {quarter, 0.25}, {wide, 0.5}} {
		got, err := DiffShare(a, c.b)
		if err != nil || got != c.want {
			t.Errorf("DiffShare = %v %v, want %v", got, err, c.want)
		}
	}
	if _, err := DiffShare(a, []byte("not a png")); err == nil {
		t.Error("a broken PNG compared")
	}
}

func TestSitePath(t *testing.T) {
	base := "http://127.0.0.1:4000/site/rs-x/"
	for url, want := range map[string]string{
		base + "img/a.png?v=2#f":                    "img/a.png",
		"https://fonts.googleapis.com/css?family=A": "external fonts.googleapis.com",
		"http://code.jquery.com/jquery.js":          "external code.jquery.com",
		"http://127.0.0.1:4000/favicon.ico":         "",
		"data:image/png;base64,AA":                  "",
	} {
		got, ok := SitePath(url, base)
		if got != want || ok != (want != "") {
			t.Errorf("SitePath(%q) = %q %v, want %q", url, got, ok, want)
		}
	}
}

// TestCompare: an aspect differing between the two served runs is unstable and not
// compared; a stable one that the preview changes is a divergence; identical runs give none.
func TestCompare(t *testing.T) {
	shot := pngOf(t, 8, 8, func(int, int) color.Color { return color.White })
	half := pngOf(t, 8, 8, func(x, _ int) color.Color {
		if x < 4 {
			return color.Black
		}
		return color.White
	})
	run := func(text string, height int, console ...string) Run {
		return Run{Load: Snapshot{Title: "t", Text: text, Elements: 5, Height: height}, Console: console, Screenshot: shot,
			Clicked: []string{"button:Menu"}, After: Snapshot{Title: "t", Text: text, Elements: 6, Height: height}}
	}
	s := run("hello 10:01", 900, "log hi")
	if d, u := Compare(s, s, s); len(d) != 0 || len(u) != 0 {
		t.Fatalf("identical runs: %v %v", d, u)
	}
	c := run("hello 10:02", 900, "log hi")
	p := run("hello 10:03", 901, "log hi")
	if d, u := Compare(s, c, p); len(d) != 0 || !strings.Contains(strings.Join(u, ","), "text") {
		t.Errorf("a clock in the text: divergences %v, unstable %v", d, u)
	}
	// A clock changes a few pixels: the screenshot is still compared (the preview's half-black
	// shot differs). A random start changes the text and the pixels visibly (2048's tiles):
	// the screenshot is unstable too.
	p = run("hello 10:03", 900, "log hi")
	p.Screenshot = half
	if d, _ := Compare(s, c, p); len(d) != 1 || d[0].Aspect != "screenshot" {
		t.Errorf("a clock, the preview's shot half black: %v", d)
	}
	tiles := pngOf(t, 8, 8, func(x, y int) color.Color {
		if x == 1 && y < 2 {
			return color.Black
		}
		return color.White
	})
	c.Screenshot = tiles // 2 of 64 pixels: over ShotTolerance, under ShotUnstable
	if d, u := Compare(s, c, p); len(d) != 0 || !strings.Contains(strings.Join(u, ","), "screenshot") {
		t.Errorf("a random start: divergences %v, unstable %v", d, u)
	}
	p = run("hello 10:01", 1200, "log hi", "error boom")
	p.Screenshot = half
	p.Exceptions = []string{"Uncaught ReferenceError: $ is not defined"}
	p.Failed = []string{"js/app.js"}
	p.Dialogs = []string{"alert: saved"}
	d, _ := Compare(s, s, p)
	var aspects []string
	for _, x := range d {
		aspects = append(aspects, x.Aspect)
	}
	if got := strings.Join(aspects, ","); got != "console,exceptions,failed-requests,dialogs,height,after-clicks height,screenshot" {
		t.Errorf("aspects %q", got)
	}
	p = s
	p.Failure = "Uncaught SyntaxError: x"
	if d, _ := Compare(s, s, p); len(d) != 1 || d[0].Aspect != "mount" {
		t.Errorf("a failed mount: %v", d)
	}
}

// TestTextDivergenceShowsWhereTheTextsPart: a long page whose texts differ only past the
// report's 600 characters (Paper Kit's after-click text) is reported from a little before the
// first difference, with its position, not from the common start; a short one whole.
func TestTextDivergenceShowsWhereTheTextsPart(t *testing.T) {
	common := strings.Repeat("Buttons Pick your style ", 60) // 1,440 characters; "Radio is o" follows, then n/f at 1,450
	s := Run{Load: Snapshot{Text: common + "Radio is on"}}
	p := Run{Load: Snapshot{Text: common + "Radio is off"}}
	d, _ := Compare(s, s, p)
	if len(d) != 1 || d[0].Aspect != "text" {
		t.Fatalf("divergences %v", d)
	}
	if want := "@1410: …"; !strings.HasPrefix(d[0].Served, want) || !strings.HasPrefix(d[0].Preview, want) {
		t.Errorf("served %q, preview %q: want both from %q", d[0].Served, d[0].Preview, want)
	}
	if !strings.HasSuffix(d[0].Served, "Radio is on") || !strings.HasSuffix(d[0].Preview, "Radio is off") {
		t.Errorf("the differing ends are not shown: %q / %q", d[0].Served, d[0].Preview)
	}
	d, _ = Compare(Run{Load: Snapshot{Text: "short a"}}, Run{Load: Snapshot{Text: "short a"}}, Run{Load: Snapshot{Text: "short b"}})
	if len(d) != 1 || d[0].Served != "short a" || d[0].Preview != "short b" {
		t.Errorf("a short text: %v", d)
	}
}

// TestServedConsoleLineFoldsLevelsAsThePreview: a served run's console.info/console.debug
// compare with the preview runtime's "log" lines (todomvc emberjs logs its versions with
// console.debug; they were left out of the served run only, a false "console" divergence).
func TestServedConsoleLineFoldsLevelsAsThePreview(t *testing.T) {
	for _, c := range []struct {
		level, text, line string
		exc, ok           bool
	}{
		{"log", "a", "log a", false, true},
		{"info", "b", "log b", false, true},
		{"debug", "DEBUG: c", "log DEBUG: c", false, true},
		{"warning", "d", "warn d", false, true},
		{"error", "e", "error e", false, true},
		{"exception", "Uncaught TypeError: x\n    at f (a.js:1:2)", "Uncaught TypeError: x", true, true},
		{"dir", "f", "", false, false},
	} {
		line, exc, ok := ServedConsoleLine(c.level, c.text)
		if line != c.line || exc != c.exc || ok != c.ok {
			t.Errorf("ServedConsoleLine(%q, %q) = %q %v %v, want %q %v %v", c.level, c.text, line, exc, ok, c.line, c.exc, c.ok)
		}
	}
	if !BrowserOwnFailure("favicon.ico") || BrowserOwnFailure("img/favicon.ico") {
		t.Error("BrowserOwnFailure: only the root favicon.ico is the browser's own request")
	}
}

// TestSiteHandlerServesAtTheRoot: the served run's site is at its server's root, so a
// root-relative reference ("/style.min.css", picnic's docs) names the site's own file, as
// the preview maps it; a folder URL serves its index.html; a missing file is 404.
func TestSiteHandlerServesAtTheRoot(t *testing.T) {
	dir := t.TempDir()
	_ = os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	for p, s := range map[string]string{"index.html": "<p>home</p>", "style.min.css": "p{color:red}", "docs/index.html": "<p>docs</p>"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(SiteHandler(dir))
	defer srv.Close()
	for path, want := range map[string]string{"/style.min.css": "p{color:red}", "/": "<p>home</p>", "/docs/": "<p>docs</p>"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != want {
			t.Errorf("GET %s: %d %q, want 200 %q", path, resp.StatusCode, b, want)
		}
	}
	if resp, err := http.Get(srv.URL + "/api"); err != nil || resp.StatusCode != 404 {
		t.Errorf("GET /api: %v %v, want 404", resp, err)
	}
	if p, ok := SitePath(srv.URL+"/api", srv.URL+"/"); !ok || p != "api" {
		t.Errorf("SitePath of a root-relative /api = %q %v, want \"api\" (the preview reports it so)", p, ok)
	}
}

// TestLoggingSiteHandlerLogsMissing: the served run's server logs each path it answered 404
// (a missing stylesheet, which DevTools reports only as a cancelled load), and nothing it
// served; Take returns them once.
func TestLoggingSiteHandlerLogsMissing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>home</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log MissingLog
	srv := httptest.NewServer(LoggingSiteHandler(dir, &log))
	defer srv.Close()
	for _, path := range []string{"/", "/index.html", "/plugins/nope.css?v=1", "/a%20b.js"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if got, want := log.Take(), []string{"plugins/nope.css", "a%20b.js"}; !slices.Equal(got, want) {
		t.Errorf("logged %q, want %q (as SitePath names them)", got, want)
	}
	if got := log.Take(); len(got) != 0 {
		t.Errorf("a second Take returned %q", got)
	}
}

// The served line is DevTools' (2026-12-07, Flat UI's video.js error: a MediaError's message
// cut to 100 characters); the preview forwards the whole JSON.
func TestElidedEqualReadsV8Abbreviations(t *testing.T) {
	const msg = "The video could not be loaded, either because the server or network failed or because the format is not supported."
	served := `error VIDEOJS: ERROR: {"code":4,"message":"The video could not be loaded, either because the …rk failed or because the format is not supported."}`
	preview := `error VIDEOJS: ERROR: {"code":4,"message":"` + msg + `"}`
	for _, c := range []struct {
		s, p string
		want bool
	}{
		{served, preview, true},
		{preview, preview, true},
		{served, served, true},
		{served, `error VIDEOJS: ERROR: {"code":3,"message":"` + msg + `"}`, false},
		{served, strings.Replace(preview, "format", "codec", 1), false},
		{served, strings.Replace(preview, "either", "neither", 1), false},
		{"a…b…c", "a-x-b-y-c", true},
		{"a…b…c", "a-x-c-y-b", false},
		{preview, served, false},
		{"plain", "plain but longer", false},
	} {
		if got := ElidedEqual(c.s, c.p); got != c.want {
			t.Errorf("ElidedEqual(%q, %q) = %v, want %v", c.s, c.p, got, c.want)
		}
	}
}
