package devserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "web-coding")
	must(t, os.MkdirAll(filepath.Join(site, "assets"), 0o755))
	must(t, os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html>home"), 0o644))
	must(t, os.WriteFile(filepath.Join(site, "assets", "core.wasm"), []byte("raw"), 0o644))
	must(t, os.WriteFile(filepath.Join(site, "assets", "core.wasm.br"), []byte("brotli"), 0o644))
	must(t, os.WriteFile(filepath.Join(site, ".secret"), []byte("no"), 0o644))
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()

	get := func(path, enc string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		tr := &http.Transport{DisableCompression: true}
		resp, err := (&http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	if r, body := get("/web-coding/", ""); r.StatusCode != 200 || body != "<!doctype html>home" || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("index: %d %q %q", r.StatusCode, body, r.Header.Get("Content-Type"))
	}
	if r, body := get("/web-coding/assets/core.wasm", "gzip, br"); body != "brotli" || r.Header.Get("Content-Encoding") != "br" || r.Header.Get("Content-Type") != "application/wasm" {
		t.Fatalf("precompressed wasm: %q %q %q", body, r.Header.Get("Content-Encoding"), r.Header.Get("Content-Type"))
	}
	if r, body := get("/web-coding/assets/core.wasm", "br;q=0, gzip"); body != "raw" || r.Header.Get("Content-Encoding") != "" {
		t.Fatalf("br refused with q=0 must serve identity: %q %q", body, r.Header.Get("Content-Encoding"))
	}
	if r, _ := get("/web-coding/.secret", ""); r.StatusCode != 404 {
		t.Fatalf("dot-file served: %d", r.StatusCode)
	}
	if r, _ := get("/web-coding/../../etc/passwd", ""); r.StatusCode != 404 {
		t.Fatalf("traversal: %d", r.StatusCode)
	}
	if r, _ := get("/", ""); r.StatusCode != http.StatusFound || r.Header.Get("Location") != "/web-coding/" {
		t.Fatalf("root redirect: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	if r, _ := get("/web-coding/assets/core.wasm", ""); r.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatal("missing Vary")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
