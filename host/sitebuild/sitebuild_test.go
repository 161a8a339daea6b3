package sitebuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildFillsBase(t *testing.T) {
	site := t.TempDir()
	if err := os.WriteFile(filepath.Join(site, "index.html"), []byte(`<base href="{{BASE}}">`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	dst, err := Build(Options{Base: "/x/y/", Out: out, Site: site})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dst, "index.html"))
	if err != nil || !strings.Contains(string(b), `href="/x/y/"`) || dst != filepath.Join(out, "x", "y") {
		t.Fatalf("%s %q %v", dst, b, err)
	}
	for _, bad := range []string{"web-coding", "/a/../b/", "/a"} {
		if _, err := Build(Options{Base: bad, Out: out, Site: site}); err == nil {
			t.Errorf("base %q accepted", bad)
		}
	}
}
