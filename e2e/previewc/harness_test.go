package previewc_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

func TestMain(m *testing.M) {
	code := m.Run()
	chromium.Shutdown()
	os.Exit(code)
}

// parentPage hosts the sandboxed frame the way the studio does (sandbox="allow-scripts",
// srcdoc, no allow-same-origin) and stores the frame's first {probe: …} message. The frame is
// as large as the tab's viewport, so media queries and srcset sizes choose as over HTTP.
const parentPage = `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100vw;height:100vh}</style></head><body>
<iframe sandbox="allow-scripts" title="preview"></iframe>
<script>window.__probe=null;window.addEventListener("message",function(e){if(e.data&&e.data.probe&&!window.__probe)window.__probe=e.data.probe;});</script>
</body></html>`

// runInFrame loads doc as the srcdoc of a sandboxed frame in a fresh tab and returns the
// list the page posted to its parent as {probe: [...]}.
func runInFrame(t testing.TB, doc string) []string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(parentPage))
	}))
	t.Cleanup(srv.Close)
	tab := chromium.NewTab(t)
	js, _ := json.Marshal(doc)
	if err := tab.Do(20*time.Second, chromedp.Navigate(srv.URL+"/"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("iframe").srcdoc=`+string(js)+`;0`)); err != nil {
		t.Fatal(err)
	}
	got, err := chromium.WaitFor[[]string](tab, 15*time.Second, `window.__probe`)
	if err != nil {
		t.Fatalf("no probe from the frame: %v; console: %v", err, tab.Console())
	}
	return got
}

// probeScript is page code: a log L and a report to the parent 50 ms after load, through
// window["top"] (the page's own `top` and `parent` are its window: docs/design.md §5.47).
const probeScript = `<script>window.L=[];window.addEventListener("load",function(){L.push("load");setTimeout(function(){window["top"].postMessage({probe:L},"*")},50)});document.addEventListener("DOMContentLoaded",function(){L.push("dcl")});</script>`
