package previewc_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
	"golang.org/x/image/font/gofont/goregular"
)

// Static reference coverage (design.md §5.26): small sites built like real static sites, each
// run over HTTP and in the preview; the page's log must be identical.

// asite is a workspace whose files with an asset extension (workspace.IsAssetPath) are assets
// (bytes in the string), everything else text.
type asite map[string]string

func (s asite) files() []preview.File {
	var out []preview.File
	for _, p := range sortedKeys(site(s)) {
		if workspace.IsAssetPath(p) {
			out = append(out, preview.File{Path: p, Kind: preview.KindAsset, MimeType: workspace.AssetMimeType(p), Data: []byte(s[p])})
			continue
		}
		out = append(out, site(s).filesOf(p))
	}
	return out
}

func (s site) filesOf(p string) preview.File {
	for _, f := range s.files() {
		if f.Path == p {
			return f
		}
	}
	return preview.File{}
}

// staticProbe is page code: helpers and a log L posted to the parent (preview) and left in
// window.__probeDone (HTTP) once the window loaded, every promise in P settled and 100 ms
// passed. img(id) logs "id:complete:naturalWidth"; bg(id, prop) loads the first url() of a
// computed style as an image and logs "id:ok:width" or "id:error".
const staticProbe = `<script>window.L=[];window.P=[];
function img(id){var e=document.getElementById(id);L.push(id+":"+e.complete+":"+e.naturalWidth)}
function urlOf(v){var m=/url\("?([^")]*)"?\)/.exec(v);return m?m[1]:""}
function ld(name,u){P.push(new Promise(function(r){if(!u){L.push(name+":none");r();return}var i=new Image();i.onload=function(){L.push(name+":ok:"+i.naturalWidth);r()};i.onerror=function(){L.push(name+":error");r()};i.src=u}))}
function bg(id,prop,pseudo){var e=document.getElementById(id);ld(id,urlOf(getComputedStyle(e,pseudo||null)[prop||"backgroundImage"]))}
window.addEventListener("load",function(){L.push("load");setTimeout(function(){Promise.all(P).then(function(){L.sort();window.__probeDone=L;window["top"].postMessage({probe:L},"*")})},100)});
</script>`

// compare runs s over HTTP and in the preview and fails when the logs differ (or when the
// HTTP log is not want: then the test's expectation is wrong).
func compare(t *testing.T, s asite, want []string) preview.Result {
	t.Helper()
	sort.Strings(want)
	if got := overHTTPBytes(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("over HTTP: %q\nwant %q (the test's expectation is wrong)", got, want)
	}
	r := preview.Compile(s.files(), preview.Options{Revision: 1, Nonce: "n", Bridge: true})
	if got := runInFrame(t, r.HTML); !reflect.DeepEqual(got, want) {
		t.Errorf("in the preview: %q\nwant (as over HTTP): %q", got, want)
	}
	return r
}

// overHTTPBytes serves s on loopback (case-sensitive paths, as a Linux server) with the
// types a static server sends and returns the page's log.
func overHTTPBytes(t *testing.T, s asite) []string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/")
		if p == "" || strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		body, ok := s[p]
		if !ok {
			http.NotFound(w, r)
			return
		}
		f := asite{p: body}.files()[0]
		w.Header().Set("Content-Type", preview.MimeTypeOf(f))
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	tab := chromium.NewTab(t)
	if err := tab.Do(20*time.Second, chromedp.Navigate(srv.URL+"/index.html")); err != nil {
		t.Fatal(err)
	}
	got, err := chromium.WaitFor[[]string](tab, 15*time.Second, `window.__probeDone`)
	if err != nil {
		t.Fatalf("no probe over HTTP: %v; console: %v", err, tab.Console())
	}
	return got
}

func page(head, body string) string {
	return `<!doctype html><html><head><meta charset="utf-8">` + staticProbe + head + `</head><body>` + body + `</body></html>`
}

var png1 = string(onePixelPNG)

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// svgImg is an SVG image 3 px wide with a symbol "home".
const svgImg = `<svg xmlns="http://www.w3.org/2000/svg" width="3" height="2" viewBox="0 0 3 2"><symbol id="home" viewBox="0 0 3 2"><rect width="3" height="2" fill="red"/></symbol><rect width="3" height="2"/></svg>`

var font = string(goregular.TTF)

// TestURLFormsLikeHTTP: root-relative URLs, cache-busting queries and fragments, %20 and
// accented names, ./ and ../ from nested folders, and a case mismatch (404 on a Linux server).
func TestURLFormsLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(`<link rel="stylesheet" href="/css/style.css?v=1.2"><link rel="stylesheet" href="./css/more.css#x">`,
			`<img id="a" src="/img/logo.png?raw"><img id="b" src="img/my%20photo.png"><img id="c" src="img/café.png"><img id="d" src="./img/logo.png#frag">`+
				`<img id="e" src="img/Logo.PNG"><img id="f" src="img/my photo.png"><div id="g"></div><div id="h"></div><div id="i"></div>`+
				`<script src="/js/app.js?ver=3"></script>`+
				`<script>addEventListener("load",function(){["a","b","c","d","e","f"].forEach(img);bg("g");bg("h");bg("i")})</script>`),
		"css/style.css":    `#g{background-image:url(/img/bg.png?x=1)} #h{background:url("../img/logo.png") no-repeat}`,
		"css/more.css":     `#i{background-image:url( '../img/sub/../bg.png' )}`,
		"js/app.js":        `L.push("app")`,
		"img/logo.png":     png1,
		"img/my photo.png": png1,
		"img/café.png":     png1,
		"img/bg.png":       png1,
	}
	r := compare(t, s, []string{"app", "load", "a:true:1", "b:true:1", "c:true:1", "d:true:1", "e:true:0", "f:true:1", "g:ok:1", "h:ok:1", "i:ok:1"})
	missing := false
	for _, d := range r.Diagnostics {
		if strings.Contains(d.RequestedPath, "Logo.PNG") {
			missing = true
		}
	}
	if !missing {
		t.Errorf("no diagnostic for the case mismatch img/Logo.PNG: %+v", r.Diagnostics)
	}
}

// TestBaseHrefLikeHTTP: <base href="sub/"> changes what every relative URL in markup means
// (and the diagnostics resolve against it too).
func TestBaseHrefLikeHTTP(t *testing.T) {
	for name, base := range map[string]string{"relative": "sub/", "root": "/sub/"} {
		t.Run(name, func(t *testing.T) {
			s := asite{
				"index.html": page(`<base href="`+base+`"><link rel="stylesheet" href="s.css">`,
					`<img id="a" src="a.png"><img id="b" src="/top.png"><div id="g"></div><a id="l" href="p.html">p</a>`+
						`<script src="app.js"></script><script>addEventListener("load",function(){img("a");img("b");bg("g");L.push("base:"+document.baseURI.split("/").slice(3).join("/"),"link:"+document.getElementById("l").href.split("/").slice(3).join("/"))})</script>`),
				"sub/s.css":  `#g{background-image:url(g.png)}`,
				"sub/a.png":  png1,
				"sub/g.png":  png1,
				"sub/app.js": `L.push("app")`,
				"top.png":    png1,
			}
			r := compare(t, s, []string{"app", "load", "a:true:1", "b:true:1", "g:ok:1", "base:sub/", "link:sub/p.html"})
			for _, d := range r.Diagnostics {
				t.Errorf("false diagnostic: %+v", d)
			}
		})
	}
}

// TestFontsAndLinksLikeHTTP: @font-face with woff2/woff sources and format(), a font preload,
// icons and a manifest, stylesheet media, a stylesheet link in <body> and a disabled one.
func TestFontsAndLinksLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(`<link rel="preload" href="fonts/a.woff2" as="font" type="font/woff2" crossorigin>`+
			`<link rel="icon" href="favicon.ico"><link rel="apple-touch-icon" href="apple-touch-icon.png"><link rel="manifest" href="site.webmanifest">`+
			`<link rel="stylesheet" href="fonts.css"><link rel="stylesheet" href="print.css" media="print"><link rel="stylesheet" href="narrow.css" media="(max-width:600px)">`+
			`<link rel="stylesheet" href="off.css" disabled>`,
			`<p id="p">Hello</p><i id="icon" class="icon-home"></i><link rel="stylesheet" href="late.css">`+
				`<script>addEventListener("load",function(){P.push(document.fonts.load("16px A").then(function(f){L.push("loaded:"+f.length)}));`+
				`P.push(document.fonts.ready.then(function(){var st=[];document.fonts.forEach(function(f){st.push(f.family+"="+f.status)});L.push("fonts:"+st.sort().join())}));`+
				`var cs=getComputedStyle(document.getElementById("p"));L.push("color:"+cs.color,"ml:"+cs.marginLeft,"pad:"+cs.paddingLeft,"font:"+cs.fontFamily);`+
				`L.push("sheets:"+document.styleSheets.length)})</script>`),
		"fonts.css":            `@font-face{font-family:"A";src:url(fonts/a.woff2) format("woff2"),url(fonts/a.woff) format("woff");font-display:swap}@font-face{font-family:Icons;src:url('fonts/icons.eot?#iefix') format('embedded-opentype'),url("fonts/icons.ttf?v=4") format("truetype")}#p{font-family:A,serif}.icon-home:before{font-family:Icons;content:"\e900"}`,
		"print.css":            `#p{color:rgb(1, 1, 1)}`,
		"narrow.css":           `#p{color:rgb(2, 2, 2)}`,
		"off.css":              `#p{padding-left:9px}`,
		"late.css":             `#p{margin-left:5px}`,
		"fonts/a.woff2":        font,
		"fonts/a.woff":         font,
		"fonts/icons.eot":      font,
		"fonts/icons.ttf":      font,
		"favicon.ico":          png1,
		"apple-touch-icon.png": png1,
		"site.webmanifest":     `{"name":"x","icons":[{"src":"apple-touch-icon.png","sizes":"1x1"}]}`,
	}
	r := compare(t, s, []string{"load", "loaded:1", "fonts:A=loaded,Icons=loaded", "color:rgb(0, 0, 0)", "ml:5px", "pad:0px", "font:A, serif", "sheets:4"})
	for _, d := range r.Diagnostics {
		t.Errorf("false diagnostic: %+v", d)
	}
}

// TestMediaLikeHTTP: picture/source type=webp, srcset with w descriptors and sizes, lazy
// images, video poster with sources and a captions track, audio, SVG images and objects.
func TestMediaLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(``,
			`<picture><source srcset="img/a.webp 1x" type="image/webp"><img id="pic" src="img/a.png" alt=""></picture>`+
				`<img id="w" src="img/a.png" srcset="img/s.png 480w, img/m.png 800w, img/l.png 1200w" sizes="(max-width: 600px) 480px, 800px">`+
				`<img id="lazy" src="img/a.png" loading="lazy"><img id="svg" src="img/logo.svg">`+
				`<video id="v" poster="img/poster.png" preload="metadata" muted><source src="media/clip.webm" type="video/webm"><track id="tr" kind="captions" src="media/a.vtt" srclang="en" label="English" default></video>`+
				`<audio id="au" src="media/s.wav" preload="auto"></audio>`+
				`<object id="ob" onload="window.OB='load'" onerror="window.OB='error'" data="img/logo.svg" type="image/svg+xml" width="3" height="2"></object>`+
				`<script>addEventListener("load",function(){["pic","w","lazy","svg"].forEach(img);`+
				`var tr=document.getElementById("tr");P.push(new Promise(function(r){var f=function(){L.push("track:"+tr.readyState+":"+(tr.track.cues?tr.track.cues.length:-1));r()};if(tr.readyState>=2)f();else{tr.onload=f;tr.onerror=f}}));`+
				`var ob=document.getElementById("ob");L.push("object:"+ob.clientWidth+":"+(window.OB||"none"));`+
				`L.push("poster:"+document.getElementById("v").poster.split("/").pop())})</script>`),
		"img/a.png":       png1,
		"img/a.webp":      png1,
		"img/s.png":       png1,
		"img/m.png":       png1,
		"img/l.png":       png1,
		"img/poster.png":  png1,
		"img/logo.svg":    svgImg,
		"media/a.vtt":     "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n",
		"media/clip.webm": "not really a video",
		"media/s.wav":     "RIFF",
	}
	compare(t, s, []string{"load", "pic:true:1", "w:true:1", "lazy:true:1", "svg:true:3", "track:2:1", "object:3:load", "poster:poster.png"})
}

// TestCSSURLsLikeHTTP: url() in every property that loads an image (mask-image, cursor,
// list-style-image, border-image, content, image-set with strings and url()), url() with
// quotes, whitespace and escapes, and url(data:…) / url(#filter) left alone.
func TestCSSURLsLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(`<link rel="stylesheet" href="css/site.css">`+
			`<style>#f{filter:url(#blur)} #q{background-image:url( "../img/a.png" )}</style>`,
			`<div id="m">m</div><div id="c">c</div><ul><li id="l">l</li></ul><div id="b">b</div><div id="t">t</div>`+
				`<div id="s1">s</div><div id="s2">s</div><div id="e">e</div><div id="d">d</div><div id="f">f</div><div id="q">q</div>`+
				`<svg width="0" height="0"><filter id="blur"><feGaussianBlur stdDeviation="1"/></filter></svg>`+
				`<script>addEventListener("load",function(){bg("m","maskImage");bg("c","cursor");bg("l","listStyleImage");bg("b","borderImageSource");bg("t","content","::before");`+
				`bg("s1");bg("s2");bg("e");bg("d");bg("q");L.push("filter:"+getComputedStyle(document.getElementById("f")).filter)})</script>`),
		"css/site.css": `#m{width:3px;height:3px;-webkit-mask-image:url(../img/a.png);mask-image:url(../img/a.png)}
#c{cursor:url("../img/a.png") 0 0, auto}
#l{list-style-image:url('../img/a.png')}
#b{border:1px solid;border-image:url(../img/a.png) 1 round}
#t::before{content:url(../img/a.png)}
#s1{background-image:image-set("../img/a.png" 1x, "../img/b.png" 2x)}
#s2{background-image:-webkit-image-set(url(../img/a.png) 1x)}
#e{background-image:url(../img/\61 .png)}
#d{background-image:url(data:image/png;base64,` + b64(onePixelPNG) + `)}`,
		"img/a.png": png1,
		"img/b.png": png1,
	}
	compare(t, s, []string{"load", "m:ok:1", "c:ok:1", "l:ok:1", "b:ok:1", "t:ok:1", "s1:ok:1", "s2:ok:1", "e:ok:1", "d:ok:1", "q:ok:1", "filter:url(\"#blur\")"})
}

// TestSVGSpriteLikeHTTP: an external SVG sprite (<use href="icons.svg#home">, also
// xlink:href), an inline sprite (#id) and an <image> load as over HTTP.
func TestSVGSpriteLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(``,
			`<svg style="display:none"><symbol id="dot" viewBox="0 0 1 1"><rect width="1" height="1"/></symbol></svg>`+
				`<svg id="s1" width="30" height="20"><use href="img/icons.svg#home"></use></svg>`+
				`<svg id="s2" width="30" height="20" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="/img/icons.svg#home"/></svg>`+
				`<svg id="s3" width="30" height="20"><use href="#dot"/></svg>`+
				`<svg id="s4" width="30" height="20"><image href="img/a.png" width="3" height="2"/></svg>`+
				`<script>addEventListener("load",function(){["s1","s2","s3","s4"].forEach(function(id){var e=document.querySelector("#"+id+" use, #"+id+" image");var r=e.getBoundingClientRect();L.push(id+":"+Math.round(r.width))})})</script>`),
		"img/icons.svg": svgImg,
		"img/a.png":     png1,
	}
	compare(t, s, []string{"load", "s1:30", "s2:30", "s3:20", "s4:3"})
}

// TestGalleryLikeHTTP: a gallery or slider that builds image URLs from pieces at run time
// ("images/" + n + ".jpg") for images the markup also shows, and a lightbox that opens the
// large version of a thumbnail from its src / its link's href (issue 13, leftover (c)).
func TestGalleryLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(``,
			`<img id="t1" class="thumb" src="images/thumbs/1.png"><a id="a2" href="images/2.png"><img id="t2" src="images/thumbs/2.png"></a><img id="big"><img id="sp" src="images/my%20pic.png"><img id="ac" src="images/café.png">`+
				`<div id="slide" data-ext="png" style="background-image:url(images/1.png)"></div>`+
				`<script src="js/gallery.js"></script>`),
		"js/gallery.js": `var n = 0, big = document.getElementById("big");
function show(i) { var im = new Image(); P.push(new Promise(function (r) { im.onload = function () { L.push("slide" + i + ":" + im.naturalWidth); r(); }; im.onerror = function () { L.push("slide" + i + ":error"); r(); }; })); im.src = "images/" + i + "." + document.getElementById("slide").dataset.ext; }
addEventListener("load", function () {
  show(1); show(2);
  var t = document.getElementById("t1");
  big.src = t.src.replace("/thumbs/", "/");
  P.push(new Promise(function (r) { big.onload = function () { L.push("big:" + big.naturalWidth + ":" + big.src.split("/").slice(-2).join("/")); r(); }; big.onerror = function () { L.push("big:error"); r(); }; }));
  L.push("href:" + document.getElementById("a2").href.split("/").slice(-2).join("/"), "src:" + document.getElementById("t2").src.split("/").slice(-3).join("/"), "cur:" + document.getElementById("t2").currentSrc.split("/").slice(-3).join("/"));
  var t2 = document.getElementById("t2");
  L.push("attr:" + t2.getAttribute("src") + ":" + (t2.getAttribute("src") == "images/thumbs/2.png"), "attr-spaced:" + document.getElementById("sp").getAttribute("src"), "attr-accent:" + document.getElementById("ac").getAttribute("src"));
  document.getElementById("slide").style.backgroundImage = "url(images/" + 2 + "." + document.getElementById("slide").dataset.ext + ")";
  bg("slide");
});`,
		"images/1.png":        png1,
		"images/2.png":        png1,
		"images/thumbs/1.png": png1,
		"images/thumbs/2.png": png1,
		"images/my pic.png":   png1,
		"images/café.png":     png1,
	}
	compare(t, s, []string{"load", "slide1:1", "slide2:1", "big:1:images/1.png", "href:images/2.png", "src:images/thumbs/2.png", "cur:images/thumbs/2.png", "slide:ok:1",
		"attr:images/thumbs/2.png:true", "attr-spaced:images/my%20pic.png", "attr-accent:images/café.png"})
}

// TestStyleSheetListLikeHTTP: document.styleSheets hrefs and media of linked stylesheets (with a
// cache-busting query), the link's href attribute as written, and a theme switch to a sheet
// whose @imports form a cycle (the browser skips the cyclic import).
func TestStyleSheetListLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(`<link rel="stylesheet" href="css/main.css?v=2" id="m"><link rel="stylesheet" href="css/print.css" media="print">`,
			`<p id="p">p</p><script>var rel=function(u){return u?u.split("/").slice(3).join("/"):String(u)};`+
				`var m=document.getElementById("m");L.push("attr:"+m.getAttribute("href"),"prop:"+rel(m.href));`+
				`addEventListener("load",function(){L.push("n:"+document.styleSheets.length);for(var i=0;i<document.styleSheets.length;i++){var sh=document.styleSheets[i];L.push("h"+i+":"+rel(sh.href)+":"+sh.media.mediaText)}`+
				`P.push(new Promise(function(r){m.onload=function(){L.push("after:"+getComputedStyle(document.getElementById("p")).color+":"+rel(m.href));r()}}));m.href="css/cyc-a.css"})</script>`),
		"css/main.css":  `#p{color:rgb(1, 1, 1)}`,
		"css/print.css": `#p{color:rgb(2, 2, 2)}`,
		"css/cyc-a.css": `@import "cyc-b.css"; #p{color:rgb(3, 3, 3)}`,
		"css/cyc-b.css": `@import url(cyc-a.css); #p{margin-left:1px}`,
	}
	compare(t, s, []string{"load", "n:2", "h0:css/main.css?v=2:", "h1:css/print.css:print", "attr:css/main.css?v=2", "prop:css/main.css?v=2", "after:rgb(3, 3, 3):css/cyc-a.css"})
}

// TestAsyncCSSPatternsLikeHTTP: the loadCSS idioms (a preload link that becomes a stylesheet
// on load; a print stylesheet switched to all on load), an external stylesheet that cannot
// load (its error event fires in both), and the legacy background attribute.
func TestAsyncCSSPatternsLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(`<link rel="preload" href="css/late.css" as="style" onload="this.onload=null;this.rel='stylesheet'">`+
			`<link rel="stylesheet" href="css/print.css" media="print" onload="this.media='all'">`+
			`<link rel="stylesheet" href="https://cdn.invalid/lib.css" onerror="window.EXT='error'" onload="window.EXT='load'">`,
			`<p id="p">p</p><table id="tb" background="img/a.png"><tr><td id="td" background="img/a.png">x</td></tr></table>`+
				`<script>addEventListener("load",function(){bg("td");P.push(new Promise(function(r){setTimeout(function(){var cs=getComputedStyle(document.getElementById("p"));`+
				`L.push("late:"+cs.color,"print:"+cs.marginLeft,"ext:"+window.EXT);r()},300)}))})</script>`),
		"css/late.css":  `#p{color:rgb(5, 5, 5)}`,
		"css/print.css": `#p{margin-left:4px}`,
		"img/a.png":     png1,
	}
	compare(t, s, []string{"load", "late:rgb(5, 5, 5)", "print:4px", "ext:error", "td:ok:1"})
}

// TestTemplateSiteLikeHTTP: a site laid out like the common free templates (assets/css,
// assets/js, assets/fonts, images/; root-relative and ../ references, a CDN stylesheet, an icon
// font, a hero with srcset, background images from CSS and style attributes, an SVG sprite, a
// lightbox that reads data attributes and hrefs).
func TestTemplateSiteLikeHTTP(t *testing.T) {
	s := asite{
		"index.html": page(`<link rel="icon" type="image/png" href="/images/favicon.png">`+
			`<link rel="stylesheet" href="https://cdn.invalid/bootstrap.min.css">`+
			`<link rel="stylesheet" href="assets/css/main.css?ver=5.2"><noscript><link rel="stylesheet" href="assets/css/noscript.css"></noscript>`,
			`<header id="hero" style="background-image: url('images/hero.png')"><img id="logo" src="/images/logo.svg" alt=""></header>`+
				`<section class="features"><span id="fa" class="icon solid fa-gem"></span><svg id="sp" width="30" height="20"><use href="assets/icons.svg#home"></use></svg></section>`+
				`<img id="h" src="images/pic01.png" srcset="images/pic01.png 1x, images/pic01@2x.png 2x">`+
				`<div class="gallery"><a id="g1" href="images/fulls/01.png" data-title="One"><img id="t1" src="images/thumbs/01.png"></a></div>`+
				`<div id="banner"></div>`+
				`<script src="assets/js/jquery-lite.js"></script><script src="/assets/js/main.js?v=2"></script>`),
		"assets/css/main.css": `@import url("fontawesome-all.min.css");
#banner{height:3px;background:url("../../images/banner.png") center/cover}
.features .icon:before{font-family:"Font Awesome 5 Free";content:"\f3a5"}`,
		"assets/css/fontawesome-all.min.css": `@font-face{font-family:"Font Awesome 5 Free";font-weight:900;src:url(../webfonts/fa-solid-900.eot);src:url(../webfonts/fa-solid-900.eot?#iefix) format("embedded-opentype"),url(../webfonts/fa-solid-900.woff2) format("woff2"),url(../webfonts/fa-solid-900.ttf) format("truetype")}`,
		"assets/css/noscript.css":            `#hero{display:none}`,
		"assets/webfonts/fa-solid-900.eot":   font,
		"assets/webfonts/fa-solid-900.woff2": font,
		"assets/webfonts/fa-solid-900.ttf":   font,
		"assets/icons.svg":                   svgImg,
		"assets/js/jquery-lite.js":           `window.$ = function (s) { return Array.prototype.slice.call(document.querySelectorAll(s)); };`,
		"assets/js/main.js": `$(".gallery a").forEach(function (a) {
  var big = new Image();
  P.push(new Promise(function (r) { big.onload = function () { L.push("full:" + big.naturalWidth + ":" + a.getAttribute("href")); r(); }; big.onerror = function () { L.push("full:error"); r(); }; }));
  big.src = a.href;
});
addEventListener("load", function () {
  img("logo"); img("h"); img("t1"); bg("hero"); bg("banner");
  P.push(document.fonts.ready.then(function () { var st = []; document.fonts.forEach(function (f) { st.push(f.family + "=" + f.status); }); L.push("fonts:" + st.join()); }));
  L.push("sprite:" + Math.round(document.querySelector("#sp use").getBoundingClientRect().width), "hero:" + getComputedStyle(document.getElementById("hero")).display);
});`,
		"images/favicon.png":   png1,
		"images/hero.png":      png1,
		"images/logo.svg":      svgImg,
		"images/pic01.png":     png1,
		"images/pic01@2x.png":  png1,
		"images/fulls/01.png":  png1,
		"images/thumbs/01.png": png1,
		"images/banner.png":    png1,
	}
	compare(t, s, []string{"load", "full:1:images/fulls/01.png", "logo:true:3", "h:true:1", "t1:true:1", "hero:ok:1", "banner:ok:1",
		"fonts:Font Awesome 5 Free=loaded", "sprite:30", "hero:block"})
}
