package previewc_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/wasm/preview"
)

// BenchmarkMountAssets measures what edit → ack costs in the frame for a workspace with 8 MB of
// assets (50 images of 160 KiB, each shown by an <img> and a CSS url()): from setting the
// compiled document as the frame's srcdoc to the page's load event (ms-to-load), with the
// document size (doc-bytes). Compare before/after a change to how assets reach the document
// (docs/preview.md Costs).
func BenchmarkMountAssets(b *testing.B) {
	const n, size = 50, 160 << 10
	var page, css strings.Builder
	page.WriteString(`<!doctype html><html><head><link rel="stylesheet" href="css/s.css"><script>addEventListener("load",function(){window["top"].postMessage({probe:["load:"+(performance.now()|0)]},"*")})</script></head><body>`)
	pad := make([]byte, size-len(onePixelPNG))
	files := []preview.File{{}}
	for i := 0; i < n; i++ {
		p := "img/a" + strconv.Itoa(i) + ".png"
		files = append(files, preview.File{Path: p, Kind: preview.KindAsset, MimeType: "image/png", Data: append(append([]byte{}, onePixelPNG...), pad...)})
		page.WriteString(`<img src="` + p + `"><div class="b` + strconv.Itoa(i) + `">x</div>`)
		css.WriteString(".b" + strconv.Itoa(i) + "{background:url(../" + p + ")}\n")
	}
	page.WriteString(`</body></html>`)
	files[0] = preview.File{Path: "index.html", Kind: preview.KindText, Language: preview.LangHTML, Source: page.String()}
	files = append(files, preview.File{Path: "css/s.css", Kind: preview.KindText, Language: preview.LangCSS, Source: css.String()})
	doc := preview.Compile(files, preview.Options{Revision: 1, Nonce: "n", Bridge: true}).HTML
	tab := chromium.NewTab(b)
	if err := tab.Do(20*time.Second, chromedp.Navigate("about:blank")); err != nil {
		b.Fatal(err)
	}
	js, _ := json.Marshal(doc)
	setup := `document.body.innerHTML='';window.__doc=` + string(js) + `;0`
	if _, err := chromium.Eval[int](tab, 60*time.Second, setup); err != nil {
		b.Fatal(err)
	}
	var total float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ms, err := chromium.Eval[float64](tab, 60*time.Second, `new Promise(function(r){var f=document.createElement("iframe");f.setAttribute("sandbox","allow-scripts");f.style.cssText="width:800px;height:600px";`+
			`var t0=performance.now();addEventListener("message",function h(e){if(e.source===f.contentWindow){removeEventListener("message",h);var d=performance.now()-t0;f.remove();r(d)}});f.srcdoc=window.__doc;document.body.appendChild(f)})`)
		if err != nil {
			b.Fatal(err)
		}
		total += ms
	}
	b.ReportMetric(total/float64(b.N), "ms-to-load")
	b.ReportMetric(float64(len(doc)), "doc-bytes")
}
