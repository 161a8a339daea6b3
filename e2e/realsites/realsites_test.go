package realsites

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/e2e/fidelity/harness"
	"github.com/webcoding/studio/host/folder"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

func TestMain(m *testing.M) {
	chromium.SharedKind = chromium.Full // what users run; the shell fetches no icons (doc.go)
	chromium.SharedFlags = append(chromium.SharedFlags,
		// The sites are served over HTTPS, as deployed (doc.go); every httptest TLS server has
		// the same built-in certificate, which the browser trusts by its key's hash.
		chromedp.Flag("ignore-certificate-errors-spki-list", testCertSPKI()),
		// Offline, as the preview is by default: a name other than the loopback's resolves to
		// nothing at once (on a machine without DNS a lookup hangs instead, and a served run
		// observed a request still pending where the preview had refused it: doc.go).
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"))
	code := m.Run()
	harness.Close()
	chromium.Shutdown()
	os.Exit(code)
}

// testCertSPKI is the base64 SHA-256 of the public key of httptest's TLS certificate, as
// Chromium's --ignore-certificate-errors-spki-list takes it.
func testCertSPKI() string {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	sum := sha256.Sum256(srv.Certificate().RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// Viewport is the CSS size both runs render at: the harness's preview host is 800×600.
const viewW, viewH = 800, 600

// ObserveJS reads a Snapshot (as JSON) in either run; in the preview it runs in an isolated
// world of the frame (same DOM, not the page's globals).
const ObserveJS = `(function(){
var skip = {SCRIPT:1, STYLE:1, LINK:1, META:1, NOSCRIPT:1, TEMPLATE:1};
var b = document.body, n = 0, imgs = 0, broken = 0;
if (b) { var all = b.getElementsByTagName("*");
  for (var i = 0; i < all.length; i++) { var e = all[i]; if (skip[e.tagName]) continue; var own = false;
    for (var j = 0; j < e.attributes.length; j++) if (e.attributes[j].name.indexOf("data-webcoding") === 0) { own = true; break; }
    if (!own) n++; } }
for (var k = 0; k < document.images.length; k++) { var im = document.images[k];
  if (im.complete && im.naturalWidth > 0) imgs++; else if (im.complete && im.getAttribute("src")) broken++; }
return JSON.stringify({title: document.title, elements: n, text: b ? b.innerText.replace(/\s+/g, " ").trim() : "",
  height: document.documentElement.scrollHeight, scrollY: Math.round(window.scrollY), images: imgs, broken: broken});
})()`

// ClickJS clicks, one after another 400 ms apart, the first MaxClicks visible in-page
// controls (a button or [role=button] outside any form, a Bootstrap toggle, a link to a
// fragment other than "#"), recomputing the list after each click, and returns what it
// clicked as JSON ["tag:text", …].
var ClickJS = `(async function(){
function cands(){ return Array.prototype.filter.call(document.querySelectorAll('button, [role="button"], [data-toggle], [data-bs-toggle], a[href^="#"]'), function(e){
  if (e.closest("form")) return false;
  if (e.tagName === "A" && e.getAttribute("href") === "#" && !e.hasAttribute("data-toggle") && !e.hasAttribute("data-bs-toggle")) return false;
  var r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden"; }); }
var done = [];
for (var i = 0; i < ` + strconv.Itoa(MaxClicks) + `; i++) { var c = cands(); if (i >= c.length) break; var e = c[i];
  done.push(e.tagName.toLowerCase() + ":" + (e.textContent || "").replace(/\s+/g, " ").trim().slice(0, 30));
  try { e.click(); } catch (x) {}
  await new Promise(function(r){ setTimeout(r, 400); }); }
return JSON.stringify(done);
})()`

// settle is how long a run waits after load before it observes (WEBCODING_REALSITES_SETTLE_MS,
// default 1500): the same in every run, so time-driven effects line up as far as they can.
//
// Both runs observe at the same times after the document's load event by the page's own clock
// (ProbeJS), not after the harness saw it: the preview run learns of the load later (the
// acknowledgement, a frame to find), and each DevTools evaluation into the preview's frame takes
// longer (measured under load: the second observation 3.5 s after load served, 4.7 s in the
// preview), so a page with a timer (Paper Kit's and Now UI Kit's carousels turn every 4 s from
// DOMContentLoaded) was observed in another state. The screenshot comes last, after the second
// observation, at ShotAt by the page's clock, so the preview run's retaken screenshots delay
// no observation.
func settle() time.Duration {
	if ms, err := strconv.Atoi(os.Getenv("WEBCODING_REALSITES_SETTLE_MS")); err == nil && ms >= 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return 1500 * time.Millisecond
}

// ProbeJS is a run's whole probe in the observed document, timed by the document's own clock
// so that no DevTools round trip (slower into the preview's frame, and slow on a loaded machine)
// moves an observation: it waits until settle() has passed since the load event ended (its
// navigation timing entry; at most 20 s for a load that never ends), observes (ObserveJS),
// clicks (ClickJS), waits 600 ms and observes again. It resolves to the JSON of Probe.
func ProbeJS() string {
	return `(function(){
` + untilJS + `
var out = {};
return until(` + strconv.FormatInt(settle().Milliseconds(), 10) + `).then(function(){
  out.load = ` + ObserveJS + `;
  return ` + ClickJS + `;
}).then(function(clicked){
  out.clicked = clicked;
  return new Promise(function(r){ setTimeout(r, 600); });
}).then(function(){
  out.after = ` + ObserveJS + `;
  return JSON.stringify(out);
});
})()`
}

// untilJS defines until(ms): a promise resolved once ms have passed since the document's load
// event ended, by its own clock (its navigation timing entry), or 20 s after it was called.
const untilJS = `var n = performance.getEntriesByType("navigation")[0], start = performance.now();
function since(){ return n && n.loadEventEnd > 0 ? performance.now() - n.loadEventEnd : -1; }
function until(ms){ return new Promise(function(res){ (function tick(){ var s = since();
  if (s >= ms || performance.now() - start > 20000) res(); else setTimeout(tick, s < 0 ? 50 : Math.min(50, ms - s)); })(); }); }`

// ShotAt is when, after the load event by the page's own clock, both runs take the screenshot
// (ShotWaitJS): after the probe, and where a carousel that turns every 4 s from
// DOMContentLoaded (Paper Kit, Now UI Kit) or every 5 s from load (Bootstrap's data-ride) shows
// a slide at rest, not one in its 0.6 s transition; a smooth scroll a click started is over.
const ShotAt = 6 * time.Second

// ShotWaitJS resolves once ShotAt has passed since the load event (at once when it has).
func ShotWaitJS() string {
	return `(function(){
` + untilJS + `
return until(` + strconv.FormatInt(ShotAt.Milliseconds(), 10) + `).then(function(){ return true; });
})()`
}

// Probe is what ProbeJS resolves to: the two snapshots and the clicks, each as the JSON its
// script returns.
type Probe struct {
	Load    string `json:"load"`
	Clicked string `json:"clicked"`
	After   string `json:"after"`
}

// probe decodes a ProbeJS result into r's Load, Clicked and After.
func probe(t *testing.T, s string, err error, r *Run) {
	t.Helper()
	p := decode[Probe](t, s, err)
	r.Load = decode[Snapshot](t, p.Load, nil)
	r.Clicked = decode[[]string](t, p.Clicked, nil)
	r.After = decode[Snapshot](t, p.After, nil)
}

// importDir imports dir as the studio imports a linked folder (host/folder's tree walk, the
// CLI's) and returns the preview's input (files, then one KindNotImported entry per file the
// import left out) and the import's skips.
func importDir(t *testing.T, dir string) ([]preview.File, []workspace.Skipped) {
	t.Helper()
	f, err := folder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	es, err := f.ReadTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	imp, terr := workspace.ImportFiles(context.Background(), filepath.Base(dir), slices.Values(es))
	if terr != nil {
		t.Fatal(terr)
	}
	files := studio.PreviewFiles(imp.Files)
	for _, s := range imp.NotImported() {
		files = append(files, preview.File{Path: s.Path, Kind: preview.KindNotImported, Reason: workspace.NotImportedReason(s)})
	}
	return files, imp.Skipped
}

func decode[T any](t *testing.T, s string, err error) T {
	t.Helper()
	var v T
	if err != nil {
		t.Logf("probe: %v", err)
		return v
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Logf("probe: %v", err)
	}
	return v
}

// SeededRandomJS gives every document of a run the same Math.random sequence (xorshift32 from a
// fixed seed, started afresh in each document), so that a page that draws random numbers —
// typed.js's demo shuffles its strings, a confetti burst picks its colours — does the same in
// the served runs and the preview as long as it draws the same numbers in the same order. Left
// random, such a page differed between any two runs by chance (typed.js's "Shuffled 1 …" served
// and "Shuffled 2 …" in the preview; its control run agreed with the served one only by luck).
// The preview's runtime and the studio's shim draw none, so a page's own draws line up.
const SeededRandomJS = `(function () { var s = 2463534242; Math.random = function random() {
  s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 4294967296; }; })();`

// seedPrelude is the stand-in's query that puts SeededRandomJS first in the preview's document:
// DevTools' scripts for new documents do not reach the sandboxed frame (measured, Chromium
// 2026-12-07: a sandboxed srcdoc child did not run it, an unsandboxed one did).
var seedPrelude = "&prelude=" + url.QueryEscape(SeededRandomJS)

// runServed loads url top level in a fresh tab at the viewport size and observes it; the
// paths the site server answered 404 meanwhile (missing) count as failed requests.
func runServed(t *testing.T, url string, missing *MissingLog) Run {
	t.Helper()
	missing.Take()
	tab := chromium.NewTab(t)
	tab.AcceptDialogs() // an alert on load or on a click would block the page and the probe
	// An http: frame or script of an https: page is blocked with no network request; the
	// preview refuses the same URL and reports it, so it counts as a failed request here too.
	if err := tab.RecordMixedContent(); err != nil {
		t.Fatal(err)
	}
	if err := tab.OnNewDocument(SeededRandomJS); err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(30*time.Second, chromedp.EmulateViewport(viewW, viewH)); err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(45*time.Second, harness.Navigate(url)); err != nil {
		t.Fatalf("served: %v", err)
	}
	if _, err := chromium.WaitFor[bool](tab, 20*time.Second, `document.readyState === "complete"`); err != nil {
		t.Fatalf("served: %v", err)
	}
	var r Run
	s, err := chromium.Eval[string](tab, 45*time.Second, ProbeJS())
	probe(t, s, err, &r)
	if _, err := chromium.Eval[bool](tab, 30*time.Second, ShotWaitJS()); err != nil {
		t.Logf("served: %v", err)
	}
	if shot, err := chromedp.Run(tab.Ctx, chromedp.CaptureScreenshot()); err == nil {
		r.Screenshot = shot
	}
	r.Dialogs = tab.Dialogs()
	for _, c := range tab.Console() {
		if line, exc, ok := ServedConsoleLine(c.Level, c.Text); ok && exc {
			r.Exceptions = append(r.Exceptions, line)
		} else if ok {
			r.Console = append(r.Console, line)
		}
	}
	for _, f := range tab.FailedRequests() {
		if f.Canceled || f.Error == "net::ERR_ABORTED" {
			continue
		}
		if p, ok := SitePath(f.URL, url); ok && !BrowserOwnFailure(p) {
			r.Failed = append(r.Failed, p)
		}
	}
	for _, p := range missing.Take() {
		if !BrowserOwnFailure(p) {
			r.Failed = append(r.Failed, p)
		}
	}
	r.Failed = SortedUnique(r.Failed)
	return r
}

// waitNavigatedAck waits (up to 45 s) until every page the preview navigated to within 300 ms
// of an ack was acknowledged, and returns the last ack; false when there was no navigation.
func waitNavigatedAck(t *testing.T, tab *chromium.Tab) (harness.Msg, bool) {
	t.Helper()
	var last harness.Msg
	navigated := false
	for deadline := time.Now().Add(45 * time.Second); time.Now().Before(deadline); {
		time.Sleep(300 * time.Millisecond)
		navs, acks := 0, 0
		for _, m := range harness.Messages(t, tab) {
			switch m.Type {
			case "webcoding.preview.navigate":
				navs++
			case "webcoding.preview.ready", "webcoding.preview.error":
				acks++
				last = m
			}
		}
		if navs == 0 {
			return last, false
		}
		navigated = true
		if acks > navs {
			return last, true
		}
	}
	return last, navigated
}

// runPreview mounts site name in the studio stand-in and observes the preview frame; want is
// the served run's screenshot and ctl the share by which the control run's differed from it.
func runPreview(t *testing.T, name string, want []byte, ctl float64) Run {
	t.Helper()
	tab := harness.OpenParent(t)
	tab.AcceptDialogs()
	harness.Mount(t, tab, name, 1, "n-"+name, seedPrelude)
	var r Run
	ack := harness.WaitAckFor(t, tab, 1, 45*time.Second)
	if ack.Type == "webcoding.preview.error" {
		r.Failure = ack.Message
	}
	// A page that navigates at once (a meta refresh to the site's real index) is mounted again
	// by the stand-in, as the studio does: the observation waits for that page's ack, as a
	// served run waits for the page it was redirected to.
	if a, ok := waitNavigatedAck(t, tab); ok && a.Type == "webcoding.preview.error" {
		r.Failure = a.Message
	}
	if _, err := chromium.WaitInFrame[bool](tab, 20*time.Second, `document.readyState === "complete"`, true); err != nil {
		t.Logf("preview: %v", err)
	}
	s, err := chromium.EvalInFrame[string](tab, 45*time.Second, ProbeJS())
	probe(t, s, err, &r)
	if _, err := chromium.EvalInFrame[bool](tab, 30*time.Second, ShotWaitJS()); err != nil {
		t.Logf("preview: %v", err)
	}
	// A capture of the parent can come before the out-of-process frame's first paint reached
	// it (seen under load: a blank shot of a page whose DOM matched), and a page that moves by
	// itself (a video, an animation) is captured a little later than served. So a shot that
	// differs from the served one by more than the tolerance is retaken up to 4 times, 700 ms
	// apart; the last one counts. The observations are done by then.
	for try := 0; try < 5; try++ {
		if try > 0 {
			time.Sleep(700 * time.Millisecond)
		}
		shot, err := chromedp.Run(tab.Ctx, chromedp.Screenshot(chromedp.CSS("#host")))
		if err != nil {
			continue
		}
		r.Screenshot = shot
		if d, err := DiffShare(want, shot); err != nil || d <= ctl+ShotTolerance {
			break
		}
	}
	time.Sleep(300 * time.Millisecond) // batched console lines and reports
	r.Dialogs = tab.Dialogs()
	ms := harness.Messages(t, tab)
	var failure string
	r.Console, r.Exceptions, failure = harness.PreviewConsole(ms)
	if r.Failure == "" {
		r.Failure = failure
	}
	for _, m := range ms {
		if m.Type != "webcoding.preview.report" || m.Revision != 1 {
			continue
		}
		switch m.Kind {
		case preview.ReportMissing:
			if p := virtualPath(m.URL); !BrowserOwnFailure(p) {
				r.Failed = append(r.Failed, p)
			}
		case preview.ReportBlocked:
			if p, ok := SitePath(m.URL, "https://workspace.invalid/"); ok {
				r.Failed = append(r.Failed, p)
			}
		case preview.ReportLimit:
			r.Limits = append(r.Limits, m.URL+": "+m.Detail)
		}
	}
	r.Failed = SortedUnique(r.Failed)
	return r
}

// virtualPath is a "missing" report's URL as a site path: an absolute URL of the virtual
// origin loses its origin, a relative one is cleaned (the entry page is at the root).
func virtualPath(u string) string {
	u = strings.TrimPrefix(u, "https://workspace.invalid/")
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return strings.TrimPrefix(path.Clean("/"+u), "/")
}

// TestRealSites runs every site under $WEBCODING_REALSITES (one folder per site, its
// index.html at the folder's root; WEBCODING_REALSITES_ONLY=a,b limits it to those names)
// served twice and in the preview, sequentially in one Chromium, and logs per site the
// divergences (Compare). A site whose served run shows no text fails (the harness, not the
// preview, is broken). The summary is written to $WEBCODING_REALSITES_REPORT when set (one
// line per site: "name identical|divergent aspects…", then the details), else logged.
func TestRealSites(t *testing.T) {
	dir := os.Getenv("WEBCODING_REALSITES")
	if dir == "" {
		t.Skip("set WEBCODING_REALSITES to a folder of sites (scripts/realsites.sh does)")
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	only := map[string]bool{}
	for _, n := range strings.Split(os.Getenv("WEBCODING_REALSITES_ONLY"), ",") {
		if n != "" {
			only[n] = true
		}
	}
	harness.Server(t) // the preview's parent page and compiled documents
	var report strings.Builder
	identical, total := 0, 0
	for _, e := range ents {
		if !e.IsDir() || (len(only) > 0 && !only[e.Name()]) {
			continue
		}
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			files, skipped := importDir(t, filepath.Join(dir, name))
			harness.AddFiles("rs-"+name, files)
			// Served at the root of an origin of its own, as a site is deployed: a root-relative
			// "/style.min.css" names the site's file, as the preview maps it (under the harness's
			// /site/<name>/ it named a path outside the site, and the served run lost it).
			var missing MissingLog
			site := httptest.NewTLSServer(LoggingSiteHandler(filepath.Join(dir, name), &missing))
			defer site.Close()
			base := site.URL + "/"
			served := runServed(t, base, &missing)
			if served.Load.Text == "" && served.Load.Elements == 0 {
				t.Fatalf("served run shows nothing: %+v", served.Load)
			}
			// The control run gets an origin of its own too: on the first run's origin it would
			// start from that run's localStorage (2048 restores its board from it) while the
			// first run and the preview start empty, and a random start would look stable.
			controlSite := httptest.NewTLSServer(LoggingSiteHandler(filepath.Join(dir, name), &missing))
			defer controlSite.Close()
			control := runServed(t, controlSite.URL+"/", &missing)
			ctl, err := DiffShare(served.Screenshot, control.Screenshot)
			if err != nil {
				ctl = ShotUnstable
			}
			pv := runPreview(t, "rs-"+name, served.Screenshot, ctl)
			divs, unstable := Compare(served, control, pv)
			total++
			verdict := "identical"
			if len(divs) > 0 {
				var as []string
				for _, d := range divs {
					as = append(as, d.Aspect)
				}
				verdict = "divergent: " + strings.Join(as, ", ")
			} else {
				identical++
			}
			fmt.Fprintf(&report, "## %s — %s\n", name, verdict)
			fmt.Fprintf(&report, "files %d, skipped by import %d; clicked %q; unstable (not compared) %v\n", len(files), len(skipped), served.Clicked, unstable)
			fmt.Fprintf(&report, "served: %s\npreview: %s\n", describe(served), describe(pv))
			for _, s := range skipped {
				fmt.Fprintf(&report, "- import skipped %s (%s)\n", s.Path, s.Reason)
			}
			for _, d := range divs {
				fmt.Fprintf(&report, "- %s\n  served:  %s\n  preview: %s\n", d.Aspect, d.Served, d.Preview)
			}
			for _, l := range pv.Limits {
				fmt.Fprintf(&report, "- limit reported: %s\n", brief(l))
			}
			if os.Getenv("WEBCODING_REALSITES_SHOTS") != "" {
				_ = os.WriteFile(filepath.Join(os.Getenv("WEBCODING_REALSITES_SHOTS"), name+"-served.png"), served.Screenshot, 0o644)
				_ = os.WriteFile(filepath.Join(os.Getenv("WEBCODING_REALSITES_SHOTS"), name+"-preview.png"), pv.Screenshot, 0o644)
			}
			t.Logf("%s: %s", name, verdict)
		})
	}
	summary := fmt.Sprintf("realsites: %d identical of %d\n\n%s", identical, total, report.String())
	if out := os.Getenv("WEBCODING_REALSITES_REPORT"); out != "" {
		if err := os.WriteFile(out, []byte(summary), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Log(summary)
}

// describe is one line of what a run saw after load (for the report).
func describe(r Run) string {
	return fmt.Sprintf("%d elements, %d chars of text, height %d, images %d (broken %d), failed %q",
		r.Load.Elements, len(r.Load.Text), r.Load.Height, r.Load.Images, r.Load.Broken, r.Failed)
}

// TestSeededRandomInEveryDocument: with SeededRandomJS, each new document draws the same
// Math.random sequence from its start — a served page loaded twice, and the preview's document
// (the stand-in's prelude, which leaves no script element behind) — and the numbers within it
// differ and lie in [0, 1).
func TestSeededRandomInEveryDocument(t *testing.T) {
	const draw = `JSON.stringify([Math.random(), Math.random(), Math.random()])`
	harness.AddSite("seeded", map[string]string{"index.html": `<!doctype html><title>s</title><p>seeded`})
	tab := chromium.NewTab(t)
	if err := tab.OnNewDocument(SeededRandomJS); err != nil {
		t.Fatal(err)
	}
	var seqs []string
	for i := 0; i < 2; i++ {
		if err := tab.Do(20*time.Second, chromedp.Navigate(`data:text/html,<!doctype html><p>served`)); err != nil {
			t.Fatal(err)
		}
		s, err := chromium.Eval[string](tab, 10*time.Second, draw)
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, s)
	}
	pv := harness.OpenParent(t)
	harness.Mount(t, pv, "seeded", 1, "n-seeded", seedPrelude)
	harness.WaitAckFor(t, pv, 1, 30*time.Second)
	s, err := chromium.EvalInFrame[string](pv, 10*time.Second, draw)
	if err != nil {
		t.Fatal(err)
	}
	seqs = append(seqs, s)
	// The prelude leaves no element behind (a page that counts its scripts sees its own).
	if n, err := chromium.EvalInFrame[int](pv, 10*time.Second, `document.scripts.length`); err != nil || n != 0 {
		t.Errorf("the preview's document holds %d scripts (%v), want none, as served", n, err)
	}
	for _, s := range seqs[1:] {
		if s != seqs[0] {
			t.Fatalf("documents drew different sequences (served, served again, preview): %q", seqs)
		}
	}
	var xs []float64
	if err := json.Unmarshal([]byte(seqs[0]), &xs); err != nil || len(xs) != 3 || xs[0] == xs[1] || xs[1] == xs[2] {
		t.Fatalf("sequence %q (%v)", seqs[0], err)
	}
	for _, x := range xs {
		if x < 0 || x >= 1 {
			t.Fatalf("%v outside [0, 1)", x)
		}
	}
}
