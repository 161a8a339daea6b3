package fidelity

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/wasm/preview"
)

// TestQuirksModeAsServed: a page Chromium lays out in quirks mode served over HTTP (document.
// compatMode "BackCompat") compiles with preview.Result.Quirks, and in the preview its document
// is in the same mode — loaded from a blob: URL, since an iframe srcdoc document is never in
// quirks mode — with the layout that follows from it (a percentage height against the
// viewport's); a standards page stays srcdoc (docs/design.md §5.53).
func TestQuirksModeAsServed(t *testing.T) {
	pages := []string{
		`<!doctype html><p>x`,
		"\ufeff <!-- c -->\n<!DOCTYPE HTML><p>x",
		`<!DOCTYPE html SYSTEM "about:legacy-compat"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"><p>x`,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><p>x`,
		`<html><body><p>x`,
		`x<!doctype html>`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN" "http://www.w3.org/TR/REC-html40/loose.dtd"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN"><p>x`,
		`<!doctype svg><p>x`,
		`<!DOCTYPE html PUBLIC><p>x`,
		// Any HTML whitespace separates a doctype's parts (XHTML 1.0's own example breaks
		// lines); a doctype the tokenizer marks force-quirks (a keyword without its
		// identifier, a character between the identifiers, an identifier cut off by ">").
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html\n     PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\"\n    \"DTD/xhtml1-strict.dtd\"><p>x",
		"<!DOCTYPE html PUBLIC\n\"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\"><p>x",
		"<!DOCTYPE html\tPUBLIC \"-//W3C//DTD HTML 4.01//EN\"><p>x",
		"<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"\n\t\"http://www.w3.org/TR/html4/loose.dtd\"><p>x",
		`<!DOCTYPE html SYSTEM><p>x`,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN"x><p>x`,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN><p>x`,
		`<!DOCTYPE html SYSTEM "about:legacy-compat" junk><p>x`,
		`<!DOCTYPE html5><p>x`,
		`<!DOCTYPE html"x"><p>x`,
		// Chromium reads an empty system identifier as a missing one, and drops a NUL before the
		// doctype (found by a new-user test, 2026-12-07).
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" ""><p>x`,
		"\x00<!doctype html><p>x",
	}
	var current string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(current))
	}))
	defer srv.Close()
	tab := chromium.NewTab(t)
	var modes []string
	for i, src := range pages {
		current = src
		if err := tab.Do(20*time.Second, navigate(srv.URL+"/p"+itoa(i))); err != nil {
			t.Fatal(err)
		}
		mode, err := chromium.Eval[string](tab, 5*time.Second, `document.compatMode`)
		if err != nil {
			t.Fatal(err)
		}
		res := preview.Compile([]preview.File{{Path: "index.html", Language: preview.LangHTML, Kind: preview.KindText, Source: src}}, preview.Options{Bridge: true})
		if res.Quirks != (mode == "BackCompat") {
			t.Errorf("%q: Chromium %s, Result.Quirks %v", src, mode, res.Quirks)
		}
		modes = append(modes, mode)
	}
	// The same pages in the preview, one mount each in one parent; each document reads its mode,
	// whether it is a srcdoc document, and whether a div of height 50% in a body of no height
	// has one (quirks mode: the body fills the viewport; standards mode: 0).
	tab2 := openParent(t)
	for i, src := range pages {
		name := "quirks-" + itoa(i)
		addSite(name, map[string]string{"index.html": src + `<div id="half" style="height:50%"></div>`})
		mount(t, tab2, name, i+1, "n-quirks-"+itoa(i), "")
		waitAck(t, tab2, i+1)
		got, err := chromium.EvalInFrame[string](tab2, 5*time.Second,
			`document.compatMode + " " + (location.href === "about:srcdoc") + " " + (document.getElementById("half").offsetHeight > 0)`)
		if err != nil {
			t.Fatal(err)
		}
		quirks := modes[i] == "BackCompat"
		want := modes[i] + " " + strconv.FormatBool(!quirks) + " " + strconv.FormatBool(quirks)
		if got != want {
			t.Errorf("%q in the preview: %q, want %q (served: %s)", src, got, want, modes[i])
		}
	}
}

// fragmentsPage exercises fragment navigation (docs/design.md §5.53): a link, the same link
// again, the hash setter with the fragment it already has, a focusable target, a target in a
// closed <details>, an empty hash, replace() and Back, with popstate and hashchange recorded, and a Request
// of a relative URL. Without a doctype (quirks mode) the preview loads it from a blob: URL and
// emulates the navigations; with one it is a srcdoc document and the browser navigates.
func fragmentsPage(doctype string) string {
	return doctype + `<html><head><title>f</title>` + probe + `</head><body>
<a id="l1" href="#sec">s</a> <a id="l2" href="#inp">i</a> <a id="l3" href="#inner">n</a>
<div style="height:3000px"></div><h2 id="sec">sec</h2><input id="inp">
<details id="d"><summary>s</summary><p id="inner">inner</p></details><div style="height:3000px"></div>
<script>
var ev = [];
addEventListener("hashchange", function (e) { ev.push("hc " + e.oldURL.split("#")[1] + ">" + e.newURL.split("#")[1] + " " + (e.newURL === location.href)); });
addEventListener("popstate", function (e) { ev.push("ps " + location.hash + " " + e.state); });
var r = new Request("data/x.json");
log("mode " + document.compatMode);
log("request " + (r.constructor === Request) + " " + (r instanceof Request) + " " + (r.url === new URL("data/x.json", location.href).href));
var h0 = history.length;
function wait(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
function evs() { var s = "[" + ev.join("; ") + "]"; ev = []; return s; }
window.addEventListener("load", async function () {
  await wait(50);
  document.getElementById("l1").click(); await wait(150);
  log("link " + location.hash + " " + (scrollY > 2000) + " " + (history.length - h0) + " " + evs());
  scrollTo(0, 0); document.getElementById("l1").click(); await wait(150);
  log("again " + (scrollY > 2000) + " " + (history.length - h0) + " " + evs());
  scrollTo(0, 0); location.hash = "sec"; await wait(150);
  log("set same " + (scrollY > 2000) + " " + evs());
  document.getElementById("l2").click(); await wait(150);
  log("focus " + (document.activeElement && document.activeElement.id) + " " + evs());
  document.getElementById("l3").click(); await wait(150);
  log("details " + document.getElementById("d").open + " " + location.hash + " " + evs());
  location.hash = ""; await wait(150);
  log("empty [" + location.hash + "] " + location.href.slice(-1) + " " + (scrollY === 0) + " " + evs());
  var h1 = history.length; location.replace("#sec"); await wait(150);
  log("replace " + location.hash + " " + (history.length - h1) + " " + (scrollY > 2000) + " " + evs());
  history.back(); await wait(300);
  log("back " + location.hash + " " + evs());
  log("done");
});
</script></body></html>`
}

func init() {
	fidelitySites = append(fidelitySites,
		fidelitySite{name: "quirks-fragments", want: "mode BackCompat", files: map[string]string{"index.html": fragmentsPage("")}},
		fidelitySite{name: "fragments", want: "mode CSS1Compat", files: map[string]string{"index.html": fragmentsPage("<!doctype html>")}})
}

// TestBackToFirstEntryIsNoNavigation: Back from a fragment to a page's first history entry
// stays in the document (served, nothing loads), and the preview goes on acknowledging it,
// never "navigated away": Chromium fires a load event at the frame element on that traversal
// (found by a new-user test, 2026-12-07), which the shim now checks with the document before
// reporting. A real reload still is reported (a srcdoc page; in a quirks-mode page, a blob:
// document, Chromium drops it and the page stays, unreported).
func TestBackToFirstEntryIsNoNavigation(t *testing.T) {
	for _, doctype := range []string{"<!doctype html>", ""} {
		name := "back-first-quirks"
		if doctype != "" {
			name = "back-first"
		}
		t.Run(name, func(t *testing.T) {
			addSite(name, map[string]string{"index.html": doctype + `<title>b</title><a id="l" href="#sec">s</a><div style="height:3000px"></div><h2 id="sec">sec</h2>`})
			tab := openParent(t)
			mount(t, tab, name, 1, "n-"+name, "")
			if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
				t.Fatalf("ack %+v", ack)
			}
			if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `document.getElementById("l").click(), true`); err != nil {
				t.Fatal(err)
			}
			if _, err := chromium.WaitInFrame[string](tab, 5*time.Second, `location.hash`, "#sec"); err != nil {
				t.Fatal(err)
			}
			if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `history.back(), true`); err != nil {
				t.Fatal(err)
			}
			if _, err := chromium.WaitInFrame[string](tab, 5*time.Second, `location.hash`, ""); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2500 * time.Millisecond)
			if n, err := chromium.Eval[int](tab, 5*time.Second, `window.__of("webcoding.preview.leaving").length`); err != nil || n != 0 {
				t.Fatalf("after Back to the first entry: %d leaving messages (%v): %v", n, err, messages(t, tab))
			}
			if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `window.marker = 1, setTimeout(function () { eval("location.reload()"); }, 0), true`); err != nil {
				t.Fatal(err)
			}
			if doctype == "" {
				// A blob: document's own navigations are dropped by Chromium (docs/design.md §5.53): the reload
				// does nothing, and nothing is reported.
				time.Sleep(2500 * time.Millisecond)
				if m, err := chromium.EvalInFrame[int](tab, 5*time.Second, `window.marker`); err != nil || m != 1 {
					t.Fatalf("the quirks-mode page after a reload by eval: marker %d (%v), want the same document", m, err)
				}
				if n, _ := chromium.Eval[int](tab, 5*time.Second, `window.__of("webcoding.preview.leaving").length`); n != 0 {
					t.Fatalf("the quirks-mode page after a reload by eval: %d leaving messages", n)
				}
				return
			}
			if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `window.__of("webcoding.preview.leaving").length > 0`); err != nil {
				t.Fatalf("a reload: no leaving message: %v", messages(t, tab))
			}
		})
	}
}
