package previewc_test

import (
	"reflect"
	"testing"
)

// TestCSSLikeHTTP: import conditions, alternate stylesheets, link ids and inline <style>
// @imports give the same computed styles in the preview as over HTTP (issue 13 item 6).
func TestCSSLikeHTTP(t *testing.T) {
	s := site{
		"index.html": `<!doctype html><html><head>` + probe +
			`<link id="theme" rel="stylesheet" href="main.css">` +
			`<link rel="alternate stylesheet" title="Dark" href="dark.css">` +
			`<link rel="preload" as="style" href="pre.css">` +
			`<style>@import "inl.css"; #d{margin-left:3px}</style>` +
			`</head><body><p id="a">a</p><p id="b">b</p><p id="c">c</p><p id="d">d</p>` +
			`<script>var cs=function(id,p){return getComputedStyle(document.getElementById(id))[p]};` +
			`L.push("a:"+cs("a","color"),"b:"+cs("b","color"),"c:"+cs("c","color"),"d:"+cs("d","margin-left")+":"+cs("d","color"),` +
			`"body:"+getComputedStyle(document.body).backgroundColor,"theme:"+(document.getElementById("theme")?document.getElementById("theme").id:"none"))</script>` +
			`</body></html>`,
		"main.css":    `@import url(layered.css) layer(base); @import "cond.css" supports(display: grid) screen; @import "never.css" supports(not (display: block)); #a{color:rgb(1, 2, 3)}`,
		"layered.css": `#a{color:rgb(9, 9, 9)} #b{color:rgb(4, 5, 6)}`,
		"cond.css":    `#c{color:rgb(7, 8, 9)}`,
		"never.css":   `#c{color:rgb(0, 0, 1)}`,
		"dark.css":    `body{background-color:rgb(0, 0, 0)}`,
		"pre.css":     `body{background-color:rgb(255, 0, 0)}`,
		"inl.css":     `#d{color:rgb(10, 11, 12)}`,
	}
	want := []string{"a:rgb(1, 2, 3)", "b:rgb(4, 5, 6)", "c:rgb(7, 8, 9)", "d:3px:rgb(10, 11, 12)", "body:rgba(0, 0, 0, 0)", "theme:theme", "dcl", "load"}
	if got := overHTTP(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("over HTTP: %q, want %q (the test's expectation is wrong)", got, want)
	}
	if got := inPreview(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("in the preview: %q\nwant (as over HTTP): %q", got, want)
	}
}

// TestThemeSwapLikeHTTP: a theme switcher that sets a stylesheet link's href (property or
// setAttribute) to another workspace CSS file restyles the page, fires the link's load event
// for the new sheet before the window's (a queued event of the first sheet may fire too), and reads back the href it set — as over HTTP (issue 13 item 6).
func TestThemeSwapLikeHTTP(t *testing.T) {
	s := site{
		"index.html": `<!doctype html><html><head>` + probe +
			`<link id="theme" rel="stylesheet" href="light.css"><link id="extra" rel="stylesheet" href="css/a.css">` +
			`</head><body><p id="p">p</p><p id="q">q</p>` +
			`<script>var cs=function(id,p){return getComputedStyle(document.getElementById(id))[p]};` +
			`var t=document.getElementById("theme"),x=document.getElementById("extra"),f={};` +
			`L.push("before:"+cs("p","color")+":"+cs("q","margin-left")+":"+t.href.split("/").pop());` +
			`t.onload=function(){if(cs("p","color")==="rgb(4, 5, 6)")f.theme=1};x.onload=function(){if(cs("q","margin-left")==="2px")f.extra=1};` +
			`t.href="dark.css";x.setAttribute("href","css/b.css");` +
			`addEventListener("load",function(){L.push("after:"+cs("p","color")+":"+cs("q","margin-left")+":"+t.href.split("/").pop()+":"+x.getAttribute("href")+":"+Object.keys(f).sort().join())});</script>` +
			`</body></html>`,
		"light.css": `#p{color:rgb(1, 2, 3)}`,
		"dark.css":  `#p{color:rgb(4, 5, 6)}`,
		"css/a.css": `#q{margin-left:1px}`,
		"css/b.css": `#q{margin-left:2px}`,
	}
	want := []string{"before:rgb(1, 2, 3):1px:light.css", "dcl", "load", "after:rgb(4, 5, 6):2px:dark.css:css/b.css:extra,theme"}
	if got := overHTTP(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("over HTTP: %q, want %q (the test's expectation is wrong)", got, want)
	}
	if got := inPreview(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("in the preview: %q\nwant (as over HTTP): %q", got, want)
	}
}
