package verify

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/andybalholm/brotli"
)

// Problem is one failed check: the file (slash path relative to the site directory) that holds
// the reference, the reference as written (empty for file-level problems) and why it fails.
type Problem struct {
	File   string
	Ref    string
	Reason string
}

func (p Problem) String() string {
	if p.Ref == "" {
		return p.File + ": " + p.Reason
	}
	return fmt.Sprintf("%s: %q: %s", p.File, p.Ref, p.Reason)
}

// Ref is one reference found in a file. Kind says how it is used: "resource" (loaded by the
// page: must be same-origin and exist) or "link" (navigation: may leave the origin, must exist
// when it does not).
type Ref struct {
	URL  string
	Kind string
	// Where is a short description, e.g. `<script src>` or "url()".
	Where string
}

const (
	kindResource = "resource"
	kindLink     = "link"
	// kindPage is a resource named in a script but resolved against the page (the site's
	// index.html), like navigator.serviceWorker.register("sw.js").
	kindPage = "page-resource"
)

// Dir checks the site in dir, served under base (a URL path that starts and ends with "/",
// e.g. "/web-coding/"). It returns the problems sorted by file then reference, and an error
// only when dir cannot be read or base is malformed. No problems means the build passes.
func Dir(dir, base string) ([]Problem, error) {
	if !strings.HasPrefix(base, "/") || !strings.HasSuffix(base, "/") {
		return nil, fmt.Errorf("verify: base %q must start and end with \"/\"", base)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("verify: %s is not a directory", dir)
	}
	var probs []Problem
	sawIndex := false
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "index.html" {
			sawIndex = true
		}
		ext := path.Ext(rel)
		if ext == ".gz" || ext == ".br" {
			probs = append(probs, checkCompressed(dir, rel)...)
			return nil
		}
		var refs []Ref
		switch ext {
		case ".html", ".htm":
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			refs = HTMLRefs(b)
		case ".css":
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, u := range CSSRefs(b) {
				refs = append(refs, Ref{URL: u, Kind: kindResource, Where: "css"})
			}
		case ".js", ".mjs":
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			refs = JSRefs(b)
		}
		doc := base + rel
		if ext == ".html" || ext == ".htm" {
			// A <base href> changes what the other references resolve against.
			for _, r := range refs {
				if r.Where == "<base href>" {
					if bu, err := url.Parse(strings.TrimSpace(r.URL)); err == nil && bu.Scheme == "" && bu.Host == "" {
						doc = (&url.URL{Path: doc}).ResolveReference(&url.URL{Path: bu.Path}).Path
						if strings.HasSuffix(doc, "/") {
							doc += "index.html"
						}
					}
				}
			}
		}
		for _, r := range refs {
			d := doc
			if r.Kind == kindPage {
				d = base + "index.html"
			}
			if reason := check(dir, base, d, r); reason != "" {
				probs = append(probs, Problem{File: rel, Ref: r.URL, Reason: reason})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	if !sawIndex {
		probs = append(probs, Problem{File: "index.html", Reason: "missing: the site has no index.html at its root"})
	}
	sort.SliceStable(probs, func(i, j int) bool {
		if probs[i].File != probs[j].File {
			return probs[i].File < probs[j].File
		}
		return probs[i].Ref < probs[j].Ref
	})
	return probs, nil
}

// check resolves one reference of the document at URL path doc and returns why it fails, or "".
func check(dir, base, doc string, r Ref) string {
	raw := strings.TrimSpace(r.URL)
	if raw == "" {
		if r.Kind == kindResource {
			return "empty " + r.Where
		}
		return ""
	}
	if strings.HasPrefix(raw, "#") {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "unparsable URL in " + r.Where + ": " + err.Error()
	}
	switch strings.ToLower(u.Scheme) {
	case "":
	case "data", "blob":
		return ""
	case "about":
		if strings.EqualFold(u.Opaque, "blank") || strings.EqualFold(u.Opaque, "srcdoc") {
			return ""
		}
		return "unexpected about: URL in " + r.Where
	case "javascript":
		return "javascript: URL in " + r.Where
	case "mailto", "tel":
		if r.Kind == kindLink {
			return ""
		}
		return u.Scheme + ": URL used as a resource in " + r.Where
	default:
		if r.Kind == kindLink {
			return ""
		}
		return "points to another origin (" + r.Where + ")"
	}
	if u.Host != "" || strings.HasPrefix(raw, "//") {
		if r.Kind == kindLink {
			return ""
		}
		return "points to another origin (" + r.Where + ")"
	}
	// Same origin: resolve against the document's URL path under the base.
	docURL := &url.URL{Path: doc}
	abs := docURL.ResolveReference(&url.URL{Path: u.Path, RawPath: u.RawPath})
	p := abs.Path
	if u.Path == "" { // "?query" only: the document itself
		p = docURL.Path
	}
	if !strings.HasPrefix(p, base) {
		return "resolves to " + p + ", outside the base " + base
	}
	inside := strings.TrimPrefix(p, base)
	if inside == "" || strings.HasSuffix(inside, "/") {
		inside += "index.html"
	}
	fp := filepath.Join(dir, filepath.FromSlash(inside))
	st, err := os.Stat(fp)
	if err != nil {
		return "missing: " + p + " is not in the build (" + r.Where + ")"
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(fp, "index.html")); err != nil {
			return p + " is a directory without index.html (" + r.Where + ")"
		}
	}
	return ""
}

// checkCompressed verifies that the .gz/.br file rel decompresses to its original sibling.
func checkCompressed(dir, rel string) []Problem {
	orig := strings.TrimSuffix(strings.TrimSuffix(rel, ".gz"), ".br")
	want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(orig)))
	if err != nil {
		return []Problem{{File: rel, Reason: "precompressed file without its original " + orig}}
	}
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return []Problem{{File: rel, Reason: err.Error()}}
	}
	defer f.Close()
	var r io.Reader
	if strings.HasSuffix(rel, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return []Problem{{File: rel, Reason: "not gzip: " + err.Error()}}
		}
		r = zr
	} else {
		r = brotli.NewReader(f)
	}
	got, err := io.ReadAll(io.LimitReader(r, int64(len(want))+1))
	if err != nil {
		return []Problem{{File: rel, Reason: "does not decompress: " + err.Error()}}
	}
	if !bytes.Equal(got, want) {
		return []Problem{{File: rel, Reason: "decompresses to different bytes than " + orig}}
	}
	return nil
}

// jsImport matches static import/export-from specifiers and dynamic import("…") with a literal.
var jsImport = regexp.MustCompile(`(?:\bimport\s*\(\s*|\bfrom\s*|\bimport\s+)("[^"\n]*"|'[^'\n]*')`)

// swRegister matches a service worker registration with a literal script URL.
var swRegister = regexp.MustCompile(`serviceWorker\.register\(\s*("[^"\n]*"|'[^'\n]*')`)

// swAssets matches the service worker's precache list: const ASSETS = [ … ];
var swAssets = regexp.MustCompile(`(?s)\bconst\s+ASSETS\s*=\s*(\[.*?\])\s*;`)

// JSRefs returns the relative or absolute static import specifiers of a JS file (bare package
// names are not URLs and are skipped) and, for a service worker with `const ASSETS = [...]`,
// every precached URL. A malformed ASSETS list is returned as a reference that cannot resolve.
func JSRefs(b []byte) []Ref {
	var refs []Ref
	for _, m := range jsImport.FindAllSubmatch(b, -1) {
		s := string(m[1][1 : len(m[1])-1])
		if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") || strings.Contains(s, "://") {
			refs = append(refs, Ref{URL: s, Kind: kindResource, Where: "js import"})
		}
	}
	for _, m := range swRegister.FindAllSubmatch(b, -1) {
		refs = append(refs, Ref{URL: string(m[1][1 : len(m[1])-1]), Kind: kindPage, Where: "serviceWorker.register"})
	}
	if m := swAssets.FindSubmatch(b); m != nil {
		var list []string
		if err := json.Unmarshal(m[1], &list); err != nil {
			refs = append(refs, Ref{URL: "javascript:invalid-ASSETS-list", Kind: kindResource, Where: "sw ASSETS (not a JSON string list)"})
		}
		for _, s := range list {
			refs = append(refs, Ref{URL: s, Kind: kindResource, Where: "sw ASSETS"})
		}
	}
	return refs
}
