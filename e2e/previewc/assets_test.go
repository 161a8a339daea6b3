package previewc_test

import (
	"encoding/base64"
	"reflect"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/preview"
)

// onePixelPNG is a 1×1 PNG.
var onePixelPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

// TestStaticURLsLikeHTTP: srcset on <img> and <source>, and a style attribute's url(), load the
// workspace image in the preview as over HTTP; <img src="."> is broken in both (issue 13 items 3
// and 6).
func TestStaticURLsLikeHTTP(t *testing.T) {
	s := site{
		"index.html": `<!doctype html><html><head>` + probe + `</head><body>` +
			`<img id="s" srcset="img/p.png 1x"><picture><source srcset="img/p.png"><img id="p" src="missing.png"></picture><img id="dot" src=".">` +
			`<div id="d" style="width:1px;height:1px;background-image:url('img/p.png')"></div>` +
			`<script>addEventListener("load",function(){var w=function(id){var e=document.getElementById(id);return id+":"+e.complete+":"+e.naturalWidth};` +
			`L.unshift(w("s"),w("p"),w("dot"),"bg:"+/url\(/.test(getComputedStyle(document.getElementById("d")).backgroundImage))})</script></body></html>`,
		"img/p.png": string(onePixelPNG),
	}
	want := []string{"s:true:1", "p:true:1", "dot:true:0", "bg:true", "dcl", "load"}
	if got := overHTTP(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("over HTTP: %q, want %q (the test's expectation is wrong)", got, want)
	}
	var files []preview.File
	for _, f := range s.files() {
		if strings.HasSuffix(f.Path, ".png") {
			f = preview.File{Path: f.Path, Kind: preview.KindAsset, MimeType: "image/png", Data: []byte(f.Source)}
		}
		files = append(files, f)
	}
	r := preview.Compile(files, preview.Options{Revision: 1, Nonce: "n", Bridge: true})
	if got := runInFrame(t, r.HTML); !reflect.DeepEqual(got, want) {
		t.Errorf("in the preview: %q\nwant (as over HTTP): %q", got, want)
	}
}
