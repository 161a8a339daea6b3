package fidelity

import (
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

// Workspace pages in frames (issue 13, docs/preview.md "Workspace pages in frames"): a page
// embedding a workspace page in a subfolder, which links its own stylesheet, shows an image
// resolved against its own path, runs its own script, reads its query and hash, fetches JSON,
// reads the localStorage its parent set and writes one the parent then reads, and logs to the
// console — identical served over HTTP and in the preview. The child reports to the parent
// with postMessage (the parent's #out is what both runs read).
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "frames", want: "child: json 7", files: map[string]string{
		"index.html": `<!doctype html><title>f</title>` + probe + `<script>
localStorage.setItem("from-parent", "p1");
addEventListener("message", function (e) {
  if (!e.data || typeof e.data.child !== "string") return;
  log("child: " + e.data.child);
  if (e.data.child === "end") setTimeout(function () {
    var f = document.getElementById("w");
    log("parent reads " + localStorage.getItem("from-child") + " attr=" + f.getAttribute("src") + " srcdoc=" + f.getAttribute("srcdoc") + " src=" + f.src.split("/").slice(-2).join("/"));
    log("done");
  }, 900);
});
</script><iframe id="w" src="widgets/w.html?x=1#top" width="300" height="100"></iframe>`,
		"widgets/w.html": `<!doctype html><html><head><link rel="stylesheet" href="w.css"></head><body><img id="i" src="../img/a.png"><script src="w.js"></script></body></html>`,
		"widgets/w.css":  `body { color: rgb(1, 2, 3); }`,
		"widgets/w.js": `function say(s) { parent.postMessage({ child: s }, "*"); }
say("search " + location.search + " hash " + location.hash + " page " + location.pathname.split("/").slice(-2).join("/"));
say("ls " + localStorage.getItem("from-parent"));
console.log("hello from the child");
window.addEventListener("load", function () {
  var img = document.getElementById("i");
  say("color " + getComputedStyle(document.body).color + " img " + img.naturalWidth + "x" + img.naturalHeight);
  fetch("../data.json").then(function (r) { return r.json(); }).then(function (j) {
    say("json " + j.v);
    localStorage.setItem("from-child", "c1");
    say("end");
  });
});`,
		"data.json": `{"v": 7}`,
		"img/a.png": pngBytes(3, 2),
	}})
}

// TestFrameLimits: a page shows itself in a frame once, and the frame inside that one stays
// empty (as browsers leave a frame naming the URL of an ancestor of its document) with one
// limit report; pages nested deeper than preview.MaxFrameDepth are a limit report; an
// uncaught error in a nested page fails the mount with its message and is an error entry
// naming the nested page's file; what the nested page posts to the studio (forged hellos and
// readies through top) is never taken, and the mount is never acknowledged.
func TestFrameLimits(t *testing.T) {
	addSite("frameself", map[string]string{
		"index.html": `<!doctype html><title>s</title><iframe src="index.html"></iframe>`,
	})
	selfTab := openParent(t)
	mount(t, selfTab, "frameself", 1, "n-frameself", "")
	if ack := waitAck(t, selfTab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	var selfReports []string
	for _, m := range reportsAfter(t, selfTab, 400*time.Millisecond) {
		selfReports = append(selfReports, m.URL+" "+m.Kind+": "+m.Detail)
	}
	if len(selfReports) != 1 || !strings.HasPrefix(selfReports[0], "index.html limit: a page in a frame inside a frame of itself (index.html → index.html → index.html)") {
		t.Errorf("self-embedding reports = %q, want the one of the frame inside the first self-frame", selfReports)
	}

	addSite("framelimits", map[string]string{
		"index.html": `<!doctype html><title>l</title><iframe src="d1.html"></iframe>`,
		"d1.html":    `<!doctype html><p>1</p><iframe src="d2.html"></iframe>`,
		"d2.html":    `<!doctype html><p>2</p><iframe src="d3.html"></iframe>`,
		"d3.html":    `<!doctype html><p>3</p><iframe src="d4.html"></iframe>`,
		"d4.html":    `<!doctype html><p>4</p>`,
	})
	tab := openParent(t)
	mount(t, tab, "framelimits", 1, "n-framelimits", "")
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	reports := map[string]string{}
	for _, m := range reportsAfter(t, tab, 400*time.Millisecond) {
		reports[m.URL] = m.Kind + ": " + m.Detail
	}
	if r := reports["d4.html"]; !strings.HasPrefix(r, "limit: workspace pages nested deeper than 3 frames") {
		t.Errorf("depth report = %q (all %v)", r, reports)
	}
	if len(reports) != 1 {
		t.Errorf("reports %v, want exactly the depth limit", reports)
	}

	addSite("framebad", map[string]string{
		"index.html": `<!doctype html><title>b</title><iframe src="bad.html"></iframe>`,
		"bad.html": `<!doctype html><script>
window["top"].postMessage({ type: "webcoding.preview.hello", v: 1, revision: 2, nonce: "n-framebad" }, "*");
window["top"].postMessage({ type: "webcoding.preview.ready", revision: 2, nonce: "n-framebad" }, "*");
parent.postMessage({ type: "webcoding.preview.frame", v: 1 }, "*");
</script><script>
undefinedThing.boom();
</script>`,
	})
	tab2 := openParent(t)
	mount(t, tab2, "framebad", 2, "n-framebad", "")
	ack := waitAck(t, tab2, 2)
	if ack.Type != "webcoding.preview.error" || !strings.Contains(ack.Message, "undefinedThing is not defined") {
		t.Errorf("ack %+v, want the nested page's error", ack)
	}
	time.Sleep(400 * time.Millisecond)
	var entry bool
	for _, m := range messages(t, tab2) {
		switch {
		case m.Type == "webcoding.preview.ready":
			t.Errorf("a ready was taken: %+v", m)
		case m.Type == "webcoding.preview.console" && m.Kind == "error":
			entry = entry || m.Path == "bad.html" && m.Line == 6 && strings.Contains(m.Text, "undefinedThing")
		}
	}
	if !entry {
		t.Errorf("no error entry naming bad.html line 6: %v", messages(t, tab2))
	}
}

// TestFrameNavigation: a link in a nested page opens the other workspace page (query kept)
// in the same frame while the preview's page stays, as over HTTP; the preview page is
// acknowledged once.
func TestFrameNavigation(t *testing.T) {
	addSite("framenav", map[string]string{
		"index.html": `<!doctype html><title>n</title><script>var seen = []; addEventListener("message", function (e) { seen.push(String(e.data)); document.title = seen.join("|"); });</script><iframe src="a.html"></iframe>`,
		"a.html":     `<!doctype html><a id="go" href="b.html?k=2">b</a><script>parent.postMessage("a:" + location.search, "*"); addEventListener("load", function () { document.getElementById("go").click(); });</script>`,
		"b.html":     `<!doctype html><script>parent.postMessage("b:" + location.search, "*");</script>`,
	})
	tab := openParent(t)
	mount(t, tab, "framenav", 1, "n-framenav", "")
	if ack := waitAck(t, tab, 1); ack.Type != "webcoding.preview.ready" {
		t.Fatalf("ack %+v", ack)
	}
	if got, err := chromium.WaitInFrame[string](tab, 10*time.Second, `document.title`, "a:|b:?k=2"); err != nil {
		t.Fatalf("title %q: %v", got, err)
	}
	n := 0
	for _, m := range messages(t, tab) {
		if m.Type == "webcoding.preview.ready" || m.Type == "webcoding.preview.navigate" || m.Type == "webcoding.preview.leaving" {
			n++
			if m.Type != "webcoding.preview.ready" {
				t.Errorf("the studio got %+v", m)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d ready/navigate/leaving messages, want one ready", n)
	}
}
