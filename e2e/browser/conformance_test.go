package browser

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/devserver"
	"github.com/webcoding/studio/host/sitebuild"
	"github.com/webcoding/studio/wasm/conformance"
)

// TestConformanceVectorsInPage runs every conformance vector inside the page (the third host,
// SPEC §4): the core is built for GOOS=js with the conformance tag, and each request goes
// through globalThis.webcodingConformanceHandle — the js build's own Promise glue and core,
// assembled like the native reference host. Host name "browser" in baseline.json.
func TestConformanceVectorsInPage(t *testing.T) {
	t.Parallel()
	url := conformanceSite(t)
	tab := chromium.NewTab(t)
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `typeof webcodingConformanceHandle === "function"`); err != nil {
		t.Fatalf("no conformance host in the page: %v", err)
	}
	host := func(ctx context.Context, req []byte) ([]byte, error) {
		lit, err := json.Marshal(string(req))
		if err != nil {
			return nil, err
		}
		timeout := 2 * time.Minute
		if d, ok := ctx.Deadline(); ok {
			timeout = time.Until(d)
		}
		out, err := chromium.Eval[string](tab, timeout, "webcodingConformanceHandle("+string(lit)+")")
		if err != nil {
			return nil, err
		}
		if out == "" {
			return nil, nil
		}
		return []byte(out), nil
	}
	conformance.Run(t, "browser", host)
}

// The site built with the conformance tag, served once for the tests that need it (the
// in-page conformance host, the conformance-only panic feature).
var (
	confSiteOnce sync.Once
	confSiteURL  string
	confSiteErr  error
	confSiteDir  string // removed by stopSite
	confSiteSrv  *http.Server
)

// conformanceSite builds (once) and serves the site with the conformance tag and returns its
// URL; the server lives as long as the test binary.
func conformanceSite(t testing.TB) string {
	t.Helper()
	confSiteOnce.Do(func() {
		root := repoRoot()
		out, err := os.MkdirTemp("", "webcoding-e2e-conformance-site-")
		if err != nil {
			confSiteErr = err
			return
		}
		confSiteDir = out
		if _, confSiteErr = sitebuild.Build(sitebuild.Options{Base: "/web-coding/", Out: out, Site: root + "/site", Module: root, Tags: "conformance", SkipSurfaces: true, BrotliQuality: 1}); confSiteErr != nil {
			return
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			confSiteErr = err
			return
		}
		confSiteSrv = &http.Server{Handler: devserver.Handler(out)}
		go confSiteSrv.Serve(ln)
		confSiteURL = "http://" + ln.Addr().String() + "/web-coding/"
	})
	if confSiteErr != nil {
		t.Fatalf("building or serving the conformance site: %v", confSiteErr)
	}
	return confSiteURL
}
