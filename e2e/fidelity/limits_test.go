package fidelity

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/e2e/fidelity/harness"
	"github.com/webcoding/studio/wasm/preview"
)

// TestLimitsReported (item 3): what an opaque-origin frame cannot do is reported with its own
// diagnostic — a service worker registration (rejected), pushState routing (state kept, URL
// dropped) — and a missing workspace file is a 404 for the page and one "missing" report
// (fetch, an Image's src, inserted markup, static markup, an iframe's src), never also a
// "blocked" one. A workspace page in a static <iframe> is shown (no report); one only a
// script points a frame at, and that no page names in a static <iframe src> or links from a
// framed page, is a limit (docs/preview.md "Workspace pages in frames").
func TestLimitsReported(t *testing.T) {
	addSite("limits", map[string]string{"index.html": `<!doctype html><title>l</title><img src="static-gone.png"><iframe src="map.html"></iframe><script>
navigator.serviceWorker.register("sw.js").then(function(){ document.title = "sw ok"; }, function(e){ document.title = "sw " + e.name; });
history.pushState({page: 2}, "", "/products/2");
fetch("nope.json").then(function(r){ document.documentElement.setAttribute("data-status", r.status + ":" + history.state.page); });
var gone = new Image(); gone.src = "gone.png";
var f1 = document.createElement("iframe"); f1.src = "nowhere.html"; document.body.appendChild(f1);
var f2 = document.createElement("iframe"); f2.setAttribute("src", "other.html"); document.body.appendChild(f2);
document.body.insertAdjacentHTML("beforeend", '<img src="inserted-gone.png">');
</script>`, "sw.js": `self.addEventListener("fetch", function(){});`, "map.html": `<!doctype html><p>map</p>`, "other.html": `<!doctype html><p>other</p>`})
	tab := openParent(t)
	mount(t, tab, "limits", 1, "n-limits", "")
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	if got, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.title + "|" + document.documentElement.getAttribute("data-status")`, "sw SecurityError|404:2"); err != nil {
		t.Fatalf("page saw %q: %v", got, err)
	}
	kinds := map[string]string{}
	for _, m := range reportsAfter(t, tab, 400*time.Millisecond) {
		kinds[m.URL] = m.Kind + ": " + m.Detail
	}
	for url, want := range map[string]string{"sw.js": "limit: service workers", "/products/2": "limit: history.pushState", "nope.json": "missing",
		"gone.png": "missing", "inserted-gone.png": "missing", "static-gone.png": "missing", "nowhere.html": "missing: <iframe src>",
		"other.html": "limit: this workspace page was not compiled for frames"} {
		if !strings.HasPrefix(kinds[url], want) {
			t.Errorf("report for %s = %q, want %q… (all: %v)", url, kinds[url], want, kinds)
		}
	}
	if r, ok := kinds["map.html"]; ok {
		t.Errorf("the framed page map.html was reported: %q", r)
	}
	// A missing workspace file is one "missing" report, never also a "blocked" one (the
	// policy's violation for the same request stays silent).
	for url, r := range kinds {
		if strings.HasPrefix(r, "blocked") && strings.Contains(url, "gone") {
			t.Errorf("a missing file was also reported as blocked: %s = %q", url, r)
		}
	}
}

// TestQueryIsVisible: a page mounted with a query (a GET form or a link to "page.html?q=x")
// reads it as location.search, as a served page would (the virtual Location, design.md
// §5.34), and no limit is reported for it.
func TestQueryIsVisible(t *testing.T) {
	addSite("query", map[string]string{"index.html": `<!doctype html><title>q</title><p id="s"></p><script>document.getElementById("s").textContent = "[" + location.search + "]";</script>`})
	tab := openParent(t)
	mount(t, tab, "query", 1, "n-query", "&search="+url.QueryEscape("?q=shoes"))
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	if got, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.getElementById("s").textContent`, "[?q=shoes]"); err != nil {
		t.Fatalf("page saw %q: %v", got, err)
	}
	for _, m := range messages(t, tab) {
		if m.Type == "webcoding.preview.report" && strings.Contains(m.Detail, "location.search") {
			t.Errorf("a report about location.search: %+v", m)
		}
	}
}

// TestNavigationAwayDetected (item 2): a document that replaces itself after its ready is
// reported as leaving (by the bridge and by the parent's load count); the studio then shows
// "navigated away".
func TestNavigationAwayDetected(t *testing.T) {
	addSite("leave", map[string]string{"index.html": `<!doctype html><title>x</title><button id="b" onclick="location.href='about:blank'">go</button>`})
	tab := openParent(t)
	mount(t, tab, "leave", 1, "n-leave", "")
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `document.getElementById("b").click(), true`); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `window.__of("webcoding.preview.leaving").length > 0`); err != nil {
		t.Fatalf("no leaving message: %v", messages(t, tab))
	}
}

// TestNewUserFindings (docs/preview.md, new-user test of 2026-12-02): (1) a folder file the
// import left out is not "missing": fetch rejects naming the reason and the report is a limit
// with that reason; (3) a blocked CDN module import fails with an error naming the URL and the
// network policy. (Finding 2, studio URLs, is still open: see docs/preview.md Limits.)
func TestNewUserFindings(t *testing.T) {
	addSite("newuser", map[string]string{"index.html": `<!doctype html><title>n</title><a id="a" href="pic.png">p</a><img id="i"><script>
var out = [];
function done(k, v) { out.push(k + "=" + v); if (out.length === 2) document.documentElement.setAttribute("data-out", out.sort().join("|")); }
fetch("data/big.json").then(function (r) { done("big", "status " + r.status); }, function (e) { done("big", e.message); });
var img = document.getElementById("i");
img.onload = function () { done("img", img.naturalWidth); };
img.onerror = function () { done("img", "error"); };
img.src = document.getElementById("a").href;
</script><script type="module">import confetti from "https://cdn.example/confetti.js"; confetti();</script>`, "pic.png": pngBytes(3, 2)})
	harness.AppendFile("newuser", preview.File{Path: "data/big.json", Kind: preview.KindNotImported, Reason: "larger than 2 MB (the import limit for text files)"})
	tab := openParent(t)
	mount(t, tab, "newuser", 1, "n-newuser", "")
	ack := waitAck(t, tab, 1)
	if ack.Type != "webcoding.preview.error" || !strings.Contains(ack.Message, "https://cdn.example/confetti.js") || !strings.Contains(ack.Message, "network policy") {
		t.Errorf("the blocked module's error = %+v, want one naming the URL and the network policy", ack)
	}
	want := "big=Failed to fetch data/big.json: data/big.json is in the folder but was not imported: larger than 2 MB (the import limit for text files)|img=3"
	if got, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.documentElement.getAttribute("data-out")`, want); err != nil {
		t.Fatalf("page saw %q: %v", got, err)
	}
	time.Sleep(400 * time.Millisecond)
	reports := map[string]string{}
	var consoleErr bool
	for _, m := range messages(t, tab) {
		switch m.Type {
		case "webcoding.preview.report":
			reports[m.URL] = m.Kind + ": " + m.Detail
		case "webcoding.preview.console":
			consoleErr = consoleErr || (m.Level == "error" && strings.Contains(m.Text, "https://cdn.example/confetti.js was blocked by the preview's network policy"))
		}
	}
	if r := reports["data/big.json"]; !strings.HasPrefix(r, "limit: fetch: data/big.json is in the folder but was not imported: larger than 2 MB") {
		t.Errorf("report for data/big.json = %q (all %v)", r, reports)
	}
	for u, r := range reports {
		if strings.HasPrefix(r, "missing") {
			t.Errorf("a missing report: %s = %q", u, r)
		}
	}
	if !consoleErr {
		t.Errorf("no console error naming the blocked module URL")
	}
}

// TestResourceHintsNotReported: a <link> that is only a resource hint (preconnect,
// dns-prefetch) or an annotation (canonical, alternate, author) makes no request over HTTP, so
// the preview reports none for it, while a fetching link to the same origin (an icon) is still
// reported as blocked; a url() inside a CSS comment is no reference (not "missing"), one
// outside it still is. Found by e2e/realsites (docs/preview.md "Real sites from npm":
// Start Bootstrap's preconnects, spectre's canonical link, webslides' commented example).
func TestResourceHintsNotReported(t *testing.T) {
	addSite("hints", map[string]string{"index.html": `<!doctype html><html><head><link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>
<link rel="dns-prefetch" href="https://cdn.hints.example"><link rel="preconnect dns-prefetch" href="https://both.hints.example">
<link rel="icon" href="https://icons.hints.example/i.png"><link rel="canonical" href="https://docs.hints.example/page/">
<link rel="alternate" type="application/rss+xml" href="https://feed.hints.example/rss.xml"><link rel="author" href="https://me.hints.example/">
<link rel="apple-touch-icon-precomposed" sizes="144x144" href="ico/apple-144.png"><link rel="apple-touch-icon" href="ico/apple.png"><link rel="mask-icon" href="ico/mask.svg" color="#000">
<style>/* example: <span style="background-image:url('commented.jpg')"></span> */ p { color: rgb(200, 0, 0); }
/* @import "commented.css"; */ #x { background-image: url(nothere.png); }</style>
<title>h</title></head><body><p>hints</p><div id="x">x</div></body></html>`})
	tab := openParent(t)
	mount(t, tab, "hints", 1, "n-hints", "")
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	var reports []string
	for _, m := range reportsAfter(t, tab, 500*time.Millisecond) {
		reports = append(reports, m.Kind+" "+m.URL)
	}
	slices.Sort(reports)
	if want := []string{"blocked https://icons.hints.example/i.png", "missing nothere.png"}; !slices.Equal(reports, want) {
		t.Errorf("reports %q, want %q: the icon's blocked request and the one url() outside a comment", reports, want)
	}
}

// TestMissingStaticRefsReportedOnce (issue 13): a static classic <script src> (plain and
// defer) and a stylesheet <link> naming no workspace file are kept with their virtual URL:
// each fires error as over HTTP, the page's load comes without a network wait, and each path
// is one "missing" report (never also "blocked"), like a missing <img src> — with "Allow
// internet in preview" off and on.
func TestMissingStaticRefsReportedOnce(t *testing.T) {
	addSite("missing-static", map[string]string{"index.html": `<!doctype html><title>m</title><script>var errs = [];</script>
<link rel="stylesheet" href="css/nope.css" onerror="errs.push('link')">
<script src="js/nope.js" onerror="errs.push('script')"></script>
<script src="js/later.js?v=1" defer onerror="errs.push('defer')"></script>
<img src="img/nope.png" onerror="errs.push('img')" alt="">
<script>window.addEventListener("load", function () { document.title = errs.sort().join(",") + "|" + Math.round(performance.now()); });</script>`})
	for i, internet := range []string{"", "&internet=1"} {
		tab := openParent(t)
		mount(t, tab, "missing-static", 1, "n-missing-static"+itoa(i), internet)
		if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
			t.Fatalf("internet=%q: ack %+v", internet, ack)
		}
		title, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.title.indexOf("|") >= 0 ? document.title.split("|")[0] : ""`, "defer,img,link,script")
		if err != nil {
			t.Fatalf("internet=%q: page saw %q: %v", internet, title, err)
		}
		full, _ := chromium.EvalInFrame[string](tab, 5*time.Second, `document.title`)
		t.Logf("internet=%q: %s (ms after the frame's navigation start)", internet, full)
		reports := map[string][]string{}
		for _, m := range reportsAfter(t, tab, 400*time.Millisecond) {
			reports[m.URL] = append(reports[m.URL], m.Kind)
		}
		for _, url := range []string{"css/nope.css", "js/nope.js", "js/later.js", "img/nope.png"} {
			if got := reports[url]; len(got) != 1 || got[0] != "missing" {
				t.Errorf("internet=%q: reports for %s = %v, want one missing (all: %v)", internet, url, got, reports)
			}
		}
		for url, kinds := range reports {
			for _, k := range kinds {
				if k == "blocked" {
					t.Errorf("internet=%q: %s reported as blocked (all: %v)", internet, url, reports)
				}
			}
		}
	}
}

// TestUnusedCSSURLsNotReported (issue 13): a stylesheet's url() naming no workspace file is
// reported as missing only when the browser requests it, as over HTTP: the image of a rule
// that matches an element, not of one that matches none, and of a used @font-face only the
// source Chromium picks (woff2), not the eot and svg ones it skips; the sources of a face no
// element uses are not reported until one does (docs/design.md §5.52). Found by e2e/realsites
// (scripts/realsites-fifth.txt: Spectrum's Bootstrap 2 icon sprites, UpUp's Bootstrap 3
// glyphicon fonts, Paper Kit's svg font, Material Kit's carousel cursors were failed requests
// in the preview only).
func TestUnusedCSSURLsNotReported(t *testing.T) {
	addSite("unused-css", map[string]string{
		"index.html": `<!doctype html><title>u</title><link rel="stylesheet" href="css/s.css">
<style>.none { background-image: url(../img/inline-unused.png); } #y { height: 9px; background-image: url(img/inline-used.png); }</style>
<div id="x">x</div><div id="y"></div><p class="i">font</p>
<script>setTimeout(function () { var p = document.createElement("p"); p.className = "late"; p.textContent = "late"; document.body.appendChild(p); }, 300);</script>`,
		"css/s.css": `.nope { background-image: url("../img/unused.png"); }
#x { height: 9px; background-image: url("../img/used.png"); }
@font-face { font-family: "N"; src: url("../f/n.eot"); src: url("../f/n.eot#iefix") format("embedded-opentype"), url("../f/n.woff2") format("woff2"), url("../f/n.svg#N") format("svg"); }
.i { font-family: "N", serif; }
@font-face { font-family: "Unused Face"; src: url("../f/u.woff2") format("woff2"), url("../f/u.woff") format("woff"); }
@font-face { font-family: "Web"; src: url("https://fonts.example.com/w.woff2") format("woff2"); }
.glyph { font-family: "Unused Face"; } .web { font-family: Web; }
@font-face { font-family: "N"; font-weight: 700; src: url("../f/n-bold.woff2") format("woff2"); }
@font-face { font-family: "Late"; src: url("../f/late.woff2") format("woff2"); }
.late { font-family: "Late"; }`,
	})
	tab := openParent(t)
	mount(t, tab, "unused-css", 1, "n-unused-css", "")
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	var reports []string
	for _, m := range reportsAfter(t, tab, 1200*time.Millisecond) {
		reports = append(reports, m.Kind+" "+m.URL)
	}
	slices.Sort(reports)
	reports = slices.Compact(reports)
	// Chromium checks every font source against the policy when it reads the rules; over HTTP
	// only a used face's sources are requested (docs/design.md §5.52): not the unused face's
	// two, nor the external one of a face no element uses, nor N's bold face (only regular
	// text uses N), but the face an element added 300 ms later uses.
	if want := []string{"missing f/late.woff2", "missing f/n.woff2", "missing img/inline-used.png", "missing img/used.png"}; !slices.Equal(reports, want) {
		t.Errorf("reports %q, want %q: only what Chromium requests over HTTP", reports, want)
	}
}

// TestExcludedPathsReportedAsLimits (docs/design.md §5.51): a run-time request for a path the
// workspace can never hold — a hidden folder's file fetched, a node_modules image set by a
// script — is reported as a limit that says why, not as "missing" (the user could not have
// added the file). The request still fails as a missing one does (fetch answers 404).
func TestExcludedPathsReportedAsLimits(t *testing.T) {
	addSite("excluded", map[string]string{"index.html": `<!doctype html><title>x</title><script>
fetch(".data/x.json").then(function (r) { document.documentElement.setAttribute("data-status", String(r.status)); });
var i = new Image(); i.src = "node_modules/pkg/logo.png";
</script>`})
	tab := openParent(t)
	mount(t, tab, "excluded", 1, "n-excluded", "")
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	if got, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.documentElement.getAttribute("data-status")`, "404"); err != nil {
		t.Fatalf("fetch of .data/x.json: %q %v", got, err)
	}
	reports := map[string]string{}
	for _, m := range reportsAfter(t, tab, 400*time.Millisecond) {
		reports[m.URL] = m.Kind + ": " + m.Detail
	}
	for url, what := range map[string]string{".data/x.json": "fetch", "node_modules/pkg/logo.png": "<img src>"} {
		want := "limit: " + what + ": " + url + " is not in the workspace: " + preview.ExcludedReason
		if reports[url] != want {
			t.Errorf("report for %s = %q, want %q (all %v)", url, reports[url], want, reports)
		}
	}
}
