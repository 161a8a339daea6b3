package realsites

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Pin is one line of the list file (scripts/realsites.txt): "name package@version folder",
// fields separated by blanks; folder is the path inside the package tarball's "package/"
// directory that holds the site's index.html ("." for the root). Blank lines and lines
// starting with "#" are comments.
type Pin struct {
	Name    string // a short unique name: [a-z0-9-]+
	Package string // npm spec, "name@version" (a scoped name keeps its leading "@")
	Folder  string
}

// ParseList reads a list file. Errors: a line without exactly three fields, a name that is
// not [a-z0-9-]+ or is repeated, a package without "@version", or a folder that is absolute or
// climbs out with "..".
func ParseList(r io.Reader) ([]Pin, error) {
	var out []Pin
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: want \"name package@version folder\", got %d fields", n, len(f))
		}
		p := Pin{Name: f[0], Package: f[1], Folder: f[2]}
		if p.Name == "" || strings.Trim(p.Name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return nil, fmt.Errorf("line %d: name %q is not [a-z0-9-]+", n, p.Name)
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("line %d: name %q repeated", n, p.Name)
		}
		seen[p.Name] = true
		if at := strings.LastIndex(p.Package, "@"); at <= 0 || at == len(p.Package)-1 {
			return nil, fmt.Errorf("line %d: package %q has no @version", n, p.Package)
		}
		if strings.HasPrefix(p.Folder, "/") || slices.Contains(strings.Split(p.Folder, "/"), "..") {
			return nil, fmt.Errorf("line %d: folder %q leaves the package", n, p.Folder)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

// Snapshot is what one run shows at one moment (after load, or after the clicks), read by
// the same expression in both runs (ObserveJS).
type Snapshot struct {
	Title    string `json:"title"`
	Elements int    `json:"elements"` // elements under <body>, less script/style/link/meta/noscript/template and the preview's own (data-webcoding-*)
	Text     string `json:"text"`     // body.innerText, white space collapsed
	Height   int    `json:"height"`   // document.documentElement.scrollHeight, CSS px
	ScrollY  int    `json:"scrollY"`  // window.scrollY, CSS px, rounded
	Images   int    `json:"images"`   // <img> elements that loaded (complete, naturalWidth > 0)
	Broken   int    `json:"broken"`   // <img> elements with a src that are complete with naturalWidth 0
}

// Run is everything observed of one run of a site.
type Run struct {
	Load       Snapshot
	Clicked    []string // what the probe clicked, "tag:text" (at most MaxClicks)
	After      Snapshot // after the clicks
	Console    []string // "level text", in order
	Exceptions []string // uncaught errors' first lines, in order
	Failed     []string // failed requests: a site path ("img/a.png") or "external host", sorted, unique
	Dialogs    []string // JavaScript dialogs shown (and accepted), "alert: text", in order
	Limits     []string // preview only: limit reports ("detail"), in order
	Failure    string   // preview only: the mount's failure message
	Screenshot []byte   // PNG of the 800×600 viewport after load
}

// MaxClicks is how many in-page controls the probe clicks (ClickJS).
const MaxClicks = 3

// Pixel tolerances of the screenshot comparison: a pixel differs when one of its channels
// differs by more than PixelDelta (of 255); two screenshots differ when the share of differing
// pixels exceeds the control's share plus ShotTolerance. A control above ShotUnstable makes
// the screenshot unstable (not compared).
const (
	PixelDelta    = 24
	ShotTolerance = 0.01
	ShotUnstable  = 0.05
)

// Divergence is one observed difference between the served run and the preview run: Aspect
// is one of "console", "exceptions", "failed-requests", "dialogs", "title", "text", "elements",
// "height", "images", "scroll", "after-clicks", "screenshot", "mount"; Served and Preview
// are short renderings of each side.
type Divergence struct {
	Aspect  string
	Served  string
	Preview string
}

// Compare lists the divergences of preview from served, using control (a second served run)
// to leave out what is not stable between two served runs: an aspect is compared only when
// served and control agree on it. Console and exceptions compare as sequences, failed
// requests as sets; the snapshot's text, title, element count, height and image counts as
// values (height within 1 px); the screenshots (taken after the probe's clicks) by DiffShare (see
// the tolerances); console lines by ElidedEqual. It also
// returns the aspects left out as unstable. A preview Failure with no served exception is a
// "mount" divergence.
func Compare(served, control, pv Run) (divs []Divergence, unstable []string) {
	add := func(aspect, s, p string) { divs = append(divs, Divergence{aspect, s, p}) }
	seq := func(aspect string, s, c, p []string) {
		if !slices.Equal(s, c) {
			unstable = append(unstable, aspect)
			return
		}
		if !slices.EqualFunc(s, p, ElidedEqual) {
			sv, pv := briefDiff(strings.Join(s, " | "), strings.Join(p, " | "))
			add(aspect, sv, pv)
		}
	}
	seq("console", served.Console, control.Console, pv.Console)
	seq("exceptions", served.Exceptions, control.Exceptions, pv.Exceptions)
	seq("failed-requests", served.Failed, control.Failed, pv.Failed)
	seq("dialogs", served.Dialogs, control.Dialogs, pv.Dialogs)
	snap := func(prefix string, s, c, p Snapshot) {
		val := func(aspect string, sv, cv, pv any, eq func() bool) {
			if fmt.Sprint(sv) != fmt.Sprint(cv) {
				unstable = append(unstable, prefix+aspect)
				return
			}
			if !eq() {
				add(prefix+aspect, brief(fmt.Sprint(sv)), brief(fmt.Sprint(pv)))
			}
		}
		val("title", s.Title, c.Title, p.Title, func() bool { return s.Title == p.Title })
		if s.Text != c.Text {
			unstable = append(unstable, prefix+"text")
		} else if s.Text != p.Text {
			sv, pv := briefDiff(s.Text, p.Text)
			add(prefix+"text", sv, pv)
		}
		val("elements", s.Elements, c.Elements, p.Elements, func() bool { return s.Elements == p.Elements })
		val("height", s.Height, c.Height, p.Height, func() bool { return abs(s.Height-p.Height) <= 1 })
		val("images", [2]int{s.Images, s.Broken}, [2]int{c.Images, c.Broken}, [2]int{p.Images, p.Broken},
			func() bool { return s.Images == p.Images && s.Broken == p.Broken })
		val("scroll", s.ScrollY, c.ScrollY, p.ScrollY, func() bool { return abs(s.ScrollY-p.ScrollY) <= 1 })
	}
	snap("", served.Load, control.Load, pv.Load)
	if !slices.Equal(served.Clicked, control.Clicked) {
		unstable = append(unstable, "clicked")
	} else if !slices.Equal(served.Clicked, pv.Clicked) {
		add("clicked", brief(strings.Join(served.Clicked, " | ")), brief(strings.Join(pv.Clicked, " | ")))
	} else if len(served.Clicked) > 0 {
		snap("after-clicks ", served.After, control.After, pv.After)
	}
	if served.Screenshot != nil && pv.Screenshot != nil {
		ctl, err1 := DiffShare(served.Screenshot, control.Screenshot)
		d, err2 := DiffShare(served.Screenshot, pv.Screenshot)
		// A page whose text differs between the two served runs by more than a clock does (a
		// random start: 2048's tiles, a shuffled gallery) shows other content in every run: its
		// pixels say nothing about the preview once the two served shots differ visibly.
		randomText := slices.Contains(unstable, "text") && ctl > ShotTolerance
		switch {
		case err1 != nil || ctl > ShotUnstable || randomText:
			unstable = append(unstable, "screenshot")
		case err2 != nil:
			add("screenshot", "png", err2.Error())
		case d > ctl+ShotTolerance:
			add("screenshot", fmt.Sprintf("control %.1f%%", 100*ctl), fmt.Sprintf("%.1f%% of pixels differ", 100*d))
		}
	}
	if pv.Failure != "" && len(served.Exceptions) == 0 {
		add("mount", "", brief(pv.Failure))
	}
	return divs, unstable
}

// DiffShare decodes two PNGs and returns the share (0..1) of pixels in which a channel
// differs by more than PixelDelta. Images of different sizes compare over the larger area,
// pixels outside the smaller one counting as different. Errors: a PNG that does not decode.
func DiffShare(a, b []byte) (float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	ra, rb := ia.Bounds(), ib.Bounds()
	w, h := max(ra.Dx(), rb.Dx()), max(ra.Dy(), rb.Dy())
	if w == 0 || h == 0 {
		return 0, nil
	}
	diff := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			pa, pb := image.Pt(ra.Min.X+x, ra.Min.Y+y), image.Pt(rb.Min.X+x, rb.Min.Y+y)
			if !pa.In(ra) || !pb.In(rb) {
				diff++
				continue
			}
			r1, g1, b1, a1 := ia.At(pa.X, pa.Y).RGBA()
			r2, g2, b2, a2 := ib.At(pb.X, pb.Y).RGBA()
			for _, d := range [4]int{int(r1>>8) - int(r2>>8), int(g1>>8) - int(g2>>8), int(b1>>8) - int(b2>>8), int(a1>>8) - int(a2>>8)} {
				if abs(d) > PixelDelta {
					diff++
					break
				}
			}
		}
	}
	return float64(diff) / float64(w*h), nil
}

// SitePath maps a failed request's URL of the served run to what Run.Failed holds: a URL under
// base (the site's root URL, ending in "/") becomes its path relative to base (query and
// fragment dropped), another http(s) URL "external HOST"; ok is false for a URL of the harness
// server outside the site (the browser's own /favicon.ico) and for non-network URLs (data:,
// blob:).
func SitePath(url, base string) (string, bool) {
	if strings.HasPrefix(url, base) {
		p := strings.TrimPrefix(url, base)
		if i := strings.IndexAny(p, "?#"); i >= 0 {
			p = p[:i]
		}
		return p, true
	}
	for _, scheme := range []string{"https://", "http://"} {
		if rest, ok := strings.CutPrefix(url, scheme); ok {
			host, _, _ := strings.Cut(rest, "/")
			if origin := scheme + host + "/"; strings.HasPrefix(base, origin) {
				return "", false
			}
			return "external " + host, true
		}
	}
	return "", false
}

// ServedConsoleLine maps one console entry of a served run (the DevTools level: "log",
// "info", "debug", "warning", "error", … or "exception") to what Run.Console and
// Run.Exceptions hold, as the preview's runtime reports the same call (docs/preview.md,
// "level is log (also info, debug), warn or error"): "info" and "debug" become "log",
// "warning" "warn"; an exception is its first line (exception true); other levels (dir,
// table, trace, …, which the runtime does not forward) give ok false.
func ServedConsoleLine(level, text string) (line string, exception, ok bool) {
	switch level {
	case "log", "info", "debug":
		return "log " + text, false, true
	case "warning":
		return "warn " + text, false, true
	case "error":
		return "error " + text, false, true
	case "exception":
		first, _, _ := strings.Cut(text, "\n")
		return first, true, true
	}
	return "", false, false
}

// BrowserOwnFailure reports whether a failed site path is the browser's own request, made in
// a served run whatever the page says and never in the preview: the site root's
// "favicon.ico". Both runs leave it out of Run.Failed (a page that names a missing
// favicon.ico is not compared on it).
func BrowserOwnFailure(p string) bool { return p == "favicon.ico" }

// SortedUnique sorts xs and drops repeats (in place).
func SortedUnique(xs []string) []string {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// briefDiff renders two different texts from a little before their first differing character
// ("@N: …", N its index in characters; the whole text when it starts within the first 40), each
// cut as brief cuts, so a long page's report shows where the texts part and not only their
// common start.
func briefDiff(a, b string) (string, string) {
	ra, rb := []rune(a), []rune(b)
	i := 0
	for i < len(ra) && i < len(rb) && ra[i] == rb[i] {
		i++
	}
	if i <= 40 {
		return brief(a), brief(b)
	}
	from := i - 40
	at := fmt.Sprintf("@%d: …", from)
	return at + brief(string(ra[from:])), at + brief(string(rb[from:]))
}

func brief(s string) string {
	if r := []rune(s); len(r) > 600 {
		return string(r[:600]) + "…"
	}
	return s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// ElidedEqual reports whether a served run's line s reads as the preview's line p: equal, or s
// holds V8's elisions — a string inside a logged object's preview is cut to 100 characters with
// "…" in the middle (DevTools' abbreviation; the preview forwards the whole JSON) — and p is
// longer (in characters), starts with s's text before its first "…", ends with the text after its last, and
// holds the pieces between in order.
func ElidedEqual(s, p string) bool {
	if s == p {
		return true
	}
	pieces := strings.Split(s, "…")
	if len(pieces) < 2 || utf8.RuneCountInString(p) <= utf8.RuneCountInString(s) || !strings.HasPrefix(p, pieces[0]) || !strings.HasSuffix(p, pieces[len(pieces)-1]) {
		return false
	}
	rest := p[len(pieces[0]) : len(p)-len(pieces[len(pieces)-1])]
	for _, mid := range pieces[1 : len(pieces)-1] {
		i := strings.Index(rest, mid)
		if i < 0 {
			return false
		}
		rest = rest[i+len(mid):]
	}
	return true
}

// SiteHandler serves the folder dir at the root of its server, as the served run's site:
// Go's http.FileServer (media type by extension, else sniffed; a folder URL serves its
// index.html; a missing file is 404).
func SiteHandler(dir string) http.Handler { return http.FileServer(http.Dir(dir)) }

// MissingLog holds the site paths (relative to the root, still percent-encoded, as SitePath
// gives them) that a LoggingSiteHandler answered 404: the served run's requests for files the
// site lacks. DevTools reports a 404 stylesheet only as a cancelled load
// (net::ERR_ABORTED, no response event), which the served run cannot tell from the
// cancellations it leaves out, so the server's own answer is what says "missing" (found on
// admin-lte 3, whose missing plugin stylesheets the preview reported and the served run did not).
type MissingLog struct {
	mu    sync.Mutex
	paths []string
}

// Take returns the paths logged since the last Take, and forgets them.
func (l *MissingLog) Take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.paths
	l.paths = nil
	return p
}

// LoggingSiteHandler is SiteHandler recording every 404 it answers in log.
func LoggingSiteHandler(dir string, log *MissingLog) http.Handler {
	h := SiteHandler(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.status == http.StatusNotFound {
			log.mu.Lock()
			log.paths = append(log.paths, strings.TrimPrefix(r.URL.EscapedPath(), "/"))
			log.mu.Unlock()
		}
	})
}

// statusWriter remembers the status code a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}
