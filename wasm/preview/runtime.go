package preview

import (
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"maps"
	"path"
	"strings"
	"time"
)

// Runtime message types posted by the bridge (frame → parent). The first message of a mount
// goes through window.parent.postMessage; every later one through the MessagePort it carries.
const (
	// MessageHello: {type, v: 1, revision, nonce} with one transferred MessagePort; sent
	// synchronously by the bridge before any page code runs. The only message that carries
	// the nonce.
	MessageHello = "webcoding.preview.hello"
	// MessageReport (port): {type, kind, url, detail}; kind is ReportBlocked, ReportMissing or
	// ReportLimit. At most MaxRuntimeReports per mount, deduplicated by (kind, url).
	MessageReport = "webcoding.preview.report"
	// MessageStorage (port): {type, area: "local"|"session"|"cookie", clear, set: {key: value|null}}
	// ("cookie": the document.cookie jar, name → value; docs/preview.md "Storage").
	MessageStorage = "webcoding.preview.storage"
	// MessageNavigate (port): {type, path, search, hash, replace, dir}: a link, a form or a
	// script navigation (the virtual Location) of the page asks for the workspace page at path;
	// replace (location.replace, reload) puts it in place of the page shown in the history;
	// dir (only for a folder's index.html) says the URL named its folder ("./", "docs/"), so
	// the page reads that URL (RuntimeConfig.Dir).
	MessageNavigate = "webcoding.preview.navigate"
	// MessageLeaving (port): {type, url}: a link of the page is about to navigate away (url
	// is its target). The shim sends the same type when the frame loads a second document.
	MessageLeaving = "webcoding.preview.leaving"
	// MessageAudit (both ways, port; issue 17): the parent's audit request {type, id, limits,
	// source?} — the only message the parent posts into the frame — and the runtime's answer
	// {type, id, reply}, reply being what preview.DecodeAudit reads.
	MessageAudit = "webcoding.preview.audit"
	// MessagePatch (parent → frame, port; design.md §5.33): {type, id, revision, styles:
	// [StyleChange], files: {path: text}}: apply a StylePatch to the running document.
	MessagePatch = "webcoding.preview.patch"
	// MessagePatched (frame → parent, port): {type, id, ok, reason?}: the patch with that id
	// was applied (ok) or nothing was changed (reason says why). The shim turns ok into
	// MessageReady with inPlace for the new revision, and a refusal into MessagePatchRefused.
	MessagePatched = "webcoding.preview.patched"
	// MessagePatchRefused (shim → Go only): {type, message}: the frame refused the patch of
	// the current revision; the port mounts that revision in full.
	MessagePatchRefused = "webcoding.preview.patchRefused"
	// MessagePing (parent → frame, port) {type, id} and MessagePong (frame → parent, port)
	// {type, id}: the shim asks, after a second load event of the frame element, whether the
	// mounted document is still there (Chromium fires one on Back to a document's first history
	// entry, a same-document traversal); an answer within the shim's wait means it is, and
	// nothing is reported; none means another document replaced it ("leaving"). Neither
	// reaches Go (docs/design.md §5.53).
	MessagePing = "webcoding.preview.ping"
	MessagePong = "webcoding.preview.pong"
)

// BridgeMessage is a runtime message as the parent shim hands it to Go (site/js/preview-bridge.js):
// the message the bridge posted with the mount's revision and nonce added. Each type uses some
// members and leaves the others zero: MessageError message; MessageConsole level, kind, text,
// path, line; MessageReport kind, url, detail; MessageNavigate path, search, hash, replace, dir; MessageStorage area,
// clear, set. The browser's preview port decodes it (wasm/adapters/iframe), and so do the
// tests that record the shim's batches (e2e/fidelity).
type BridgeMessage struct {
	Type     string             `json:"type"`
	Revision int64              `json:"revision"`
	Nonce    string             `json:"nonce"`
	Message  string             `json:"message"`
	Level    string             `json:"level"`
	Text     string             `json:"text"`
	Line     int                `json:"line"`
	Kind     string             `json:"kind"`
	URL      string             `json:"url"`
	Detail   string             `json:"detail"`
	Path     string             `json:"path"`
	Search   string             `json:"search"`
	Hash     string             `json:"hash"`
	Replace  bool               `json:"replace"`
	Dir      bool               `json:"dir"`
	Area     string             `json:"area"`
	Clear    bool               `json:"clear"`
	Set      map[string]*string `json:"set"`
	// MessageSelection: ID (0 a pick, else the MessageInspect it answers), Error
	// ("no-match", "syntax", "too-large") or Selection (a LiveElement, decoded strictly by
	// DecodeSelection).
	ID        int64           `json:"id"`
	Error     string          `json:"error"`
	Selection json.RawMessage `json:"selection"`
	// InPlace (MessageReady): the revision was applied to the running document by a
	// StylePatch instead of a mount (design.md §5.33).
	InPlace bool `json:"inPlace"`
}

// Run-time report kinds (MessageReport.kind).
const (
	ReportBlocked = "blocked" // a request outside the workspace refused by the network policy
	ReportMissing = "missing" // a workspace URL with no file behind it
	ReportLimit   = "limit"   // something the preview cannot do in an opaque-origin frame
)

// Runtime limits, enforced in the frame and again by the parent (wasm/adapters/iframe and
// site/js/preview-bridge.js). Character counts are Unicode code points unless stated.
const (
	// MaxRuntimeReports bounds the MessageReport messages of one mount.
	MaxRuntimeReports = 50
	// MaxPreviewStorageChars bounds each of localStorage and sessionStorage of a workspace's
	// preview: the sum of key and value lengths in UTF-16 code units (as Web Storage quotas
	// count). A setItem beyond it throws QuotaExceededError in the frame.
	MaxPreviewStorageChars = 1_000_000
	// MaxPreviewCookies and MaxPreviewCookieBytes bound the preview's cookie jar as Chromium
	// bounds one domain's (RFC 6265 §6.1 asks for at least 50 per domain and 4,096 bytes per
	// cookie): past MaxPreviewCookies the oldest cookie is dropped, and a cookie whose name
	// plus value is longer than MaxPreviewCookieBytes (UTF-16 code units here) is ignored. The
	// parent bounds the whole jar by MaxPreviewStorageChars like the other areas.
	MaxPreviewCookies     = 180
	MaxPreviewCookieBytes = 4096
	// StorageFlushInterval is how often the frame sends storage changes to the parent
	// (coalesced; the changes of the last interval before the document goes away are lost).
	StorageFlushInterval = 500 * time.Millisecond
	// MaxMountMessages and MaxMountBytes cap what the parent accepts from one mount (all
	// messages, counted after the hello; bytes of their JSON). Over either cap the parent
	// closes the port, discards the frame and reports a runtime error. The bridge itself sends
	// at most MaxConsoleMessages + MaxRuntimeReports + a few, plus one storage message per
	// StorageFlushInterval.
	MaxMountMessages = 5000
	MaxMountBytes    = 8 << 20
	// MaxFontRules bounds how many CSS rules the frame looks through, each time, for the
	// @font-face rules that name a refused font source (docs/design.md §5.52): past it a
	// source no rule was found for is reported at once, as before.
	MaxFontRules = 20000
)

// RuntimeFile is one entry of the in-frame file table: a text file {type, text} or an asset
// {type, b64} (standard base64 of its bytes). Type is the media type served for it. Run, set
// only for a JavaScript file whose references to the page's Location the compiler rewrites,
// is that rewritten text: what a <script src> the page inserts at run time (a src setter,
// setAttribute, document.write) runs; fetch, XHR and workers get Text (design.md §5.34).
type RuntimeFile struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	B64  string `json:"b64,omitempty"`
	Run  string `json:"run,omitempty"`
}

// RuntimeStorage is the preview storage a mount starts with (key → value per area): Web
// Storage's two areas and the cookie jar (cookie name → value; the frame's document.cookie,
// kept like sessionStorage for the studio tab, so a cookie set on one workspace page is read
// on the next, as over HTTP).
type RuntimeStorage struct {
	Local   map[string]string `json:"local,omitempty"`
	Session map[string]string `json:"session,omitempty"`
	Cookie  map[string]string `json:"cookie,omitempty"`
}

// RuntimeConfig is the input of RuntimeScript (the preview contract, docs/preview.md).
//
//   - V is the config version (1).
//   - Revision and Nonce identify the mount; an empty Nonce builds the prelude without the
//     bridge (the standalone export): no hello, no messages.
//   - Entry is the workspace path of the mounted page; Search ("?…") and Hash ("#…") are
//     the query and fragment it was opened with (a link to "about.html?x=1#team"); the
//     virtual Location (design.md §5.34) reads them.
//   - Dir says the page was opened by its folder's URL ("/", "docs/": the studio's first
//     mount of the default entry, a link to "./"), as a served site is: when Entry is a
//     folder's index.html, the virtual Location, document.URL and Base read the folder URL
//     ("https://workspace.invalid/", pathname "/") instead of ".../index.html". The compiler
//     sets it for the default entry "index.html" (Options.Runtime.Entry empty) and keeps the
//     caller's value for a folder's index.html; it is false for any other page.
//   - Base is the page's virtual URL (VirtualOrigin + "/" + Entry + Search when empty, so
//     "#x" and "?q" resolve against the page's own query, as over HTTP): the runtime
//     inserts <base href=Base> unless the document has one, so document.baseURI and run-time
//     relative URLs resolve under the virtual origin.
//   - Files is the in-frame file table (workspace path → RuntimeFile).
//   - AllowInternet lets https: requests outside loopback and private networks through
//     (the per-workspace "Allow internet in preview" switch); http: never.
//   - Storage is the workspace's preview storage (nil: empty).
type RuntimeConfig struct {
	V             int                    `json:"v"`
	Revision      int64                  `json:"revision"`
	Nonce         string                 `json:"nonce"`
	Entry         string                 `json:"entry"`
	Search        string                 `json:"search,omitempty"`
	Hash          string                 `json:"hash,omitempty"`
	Dir           bool                   `json:"dir,omitempty"`
	Base          string                 `json:"base"`
	Files         map[string]RuntimeFile `json:"files"`
	AllowInternet bool                   `json:"allowInternet"`
	Storage       *RuntimeStorage        `json:"storage,omitempty"`
	// Referrer is what the page reads as document.referrer: the virtual URL (PageURL) of the
	// workspace page whose link, form or script navigated to this one, as over HTTP with the
	// default referrer policy (same origin: the whole URL without its fragment); "" for a
	// page the user opened (the first mount, Refresh, the page picker). Without it every
	// preview page read "" (measured: TestFidelity/referrer).
	Referrer string `json:"referrer,omitempty"`
	// NotImported maps the workspace path of each folder file the import left out (File kind
	// KindNotImported) to why (File.Reason); set by the compiler. A run-time request for one
	// fails (fetch rejects with a TypeError naming the reason) and is one "limit" report
	// "<path> is in the folder but was not imported: <reason>", never "missing". The key ""
	// (a KindNotImported entry with an empty Path) holds why the import could not name every
	// folder file: a request for a path without a file is then a "limit" report "<path> is
	// not among the imported files; it may be in the folder: <reason>" (fetch answers 404).
	NotImported map[string]string `json:"notImported,omitempty"`
	// Sheets is the number of stylesheet <style> elements the compiler emitted and marked
	// with StyleMarkerAttr (0..Sheets-1, document order; set by the compiler): the runtime
	// keeps them to replace their text in place (design.md §5.33).
	Sheets int `json:"sheets,omitempty"`
	// Refresh is the entry's first <meta http-equiv="refresh"> that names a workspace URL (set
	// by the compiler, which drops the element): the runtime opens URL, resolved against the
	// page's URL, Seconds after the load event, in place of the page, as the virtual Location
	// navigates (a missing page is reported, never left for another site).
	Refresh *RuntimeRefresh `json:"refresh,omitempty"`
	// Pages holds the compiled workspace pages that static <iframe src> elements name
	// (workspace path → NestedPage; set by the compiler, at most MaxFramePages, reached through
	// at most MaxFrameDepth levels of frames): the runtime shows a workspace page in an
	// <iframe> by giving it a srcdoc of that page with a copy of this runtime (no bridge;
	// docs/preview.md "Workspace pages in frames").
	Pages map[string]NestedPage `json:"pages,omitempty"`
	// Nested is never set by Go: the runtime sets it in the config it gives the runtime of a
	// nested document (depth 1..MaxFrameDepth and the chain of the pages above it, each its
	// path and query).
	Nested *NestedFrame `json:"nested,omitempty"`
	// IndexedDB is the source of the in-memory IndexedDB shim (the browser host's bundle of
	// npm fake-indexeddb). RuntimeScript includes it only when some text file of Files
	// mentions "indexedDB"; it is evaluated in the frame before any page code.
	IndexedDB string `json:"-"`
}

// runtimeMin is the runtime as the compiler ships it: runtime/*.js in name order, wrapped in
// one strict function of the config and minified by esbuild (host/cmd/genruntime, run by
// `go generate`; docs/design.md §5.29). TestRuntimeMinIsFresh (host/sitebuild) fails when it
// no longer matches the sources. It calls itself with runtimePlaceholder, which RuntimeScript
// replaces with the JSON config.
//
//go:generate go run ../../host/cmd/genruntime ../..
//go:embed runtime.min.js
var runtimeMin string

// runtimePlaceholder is the free name the generator leaves where the config goes (it must
// match sitebuild.RuntimePlaceholder).
const runtimePlaceholder = "WEBCODING_RUNTIME_CONFIG"

// runtimeHead and runtimeTail are runtimeMin before and after its one runtimePlaceholder.
var runtimeHead, runtimeTail = func() (string, string) {
	src := strings.TrimRight(runtimeMin, "\n")
	if strings.Count(src, runtimePlaceholder) != 1 || strings.Contains(src, "</script") || strings.Contains(src, "<!--") {
		panic("preview: runtime.min.js must call itself with " + runtimePlaceholder + " once and hold no </script or <!--: run go generate ./wasm/preview")
	}
	head, tail, _ := strings.Cut(src, runtimePlaceholder)
	return head, tail
}()

// runtimeWire is what the script receives: the config plus the constants it shares with Go.
type runtimeWire struct {
	RuntimeConfig
	Origin           string            `json:"origin"`
	CSP              string            `json:"csp"`
	Global           string            `json:"global"`
	Location         string            `json:"location"`
	Top              string            `json:"top"`
	IDB              string            `json:"idb,omitempty"`
	DefaultError     string            `json:"defaultError"`
	DefaultRejection string            `json:"defaultRejection"`
	Types            map[string]string `json:"types"`
	Limits           map[string]int    `json:"limits"`
	Styles           []string          `json:"styles"`
	SheetAttr        string            `json:"sheetAttr"`
	ScriptAttr       string            `json:"scriptAttr"`
	ScriptTextAttr   string            `json:"scriptTextAttr"`
	FrameAttr        string            `json:"frameAttr"`
	// HeadLen and TailLen are the lengths of runtimeHead and runtimeTail (ASCII): the
	// runtime copies its own script text around a nested document's config.
	HeadLen int `json:"headLen"`
	TailLen int `json:"tailLen"`
}

var runtimeTypes = map[string]string{
	"hello": MessageHello, "ready": MessageReady, "error": MessageError, "console": MessageConsole,
	"report": MessageReport, "storage": MessageStorage, "navigate": MessageNavigate, "leaving": MessageLeaving,
	"inspect": MessageInspect, "pick": MessagePick, "selection": MessageSelection, "hover": MessageHover, "pickEnd": MessagePickEnd,
	"audit": MessageAudit, "patch": MessagePatch, "patched": MessagePatched, "frame": MessageFrameHello,
	"ping": MessagePing, "pong": MessagePong,
}

var runtimeLimits = map[string]int{
	"error": MaxErrorMessageChars, "console": MaxConsoleMessages, "text": MaxConsoleTextChars,
	"reports": MaxRuntimeReports, "errors": MaxErrorEntries, "storage": MaxPreviewStorageChars, "cookies": MaxPreviewCookies, "cookieBytes": MaxPreviewCookieBytes, "storageFlushMs": int(StorageFlushInterval / time.Millisecond),
	"liveHTML": MaxLiveHTMLChars, "styleValue": MaxStyleValueChars, "ancestors": MaxInspectAncestors, "ancestorChars": MaxInspectNameChars,
	"hovers": MaxHoverMessages, "selector": MaxSelectorChars, "frameDepth": MaxFrameDepth, "frames": MaxFrameDocuments, "framePages": MaxFramePages, "frameWaitMs": int(FrameReadyWait / time.Millisecond),
	"fontRules": MaxFontRules,
}

// RuntimeScript returns the JavaScript of the bridge + prelude for cfg: the text of ONE
// classic inline <script> that must be the first script of the document (at byte 0, or right
// after a doctype preceded only by whitespace, comments or a BOM). The text never contains
// "</script" or "<!--" (the config is JSON with '<', '>' and '&' escaped), so it is safe
// between <script> and </script>.
//
// What it does, before any page code runs: captures the built-ins it uses; (bridge) posts
// MessageHello with a MessagePort to window.parent and then talks only through that port;
// inserts the network policy (RuntimePolicy) as a CSP <meta> (unless the compiled document
// carries it already, bridgeElement) and <base href=Base>; installs
// the virtual origin (fetch, XHR, URL setters and setAttribute, a MutationObserver, Worker,
// worklets, SharedWorker emulation), Web Storage and cookies, and navigation handling; reports
// errors, console calls and refused references (bounded). docs/preview.md "Runtime" has the
// model and its limits.
func RuntimeScript(cfg RuntimeConfig) string {
	j, err := json.Marshal(runtimeWireOf(cfg)) // HTML-safe: '<', '>', '&', U+2028, U+2029 escaped
	if err != nil {
		panic("preview: runtime config: " + err.Error()) // only strings, maps and numbers
	}
	return runtimeHead + string(j) + runtimeTail
}

// runtimeWireOf is the wire form of cfg (defaults applied, shared constants added).
func runtimeWireOf(cfg RuntimeConfig) runtimeWire {
	cfg.V = 1
	if cfg.Dir && !IsFolderIndex(cfg.Entry) {
		cfg.Dir = false
	}
	if cfg.Base == "" {
		cfg.Base = VirtualURL(pageURLPath(cfg.Entry, cfg.Dir)) + cfg.Search
	}
	if cfg.Files == nil {
		cfg.Files = map[string]RuntimeFile{}
	}
	w := runtimeWire{
		RuntimeConfig: cfg, Origin: VirtualOrigin, CSP: RuntimePolicy(cfg.AllowInternet), Global: bridgeGlobal, Location: locationGlobal, Top: topGlobal,
		DefaultError: DefaultErrorMessage, DefaultRejection: DefaultRejectionMessage,
		Types: runtimeTypes, Limits: runtimeLimits, Styles: ComputedStyleProps, SheetAttr: StyleMarkerAttr, ScriptAttr: ScriptSrcAttr, ScriptTextAttr: ScriptTextAttr,
		FrameAttr: FrameMarkerAttr, HeadLen: len(runtimeHead), TailLen: len(runtimeTail),
	}
	if cfg.IndexedDB != "" && usesIndexedDB(cfg.Files) {
		w.IDB = cfg.IndexedDB
	}
	return w
}

// RuntimePolicy is the Content-Security-Policy of the preview document. Default: no network
// — scripts, styles, images, fonts, media, fetch/XHR/WebSocket, workers, frames and objects
// may load only blob: and data: URLs (workspace files are served from the in-frame file table
// as blob: URLs made in the frame; the sandbox runs no plugins, design.md §5.26), inline
// scripts and styles run, manifests are refused, and form-action is 'none' (forms to
// workspace pages are handled by the runtime before they would navigate). allowInternet adds https: (never http:, ws:, or wss:) to the fetch
// directives. A srcdoc frame also inherits the studio page's own policy (the studio sets
// none), and a policy can only be tightened, never relaxed, by the page.
func RuntimePolicy(allowInternet bool) string {
	src := "blob: data:"
	if allowInternet {
		src += " https:"
	}
	return "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' " + src +
		"; style-src 'unsafe-inline' " + src + "; img-src " + src + "; font-src " + src + "; media-src " + src +
		"; connect-src " + src + "; worker-src " + src + "; child-src " + src + "; frame-src " + src +
		"; object-src " + src + "; manifest-src 'none'; form-action 'none'"
}

// RuntimeFiles is the in-frame file table of files: every text file as text and every asset
// as base64, typed by MimeTypeOf (KindNotImported entries are not files: left out).
func RuntimeFiles(files []File) map[string]RuntimeFile {
	out := make(map[string]RuntimeFile, len(files))
	for _, f := range files {
		if _, dup := out[f.Path]; dup || f.Kind == KindNotImported {
			continue
		}
		if f.Kind == KindAsset {
			out[f.Path] = RuntimeFile{Type: MimeTypeOf(f), B64: base64.StdEncoding.EncodeToString(f.Data)}
			continue
		}
		out[f.Path] = RuntimeFile{Type: MimeTypeOf(f), Text: f.Source}
	}
	return out
}

// MimeTypeOf is the media type the preview serves f with: its MimeType when set, else one
// derived from its language or extension (text/plain when unknown; text types with
// charset=utf-8).
func MimeTypeOf(f File) string {
	if f.MimeType != "" {
		return f.MimeType
	}
	switch f.Language {
	case LangHTML:
		return "text/html; charset=utf-8"
	case LangCSS:
		return "text/css; charset=utf-8"
	case LangJS:
		return "text/javascript; charset=utf-8"
	case "json":
		return "application/json; charset=utf-8"
	}
	ext := strings.ToLower(path.Ext(f.Path))
	if t, ok := mediaTypes[ext]; ok {
		return t
	}
	if f.Kind == KindAsset {
		return "application/octet-stream"
	}
	return "text/plain; charset=utf-8"
}

// bridgeElement is the runtime <script> element of the compiled document: RuntimeScript for
// this compile (opts.Runtime plus revision, nonce, the entry and the compiler's file table,
// fileTable).
func (c *compiler) bridgeElement(entry *File) string {
	cfg := c.opts.Runtime
	// pvcompile: every text file and, in the preview, every asset once (fileTable, design.md §5.26).
	cfg.Revision, cfg.Nonce, cfg.Files = c.opts.Revision, c.opts.Nonce, c.fileTable()
	cfg.NotImported = c.ix.notImported
	if c.ix.unexamined != "" {
		cfg.NotImported = maps.Clone(c.ix.notImported)
		if cfg.NotImported == nil {
			cfg.NotImported = map[string]string{}
		}
		cfg.NotImported[""] = c.ix.unexamined
	}
	cfg.Entry = ""
	if entry != nil {
		cfg.Entry = entry.Path
	}
	if c.opts.Runtime.Entry == "" {
		cfg.Dir = cfg.Entry == "index.html" // the studio opens a site at its root URL
	}
	if c.baseURL != "" {
		cfg.Base = c.baseURL // the page's <base href>
	}
	// The policy is also in the markup, ahead of the runtime: Chromium's preload scanner reads
	// the document before the runtime inserts its <meta>, and fetched static external
	// references (a <script src>, <link href>, <img src> to another site) before any policy
	// applied; it honours a CSP <meta> it sees (design.md §5.31).
	cfg.Sheets = c.sheetCount
	cfg.Refresh = c.refresh
	cfg.Pages = c.framePages(cfg.Entry)
	j, lay := runtimeConfigLayout(cfg)
	el := policyMeta(cfg.AllowInternet) + "<script " + BridgeAttr + ">" + runtimeHead
	lay.config = span{len(el), len(el) + len(j)}
	c.layout = lay
	return el + j + runtimeTail + "</script>"
}

// policyMeta is RuntimePolicy(allowInternet) as a CSP <meta> element (the policy has no '"',
// '&' or '<', so it needs no escaping in the attribute).
func policyMeta(allowInternet bool) string {
	return `<meta http-equiv="Content-Security-Policy" content="` + RuntimePolicy(allowInternet) + `">`
}

// mediaTypes maps file extensions to the media types MimeTypeOf serves (a fixed table, so the
// compiled document does not depend on the host's MIME database).
var mediaTypes = map[string]string{
	".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
	".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
	".txt": "text/plain; charset=utf-8", ".md": "text/markdown; charset=utf-8", ".csv": "text/csv; charset=utf-8",
	".xml": "application/xml", ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".avif": "image/avif", ".ico": "image/x-icon", ".bmp": "image/bmp",
	".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".otf": "font/otf", ".eot": "application/vnd.ms-fontobject",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".ogg": "audio/ogg", ".mp4": "video/mp4", ".webm": "video/webm",
	".wasm": "application/wasm", ".pdf": "application/pdf", ".vtt": "text/vtt; charset=utf-8",
	".webmanifest": "application/manifest+json", ".map": "application/json; charset=utf-8",
}

// usesIndexedDB reports whether any text file of the table mentions indexedDB (the shim is
// included only then).
func usesIndexedDB(files map[string]RuntimeFile) bool {
	for _, f := range files {
		if strings.Contains(f.Text, "indexedDB") {
			return true
		}
	}
	return false
}

// IsFolderIndex reports whether path (a workspace path) is a folder's index.html ("index.html",
// "docs/index.html"): the page a folder URL ("/", "docs/") serves over HTTP.
func IsFolderIndex(path string) bool {
	return path == "index.html" || strings.HasSuffix(path, "/index.html")
}

// pageURLPath is the workspace path whose virtual URL is the page's URL: the folder
// ("" or "docs/") for a folder's index.html opened by its folder URL (dir), else path.
// PageURL is the virtual URL of the workspace page path with search ("?…" or ""), as its
// folder's URL when dir and path is a folder's index.html (RuntimeConfig.Dir): what the page
// reads as location.href without a fragment, and what a page it navigates to reads as
// document.referrer (RuntimeConfig.Referrer).
func PageURL(path, search string, dir bool) string {
	return VirtualURL(pageURLPath(path, dir)) + search
}

func pageURLPath(path string, dir bool) string {
	if dir && IsFolderIndex(path) {
		return strings.TrimSuffix(path, "index.html")
	}
	return path
}

// RuntimeRefresh is a meta refresh the runtime follows (RuntimeConfig.Refresh): Seconds
// (0..86400) after the load event, the page at URL (as written in the content).
type RuntimeRefresh struct {
	Seconds int    `json:"seconds"`
	URL     string `json:"url"`
}
