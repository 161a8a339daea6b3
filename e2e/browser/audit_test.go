package browser

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

var (
	attrRef = regexp.MustCompile(`(?i)\b(?:src|href|content)="([^"]*)"`)
	cssURL  = regexp.MustCompile(`url\(\s*['"]?([^'")]+)`)
)

// TestBuildIsSelfContained checks the built site statically: every src/href in index.html
// (and the wasm named by the webcoding-wasm meta) exists under the base inside the build, and
// no page resource — HTML src/href, CSS url() — points to another origin.
func TestBuildIsSelfContained(t *testing.T) {
	t.Parallel()
	site(t)
	dir := siteReport.Dir
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, m := range attrRef.FindAllStringSubmatch(string(index), -1) {
		ref := m[1]
		if !strings.Contains(m[0], "content=") || strings.HasPrefix(ref, "assets/") {
			if isForeign(ref) {
				t.Errorf("index.html references another origin: %s", ref)
				continue
			}
			p := strings.TrimPrefix(ref, "/web-coding/")
			if p == "" || strings.HasPrefix(p, "#") || strings.HasPrefix(p, "data:") {
				continue // inline data: URLs (the favicon) are part of the page itself
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path.Clean(p)))); err != nil {
				t.Errorf("index.html references %s, missing from the build", ref)
			}
			checked++
		}
	}
	if checked < 4 {
		t.Errorf("only %d references checked in index.html", checked)
	}
	css, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(siteReport.Assets["css/studio.css"])))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range cssURL.FindAllStringSubmatch(string(css), -1) {
		if isForeign(m[1]) {
			t.Errorf("stylesheet references another origin: %s", m[1])
		}
	}
}

func isForeign(ref string) bool {
	if strings.HasPrefix(ref, "//") {
		return true
	}
	u, err := url.Parse(ref)
	return err == nil && u.Scheme != "" && u.Scheme != "data" && u.Scheme != "blob"
}

// TestRuntimeRequestsStaySameOrigin audits what the page actually fetched while loading and
// running a prompt: every resource comes from the studio's own origin.
func TestRuntimeRequestsStaySameOrigin(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	sendPrompt(t, tab, "Show workspace status")
	waitContains(t, tab, "#transcript", "✓ workspace.getStatus")
	urls, err := chromium.Eval[[]string](tab, 5*time.Second, `performance.getEntriesByType("resource").map(e => e.name)`)
	if err != nil {
		t.Fatal(err)
	}
	origin, _ := chromium.Eval[string](tab, 5*time.Second, `location.origin`)
	if len(urls) < 4 {
		t.Fatalf("only %d resources recorded: %v", len(urls), urls)
	}
	for _, u := range urls {
		if !strings.HasPrefix(u, origin+"/") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") {
			t.Errorf("the page fetched %s from another origin", u)
		}
	}
}
