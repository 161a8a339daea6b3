package fidelity

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

// TestLimitsReported (item 3): what an opaque-origin frame cannot do is reported with its own
// diagnostic — a service worker registration (rejected), pushState routing (state kept, URL
// dropped) — and a missing workspace file is a 404 for the page and one "missing" report
// (fetch, an Image's src, inserted markup, static markup), never also a "blocked" one. A
// workspace page in an <iframe> is a limit (design.md §5.26).
func TestLimitsReported(t *testing.T) {
	addSite("limits", map[string]string{"index.html": `<!doctype html><title>l</title><img src="static-gone.png"><iframe src="map.html"></iframe><script>
navigator.serviceWorker.register("sw.js").then(function(){ document.title = "sw ok"; }, function(e){ document.title = "sw " + e.name; });
history.pushState({page: 2}, "", "/products/2");
fetch("nope.json").then(function(r){ document.documentElement.setAttribute("data-status", r.status + ":" + history.state.page); });
var gone = new Image(); gone.src = "gone.png";
document.body.insertAdjacentHTML("beforeend", '<img src="inserted-gone.png">');
</script>`, "sw.js": `self.addEventListener("fetch", function(){});`, "map.html": `<!doctype html><p>map</p>`})
	tab := openParent(t)
	mount(t, tab, "limits", 1, "n-limits", "")
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	if got, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.title + "|" + document.documentElement.getAttribute("data-status")`, "sw SecurityError|404:2"); err != nil {
		t.Fatalf("page saw %q: %v", got, err)
	}
	time.Sleep(400 * time.Millisecond)
	kinds := map[string]string{}
	for _, m := range messages(t, tab) {
		if m.Type == "webcoding.preview.report" {
			kinds[m.URL] = m.Kind + ": " + m.Detail
		}
	}
	for url, want := range map[string]string{"sw.js": "limit: service workers", "/products/2": "limit: history.pushState", "nope.json": "missing",
		"gone.png": "missing", "inserted-gone.png": "missing", "static-gone.png": "missing", "map.html": "limit: a workspace page in an <iframe>"} {
		if !strings.HasPrefix(kinds[url], want) {
			t.Errorf("report for %s = %q, want %q… (all: %v)", url, kinds[url], want, kinds)
		}
	}
	// A missing workspace file is one "missing" report, never also a "blocked" one (the
	// policy's violation for the same request stays silent).
	for url, r := range kinds {
		if strings.HasPrefix(r, "blocked") && strings.Contains(url, "gone") {
			t.Errorf("a missing file was also reported as blocked: %s = %q", url, r)
		}
	}
}

// TestQueryIsALimit: a page mounted with a query (a GET form or a link to "page.html?q=x")
// reads location.search as "" in an about:srcdoc frame; the runtime says so once, as a limit.
func TestQueryIsALimit(t *testing.T) {
	addSite("query", map[string]string{"index.html": `<!doctype html><title>q</title><p id="s"></p><script>document.getElementById("s").textContent = "[" + location.search + "]";</script>`})
	tab := openParent(t)
	mount(t, tab, "query", 1, "n-query", "&search="+url.QueryEscape("?q=shoes"))
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	if got, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.getElementById("s").textContent`, "[]"); err != nil {
		t.Fatalf("page saw %q: %v (location.search is expected to be empty here)", got, err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `window.__of("webcoding.preview.report").some(m => m.kind === "limit" && m.url === "?q=shoes" && m.detail.includes("location.search"))`); err != nil {
		t.Fatalf("no limit report for the query: %v", messages(t, tab))
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
