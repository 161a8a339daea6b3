package fidelity

// A <frameset> (issue 13; docs/design.md §5.48): its <frame>s show workspace pages in a
// subfolder that link their own stylesheet and script; the list frame's links open in the
// frame named by its <base target>, the way generated API documentation (javadoc, Paper.js's
// docs) works. Each frame reports to the frameset's document with postMessage; its #out is
// what both runs read. Before §5.48 the frames loaded the studio's address in the preview.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "frameset", want: "child: main ?q=1 pages/b.html name=main", files: map[string]string{
		"index.html": `<!doctype html><html><head><title>fs</title>` + probe + `<script>
addEventListener("message", function (e) {
  if (!e.data || typeof e.data.child !== "string") return;
  log("child: " + e.data.child);
  if (e.data.child === "end") setTimeout(function () {
    var fs = document.querySelectorAll("frame");
    log("frames " + fs.length + " src=" + fs[0].getAttribute("src") + " " + fs[0].src.split("/").slice(-2).join("/") + " second=" + fs[1].getAttribute("src"));
    log("done");
  }, 300);
});
</script></head><frameset cols="30%,*"><frame src="nav/list.html" name="list"><frame src="about:blank" name="main"></frameset></html>`,
		"nav/list.html": `<!doctype html><html><head><base target="main"><link rel="stylesheet" href="../css/s.css"></head><body><a id="l" href="../pages/b.html?q=1">b</a><script src="list.js"></script></body></html>`,
		"nav/list.js": `function say(s) { parent.postMessage({ child: s }, "*"); }
addEventListener("load", function () {
  say("list color " + getComputedStyle(document.body).color + " name=" + window.name + " page " + location.pathname.split("/").slice(-2).join("/"));
  document.getElementById("l").click();
});`,
		"css/s.css": `body { color: rgb(4, 5, 6); }`,
		"pages/b.html": `<!doctype html><html><body><p>b</p><script>
parent.postMessage({ child: "main " + location.search + " " + location.pathname.split("/").slice(-2).join("/") + " name=" + window.name }, "*");
setTimeout(function () { parent.postMessage({ child: "end" }, "*"); }, 100);
</script></body></html>`,
	}})
}

// A <frame>'s page without a <meta charset> (docs/design.md §5.48): over HTTP the server's
// charset decodes it; the preview's blob: URL must say UTF-8, or the page is decoded as
// windows-1252 (the frame's document is cross-origin to its parent, so it does not inherit
// the parent's encoding) and its text and link targets come out garbled: "é" read "Ã©", and
// a link naming a frame "é" found no frame.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "frameset-utf8", want: "text: café 한국 charset=UTF-8", files: map[string]string{
		"index.html": `<!doctype html><html><head><meta charset="utf-8">` + probe + `<script>
addEventListener("message", function (e) {
  if (!e.data || typeof e.data.t !== "string") return;
  log(e.data.t);
  if (e.data.t.indexOf("opened") === 0) log("done");
});
</script></head><frameset cols="*,*"><frame src="nav.html" name="nav"><frame name="é"></frameset></html>`,
		"nav.html": `<!doctype html><p id="p">café 한국</p><a id="l" target="é" href="page.html">p</a><script>
parent.postMessage({ t: "text: " + document.getElementById("p").textContent + " charset=" + document.characterSet }, "*");
addEventListener("load", function () { document.getElementById("l").click(); });
</script>`,
		"page.html": `<!doctype html><p>p</p><script>parent.postMessage({ t: "opened in " + window.name }, "*");</script>`,
	}})
}

// A frameset page's own DOMContentLoaded listener and defer script (docs/design.md §5.48) see
// the frames' src as written, and a src the listener sets is the one that stays. Before, the
// runtime set the static frames' src in a DOMContentLoaded listener it added while the parser
// inserted them, after the page's: the page read null and "", and its frame.src was
// overwritten with the static one. e.html posts nothing: whether it runs for a moment before
// the listener's src replaces it is a race in any browser (its response against the defer
// script's), and an earlier version that had it post after 400 ms failed under load.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "frameset-dcl", want: "dcl 2 attr=pages/c.html", files: map[string]string{
		"index.html": `<!doctype html><html><head>` + probe + `<script>
var got = [];
document.addEventListener("DOMContentLoaded", function () {
  var fs = document.querySelectorAll("frame");
  log("dcl " + fs.length + " attr=" + fs[0].getAttribute("src") + " prop=" + fs[0].src.split("/").slice(-2).join("/"));
  fs[1].src = "pages/d.html";
});
addEventListener("message", function (e) { if (e.data && e.data.p) got.push(e.data.p); });
addEventListener("load", function () { setTimeout(function () {
  log("got " + got.sort().join(",") + " attr1=" + document.querySelectorAll("frame")[1].getAttribute("src")); log("done"); }, 1200); });
</script><script defer src="defer.js"></script></head><frameset cols="*,*"><frame src="pages/c.html" name="c"><frame src="pages/e.html" name="e"></frameset></html>`,
		"defer.js":     `log("defer attr=" + document.querySelector("frame").getAttribute("src"));`,
		"pages/c.html": `<!doctype html><p>c</p><a href="d.html">d</a><script>parent.postMessage({p: "c"}, "*");</script>`,
		"pages/e.html": `<!doctype html><p>e</p>`,
		"pages/d.html": `<!doctype html><p>d</p><script>parent.postMessage({p: "d"}, "*");</script>`,
	}})
}

// A link whose target is a name starting with "_" that is no keyword ("_foo") names a
// navigable like any other name (HTML "the rules for choosing a navigable"): with no frame of
// that name it opens a new window and the page stays (docs/design.md §5.48). Before, the
// preview's page took it for "_self" and navigated itself.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "target-underscore-name", want: "stayed", steps: []string{`document.getElementById("b").click()`}, files: map[string]string{
		"index.html": `<!doctype html><title>t</title>` + probe + `<a id="b" target="_foo" href="p.html">p</a><script>
document.getElementById("b").addEventListener("click", function () { setTimeout(function () { log("stayed"); log("done"); }, 500); });
</script>`,
		"p.html": `<!doctype html><title>p</title>` + probe + `<script>log("navigated"); log("done");</script>`,
	}})
}

// A workspace page without a doctype in an <iframe> (docs/design.md §5.54): served, it is laid
// out in quirks mode (a 50% height inside a body of no height is half the frame); a srcdoc
// document never is, so the preview loads it from a blob: URL as it does a <frame>'s page.
// Three ways in: a static <iframe>, one a script makes, and a navigation inside a frame that
// showed a standards page (its srcdoc replaced). The page reads each frame's src as written.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "iframe-quirks", want: "old ?s BackCompat half=true", files: map[string]string{
		"index.html": `<!doctype html><html><head><title>iq</title>` + probe + `<script>
var got = [];
addEventListener("message", function (e) {
  if (!e.data || typeof e.data.t !== "string") return;
  got.push(e.data.t);
  if (got.length === 4) setTimeout(function () {
    got.sort().forEach(log);
    var s = document.getElementById("s"), d = document.getElementById("d"), n = document.getElementById("n");
    log("static src=" + s.getAttribute("src") + " " + s.src.split("/").pop() + " srcdoc=" + s.getAttribute("srcdoc"));
    log("dynamic src=" + d.getAttribute("src") + " " + d.src.split("/").pop() + " nav src=" + n.getAttribute("src") + " " + n.src.split("/").pop());
    log("done");
  }, 300);
});
</script></head><body>
<iframe id="s" src="old.html?s" style="height:120px"></iframe>
<iframe id="n" src="std.html" style="height:120px"></iframe>
<script>var d = document.createElement("iframe"); d.id = "d"; d.style.height = "120px"; d.src = "old.html?d#top"; document.body.appendChild(d);</script>
</body></html>`,
		"old.html": `<html><head><title>old</title></head><body><div id="half" style="height:50%"></div><p id="top">t</p><script>
parent.postMessage({ t: "old " + location.search + " " + document.compatMode + " half=" + (document.getElementById("half").offsetHeight > 0) + " " + document.characterSet + " hash=" + location.hash }, "*");
</script></body></html>`,
		"std.html": `<!doctype html><html><body><script>
parent.postMessage({ t: "std " + document.compatMode }, "*");
setTimeout(function () { location.href = "old.html?n"; }, 50);
</script></body></html>`,
	}})
}
