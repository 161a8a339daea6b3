package browser

import (
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// blobPage measures SPEC §2.15: does a blob: URL created by the parent load inside the
// opaque-origin sandboxed frame (img and fetch)? And does a data: URL (our strategy)?
const blobPage = `<!doctype html><meta charset="utf-8"><body><script>
const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), c => c.charCodeAt(0));
const blobURL = URL.createObjectURL(new Blob([png], {type: "image/png"}));
const dataURL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
window.results = {};
window.addEventListener("message", (e) => { if (e.source === frame.contentWindow) Object.assign(window.results, e.data); });
const frame = document.createElement("iframe");
frame.setAttribute("sandbox", "allow-scripts");
frame.srcdoc = '<img id=b src="' + blobURL + '"><img id=d src="' + dataURL + '"><script>' +
  'function post(k,v){var m={};m[k]=v;parent.postMessage(m,"*");}' +
  'b.onload=function(){post("blobImg","loaded")};b.onerror=function(){post("blobImg","error")};' +
  'd.onload=function(){post("dataImg","loaded")};d.onerror=function(){post("dataImg","error")};' +
  'fetch("' + blobURL + '").then(function(r){post("blobFetch","ok " + r.status)},function(e){post("blobFetch","error " + e)});' +
  'post("origin", String(self.origin));' +
  '<\/script>';
document.body.appendChild(frame);
</script>`

func TestBlobURLInOpaqueFrame(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, blobPage)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	tab := chromium.NewTab(t)
	if err := tab.Do(20*time.Second, chromedp.Navigate("http://"+ln.Addr().String()+"/")); err != nil {
		t.Fatal(err)
	}
	res, err := chromium.WaitFor[map[string]string](tab, 10*time.Second,
		`(() => { const r = window.results; return r && r.blobImg && r.dataImg && r.blobFetch && r.origin ? r : false; })()`)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sandboxed srcdoc frame (origin %s): parent blob: img %s, parent blob: fetch %s, data: img %s",
		res["origin"], res["blobImg"], res["blobFetch"], res["dataImg"])
	if res["dataImg"] != "loaded" {
		t.Errorf("data: URL image did not load in the sandboxed frame (%s): the preview's asset strategy is broken", res["dataImg"])
	}
	if res["origin"] != "null" {
		t.Errorf("the sandboxed frame has origin %q, want the opaque origin \"null\"", res["origin"])
	}
}
