package browser

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/devserver"
	"github.com/webcoding/studio/host/sitebuild"
)

// copyDir copies the site sources (small text files) to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNewVersionAnnounced: a page open on one deployment learns about the next one (the new
// service worker takes over) and offers "Reload studio", which loads the new build.
func TestNewVersionAnnounced(t *testing.T) {
	t.Parallel()
	site(t) // the shared build provides the compiled core
	src := filepath.Join(t.TempDir(), "site")
	copyDir(t, filepath.Join(repoRoot(), "site"), src)
	out := t.TempDir()
	wasm := filepath.Join(siteReport.Dir, filepath.FromSlash(siteReport.Assets["studio.wasm"]))
	build := func() sitebuild.Report {
		rep, err := sitebuild.Build(sitebuild.Options{Base: "/web-coding/", Out: out, Site: src, Wasm: wasm, SkipSurfaces: true, BrotliQuality: 1})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	first := build()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: devserver.Handler(out)}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/web-coding/"

	tab := chromium.NewServiceWorkerTab(t)
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!!navigator.serviceWorker.controller`); err != nil {
		t.Fatal(err)
	}
	// Deploy a new version (a changed stylesheet gives new hashes and a new build id).
	css := filepath.Join(src, "css", "studio.css")
	b, _ := os.ReadFile(css)
	os.WriteFile(css, append(b, []byte("\n.deployed-"+time.Now().Format("150405")+" { color: red; }\n")...), 0o644)
	second := build()
	if second.Build == first.Build {
		t.Fatal("the second build has the same id")
	}
	if _, err := chromium.Eval[bool](tab, 10*time.Second, `navigator.serviceWorker.getRegistration().then(r => r.update()).then(() => true)`); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#studio-notice", "A new version of the studio is available.")
	if err := tab.Do(loadTimeout, chromedp.Click(chromedp.CSS(`[aria-label="Reload studio"]`))); err != nil {
		t.Fatal(err)
	}
	// The page navigates: poll with fresh evaluations until the new document answers.
	deadline := time.Now().Add(loadTimeout)
	for {
		got, err := chromium.Eval[string](tab, 2*time.Second, `(document.querySelector('meta[name="webcoding-build"]') || {}).content || ""`)
		if err == nil && got == second.Build {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reload did not load build %s: have %q, %v", second.Build, got, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitText(t, tab, "#status-text", "Ready")
	noConsoleErrors(t, tab)
}
