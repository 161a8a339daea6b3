package browser

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
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
	root := repoRoot()
	out := t.TempDir()
	rep, err := sitebuild.Build(sitebuild.Options{Base: "/web-coding/", Out: out, Site: root + "/site", Module: root, Tags: "conformance", BrotliQuality: 1})
	if err != nil {
		t.Fatal(err)
	}
	_ = rep
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: devserver.Handler(out)}
	go srv.Serve(ln)
	defer srv.Close()
	tab := chromium.NewTab(t)
	if err := tab.Do(loadTimeout, chromedp.Navigate("http://"+ln.Addr().String()+"/web-coding/")); err != nil {
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
