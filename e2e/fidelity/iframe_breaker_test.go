package fidelity

// Cases of workspace pages in frames around docs/design.md §5.54 (a quirks-mode page in an
// <iframe> is a blob: document): src toggled between quirks and standards pages, reload, link
// targets, innerHTML, nesting, a quirks top page, console, encoding, storage and fragments
// inside the frame — each served and in the preview, compared. Found by a new-user test
// (2026-12-07); bk-toggle failed before the fix that forgets the remembered src.

// bkAttrs: a parent-side helper logging an iframe's src/srcdoc reads.
const bkAttrs = `<script>function attrs(f){ return "src=" + f.getAttribute("src") + " prop=" + String(f.src).split("/").pop() + " srcdoc=" + (f.getAttribute("srcdoc") === null ? "null" : JSON.stringify(f.getAttribute("srcdoc").slice(0, 20))); }</script>`

// child pages: q (no doctype), s (standards); each says who it is and obeys commands.
const bkCmd = `<script>addEventListener("message", function (e) {
  if (e.data === "go-q2") location.href = "q2.html";
  if (e.data === "go-q") location.href = "q.html?nav";
  if (e.data === "go-s") location.href = "s.html?nav";
  if (e.data === "back") history.back();
  if (e.data === "reload") location.reload();
});</script>`

func bkQ(name string) string {
	return `<html><head><title>` + name + `</title></head><body><div id="half" style="height:50%"></div><a href="q.html">q</a><a href="q2.html">q2</a><a href="s.html">s</a>` + bkCmd + `<script>
console.log("` + name + ` " + location.search + " " + document.compatMode);
parent.postMessage({ t: "` + name + `" + location.search + location.hash + " " + document.compatMode + " half=" + (document.getElementById("half").offsetHeight > 0) }, "*");
</script></body></html>`
}
func bkS(name string) string {
	return `<!doctype html><html><head><title>` + name + `</title></head><body><a href="q.html">q</a><a href="q2.html">q2</a><a href="s.html">s</a>` + bkCmd + `<script>
console.log("` + name + ` " + location.search + " " + document.compatMode);
parent.postMessage({ t: "` + name + `" + location.search + location.hash + " " + document.compatMode }, "*");
</script></body></html>`
}

// bkParent: the page runs steps[i](f) after the (i+1)-th message of the frame, logging every
// message (and any foreign one) and the frame's attributes.
func bkParent(steps, body string) string {
	return `<!doctype html><html><head><title>p</title>` + probe + bkAttrs + `<script>
function finish() { log("end " + attrs(document.getElementById("f"))); log("done"); }
var steps = [` + steps + `], i = 0;
addEventListener("message", function (e) {
  if (!e.data || typeof e.data.t !== "string") { log("other " + JSON.stringify(e.data)); return; }
  var f = document.getElementById("f");
  log(e.data.t + " | " + attrs(f));
  if (i < steps.length) { var st = steps[i++]; setTimeout(function () { st(f); log("  after step " + i + ": " + attrs(document.getElementById("f"))); }, 80); }
  else setTimeout(function () { log("end " + attrs(document.getElementById("f"))); log("done"); }, 600);
});
</script></head><body>` + body + `</body></html>`
}

func bkFiles(index string) map[string]string {
	return map[string]string{"index.html": index, "q.html": bkQ("q"), "q2.html": bkQ("q2"), "s.html": bkS("s")}
}

func init() {
	fidelitySites = append(fidelitySites,
		// src toggled between quirks and standards pages, by property and setAttribute.
		fidelitySite{name: "bk-toggle", want: "q?4 BackCompat", files: bkFiles(bkParent(`
function (f) { f.src = "q.html"; },
function (f) { f.src = "s.html"; },
function (f) { f.setAttribute("src", "q.html?2"); },
function (f) { f.setAttribute("src", "s.html?2"); },
function (f) { f.src = "q.html?3"; },
function (f) { f.setAttribute("src", "q.html?4"); }`, `<iframe id="f" src="s.html"></iframe>`))},
		// A nested document that loads again without the runtime filling the frame: the frame
		// removed and inserted again, the same src set again, src removed and set again, and
		// Back inside the frame to a page it showed before (a blob: entry, or from one; Back from
		// a blob: entry to a srcdoc one is a limit, docs/design.md §5.54).
		fidelitySite{name: "bk-reinsert-q", want: "q BackCompat", files: bkFiles(bkParent(`
function (f) { var p = f.parentNode; p.removeChild(f); p.appendChild(f); }`, `<iframe id="f" src="q.html"></iframe>`))},
		fidelitySite{name: "bk-reinsert-s", want: "s CSS1Compat", files: bkFiles(bkParent(`
function (f) { var p = f.parentNode; p.removeChild(f); p.appendChild(f); }`, `<iframe id="f" src="s.html"></iframe>`))},
		fidelitySite{name: "bk-same-src", want: "q BackCompat", files: bkFiles(bkParent(`
function (f) { f.setAttribute("src", f.getAttribute("src")); }`, `<iframe id="f" src="q.html"></iframe>`))},
		fidelitySite{name: "bk-remove-src", want: "q BackCompat", files: bkFiles(bkParent(`
function (f) { f.removeAttribute("src"); log("  removed " + attrs(f)); setTimeout(function () { f.src = "q.html"; log("  set again " + attrs(f)); }, 300); }`, `<iframe id="f" src="q.html"></iframe>`))},
		fidelitySite{name: "bk-back-qq", want: "q2 BackCompat", files: bkFiles(bkParent(`
function (f) { f.contentWindow.postMessage("go-q2", "*"); },
function (f) { f.contentWindow.postMessage("back", "*"); }`, `<iframe id="f" src="q.html"></iframe>`))},
		fidelitySite{name: "bk-back-qs", want: "s?nav CSS1Compat", files: bkFiles(bkParent(`
function (f) { f.contentWindow.postMessage("go-s", "*"); },
function (f) { f.contentWindow.postMessage("back", "*"); }`, `<iframe id="f" src="q.html"></iframe>`))},
		fidelitySite{name: "bk-reload", want: "q BackCompat", files: bkFiles(bkParent(`
function (f) { f.contentWindow.postMessage("reload", "*"); },
function (f) { f.contentWindow.postMessage("reload", "*"); }`, `<iframe id="f" src="q.html"></iframe>`))},
		fidelitySite{name: "bk-target", want: "q?l BackCompat", files: bkFiles(bkParent(`
function (f) { document.getElementById("a").click(); },
function (f) { document.getElementById("b").click(); }`, `<iframe id="f" name="fr" src="s.html"></iframe><a id="a" target="fr" href="q.html?l">a</a><a id="b" target="fr" href="s.html?l">b</a>`))},
		// innerHTML-inserted iframe.
		fidelitySite{name: "bk-innerhtml", want: "q?ih BackCompat", files: bkFiles(bkParent(`
function (f) { document.getElementById("box").innerHTML = '<iframe id="g" src="q.html?ih2"></iframe>'; f.id = "old"; document.getElementById("g").id = "f"; }`,
			`<iframe id="h" src="s.html" style="display:none"></iframe><div id="box"></div><script>document.getElementById("box").innerHTML = '<iframe id="f" src="q.html?ih"></iframe>';</script>`))},
	)
}

const bkFwd = `<script>addEventListener("message", function (e) {
  if (typeof e.data === "string") { var f = document.querySelector("iframe"); if (f) f.contentWindow.postMessage(e.data, "*"); return; }
  if (e.data && typeof e.data.t === "string") parent.postMessage({ t: "via " + document.title + ": " + e.data.t }, "*");
});</script>`

func init() {
	fidelitySites = append(fidelitySites,
		// quirks inside quirks inside the standards page; the innermost navigates, then reloads.
		fidelitySite{name: "bk-nested", want: "via a: q2 BackCompat", files: map[string]string{
			"index.html": `<!doctype html><title>p</title>` + probe + `<script>
var got = [];
addEventListener("message", function (e) { got.push(e.data && e.data.t ? e.data.t : "other " + JSON.stringify(e.data)); });
setTimeout(function () { document.getElementById("f").contentWindow.postMessage("go-q2", "*"); }, 1000);
setTimeout(function () { document.getElementById("f").contentWindow.postMessage("reload", "*"); }, 2000);
setTimeout(function () { got.sort().forEach(log); log("inner " + document.getElementById("f").getAttribute("src")); log("done"); }, 3000);
</script><iframe id="f" src="a.html"></iframe>`,
			"a.html": `<html><head><title>a</title></head><body><div id="half" style="height:50%"></div>` + bkFwd + `<iframe src="q.html"></iframe><script>
console.log("a " + document.compatMode);
parent.postMessage({ t: "a " + document.compatMode + " half=" + (document.getElementById("half").offsetHeight > 0) + " inner=" + document.querySelector("iframe").getAttribute("src") }, "*");
setTimeout(function () { parent.postMessage({ t: "a later inner=" + document.querySelector("iframe").getAttribute("src") + " " + String(document.querySelector("iframe").src).split("/").pop() }, "*"); }, 2500);
</script></body></html>`,
			"q.html": bkQ("q"), "q2.html": bkQ("q2"), "s.html": bkS("s")}},
		// a quirks top page framing a quirks page.
		fidelitySite{name: "bk-quirks-top", want: "top BackCompat", files: map[string]string{
			"index.html": `<html><head><title>p</title>` + probe + bkAttrs + `<script>
addEventListener("message", function (e) {
  var f = document.getElementById("f");
  log("top " + document.compatMode + " got " + (e.data && e.data.t) + " | " + attrs(f));
  if (e.data.t.indexOf("q2") === 0) setTimeout(function () { log("done"); }, 300); else f.src = "q2.html?b";
});
</script></head><body><iframe id="f" src="q.html?a"></iframe></body></html>`,
			"q.html": bkQ("q"), "q2.html": bkQ("q2"), "s.html": bkS("s")}},
		// console and an uncaught error from framed pages.
		fidelitySite{name: "bk-console-q", want: "msg", files: map[string]string{
			"index.html": `<!doctype html><title>p</title>` + probe + `<script>addEventListener("message", function (e) { log("msg " + e.data); setTimeout(function () { log("done"); }, 500); });</script><iframe src="c.html"></iframe>`,
			"c.html": `<html><body><p>c</p><script>
console.log("c log", 1, { a: 1 }); console.warn("c warn"); console.error("c error");
parent.postMessage(document.compatMode, "*");
setTimeout(function () { null.x; }, 50);
</script></body></html>`}},
		fidelitySite{name: "bk-console-s", want: "msg", files: map[string]string{
			"index.html": `<!doctype html><title>p</title>` + probe + `<script>addEventListener("message", function (e) { log("msg " + e.data); setTimeout(function () { log("done"); }, 500); });</script><iframe src="c.html"></iframe>`,
			"c.html": `<!doctype html><html><body><p>c</p><script>
console.log("c log", 1, { a: 1 }); console.warn("c warn"); console.error("c error");
parent.postMessage(document.compatMode, "*");
setTimeout(function () { null.x; }, 50);
</script></body></html>`}},
		// non-ASCII text with a legacy doctype and no meta charset.
		fidelitySite{name: "bk-nonascii", want: "BackCompat", files: map[string]string{
			"index.html": `<!doctype html><title>p</title>` + probe + `<script>addEventListener("message", function (e) { log(e.data); log("done"); });</script><iframe src="u.html"></iframe>`,
			"u.html": `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><head><title>Ünï 한국</title></head><body><p id="p" title="é€">café 한국 — “quotes” 😀</p><script>
var s = "é€😀";
parent.postMessage(document.compatMode + " " + document.characterSet + " " + document.title + " " + document.getElementById("p").textContent + " " + document.getElementById("p").title + " " + s + " " + s.length, "*");
</script></body></html>`}},
		// storage both ways.
		fidelitySite{name: "bk-storage", want: "parent sees child", files: map[string]string{
			"index.html": `<!doctype html><title>p</title>` + probe + `<script>
localStorage.setItem("p", "1"); sessionStorage.setItem("sp", "2");
var n = 0;
addEventListener("message", function (e) {
  log("msg " + e.data);
  if (++n === 1) {
    var t0 = Date.now();
    (function w() { if (localStorage.getItem("c") || Date.now() - t0 > 2000) { log("parent sees " + localStorage.getItem("c") + " " + sessionStorage.getItem("sc"));
      localStorage.setItem("p2", "3"); setTimeout(function () { document.querySelector("iframe").contentWindow.postMessage("read", "*"); }, 900); } else setTimeout(w, 20); })();
  } else log("done");
});
</script><iframe src="st.html"></iframe>`,
			"st.html": `<html><body><script>
parent.postMessage("child sees " + localStorage.getItem("p") + " " + sessionStorage.getItem("sp") + " " + document.compatMode, "*");
localStorage.setItem("c", "child"); sessionStorage.setItem("sc", "schild");
addEventListener("message", function (e) { if (e.data === "read") parent.postMessage("child reads " + localStorage.getItem("p2"), "*"); });
</script></body></html>`}},
		fidelitySite{name: "bk-frag-q", want: "hashchange", files: map[string]string{
			"index.html": bkFragParent, "f.html": "<html><body>" + bkFragBody}},
		fidelitySite{name: "bk-frag-s", want: "hashchange", files: map[string]string{
			"index.html": bkFragParent, "f.html": "<!doctype html><html><body>" + bkFragBody}},
	)
}

// bkFragBody: a framed page that moves to a fragment and back when its parent asks, and says
// what it saw (after its <html><body>, with or without a doctype).
const bkFragBody = `<p>x</p><div style="height:3000px"></div><p id="b">b</p><script>
function say(x) { parent.postMessage({ t: x + " hash=" + location.hash + " " + document.compatMode }, "*"); }
addEventListener("hashchange", function (e) { say("hashchange " + e.newURL.split("/").pop()); });
addEventListener("popstate", function () { say("popstate"); });
addEventListener("message", function (e) { if (e.data === "frag") location.hash = "b"; if (e.data === "back") history.back(); });
say("loaded");
</script></body></html>`

const bkFragParent = `<!doctype html><title>p</title>` + probe + `<script>
var got = [];
addEventListener("message", function (e) { log(e.data && e.data.t); });
setTimeout(function () { document.getElementById("f").contentWindow.postMessage("frag", "*"); }, 600);
setTimeout(function () { document.getElementById("f").contentWindow.postMessage("back", "*"); }, 1200);
setTimeout(function () { log("done"); }, 1900);
</script><iframe id="f" src="f.html"></iframe>`
