// Package devserver serves a built site directory over HTTP on loopback, the way GitHub Pages
// serves the deployed studio: each built site DIR/NAME/ answers at /NAME/, e.g. DIR/web-coding/
// at /web-coding/ (SPEC §3, `webcoding serve`). It serves precompressed siblings (file.br, file.gz) when the client accepts them,
// with the Content-Type of the original file and the matching Content-Encoding, and
// application/wasm for .wasm files.
//
// Owns: serving a built site directory read-only, with its content types and precompressed
// siblings.
//
// Must never: build or change the site (host/sitebuild builds it), or answer a path that
// leaves the directory or names a dot-file.
package devserver

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

func init() {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	_ = mime.AddExtensionType(".webmanifest", "application/manifest+json")
	_ = mime.AddExtensionType(".mjs", "text/javascript")
}

// Handler serves dir. Paths that escape dir, and dot-files, are not found; a directory serves
// its index.html; "/" redirects to the first site directory's base when there is exactly one.
func Handler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		for _, seg := range strings.Split(clean, "/") {
			if strings.HasPrefix(seg, ".") {
				http.NotFound(w, r)
				return
			}
		}
		if clean == "/" {
			if entries, err := os.ReadDir(dir); err == nil && len(entries) == 1 && entries[0].IsDir() {
				http.Redirect(w, r, "/"+entries[0].Name()+"/", http.StatusFound)
				return
			}
		}
		name := filepath.Join(dir, filepath.FromSlash(clean))
		st, err := os.Stat(name)
		if err == nil && st.IsDir() {
			if !strings.HasSuffix(r.URL.Path, "/") {
				http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
				return
			}
			name = filepath.Join(name, "index.html")
			clean += "/index.html"
		} else if err != nil {
			http.NotFound(w, r)
			return
		}
		ctype := mime.TypeByExtension(path.Ext(clean))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Add("Vary", "Accept-Encoding")
		if strings.HasSuffix(clean, ".html") || strings.HasSuffix(clean, "sw.js") {
			w.Header().Set("Cache-Control", "no-cache")
		}
		accept := r.Header.Get("Accept-Encoding")
		for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !acceptsEncoding(accept, enc.token) {
				continue
			}
			if _, err := os.Stat(name + enc.ext); err == nil {
				w.Header().Set("Content-Encoding", enc.token)
				http.ServeFile(w, r, name+enc.ext)
				return
			}
		}
		http.ServeFile(w, r, name)
	})
}

// acceptsEncoding reports whether an Accept-Encoding header value accepts token (q > 0).
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(fields[0]), token) {
			continue
		}
		for _, p := range fields[1:] {
			p = strings.ReplaceAll(strings.TrimSpace(p), " ", "")
			if p == "q=0" || p == "q=0.0" || p == "q=0.00" || p == "q=0.000" {
				return false
			}
		}
		return true
	}
	return false
}
