package realsites

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcoding/studio/e2e/fidelity/harness"
)

// TestListFileParses: the pins the measurement script reads are well formed (no network).
func TestListFileParses(t *testing.T) {
	f, err := os.Open(filepath.Join(harness.RepoRoot(), "scripts", "realsites.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pins, err := ParseList(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(pins) < 20 {
		t.Fatalf("%d pins, want at least 20", len(pins))
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
	p = run("hello 10:01", 1200, "log hi", "error boom")
	p.Screenshot = half
	p.Exceptions = []string{"Uncaught ReferenceError: $ is not defined"}
	p.Failed = []string{"js/app.js"}
	d, _ := Compare(s, s, p)
	var aspects []string
	for _, x := range d {
		aspects = append(aspects, x.Aspect)
	}
	if got := strings.Join(aspects, ","); got != "console,exceptions,failed-requests,height,after-clicks height,screenshot" {
		t.Errorf("aspects %q", got)
	}
	p = s
	p.Failure = "Uncaught SyntaxError: x"
	if d, _ := Compare(s, s, p); len(d) != 1 || d[0].Aspect != "mount" {
		t.Errorf("a failed mount: %v", d)
	}
}
