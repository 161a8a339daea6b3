// Package harness runs a small static site two ways in the shared headless Chromium
// (e2e/chromium) and reads what each run shows: served over HTTP by a loopback httptest server
// (the "served" run, top level), and in the studio's preview (preview.Compile of the same files,
// mounted by the real parent shim site/js/preview-bridge.js in a studio stand-in page). The
// fidelity suite (e2e/fidelity) and the real-site measurement (e2e/realsites) build on it.
//
// One server per test binary (Server starts it lazily; Close stops it, from TestMain). Sites
// are registered by name (AddSite, AddFiles) and live for the binary's lifetime. Only
// loopback is used; nothing is fetched from the network except what a page itself requests.
package harness

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/sitebuild"
	"github.com/webcoding/studio/wasm/preview"
)

// RepoRoot is the module root (three levels up from this package).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// Close stops the harness server if it started (call it from TestMain after m.Run, before
// chromium.Shutdown).
func Close() {
	if srv != nil {
		srv.Close()
	}
}

// Navigate is chromedp's top-level navigation (waits for the load event).
func Navigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }

// The harness server (one per test binary, loopback):
//   - /site/<name>/… serves the site's files over HTTP (the "served" run; a folder on disk
//     when ServeDir named one);
//   - /js/… serves site/js of the repository (the real parent shim, preview-bridge.js);
//   - /parent.html is a studio stand-in: the real shim in a host element, its batches
//     recorded in window.__batches, and window.__mount(name, revision, opts) which fetches
//     /compiled/<name> (preview.Compile of the site's files) and mounts it;
//   - /compiled/<name>?rev=&nonce=&internet= returns the compiled preview document (header
//     X-Quirks: 1 for Result.Quirks, which the stand-in passes to mount as the studio does);
//     &prelude=<js> puts that script first in it (e2e/realsites' seeded Math.random).
var (
	srvOnce sync.Once
	srv     *httptest.Server
	sitesMu sync.Mutex
	sites   = map[string][]preview.File{}
	dirs    = map[string]string{} // name → folder served from disk (ServeDir)
)

const parentPage = `<!doctype html><meta charset="utf-8"><title>preview parent</title>
<style>#host{width:800px;height:600px} #host iframe{width:100%;height:100%;border:0}</style>
<div id="host"></div>
<script type="module">
import { createPreviewBridge } from "/js/preview-bridge.js";
window.__batches = [];
window.__longest = 0;
window.__tasks = [];
try {
  new PerformanceObserver((list) => { for (const e of list.getEntries()) { window.__tasks.push(Math.round(e.startTime) + "+" + Math.round(e.duration)); window.__longest = Math.max(window.__longest, e.duration); } })
    .observe({ type: "longtask", buffered: true });
} catch (e) { window.__longest = -1; }
const bridge = createPreviewBridge(document.getElementById("host"));
let navs = 0;
// As the Go port does: the page's storage changes are kept and the next page starts from them.
window.__storage = { local: {}, session: {}, cookie: {} };
bridge.attach((json) => {
  const at = Date.now();
  for (const m of JSON.parse(json)) {
    m.at = at; window.__batches.push(m);
    if (m.type === "webcoding.preview.storage" && window.__storage[m.area]) {
      if (m.clear) window.__storage[m.area] = {};
      for (const [k, v] of Object.entries(m.set || {})) { if (v === null) delete window.__storage[m.area][k]; else window.__storage[m.area][k] = v; }
    }
    // As the Go port does: a link to a workspace page mounts that page (same revision).
    if (m.type === "webcoding.preview.navigate") {
      navs++;
      window.__mount(window.__name, m.revision, m.nonce + "-nav" + navs, "&entry=" + encodeURIComponent(m.path) + "&search=" + encodeURIComponent(m.search) + "&hash=" + encodeURIComponent(m.hash) + (m.dir ? "&dir=1" : "") + "&referrer=" + encodeURIComponent(window.__pageURL || "") +
        "&storage=" + encodeURIComponent(JSON.stringify(window.__storage)));
    }
  }
});
window.__bridge = bridge;
window.__mount = async (name, rev, nonce, query) => {
  window.__name = name;
  const resp = await fetch("/compiled/" + name + "?rev=" + rev + "&nonce=" + nonce + (query || ""));
  window.__pageURL = resp.headers.get("X-Page-URL") || ""; // as the Go port keeps the page shown
  const html = await resp.text();
  await new Promise((r) => setTimeout(r, 50));
  window.__longest = 0; window.__tasks = []; window.__mountedAt = performance.now();
  bridge.mount(rev, nonce, html, true, resp.headers.get("X-Quirks") === "1");
};
window.__of = (type) => window.__batches.filter((m) => m.type === type);
window.__ready = true;
</script>`

func Server(t testing.TB) *httptest.Server {
	IDBShim(t)
	srvOnce.Do(func() {
		mux := http.NewServeMux()
		mux.Handle("/js/", http.StripPrefix("/js/", http.FileServer(http.Dir(filepath.Join(RepoRoot(), "site", "js")))))
		mux.HandleFunc("/parent.html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(parentPage))
		})
		mux.HandleFunc("/site/", func(w http.ResponseWriter, r *http.Request) {
			rest := strings.TrimPrefix(r.URL.Path, "/site/")
			name, p, _ := strings.Cut(rest, "/")
			sitesMu.Lock()
			files, dir := sites[name], dirs[name]
			sitesMu.Unlock()
			if dir != "" {
				r.URL.Path = "/" + p
				http.FileServer(http.Dir(dir)).ServeHTTP(w, r)
				return
			}
			if p == "" || strings.HasSuffix(p, "/") {
				p += "index.html"
			}
			for _, f := range files {
				if f.Path == p {
					w.Header().Set("Content-Type", preview.MimeTypeOf(f))
					if f.Kind == preview.KindAsset {
						_, _ = w.Write(f.Data)
					} else {
						_, _ = w.Write([]byte(f.Source))
					}
					return
				}
			}
			http.NotFound(w, r)
		})
		mux.HandleFunc("/compiled/", func(w http.ResponseWriter, r *http.Request) {
			name := strings.TrimPrefix(r.URL.Path, "/compiled/")
			sitesMu.Lock()
			files := sites[name]
			sitesMu.Unlock()
			q := r.URL.Query()
			var rev int64
			_ = json.Unmarshal([]byte(q.Get("rev")), &rev)
			var storage *preview.RuntimeStorage
			if st := q.Get("storage"); st != "" {
				storage = &preview.RuntimeStorage{}
				_ = json.Unmarshal([]byte(st), storage)
			}
			opts := preview.Options{Revision: rev, Nonce: q.Get("nonce"), Bridge: true,
				Runtime: preview.RuntimeConfig{AllowInternet: q.Get("internet") == "1", Entry: q.Get("entry"), Search: q.Get("search"), Hash: q.Get("hash"), Dir: q.Get("dir") == "1", Referrer: q.Get("referrer"),
					IndexedDB: IDBShim(t), Storage: storage}}
			res := preview.Compile(files, opts)
			dir := opts.Runtime.Dir || (opts.Runtime.Entry == "" && res.Entry == "index.html")
			w.Header().Set("X-Page-URL", preview.PageURL(res.Entry, opts.Runtime.Search, dir && preview.IsFolderIndex(res.Entry)))
			if res.Quirks {
				w.Header().Set("X-Quirks", "1") // as the Go port passes Result.Quirks to mount
			}
			html := res.HTML
			// prelude: a script of the measurement's own (e2e/realsites.SeededRandomJS) run
			// first in the preview's document, before the runtime, as DevTools runs one first
			// in a served page; DevTools' own does not reach the sandboxed frame. It removes its
			// element, as DevTools' leaves none: Polymer's platform.js warned "not the first
			// script on the page" (e2e/realsites: todo-polymer).
			if p := q.Get("prelude"); p != "" {
				if i := strings.Index(html, "<script"); i >= 0 {
					html = html[:i] + "<script>" + p + "\n;document.currentScript.remove();</script>" + html[i:]
				}
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(html))
		})
		mux.HandleFunc("/loopback-secret", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			_, _ = w.Write([]byte("loopback reached"))
		})
		srv = httptest.NewServer(mux)
	})
	return srv
}

// AddSite registers files (path → content) under name. Text files take their language from
// the extension (.html, .css, .js/.mjs, .json; else "text"); .png, .wav and .ttf are assets
// (the string holds their bytes).
func AddSite(name string, files map[string]string) {
	var out []preview.File
	for p, src := range files {
		f := preview.File{Path: p, Kind: preview.KindText, Source: src, Language: "text"}
		switch filepath.Ext(p) {
		case ".html":
			f.Language = preview.LangHTML
		case ".css":
			f.Language = preview.LangCSS
		case ".js", ".mjs":
			f.Language = preview.LangJS
		case ".json":
			f.Language = "json"
		case ".png":
			f.Kind, f.Data, f.Source, f.MimeType = preview.KindAsset, []byte(src), "", "image/png"
		case ".wav", ".ttf":
			f.Kind, f.Data, f.Source = preview.KindAsset, []byte(src), ""
		}
		out = append(out, f)
	}
	AddFiles(name, out)
}

// AddFiles registers files under name as given (e.g. the studio's own import of a folder,
// workspace.ImportFiles then studio.PreviewFiles), replacing any site of that name. They are
// sorted index.html first, the rest by path, so the compile is deterministic; the slice is
// kept, not copied.
func AddFiles(name string, files []preview.File) {
	sortFiles(files)
	sitesMu.Lock()
	sites[name] = files
	sitesMu.Unlock()
}

// ServeDir makes the served run of site name read the folder dir from disk (Go's
// http.FileServer: media type by extension, else sniffed; a folder URL serves its
// index.html) instead of the registered files, so a file the studio's import leaves out is
// still served over HTTP. The preview run (/compiled/name) still compiles the registered
// files.
func ServeDir(name, dir string) {
	sitesMu.Lock()
	dirs[name] = dir
	sitesMu.Unlock()
}

// AppendFile adds one file to the site name (e.g. a KindNotImported entry).
func AppendFile(name string, f preview.File) {
	sitesMu.Lock()
	sites[name] = append(sites[name], f)
	sitesMu.Unlock()
}

func sortFiles(fs []preview.File) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && less(fs[j], fs[j-1]); j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

func less(a, b preview.File) bool {
	if (a.Path == "index.html") != (b.Path == "index.html") {
		return a.Path == "index.html"
	}
	return a.Path < b.Path
}

// Msg is one message the shim handed to "Go" (recorded by the parent page): the bridge message
// the preview port decodes, plus when it arrived.
type Msg struct {
	preview.BridgeMessage
	At float64 `json:"at"` // Date.now() in the parent when the batch arrived
}

// OpenParent opens the studio stand-in in a new tab.
func OpenParent(t testing.TB) *chromium.Tab {
	t.Helper()
	s := Server(t)
	tab := chromium.NewTab(t)
	if err := tab.Do(20*time.Second, Navigate(s.URL+"/parent.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `window.__ready === true`); err != nil {
		t.Fatalf("parent page: %v %v", err, tab.Errors())
	}
	return tab
}

// Mount mounts site name at rev with nonce (query: extra "&k=v" for /compiled).
func Mount(t testing.TB, tab *chromium.Tab, name string, rev int, nonce, query string) {
	t.Helper()
	js, _ := json.Marshal([]any{name, rev, nonce, query})
	if _, err := chromium.Eval[bool](tab, 30*time.Second, `window.__mount(...`+string(js)+`).then(() => true)`); err != nil { // a 12 MB site compiles and loads slowly under load
		t.Fatal(err)
	}
}

// Messages returns every recorded message.
func Messages(t testing.TB, tab *chromium.Tab) []Msg {
	t.Helper()
	var out []Msg
	s, err := chromium.Eval[string](tab, 10*time.Second, `JSON.stringify(window.__batches)`)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// WaitAck waits for a ready or error of rev and returns it.
func WaitAck(t testing.TB, tab *chromium.Tab, rev int) Msg {
	t.Helper()
	return WaitAckFor(t, tab, rev, 15*time.Second)
}

func WaitAckFor(t testing.TB, tab *chromium.Tab, rev int, timeout time.Duration) Msg {
	t.Helper()
	expr := `window.__batches.find((m) => (m.type === "webcoding.preview.ready" || m.type === "webcoding.preview.error") && m.revision === ` + itoa(rev) + `)`
	s, err := chromium.WaitFor[string](tab, timeout, `(function(){ var m = `+expr+`; return m ? JSON.stringify(m) : ""; })()`)
	if err != nil {
		ms := Messages(t, tab)
		if len(ms) > 5 {
			ms = ms[len(ms)-5:]
		}
		t.Fatalf("no ack for revision %d: %v; last messages %v", rev, err, ms)
	}
	var m Msg
	_ = json.Unmarshal([]byte(s), &m)
	return m
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

var (
	idbOnce sync.Once
	idbSrc  string
)

// IDBShim bundles site/js/preview-idb.js (npm fake-indexeddb) as host/sitebuild does: one
// minified IIFE.
func IDBShim(t testing.TB) string {
	idbOnce.Do(func() {
		site := filepath.Join(RepoRoot(), "site")
		if err := sitebuild.EnsureNodeModules(site); err != nil {
			t.Errorf("npm: %v", err)
			return
		}
		res := api.Build(api.BuildOptions{EntryPoints: []string{filepath.Join(site, "js", "preview-idb.js")}, AbsWorkingDir: site,
			Bundle: true, Write: false, Outdir: filepath.Join(site, "out"), Format: api.FormatIIFE, Target: api.ES2020,
			Platform: api.PlatformBrowser, MinifyWhitespace: true, MinifySyntax: true, MinifyIdentifiers: true})
		if len(res.Errors) > 0 || len(res.OutputFiles) == 0 {
			t.Errorf("esbuild: %v", res.Errors)
			return
		}
		idbSrc = string(res.OutputFiles[0].Contents)
	})
	return idbSrc
}
