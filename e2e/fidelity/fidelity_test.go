package fidelity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/e2e/fidelity/harness"
	"golang.org/x/image/font/gofont/goregular"
)

// The fidelity suite (issue 13 "Tests"): small sites written for it, each run in Chromium
// served over HTTP (loopback httptest) and in the preview (the real shim, the real runtime,
// preview.Compile), with the same interaction probe; the text of #out after the steps, the
// console lines and the uncaught errors must be identical.
//
// Every site writes its observations as lines into <pre id="out"> (the DOM is what both runs
// can read: the preview frame's globals are out of reach by design) and ends with "done".
// Values that legitimately differ between an http: URL and the preview's virtual origin are
// not written (sites print paths, not absolute URLs).

// probe is shared by every site: log(line) appends to #out.
const probe = `<script>function log(s){var o=document.getElementById("out")||document.documentElement.appendChild(Object.assign(document.createElement("pre"),{id:"out"}));o.textContent+=s+"\n";}</script>`

// pngBytes is a w×h PNG (its size is the observable).
func pngBytes(w, h int) string {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, 0, color.RGBA{200, 10, 10, 255})
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.String()
}

// wavBytes is a silent 8 kHz mono 8-bit PCM WAV of n samples (its duration is the observable).
func wavBytes(n int) string {
	var b bytes.Buffer
	le := func(v uint32, size int) {
		for i := 0; i < size; i++ {
			b.WriteByte(byte(v >> (8 * i)))
		}
	}
	b.WriteString("RIFF")
	le(uint32(36+n), 4)
	b.WriteString("WAVEfmt ")
	le(16, 4)
	le(1, 2)    // PCM
	le(1, 2)    // mono
	le(8000, 4) // sample rate
	le(8000, 4) // byte rate
	le(1, 2)    // block align
	le(8, 2)    // bits per sample
	b.WriteString("data")
	le(uint32(n), 4)
	b.Write(bytes.Repeat([]byte{128}, n))
	return b.String()
}

// waitWidths polls until every element of ids has a width (an image in content:url() loaded)
// or 3 s pass, then logs each width.
const waitWidths = `<script>function waitWidths(ids, then){ var t0 = Date.now(); (function w(){ var xs = ids.map(function(id){ return document.getElementById(id).getBoundingClientRect().width; });
  if (xs.every(function(x){ return x > 0; }) || Date.now() - t0 > 3000) { ids.forEach(function(id, i){ log(id + " " + xs[i]); }); then(); } else setTimeout(w, 20); })(); }</script>`

type fidelitySite struct {
	name  string
	files map[string]string
	steps []string // JS run in the page after "ready" (clicks, input), in order
	want  string   // a substring #out must contain (guards against both runs failing alike)
}

var fidelitySites = []fidelitySite{
	{name: "timing", want: "defer found=true", files: map[string]string{
		"index.html": `<!doctype html><html><head>` + probe + `
<script>log("classic head state=" + document.readyState + " found=" + !!document.getElementById("late"));
document.addEventListener("DOMContentLoaded", function(){ log("DOMContentLoaded"); });
window.addEventListener("load", function(){ log("load"); setTimeout(function(){ log("done"); }, 100); });</script>
<script src="defer.js" defer></script>
<script src="mod.js" type="module"></script>
<script type="module">log("inline module state=" + document.readyState);</script>
<script src="classic.js"></script>
</head><body><p id="late">late</p><script>log("inline body state=" + document.readyState);</script></body></html>`,
		"defer.js":   `log("defer found=" + !!document.getElementById("late") + " state=" + document.readyState);`,
		"mod.js":     `import { k } from "./lib.js"; log("module " + k + " state=" + document.readyState); document.addEventListener("DOMContentLoaded", function(){ log("module saw DOMContentLoaded"); });`,
		"lib.js":     `export const k = "lib";`,
		"classic.js": `log("classic src found=" + !!document.getElementById("late"));`,
	}},
	{name: "fetch", want: "json Tea,Cake", files: map[string]string{
		"index.html": `<!doctype html><title>f</title>` + probe + `<script>
fetch("data/products.json").then(function(r){ log("status " + r.status + " " + r.headers.get("content-type").split(";")[0]); return r.json(); })
.then(function(d){ log("json " + d.map(function(p){ return p.name; }).join(",")); return fetch(new Request("./data/../data/products.json")); })
.then(function(r){ return r.text(); }).then(function(t){ log("request len " + t.length); return fetch("missing.json"); })
.then(function(r){ log("missing " + r.status + " ok=" + r.ok); })
.then(function(){ var x = new XMLHttpRequest(); x.open("GET", "data/products.json"); x.responseType = "json"; x.onload = function(){ log("xhr " + x.status + " " + x.response.length); log("done"); }; x.send(); })
.catch(function(e){ log("error " + e); log("done"); });
</script>`,
		"data/products.json": `[{"name":"Tea"},{"name":"Cake"}]`,
	}},
	{name: "images", want: "img 3x2", files: map[string]string{
		"index.html": `<!doctype html><title>i</title>` + probe + `<div id="box"></div><script>
var a = new Image(); a.onload = function(){ log("img " + a.naturalWidth + "x" + a.naturalHeight + " attr=" + a.getAttribute("src"));
  var b = document.createElement("img"); b.onload = function(){ log("setAttribute " + b.naturalWidth);
    document.getElementById("box").innerHTML = '<img id="ih" src="img/a.png">';
    var ih = document.getElementById("ih"); var t0 = Date.now();
    (function wait(){ if (ih.complete && ih.naturalWidth) { log("innerHTML " + ih.naturalWidth); log("done"); } else if (Date.now() - t0 > 3000) { log("innerHTML failed"); log("done"); } else setTimeout(wait, 20); })();
  }; b.setAttribute("src", "img/a.png");
}; a.onerror = function(){ log("img error"); log("done"); }; a.src = "img/a.png";
</script>`,
		"img/a.png": pngBytes(3, 2),
	}},
	{name: "worker", want: "worker says 42 from Tea", files: map[string]string{
		"index.html": `<!doctype html><title>w</title>` + probe + `<script>
var w = new Worker("worker.js");
w.onmessage = function(e){ log("worker says " + e.data); log("done"); };
w.onerror = function(e){ log("worker error " + (e.message || "")); log("done"); };
w.postMessage(21);
</script>`,
		"worker.js":          `importScripts("helper.js"); onmessage = function(e){ fetch("data/products.json").then(function(r){ return r.json(); }).then(function(d){ postMessage(double(e.data) + " from " + d[0].name); }); };`,
		"helper.js":          `function double(n){ return n * 2; }`,
		"data/products.json": `[{"name":"Tea"}]`,
	}},
	// A worker reads an image the page also shows (the frame's blob: URL of it, design.md §5.26).
	{name: "worker-asset", want: "worker got 3x2", files: map[string]string{
		"index.html": `<!doctype html><title>wa</title>` + probe + `<img src="img/a.png"><script>
var w = new Worker("js/worker.js");
w.onmessage = function(e){ log("worker got " + e.data); log("done"); };
w.onerror = function(e){ log("worker error " + (e.message || "")); log("done"); };
</script>`,
		"js/worker.js": `fetch("../img/a.png").then(function(r){ return r.blob(); }).then(createImageBitmap).then(function(b){ postMessage(b.width + "x" + b.height); }, function(e){ postMessage("error " + e); });`,
		"img/a.png":    pngBytes(3, 2),
	}},
	{name: "storage", want: "local milk", files: map[string]string{
		"index.html": `<!doctype html><title>s</title>` + probe + `<script>
localStorage.clear(); sessionStorage.clear();
localStorage.setItem("todo", "milk"); localStorage.n = "2";
log("local " + localStorage.getItem("todo") + " n=" + localStorage.getItem("n") + " len=" + localStorage.length + " missing=" + localStorage.getItem("x"));
localStorage.removeItem("n"); log("after remove len=" + localStorage.length + " key0=" + localStorage.key(0));
sessionStorage.setItem("s", JSON.stringify({a: 1})); log("session " + JSON.parse(sessionStorage.getItem("s")).a);
document.cookie = "a=1"; document.cookie = "b=2; path=/"; document.cookie = "a=; max-age=0";
log("cookie " + document.cookie);
log("done");
</script>`,
	}},
	{name: "dom", want: "count 2", steps: []string{
		`document.getElementById("inc").click()`,
		`document.getElementById("inc").click()`,
		`(function(){ var i = document.getElementById("name"); i.value = "Ada"; i.dispatchEvent(new Event("input", {bubbles: true})); })()`,
		`document.getElementById("send").click()`,
	}, files: map[string]string{
		"index.html": `<!doctype html><title>d</title>` + probe + `<button id="inc">+</button><input id="name"><form id="f"><button id="send">Send</button></form>
<script src="app.js" defer></script>`,
		"app.js": `var n = 0;
document.getElementById("inc").addEventListener("click", function(){ n++; log("count " + n); });
document.getElementById("name").addEventListener("input", function(e){ log("name " + e.target.value); });
document.getElementById("f").addEventListener("submit", function(e){ e.preventDefault(); log("submitted"); log("done"); });
console.log("app ready"); console.warn("a warning");`,
	}},
	{name: "pages", want: "about team=true", steps: []string{`document.getElementById("go").click()`}, files: map[string]string{
		"index.html": `<!doctype html><title>home</title>` + probe + `<a id="go" href="about.html#team">About</a><script>log("home");</script>`,
		"about.html": `<!doctype html><title>about</title>` + probe + `<p>About us</p><h2 id="team">Team</h2><a id="back" href="./">Home</a>
<script>window.addEventListener("load", function(){ log("about team=" + !!document.getElementById("team") + " hash=" + location.hash + " title=" + document.title); log("done"); });</script>`,
	}},
	// A cookie set on one page is read on the next (the parent keeps the jar like
	// sessionStorage, design.md §5.36); the default path keeps it to this site's folder.
	{name: "cookie-pages", want: "about user=true gone=false", steps: []string{`document.getElementById("go").click()`}, files: map[string]string{
		"index.html": `<!doctype html><title>home</title>` + probe + `<a id="go" href="about.html">About</a><script>
document.cookie = "user=ada"; document.cookie = "gone=1"; document.cookie = "gone=; max-age=0";
log("home " + /(^|; )user=ada(;|$)/.test(document.cookie));</script>`,
		"about.html": `<!doctype html><title>about</title>` + probe + `<script>
log("about user=" + /(^|; )user=ada(;|$)/.test(document.cookie) + " gone=" + /(^|; )gone=/.test(document.cookie)); log("done");</script>`,
	}},
	{name: "form", want: "results", steps: []string{`document.getElementById("q").value = "tea"`, `document.getElementById("s").click()`}, files: map[string]string{
		"index.html":   `<!doctype html><title>home</title>` + probe + `<form action="results.html"><input id="q" name="q"><button id="s">Search</button></form>`,
		"results.html": `<!doctype html><title>results</title>` + probe + `<script>log("results " + document.title); log("done");</script>`,
	}},
	{name: "runtime-css", want: "bg url", files: map[string]string{
		"index.html": `<!doctype html><title>c</title>` + probe + `<div id="d" style="width:3px;height:2px"></div><picture><source id="src" type="image/png"><img id="pic" alt=""></picture><script>
var d = document.getElementById("d"); d.style.backgroundImage = "url(img/a.png)";
log("bg " + (getComputedStyle(d).backgroundImage.indexOf("url(") === 0 ? "url" : "none"));
document.getElementById("src").srcset = "img/a.png 1x";
var pic = document.getElementById("pic"); pic.onload = function(){ log("picture " + pic.naturalWidth); log("done"); }; pic.onerror = function(){ log("picture error"); log("done"); };
pic.src = "img/none.png";
</script>`,
		"img/a.png": pngBytes(3, 2),
	}},
	// Run-time URLs in constructors and CSSOM calls (design.md §5.26): new Audio(src), a
	// FontFace's url() source, insertRule/replace/replaceSync/setProperty.
	{name: "audio-ctor", want: "audio 0.50", files: map[string]string{
		"index.html": `<!doctype html><title>a</title>` + probe + `<script>
var e = new Audio(); log("empty src=" + JSON.stringify(e.src) + " preload=" + e.preload + " " + (e instanceof HTMLAudioElement) + " " + Audio.name + " " + Audio.length + " " + (Audio.prototype === HTMLAudioElement.prototype));
var a = new Audio("sounds/beep.wav"); log("attr " + a.getAttribute("src") + " " + (a instanceof Audio));
a.onloadedmetadata = function(){ log("audio " + a.duration.toFixed(2)); log("done"); };
a.onerror = function(){ log("audio error"); log("done"); };
</script>`,
		"sounds/beep.wav": wavBytes(4000),
	}},
	{name: "fontface", want: "font loaded", files: map[string]string{
		"index.html": `<!doctype html><title>ff</title>` + probe + `<script>
var f = new FontFace("MyF", "url(fonts/f.ttf) format('truetype')");
log("ctor " + (f instanceof FontFace) + " " + FontFace.name + " " + FontFace.length + " " + (f.constructor === FontFace));
f.load().then(function(x){ document.fonts.add(x); log("font " + x.status + " " + document.fonts.check("12px MyF")); log("done"); }, function(e){ log("font error " + e.name); log("done"); });
</script>`,
		"fonts/f.ttf": string(goregular.TTF),
	}},
	{name: "cssom-url", want: "g 3", files: map[string]string{
		"index.html": `<!doctype html><title>cs</title>` + probe + waitWidths + `<style>#g{display:inline-block}</style><div id="c"></div><div id="e"></div><div id="f"></div><div id="g"></div><script>
document.styleSheets[0].insertRule("#c{content:url(img/a.png)}", 1);
var s = new CSSStyleSheet(); s.replaceSync("#e{content:url('img/a.png')}");
var s2 = new CSSStyleSheet(); document.adoptedStyleSheets = [s, s2];
document.styleSheets[0].cssRules[0].style.setProperty("content", "url(img/a.png)");
s2.replace("#f{content:url(./img/a.png)}").then(function(){
  waitWidths(["c", "e", "f", "g"], function(){ log("done"); });
});
</script>`,
		"img/a.png": pngBytes(3, 2),
	}},
	{name: "sharedworker", want: "shared says hi", files: map[string]string{
		"index.html": `<!doctype html><title>sw</title>` + probe + `<script>
var s = new SharedWorker("shared.js"); s.port.onmessage = function(e){ log("shared says " + e.data); log("done"); }; s.port.postMessage("hi");
</script>`,
		"shared.js": `onconnect = function(e){ var p = e.ports[0]; p.onmessage = function(m){ p.postMessage(m.data); }; };`,
	}},
	{name: "indexeddb", want: "read milk", files: map[string]string{
		"index.html": `<!doctype html><title>db</title>` + probe + `<script>
var del = indexedDB.deleteDatabase("todos");
del.onsuccess = del.onerror = function(){
  var open = indexedDB.open("todos", 1);
  open.onupgradeneeded = function(){ open.result.createObjectStore("items", { keyPath: "id" }).createIndex("by_text", "text"); log("upgrade " + open.result.version); };
  open.onsuccess = function(){
    var db = open.result, tx = db.transaction("items", "readwrite");
    tx.objectStore("items").put({ id: 1, text: "milk" }); tx.objectStore("items").put({ id: 2, text: "eggs" });
    tx.oncomplete = function(){
      var r = db.transaction("items").objectStore("items").get(1);
      r.onsuccess = function(){
        log("read " + r.result.text);
        var c = db.transaction("items").objectStore("items").index("by_text").getAll(IDBKeyRange.lowerBound("f"));
        c.onsuccess = function(){ log("range " + c.result.map(function(x){ return x.text; }).join(",")); log("stores " + Array.from(db.objectStoreNames).join(",")); log("done"); };
      };
    };
  };
  open.onerror = function(){ log("open error " + open.error); log("done"); };
};
</script>`,
	}},
	// CDN fallbacks (design.md §5.26): an external classic script that cannot load fires its
	// onerror (over HTTP offline; in the preview the policy blocks it), whose handler loads the
	// local copy; HTML5 Boilerplate's jQuery fallback writes a local <script src> with
	// document.write, which runs before the next parser script.
	{name: "cdn-onerror", want: "lib local", files: map[string]string{
		"index.html": `<!doctype html><title>cdn</title>` + probe + `<script>function fallback(){ log("cdn error"); var s = document.createElement("script"); s.src = "js/lib.js"; s.onload = function(){ log("lib " + window.LIB); log("done"); }; document.head.appendChild(s); }</script>
<script src="https://cdn.invalid/lib.min.js" onerror="fallback()" onload="log('cdn load')"></script>`,
		"js/lib.js": `window.LIB = "local";`,
	}},
	{name: "cdn-docwrite", want: "jQuery local", files: map[string]string{
		"index.html": `<!doctype html><title>h5bp</title>` + probe + `<script src="https://code.jquery.invalid/jquery-3.7.1.min.js"></script>
<script>window.jQuery || document.write('<script src="js/vendor/jquery.js"><\/script>')</script>
<script>log("jQuery " + (window.jQuery ? window.jQuery.fn.jquery : "none")); log("done");</script>`,
		"js/vendor/jquery.js": `window.jQuery = { fn: { jquery: "local" } };`,
	}},
	// A static classic <script src> naming a workspace file (issue 13; dojo, GWT, CKEditor find
	// their folder from it): the running script's getAttribute("src"), hasAttribute("src") and
	// src property, plain, with a query and ../, defer and async, and a dojo-style scan of
	// document.getElementsByTagName("script") after load.
	{name: "script-src", want: "dojo baseUrl js/", files: map[string]string{
		"index.html": `<!doctype html><title>s</title>` + probe + `<script>var R = {};
function describe(s){ var base = document.baseURI.replace(/[^\/]*$/, ""), src = String(s.src);
  return "attr=" + s.getAttribute("src") + " SRC=" + s.getAttribute("SRC") + " has=" + s.hasAttribute("src") + " HAS=" + s.hasAttribute("Src") +
    " src=" + (src.indexOf(base) === 0 ? src.slice(base.length) : "abs:" + src) + " data=" + Object.keys(s.dataset).join(","); }</script>
<script src="js/a.js" data-x="1"></script>
<script src="./js/../js/c.js?v=2"></script>
<script src="js/d.js" defer></script>
<script src="js/e.js" async></script>
<script>window.addEventListener("load", function(){
  ["a", "c", "d", "e"].forEach(function(k){ log(k + " " + R[k]); });
  var ss = document.getElementsByTagName("script"), dojo = [], gwt = [];
  for (var i = 0; i < ss.length; i++) {
    var a = ss[i].getAttribute("src"); if (a && /(^|\/)a\.js(\?|$)/.test(a)) dojo.push(a.replace(/a\.js.*$/, ""));
    var u = ss[i].src; if (u && /\/c\.js\?v=2$/.test(u)) gwt.push(u.slice(u.lastIndexOf("/js/") + 1));
  }
  log("dojo baseUrl " + dojo.join("|") + " gwt " + gwt.join("|") + " scripts " + ss.length);
  // The page changes src afterwards (an already-run script loads nothing): it reads what it set.
  var a, c; for (var j = 0; j < ss.length; j++) { if (ss[j].getAttribute("src") === "js/a.js") a = ss[j]; if (ss[j].getAttribute("src") === "./js/../js/c.js?v=2") c = ss[j]; }
  if (a && c) { a.setAttribute("src", "js/e.js"); c.removeAttribute("SRC"); log("set " + describe(a) + " | removed " + describe(c)); }
  else log("a or c not found");
  // Markup the page inserts after parsing is its own (the runtime's script observer stopped).
  var box = document.createElement("div"); document.body.appendChild(box);
  box.innerHTML = '<script data-webcoding-script-src="mine.js"><\/script>';
  setTimeout(function(){ var m = box.firstChild; log("page attr " + m.getAttribute("data-webcoding-script-src") + " src " + m.getAttribute("src")); log("done"); }, 0);
});</script>`,
		"js/a.js": `R.a = describe(document.currentScript);`,
		"js/c.js": `R.c = describe(document.currentScript);`,
		"js/d.js": `R.d = describe(document.currentScript);`,
		"js/e.js": `R.e = describe(document.currentScript);`,
	}},
	// A static <script src> and stylesheet <link> naming no file: over HTTP both elements exist
	// and fire error (the order of the two events is not compared).
	{name: "missing-refs", want: "error events: link,script", files: map[string]string{
		"index.html": `<!doctype html><title>m</title>` + probe + `<script>var errs = [];</script>
<link rel="stylesheet" href="nope.css" onerror="errs.push('link')" onload="errs.push('link load')">
<script src="nope.js" onerror="errs.push('script')" onload="errs.push('script load')"></script>
<script>window.onload = function () { var s = document.querySelector("script[onerror]");
  log("error events: " + errs.sort().join(",") + "; scripts " + document.scripts.length + " links " + document.getElementsByTagName("link").length);
  log("attr " + (s && s.getAttribute("src")) + " has " + (s && s.hasAttribute("src")) + " sheets " + document.styleSheets.length);
  log("done"); };</script>`,
	}},
	// Script navigation (design.md §5.34): location.href/assign/replace, window.location =,
	// an inline onclick, document.location.reload() and location.reload() counting loads in
	// sessionStorage; the second page reads its query, fragment and path as a served page.
	navSite("nav-href", `<button id="go">go</button><script src="nav.js"></script>`, map[string]string{
		"nav.js": `document.getElementById("go").addEventListener("click", function(){ location.href = "page2.html?x=1#s"; });`}),
	navSite("nav-assign", `<button id="go">go</button><script>document.getElementById("go").onclick = function(){ document.location.assign("page2.html?via=assign"); };</script>`, nil),
	navSite("nav-replace", `<button id="go">go</button><script type="module">import { go } from "./go.js"; document.getElementById("go").addEventListener("click", go);</script>`, map[string]string{
		"go.js": `export function go() { location.replace("sub/../page2.html?via=replace#end"); }`}),
	navSite("nav-window", `<button id="go">go</button><script src="win.js" defer></script>`, map[string]string{
		"win.js": `document.getElementById("go").addEventListener("click", function(){ window.location = "page2.html?via=window"; });`}),
	navSite("nav-onclick", `<button id="go" onclick="location.href='page2.html?via=onclick&amp;n=2'">go</button>`, nil),
	navSite("nav-path", `<button id="go">go</button><script>document.getElementById("go").onclick = function(){ self.location.pathname = self.location.pathname.replace(/[^/]*$/, "page2.html"); };</script>`, nil),
	navSite("nav-dynamic", `<button id="go">go</button><script>var s = document.createElement("script"); s.src = "dyn.js"; document.body.appendChild(s);</script>`, map[string]string{
		"dyn.js": `document.getElementById("go").onclick = function(){ location.assign("page2.html?via=dynamic"); };`}),
	navSite("nav-docwrite", `<button id="go">go</button><script>document.write('<script src="dw.js"><\/script>')</script>`, map[string]string{
		"dw.js": `document.getElementById("go").addEventListener("click", function(){ window.location.href = "page2.html?via=docwrite#w"; });`}),
	// A library wrapped in (function (window, document) { … })(window, document) reads and sets
	// the page's location through its parameters (AngularJS 1.3's same-origin check of its
	// templates; e2e/realsites on TodoMVC).
	navSite("nav-wrapped-window", `<button id="go">go</button><script src="lib.js"></script>`, map[string]string{
		"lib.js": `(function (window, document, undefined) {
  log("wrapped same=" + (window.location === location) + " doc=" + (document.location === location) + " search=[" + window.location.search + "]");
  var self = window; log("proto=" + /^https?:$/.test(self.location.protocol));
  document.getElementById("go").addEventListener("click", function(){ window.location.href = "page2.html?via=wrapped#w"; });
})(window, document);`}),
	// A minified wrapper's own name for the window (`w`) reads and sets the page's location.
	navSite("nav-minified-param", `<button id="go">go</button><script src="lib.min.js"></script>`, map[string]string{
		"lib.min.js": `!function(w,d){log("w same="+(w.location===location)+" search=["+w.location.search+"] doc="+(d.location===location));d.getElementById("go").addEventListener("click",function(){w.location.href="page2.html?via=min#m"})}(window,document);`}),
	// An object that is not the window keeps its own location: a view model's property, a
	// record passed as "document", a stand-in "window"; a form control named location wins in
	// an event handler's scope, as over HTTP.
	{name: "location-objects", want: "stayed v", steps: []string{`document.getElementById("b").click()`}, files: map[string]string{
		"index.html": `<!doctype html><title>o</title>` + probe + `<form><input name="location" value="v"><button type="button" id="b" onclick="location.href='page2.html'; log('stayed ' + this.form.location.value); log('done')">b</button></form><script>
function VM(){ var self = this; self.location = "Paris"; log("vm " + self.location + " " + typeof self.location); } new VM();
function save(document){ document.location = "Seoul"; return JSON.stringify(document); } log("record " + save({title: "t"}));
(function (window) { window.location = "page2.html?n=12"; log("fake " + JSON.stringify(window)); })({});
var rec = {}; log("none " + typeof rec.location + " " + ("location" in rec));
</script>`,
	}},
	// An error in a rewritten expression names `location`, as over HTTP.
	{name: "nav-error", want: "before", files: map[string]string{
		"index.html": `<!doctype html><title>e</title>` + probe + `<script>log("before"); setTimeout(function(){ log("done"); }, 50);</script><script>location.nope();</script>`,
	}},
	// Reloads wait for the page's load (a reload while the harness attaches would race it).
	{name: "nav-reload", want: "loads 3", steps: []string{`document.getElementById("go").click()`}, files: map[string]string{
		"index.html": `<!doctype html><title>r</title>` + probe + `<button id="go" onclick="location.reload()">reload</button><script>
var n = +(sessionStorage.getItem("loads") || 0) + 1; sessionStorage.setItem("loads", n);
if (n === 2) window.addEventListener("load", function(){ setTimeout(function(){ document.location.reload(); }, 30); });
if (n === 3) { log("loads " + n + " search=" + location.search); log("done"); }
</script>`,
	}},
	// Links to a fragment of the page itself ("#", "#top", "#!"; found by e2e/realsites on
	// startbootstrap-sb-admin, whose dropdown and collapse toggles are <a href="#">): a click
	// stays in the document, as over HTTP.
	{name: "hash-link", want: "after hash=[#!]", steps: []string{`document.getElementById("a").click()`, `document.getElementById("b").click()`, `document.getElementById("c").click()`}, files: map[string]string{
		"index.html": `<!doctype html><title>h</title>` + probe + `<a id="a" href="#">a</a> <a id="b" href="#top">b</a> <a id="c" href="#!">c</a><script>
var n = +(sessionStorage.getItem("n") || 0) + 1; sessionStorage.setItem("n", n); log("load " + n);
document.getElementById("c").addEventListener("click", function(){ setTimeout(function(){ log("after hash=[" + location.hash + "] loads " + sessionStorage.getItem("n")); log("done"); }, 200); });
</script>`,
	}},
	// document.write of an inline script whose own text writes a <script src>: only start tags
	// in markup are rewritten, the script's text stays as written (GWT's bootstrap; e2e/realsites).
	{name: "write-script-text", want: "start a.js end", files: map[string]string{
		"index.html": `<!doctype html><title>w</title>` + probe + `<p id="o">start</p><script>
document.write('<scr'+'ipt>document.write("<script src=\\"a.js\\"><\/scr" + "ipt>");<\/scr'+'ipt>');
</script><script>document.write('<textarea id="ta"><script src="a.js"><\/script></textarea><div id="dv" title=\'<script src="a.js">\'></div><!-- <script src="a.js"><\/script> -->');
log("ta " + document.getElementById("ta").value + " dv " + document.getElementById("dv").title);</script><script>var o = document.getElementById("o"); o.textContent += " end"; log(o.textContent); log("done");</script>`,
		"a.js": `document.getElementById("o").textContent += " a.js";`,
	}},
	// import.meta.resolve of a relative specifier resolves against the module's URL, as over
	// HTTP (Vite's preload helper resolves "/js/chunk.js" so; e2e/realsites on gentelella 4,
	// whose dashboard stayed empty: "Failed to resolve module specifier").
	{name: "meta-resolve", want: "dep 7", files: map[string]string{
		"index.html": `<!doctype html><title>m</title>` + probe + `<script type="module" src="js/main.js"></script>`,
		"js/main.js": `const r = import.meta.resolve ? import.meta.resolve("./dep.js") : "none";
log("resolve " + r.split("/").slice(-2).join("/") + " " + (r === new URL("./dep.js", import.meta.url).href));
log("up " + import.meta.resolve("../data.json").split("/").pop());
const m = await import(r);
log("dep " + m.v);
log("done");`,
		"js/dep.js": `export const v = 7;`,
	}},
	// history.pushState/replaceState to the page's own URL with another fragment (absolute,
	// path-relative or "#…") changes location.hash, as over HTTP (AngularJS 1.2's $location
	// writes the absolute URL; e2e/realsites on TodoMVC's TypeScript + AngularJS app, which
	// looped in $digest: "10 $digest() iterations reached").
	{name: "pushstate-hash", want: "none []", files: map[string]string{
		"index.html": `<!doctype html><title>p</title>` + probe + `<script>
history.pushState(null, "", location.href.split("#")[0] + "#/a");
log("abs " + location.hash + " " + (location.href === location.origin + location.pathname + "#/a"));
history.pushState({k: 1}, "", "#/b");
log("rel " + location.hash + " " + location.href.slice(-3) + " " + history.state.k);
history.replaceState(null, "", location.pathname + location.search + "#/c");
log("path " + location.hash);
history.pushState(null, "", location.href.split("#")[0]);
log("none [" + location.hash + "] " + (location.href === location.origin + location.pathname));
log("done");
</script>`,
	}},
	// An <a>'s URL parts resolve against the page's URL, as location's do (AngularJS 1.3's
	// same-origin check of its templates; e2e/realsites on TodoMVC).
	{name: "anchor-parts", want: "same origin: true", files: map[string]string{
		"index.html": `<!doctype html><title>a</title>` + probe + `<a id="l" href="page.html">l</a><script>
var a = document.createElement("a");
function parse(u){ a.setAttribute("href", u); return a.protocol + "//" + a.host; }
log("same origin: " + (parse(location.href) === parse("other.html")) + " " + (parse("other.html") === location.protocol + "//" + location.host));
a.setAttribute("href", "sub/x.html?q=1#h"); log("parts " + a.pathname.split("/").slice(-2).join("/") + a.search + a.hash + " " + (a.origin === location.origin) + " " + (String(a) === a.href));
var l = document.getElementById("l"); log("static " + (l.protocol === location.protocol) + " " + (l.host === location.host) + " " + l.pathname.split("/").pop() + " " + (l.href === new URL("page.html", location.href).href));
a.setAttribute("href", "p.html#h"); a.search = "?s=2"; a.hash = "k"; a.pathname = a.pathname.replace(/p\.html$/, "q.html");
log("set " + (a.host === location.host) + " " + a.pathname.split("/").pop() + a.search + a.hash + " " + (a.getAttribute("href") === new URL("q.html?s=2#k", location.href).href));
log("doc " + (document.URL === location.href) + " " + (document.documentURI === location.href));
log("done");</script>`,
	}},
	{name: "errors", want: "before", files: map[string]string{
		"index.html": `<!doctype html><title>e</title>` + probe + `<script>log("before"); setTimeout(function(){ log("done"); }, 50);</script><script>null.x;</script>`,
	}},
}

// navSite is a two-page site whose index (body: its markup) navigates by script to page2.html
// when #go is clicked; page2 reports what a page reads of its own URL.
func navSite(name, body string, extra map[string]string) fidelitySite {
	files := map[string]string{
		"index.html": `<!doctype html><title>home</title>` + probe + body,
		"page2.html": `<!doctype html><title>two</title>` + probe + `<script>
function where(){ return "search=" + location.search + " hash=" + location.hash + " path=" + location.pathname.split("/").pop() +
  " x=" + new URLSearchParams(window.location.search).get("x") + " href=" + (location.href === location.origin + location.pathname + location.search + location.hash) +
  " str=" + (String(location) === document.location.href) + " same=" + (window.location === location && document.location === location) +
  " proto=" + /^https?:$/.test(location.protocol) + " host=" + (location.host === location.hostname + (location.port ? ":" + location.port : "")) +
  " type=" + typeof location; }
log("page2 " + where());
window.addEventListener("load", function(){ log("load " + where()); location.hash = "t"; log("hash " + location.hash + " " + location.href.slice(-2));
  location.href = "#u"; log("frag " + location.hash + " " + location.href.slice(-2)); location.assign("#"); log("empty [" + location.hash + "] " + location.href.slice(-1)); log("done"); });
</script>`,
	}
	for k, v := range extra {
		files[k] = v
	}
	return fidelitySite{name: name, want: "page2 search=", steps: []string{`document.getElementById("go").click()`}, files: files}
}

// TestFidelity runs every site served over HTTP and in the preview and compares.
func TestFidelity(t *testing.T) {
	s := server(t)
	for _, site := range fidelitySites {
		site := site
		t.Run(site.name, func(t *testing.T) {
			addSite("fid-"+site.name, site.files)
			httpOut, httpCon, httpErr := runServed(t, s.URL+"/site/fid-"+site.name+"/", site.steps)
			pvOut, pvCon, pvErr := runPreview(t, "fid-"+site.name, site.steps)
			if !strings.Contains(httpOut, site.want) {
				t.Fatalf("served over HTTP, #out lacks %q:\n%s", site.want, httpOut)
			}
			if httpOut != pvOut {
				t.Errorf("#out differs\n--- http ---\n%s--- preview ---\n%s", httpOut, pvOut)
			}
			if fmt.Sprint(httpCon) != fmt.Sprint(pvCon) {
				t.Errorf("console differs\nhttp:    %q\npreview: %q", httpCon, pvCon)
			}
			if httpErr != pvErr {
				t.Errorf("errors differ\nhttp:    %q\npreview: %q", httpErr, pvErr)
			}
		})
	}
}

const outExpr = `(function(){ var o = document.getElementById("out"); return o ? o.textContent : ""; })()`

// runServed loads url top-level, runs steps, and returns #out, the console lines
// ("level text", log/warn/error) and the first uncaught error's message.
func runServed(t *testing.T, url string, steps []string) (string, []string, string) {
	t.Helper()
	tab := chromium.NewTab(t)
	if err := tab.Do(20*time.Second, navigate(url)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `document.readyState === "complete"`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	for _, st := range steps {
		if _, err := chromium.Eval[any](tab, 5*time.Second, st+";true"); err != nil {
			t.Fatalf("step %q: %v", st, err)
		}
	}
	// Polled with single evaluations: a step may navigate (the page's context changes).
	out := ""
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
		if v, err := chromium.Eval[string](tab, 2*time.Second, outExpr); err == nil {
			if out = v; strings.Contains(out, "done\n") {
				break
			}
		}
	}
	if !strings.Contains(out, "done\n") {
		t.Fatalf("served: no done:\n%s", out)
	}
	con, exceptions := harness.ServedConsole(tab)
	errText := ""
	if len(exceptions) > 0 {
		errText = exceptions[0]
	}
	return out, con, errText
}

// runPreview mounts the site in the stand-in studio, runs steps in the frame, and returns the
// same observations as runServed (console from the bridge, error from the error ack).
func runPreview(t *testing.T, name string, steps []string) (string, []string, string) {
	t.Helper()
	tab := openParent(t)
	mount(t, tab, name, 1, "n-"+name, "")
	ack := waitAck(t, tab, 1)
	for _, st := range steps {
		if _, err := chromium.EvalInFrame[any](tab, 5*time.Second, st+";true"); err != nil {
			t.Fatalf("step %q: %v", st, err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	out := ""
	for time.Now().Before(deadline) {
		out, _ = chromium.EvalInFrame[string](tab, 5*time.Second, outExpr)
		if strings.Contains(out, "done\n") {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	if !strings.Contains(out, "done\n") {
		t.Fatalf("preview: no done:\n%s\nmessages: %v", out, messages(t, tab))
	}
	time.Sleep(300 * time.Millisecond) // batched console lines
	// Uncaught errors are console entries too (kind error/rejection): compared as errText.
	con, _, errText := harness.PreviewConsole(messages(t, tab))
	if ack.Type == "webcoding.preview.error" {
		errText = ack.Message
	}
	return out, con, errText
}

var _ = json.Marshal
