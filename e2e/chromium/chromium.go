package chromium

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Kind is which Chromium binary a browser of the harness runs.
type Kind int

const (
	// Shell is Debian's chromium-headless-shell: the same Blink and V8 as Chromium without
	// the browser's own user interface. Every test's shared browser (Start) is one, outside
	// benchmarks and binaries that set SharedKind. Measured on the whole e2e/browser suite (2026-12-07, two cores): 626 s
	// against 1,095 s with Chromium's headless mode, which builds a full browser window (its
	// top-chrome WebUI renderers and views) for every browser context a test opens.
	// The shell runs a sandboxed iframe (the preview) in its parent's renderer process, as
	// browsers do that do not isolate them (Firefox; Chromium where memory is short). Isolating
	// them as desktop Chromium does (--site-per-process
	// --enable-features=IsolateSandboxedIframes) made the suite 815 s instead of 626 s.
	Shell Kind = iota
	// Full is Debian's chromium in its headless mode: what benchmarks measure (the browser users
	// run) and what a test needs when it checks the browser's own user interface — Escape
	// leaving full screen (the shell has no exclusive-access UI), a profile's content
	// settings read from its Preferences file (NewProfileTab; the shell does not read them) —
	// or desktop Chromium's process model: a preview stuck in a loop runs in a process of its
	// own and leaves the studio responsive (TestPreviewInfiniteLoopRecovers).
	Full
)

// packages is the Debian package and the binaries on PATH (first found wins) of each kind.
var packages = [...]struct {
	pkg  string
	bins []string
}{
	Shell: {"chromium-headless-shell", []string{"chromium-headless-shell"}},
	Full:  {"chromium", []string{"chromium", "chromium-browser", "google-chrome"}},
}

// browser is one running browser of the harness, started lazily and closed by Shutdown.
type browser struct {
	ctx        context.Context
	cancel     []context.CancelFunc
	dir        string
	err        error
	install    sync.Once
	installErr error
}

var (
	mu       sync.Mutex
	browsers [2]browser // by Kind
)

// functionalJSFlags are the V8 flags of a browser started for tests (not benchmarks):
// WebAssembly runs in V8's baseline compiler only (Liftoff), without the background TurboFan
// compiles of hot functions. A browser test starts the studio's ~12.7 MB module in a fresh
// browser context (no code cache) one to three times, and the suite is bound by the two
// cores' CPU throughout: on the same tree the whole e2e/browser suite took 548 s with this
// flag against 617 and 637 s without (2026-12-06, docs/performance.md "Issue 15: keystroke →
// paint, and the browser suite's time").
// Results do not depend on the tier; timings do, so a binary run with -test.bench (the
// browser benchmarks, scripts/bench.sh) starts Chromium with V8's defaults.
const functionalJSFlags = "--liftoff-only"

// benchmarking reports whether the test binary was given -test.bench.
func benchmarking() bool {
	f := flag.Lookup("test.bench")
	return f != nil && f.Value.String() != ""
}

// browserFlags are the command line of a browser of the harness (doc.go) on the profile dir.
func browserFlags(path, dir string) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1440, 1000),
	}
	if !benchmarking() {
		opts = append(opts, chromedp.Flag("js-flags", functionalJSFlags))
	}
	return opts
}

// ExecPath returns the binary of kind k: CHROME_PATH when set (both kinds: the caller chose
// one browser for everything), else the first of the kind's binaries on PATH (packages).
// When none is found and the process runs as root, it runs `apt-get install -y <package>`
// once per kind and looks again. Errors: no binary, with how to install it.
func ExecPath(k Kind) (string, error) {
	if p := os.Getenv("CHROME_PATH"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("chromium: CHROME_PATH=%s: %w", p, err)
		}
		return p, nil
	}
	want := packages[k]
	if p := lookPath(want.bins); p != "" {
		return p, nil
	}
	b := &browsers[k]
	b.install.Do(func() {
		if os.Geteuid() != 0 {
			b.installErr = errors.New("not root, so apt-get was not tried")
			return
		}
		out, err := exec.Command("apt-get", "install", "-y", want.pkg).CombinedOutput()
		if err != nil {
			b.installErr = fmt.Errorf("apt-get install -y %s: %v: %s", want.pkg, err, tail(string(out), 400))
		}
	})
	if p := lookPath(want.bins); p != "" {
		return p, nil
	}
	msg := fmt.Sprintf("chromium: no %s found: install it (Debian: apt-get install -y %s) or set CHROME_PATH", want.bins[0], want.pkg)
	if b.installErr != nil {
		msg += " (" + b.installErr.Error() + ")"
	}
	return "", errors.New(msg)
}

func lookPath(names []string) string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// SharedKind is the kind of the shared browser (Start) outside benchmarks: Shell, unless a test
// binary that measures what users see sets Full in TestMain, before the first tab
// (e2e/realsites: Chromium fetches a page's icons, the headless shell never does, so a served
// run in the shell lacked the favicon requests the preview reports).
var SharedKind = Shell

// SharedFlags are extra command-line flags of the shared browser (Start), set by a test binary
// in TestMain before its first tab; nil for all but the real-site harness (e2e/realsites:
// certificate trust for its HTTPS site servers, names that resolve to nothing).
var SharedFlags []chromedp.ExecAllocatorOption

// sharedKind is the kind of the shared browser: SharedKind for tests, Full for benchmarks.
func sharedKind() Kind {
	if benchmarking() {
		return Full
	}
	return SharedKind
}

// Start launches the shared browser (sharedKind) if it is not running and returns its
// context. Errors: no Chromium (see ExecPath) or a browser that did not start.
func Start() (context.Context, error) {
	return start(sharedKind())
}

func start(k Kind) (context.Context, error) {
	mu.Lock()
	defer mu.Unlock()
	b := &browsers[k]
	if b.ctx != nil || b.err != nil {
		return b.ctx, b.err
	}
	path, err := ExecPath(k)
	if err != nil {
		b.err = err
		return nil, err
	}
	// A loaded machine occasionally misses chromedp's start-up read of the DevTools URL
	// ("chrome failed to start"); a fresh profile and a second attempt fix that, so the
	// browser gets three tries before every test of the binary fails.
	for attempt := 1; ; attempt++ {
		dir, err := os.MkdirTemp("", "webcoding-chromium-")
		if err != nil {
			b.err = err
			return nil, err
		}
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(browserFlags(path, dir), SharedFlags...)...)
		bctx, cancelB := chromedp.NewContext(actx)
		// The first Run starts the browser.
		err = chromedp.Do(bctx)
		if err == nil {
			b.ctx, b.dir, b.cancel = bctx, dir, []context.CancelFunc{cancelB, cancelA}
			return bctx, nil
		}
		cancelB()
		cancelA()
		_ = os.RemoveAll(dir)
		if attempt == 3 {
			b.err = fmt.Errorf("chromium: start %s (3 attempts): %w", path, err)
			return nil, b.err
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
}

// Shutdown closes the browsers of the harness and removes their profiles. Call it from
// TestMain after m.Run; it is safe to call when no browser started.
func Shutdown() {
	pool.mu.Lock()
	pool.idle = nil // their browser closes below
	pool.mu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	for k := range browsers {
		b := &browsers[k]
		for _, c := range b.cancel {
			c()
		}
		if b.dir != "" {
			_ = os.RemoveAll(b.dir)
		}
		b.ctx, b.cancel, b.dir, b.err = nil, nil, "", nil
	}
}

// ConsoleEntry is one console call or uncaught exception seen in a tab.
type ConsoleEntry struct {
	Level string // "log", "warning", "error", … or "exception"
	Text  string
}

// ServiceWorkers is whether the pages of a browser context opened from now on may use
// service workers. True by default; a test binary whose tests are not about the service
// worker sets it to false in TestMain (e2e/browser does), and its tests of the worker open
// their tab with NewServiceWorkerTab. A tab opened in another's context (NewTabIn) keeps that
// context's choice.
//
// Without service workers the top-level document of every page of the context has no
// navigator.serviceWorker, as in a browser that offers none (Firefox's private windows): a
// site's registerServiceWorker then does nothing. Frames keep theirs (the preview stubs its own).
// The reason is CPU, not behaviour: a fresh browser context that opens the studio installs its
// worker, which precaches every page's assets — both wasm modules, 22.6 MB, decompressed and
// stored, and V8's code cache made for each script — 3.44 CPU-s per studio start against 2.12
// without (six starts each, chromium-headless-shell, docs/performance.md "The browser suite
// without service workers").
var ServiceWorkers = true

// noServiceWorker is the script that removes navigator.serviceWorker from a top-level document
// before the page's own scripts run (ServiceWorkers false).
const noServiceWorker = `if (self === top) delete Navigator.prototype.serviceWorker;`

// Tab is one page of the shared browser with its console log.
type Tab struct {
	Ctx    context.Context
	cancel context.CancelFunc
	// serviceWorkers is the tab's browser context's choice (ServiceWorkers).
	serviceWorkers bool

	mu      sync.Mutex
	console []ConsoleEntry
	urls    map[network.RequestID]string // requests seen, for failures named by id
	failed  []FailedRequest
	dialogs []string // "alert: text" of each dialog, when accepting (AcceptDialogs)
	accept  bool
	worlds  map[string]string // frame id → unique id of its main world's execution context
	// site is shared by the tabs of one browser context (NewTabIn): the origins of the http(s)
	// documents they loaded, whose site data a recycled tab's reset clears. noReuse is set by
	// Discard. Both for NewRecycledTab.
	site    *contextSite
	noReuse bool
}

// contextSite records the origins of the documents the tabs of one browser context loaded.
type contextSite struct {
	mu      sync.Mutex
	origins map[string]bool
}

func (c *contextSite) add(origin string) {
	c.mu.Lock()
	if c.origins == nil {
		c.origins = map[string]bool{}
	}
	c.origins[origin] = true
	c.mu.Unlock()
}

// mainWorld returns the unique execution context id of frame's main world ("" when not seen).
func (t *Tab) mainWorld(frame string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.worlds[frame]
}

// AcceptDialogs makes the tab accept every JavaScript dialog (alert, confirm, prompt,
// beforeunload) as it opens, from any of its frames, and record it as "type: message" for
// Dialogs. Without it a dialog stays open and blocks the page's scripts and evaluations.
func (t *Tab) AcceptDialogs() {
	t.mu.Lock()
	t.accept = true
	t.mu.Unlock()
}

// RecordMixedContent makes the tab record the insecure requests Chromium blocks on an https:
// page (an http: frame or script) as FailedRequests with Error "mixed-content". Chromium makes
// no network request for them and says so only in its log ("Mixed Content: … requested an
// insecure frame 'http://…'. This request has been blocked"), so this enables the DevTools Log
// domain for the tab. Requests Chromium upgrades to https: instead (images, media) are
// ordinary requests.
func (t *Tab) RecordMixedContent() error {
	return t.Do(10*time.Second, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return chromedp.Void{}, err
	})
}

// OnNewDocument runs the script src in every document of the tab created from now on (frames
// too, before their own scripts: DevTools' Page.addScriptToEvaluateOnNewDocument), for the
// rest of the tab's life.
func (t *Tab) OnNewDocument(src string) error {
	return t.Do(10*time.Second, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return chromedp.Void{}, err
	})
}

// blockedMixedContent returns the URL a Log entry says Chromium blocked as mixed content
// (RecordMixedContent), or "".
func blockedMixedContent(e *cdplog.Entry) string {
	if e.Source != cdplog.EntrySourceSecurity || e.Level != cdplog.EntryLevelError || !strings.HasPrefix(e.Text, "Mixed Content:") ||
		!strings.Contains(e.Text, "has been blocked") {
		return ""
	}
	_, rest, ok := strings.Cut(e.Text, "requested an insecure ")
	if !ok {
		return ""
	}
	_, rest, ok = strings.Cut(rest, "'")
	if !ok {
		return ""
	}
	url, _, ok := strings.Cut(rest, "'")
	if !ok {
		return ""
	}
	return url
}

// Dialogs returns the dialogs accepted so far (AcceptDialogs), in order.
func (t *Tab) Dialogs() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.dialogs...)
}

// FailedRequest is one network request of a tab that got no usable response: an HTTP status
// of 400 or more (Status set), or a load that failed (Error: Chromium's net error text, such
// as "net::ERR_NAME_NOT_RESOLVED" or "net::ERR_ABORTED"; Canceled when the page or the
// browser canceled it; "mixed-content" for an insecure frame or resource an https: page
// asked for, which Chromium blocks without a network event — recorded only after
// RecordMixedContent).
type FailedRequest struct {
	URL      string
	Status   int64
	Error    string
	Canceled bool
}

// NewTab opens a tab in the shared browser (starting it when needed) and closes it when the
// test ends. A missing Chromium fails the test (never skips it).
func NewTab(t testing.TB) *Tab {
	t.Helper()
	return newTab(t, ServiceWorkers)
}

// NewFullTab opens a tab in a new browser context of the shared Chromium of kind Full
// (started when first needed), for a test of the browser's own user interface (Kind).
func NewFullTab(t testing.TB) *Tab {
	t.Helper()
	bctx, err := start(Full)
	if err != nil {
		t.Fatal(err)
	}
	return newTabFrom(t, bctx, ServiceWorkers, nil, chromedp.WithNewBrowserContext())
}

// NewIsolatedTab opens a tab in a new browser context (its own HTTP cache, storage and
// service workers, like a fresh profile); the context is disposed with the tab.
func NewIsolatedTab(t testing.TB) *Tab {
	t.Helper()
	return newTab(t, ServiceWorkers, chromedp.WithNewBrowserContext())
}

// NewServiceWorkerTab is NewIsolatedTab in a browser context whose pages may use service
// workers whatever ServiceWorkers says: for a test of the worker itself (offline use, a new
// version taking over).
func NewServiceWorkerTab(t testing.TB) *Tab {
	t.Helper()
	return newTab(t, true, chromedp.WithNewBrowserContext())
}

// NewTabIn opens another tab in the browser context of other (same storage, service workers
// and Web Locks), for tests of several tabs on one profile; it closes when the test ends.
func NewTabIn(t testing.TB, other *Tab) *Tab {
	t.Helper()
	return newTabFrom(t, other.Ctx, other.serviceWorkers, other.site)
}

func newTab(t testing.TB, serviceWorkers bool, opts ...chromedp.ContextOption) *Tab {
	t.Helper()
	bctx, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	return newTabFrom(t, bctx, serviceWorkers, nil, opts...)
}

// argDescription is how a console argument without a JSON value reads: its description, but
// for an Error only its message, without V8's stack frames ("\n    at …"), as the preview's
// console forwards an Error ("TypeError: Failed to fetch"): a served page's frames name the
// loopback server's URLs, which the preview's virtual origin never matches (e2e/realsites on
// countup.js's demo, `console.error("error getting stars:", err)`).
//
// An array or object whose preview holds all its entries, each a primitive, reads as its
// JSON, as the preview's console forwards it (JSON.stringify): `console.log(["#960064", …])`
// is `["#960064",…]`, not V8's "Array(3)" (e2e/realsites on TinyColor's demo).
func argDescription(a *runtime.RemoteObject) string {
	d := a.Description
	if a.Subtype == runtime.RemoteObjectSubtypeError {
		if i := strings.Index(d, "\n    at "); i >= 0 {
			d = d[:i]
		}
	}
	if j, ok := previewJSON(a); ok {
		return j
	}
	return d
}

// previewJSON is the JSON text of an array or plain object from its console preview, when the
// preview is complete and every entry a primitive (else ok is false).
func previewJSON(a *runtime.RemoteObject) (string, bool) {
	p := a.Preview
	if a.Type != runtime.RemoteObjectTypeObject || p == nil || p.Overflow {
		return "", false
	}
	isArray := a.Subtype == runtime.RemoteObjectSubtypeArray
	if !isArray && a.Subtype != "" { // a plain object or a class instance (video.js's MediaError)
		return "", false
	}
	var parts []string
	for i, e := range p.Properties {
		var v string
		switch {
		case e.Type == runtime.PropertyPreviewTypeString:
			b, _ := json.Marshal(e.Value)
			v = string(b)
		case e.Type == runtime.PropertyPreviewTypeBoolean:
			v = e.Value
		case e.Type == runtime.PropertyPreviewTypeNumber:
			v = e.Value
			if f, err := strconv.ParseFloat(v, 64); err != nil || math.IsNaN(f) || math.IsInf(f, 0) || v == "-0" {
				return "", false // JSON reads NaN and Infinity as null, -0 as 0
			}
		case e.Type == runtime.PropertyPreviewTypeObject && e.Subtype == runtime.PropertyPreviewSubtypeNull:
			v = "null"
		default:
			return "", false
		}
		if isArray {
			if e.Name != strconv.Itoa(i) {
				return "", false
			}
			parts = append(parts, v)
		} else {
			k, _ := json.Marshal(e.Name)
			parts = append(parts, string(k)+":"+v)
		}
	}
	if isArray {
		return "[" + strings.Join(parts, ",") + "]", true
	}
	return "{" + strings.Join(parts, ",") + "}", true
}

// newTabFrom opens a tab from parent: the browser context (a new target in the shared
// default context) or a tab context (a new target in that tab's browser context).
func newTabFrom(t testing.TB, bctx context.Context, serviceWorkers bool, site *contextSite, opts ...chromedp.ContextOption) *Tab {
	t.Helper()
	tab := openTab(t, bctx, serviceWorkers, site, opts...)
	t.Cleanup(tab.cancel)
	return tab
}

// openTab opens a tab in bctx's browser (a new browser context with
// chromedp.WithNewBrowserContext) with the harness's listener; the caller closes it
// (tab.cancel). site is the record of the browser context the tab joins (NewTabIn), nil for a
// tab of a context of its own.
func openTab(t testing.TB, bctx context.Context, serviceWorkers bool, site *contextSite, opts ...chromedp.ContextOption) *Tab {
	t.Helper()
	if site == nil {
		site = &contextSite{}
	}
	tab := &Tab{serviceWorkers: serviceWorkers, site: site}
	listener := func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range e.Args {
				if a.Value != nil {
					s := string(a.Value)
					if len(s) > 1 && s[0] == '"' {
						s = strings.Trim(s, `"`)
					}
					parts = append(parts, s)
				} else {
					parts = append(parts, argDescription(a))
				}
			}
			tab.add(ConsoleEntry{Level: string(e.Type), Text: strings.Join(parts, " ")})
		case *network.EventRequestWillBeSent:
			tab.mu.Lock()
			if tab.urls == nil {
				tab.urls = map[network.RequestID]string{}
			}
			if len(tab.urls) < 100000 {
				tab.urls[e.RequestID] = e.Request.URL
			}
			tab.mu.Unlock()
			if e.Type == network.ResourceTypeDocument {
				if o := originOf(e.Request.URL); o != "" {
					tab.site.add(o)
				}
			}
		case *network.EventResponseReceived:
			if e.Response != nil && e.Response.Status >= 400 {
				tab.addFailed(FailedRequest{URL: e.Response.URL, Status: e.Response.Status})
			}
		case *cdplog.EventEntryAdded:
			if url := blockedMixedContent(e.Entry); url != "" {
				tab.addFailed(FailedRequest{URL: url, Error: "mixed-content"})
			}
		case *network.EventLoadingFailed:
			tab.mu.Lock()
			url := tab.urls[e.RequestID]
			tab.mu.Unlock()
			tab.addFailed(FailedRequest{URL: url, Error: e.ErrorText, Canceled: e.Canceled})
		case *page.EventJavascriptDialogOpening:
			tab.mu.Lock()
			accept := tab.accept
			if accept && len(tab.dialogs) < 1000 {
				tab.dialogs = append(tab.dialogs, string(e.Type)+": "+e.Message)
			}
			tab.mu.Unlock()
			if accept {
				// Not from the listener itself, which must not block on a command.
				go func() {
					_ = tab.Do(5*time.Second, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
						_, err := cdp.Call(ctx, tg, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
						return chromedp.Void{}, err
					})
				}()
			}
		case *runtime.EventExecutionContextCreated:
			// A frame's main world (EvalInFrame evaluates there): auxData
			// {"frameId", "isDefault": true}; isolated worlds have isDefault false.
			var aux struct {
				FrameID   string `json:"frameId"`
				IsDefault bool   `json:"isDefault"`
			}
			if json.Unmarshal(e.Context.AuxData, &aux) == nil && aux.IsDefault && aux.FrameID != "" {
				tab.mu.Lock()
				if tab.worlds == nil {
					tab.worlds = map[string]string{}
				}
				tab.worlds[aux.FrameID] = e.Context.UniqueID
				tab.mu.Unlock()
			}
		case *runtime.EventExecutionContextDestroyed:
			tab.mu.Lock()
			for f, id := range tab.worlds {
				if id == e.ExecutionContextUniqueID {
					delete(tab.worlds, f)
				}
			}
			tab.mu.Unlock()
		case *runtime.EventExecutionContextsCleared:
			tab.mu.Lock()
			tab.worlds = nil
			tab.mu.Unlock()
		case *runtime.EventExceptionThrown:
			text := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				text += " " + e.ExceptionDetails.Exception.Description
			}
			tab.add(ConsoleEntry{Level: "exception", Text: text})
		}
	}
	ctx, cancel := chromedp.NewContext(bctx, append(opts, chromedp.WithListener(listener))...)
	tab.Ctx, tab.cancel = ctx, cancel
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		t.Fatalf("chromium: new tab: %v", err)
	}
	if !serviceWorkers {
		err := tab.Do(10*time.Second, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: noServiceWorker})
			return chromedp.Void{}, err
		})
		if err != nil {
			cancel()
			t.Fatalf("chromium: new tab without service workers: %v", err)
		}
	}
	return tab
}

func (t *Tab) add(e ConsoleEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.console) < 10000 {
		t.console = append(t.console, e)
	}
}

func (t *Tab) addFailed(f FailedRequest) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.failed) < 10000 {
		t.failed = append(t.failed, f)
	}
}

// FailedRequests returns the tab's failed requests so far, in the order Chromium reported
// them (at most 10,000). Only the tab's own target is watched: requests of an out-of-process
// child frame (a sandboxed preview) are not seen here.
func (t *Tab) FailedRequests() []FailedRequest {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]FailedRequest(nil), t.failed...)
}

// Console returns a copy of every console entry so far.
func (t *Tab) Console() []ConsoleEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]ConsoleEntry(nil), t.console...)
}

// Errors returns the console errors and uncaught exceptions so far.
func (t *Tab) Errors() []ConsoleEntry {
	var out []ConsoleEntry
	for _, e := range t.Console() {
		if e.Level == "error" || e.Level == "exception" || e.Level == "assert" {
			out = append(out, e)
		}
	}
	return out
}

// Do runs chromedp steps in the tab, in order, with a timeout for all of them.
func (t *Tab) Do(timeout time.Duration, steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(t.Ctx, timeout)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}

// Eval evaluates a JavaScript expression in the tab (awaiting a Promise result) and decodes
// its value into T.
func Eval[T any](t *Tab, timeout time.Duration, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(t.Ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// WaitFor polls a JavaScript expression until it is truthy and decodes that value into T. A
// wait spans navigations: when the tab's document goes away while it polls (a reload, a
// link, a beforeunload dialog accepted), it polls again in the next document until timeout,
// as a wait for "the tab shows X" means; before this a reload committing in the middle of a
// poll ended the wait with CDP's "Cannot find context with specified id".
//
// An exception thrown by expr counts as "not yet" (a predicate reading an element that the
// page has not drawn yet, such as `q(".diff-path").textContent` before the diff arrives, used
// to end the wait at once with "Cannot read properties of null" — a timing flake); when the
// wait times out, the error names the last exception expr threw.
func WaitFor[T any](t *Tab, timeout time.Duration, expr string) (T, error) {
	key := "__webcodingWaitError" + strconv.FormatInt(waitSeq.Add(1), 10)
	guarded := `(() => { try { const v = (` + "\n" + expr + "\n" + `); delete globalThis.` + key + `; return v; } ` +
		`catch (e) { globalThis.` + key + ` = String((e && e.message) || e); return false; } })()`
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		ctx, cancel := context.WithTimeout(t.Ctx, left+time.Second)
		v, err := chromedp.Run(ctx, chromedp.Poll[T](guarded, chromedp.WithPollingTimeout(left), chromedp.WithPollingInterval(20*time.Millisecond)))
		cancel()
		if err == nil || !documentGone(err) || time.Until(deadline) < 50*time.Millisecond {
			if err != nil {
				if last, e2 := Eval[string](t, 2*time.Second, `globalThis.`+key+` || ""`); e2 == nil && last != "" {
					err = fmt.Errorf("%w (the condition last threw: %s)", err, last)
				}
			}
			return v, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitSeq numbers WaitFor calls, so that concurrent waits in one tab keep their last
// exceptions apart.
var waitSeq atomic.Int64

// documentGone reports whether err is CDP's answer to an evaluation whose document was
// replaced or unloaded while it ran.
func documentGone(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Cannot find context with specified id") ||
		strings.Contains(s, "Execution context was destroyed") ||
		strings.Contains(s, "Inspected target navigated or closed")
}

// NewProfileTab starts a browser of its own (not the shared one; Chromium, kind Full: the
// headless shell ignores a profile's Preferences) on a fresh profile whose
// Default/Preferences file is prefs (JSON, e.g. site data blocked:
// {"profile":{"default_content_setting_values":{"cookies":2}}}), and opens a tab in it. The
// browser and its profile are removed when the test ends. A missing Chromium fails the test.
func NewProfileTab(t testing.TB, prefs string) *Tab {
	t.Helper()
	path, err := ExecPath(Full)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/Default", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/Default/Preferences", []byte(prefs), 0o644); err != nil {
		t.Fatal(err)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), browserFlags(path, dir)...)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		cancelB()
		cancelA()
		t.Fatalf("chromium: start a browser on its own profile: %v", err)
	}
	t.Cleanup(func() { cancelB(); cancelA() })
	return newTabFrom(t, bctx, ServiceWorkers, nil)
}
