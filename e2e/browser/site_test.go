package browser

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/webcoding/studio/host/devserver"
	"github.com/webcoding/studio/host/sitebuild"
)

// The site is built once per test binary (TestMain-scoped, lazily) into a temp dir and
// served by host/devserver on 127.0.0.1:0, exactly as `make run` serves dist/.
var (
	siteOnce   sync.Once
	siteErr    error
	siteURL    string
	siteReport sitebuild.Report
	siteDir    string
	siteSrv    *http.Server
	siteLn     net.Listener
	siteMu     sync.Mutex
)

// site builds and serves the studio (once) and returns its URL ("http://127.0.0.1:port/web-coding/").
func site(t testing.TB) string {
	t.Helper()
	siteOnce.Do(func() {
		siteDir, siteErr = os.MkdirTemp("", "webcoding-e2e-site-")
		if siteErr != nil {
			return
		}
		root := repoRoot()
		siteReport, siteErr = sitebuild.Build(sitebuild.Options{Base: "/web-coding/", Out: siteDir,
			Site: filepath.Join(root, "site"), Module: root, BrotliQuality: 5})
		if siteErr != nil {
			return
		}
		siteLn, siteErr = net.Listen("tcp", "127.0.0.1:0")
		if siteErr != nil {
			return
		}
		siteSrv = &http.Server{Handler: devserver.Handler(siteDir)}
		go siteSrv.Serve(siteLn)
		siteURL = "http://" + siteLn.Addr().String() + "/web-coding/"
	})
	if siteErr != nil {
		t.Fatalf("building or serving the site: %v", siteErr)
	}
	return siteURL
}

// ownSite serves the built site (site) on an address of the test's own and returns its URL
// ("http://127.0.0.1:port/web-coding/") and a stop that closes the server (idempotent; also
// run when the test ends): for the offline tests, which stop their server while the other
// tests go on with the shared one.
func ownSite(t testing.TB) (url string, stop func()) {
	t.Helper()
	site(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: devserver.Handler(siteDir)}
	go srv.Serve(ln)
	var once sync.Once
	stop = func() { once.Do(func() { _ = srv.Close() }) }
	t.Cleanup(stop)
	return "http://" + ln.Addr().String() + "/web-coding/", stop
}

// stopServer stops serving the site (the offline test) and returns a function that serves it
// again on the same address.
func stopServer(t testing.TB) (restart func()) {
	t.Helper()
	siteMu.Lock()
	defer siteMu.Unlock()
	addr := siteLn.Addr().String()
	_ = siteSrv.Close()
	return func() {
		siteMu.Lock()
		defer siteMu.Unlock()
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("restart server on %s: %v", addr, err)
		}
		siteLn = ln
		siteSrv = &http.Server{Handler: devserver.Handler(siteDir)}
		go siteSrv.Serve(ln)
	}
}

func stopSite() {
	if siteSrv != nil {
		_ = siteSrv.Close()
	}
	if siteDir != "" {
		_ = os.RemoveAll(siteDir)
	}
	if confSiteSrv != nil {
		_ = confSiteSrv.Close()
	}
	if confSiteDir != "" {
		_ = os.RemoveAll(confSiteDir)
	}
}
