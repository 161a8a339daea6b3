package buildcheck

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"
)

// Size budget of the studio's page module (issue 15). GitHub Pages picks the encoding itself
// (our precompressed siblings are not used there), so both sizes are printed; the budget is
// on brotli at quality 11, what a browser that accepts br receives from a host that
// compresses well. Measured when the budget was set (Go 1.26, -trimpath -ldflags="-s -w"):
// 13,267,902 raw / 3,263,953 gzip / 2,326,483 brotli with html/template; see docs/ui.md for
// the numbers after it was replaced. Later work states what it adds.
//
// Round 3 merged the preview's tree builder (golang.org/x/net/html) and runtime into the page,
// round 4 streamed answers and the context tools: 2,231,141 brotli on 2026-12-02, over the
// goal. Round 5 builds the page module with inlining off outside the runtime
// (sitebuild.pageGCFlags; docs/performance.md, "Size of the page module"): measured 11,815,261
// raw / 2,775,746 gzip / 1,980,448 brotli on 2026-12-02, and the budget is the goal again.
// Issue 17's pick mode (live preview.inspect through the bridge and its strict decoder, the
// source-line mapping, context chips, picked-element edits in the local agent, Ask to fix)
// adds 51,556 brotli / 85,062 gzip: 12,302,725 raw / 2,858,033 gzip / 2,031,327 brotli on
// 2026-12-02 against main's 1,979,771 brotli. The fixes after round 5's new-user tests (request
// timeouts, provider labels and endpoint completion, conversation states, stale-pick checks,
// inline-script lines, device-size input) add 21,528 brotli / 15,683 gzip: 12,384,507 raw /
// 2,873,716 gzip / 2,052,855 brotli on 2026-12-02. The budget follows that measurement (+~7 KB)
// until the page module is trimmed back under issue 15's 2,000,000 goal.
//
// Issue 15's UI state on the app object (docs/design.md §5.28) adds 12,260 brotli / 10,516
// gzip against main's 12,398,307 raw / 2,877,695 gzip / 2,050,616 brotli: 12,443,966 raw /
// 2,888,211 gzip / 2,062,876 brotli on 2026-12-02. Moving ~35 variables onto the app costs
// 10,519 of it (every function that used a variable now reaches it through the receiver, and
// wasm has no free nil check: ~60 bytes of code per function; the state types get type
// descriptors, which allocating the app needs), recovering each feature's render on its own
// and releasing the render locks on a panic 1,741. The budget keeps the same ~7 KB margin.
// Round 6 as merged (the Live Code Editor's shared hooks, one copy per asset in the preview
// (design.md §5.26), the app state, and the preview runtime shipped minified (§5.29, about
// −10 KB)): 12,392,445 raw / 2,878,356 gzip / 2,054,815 brotli on 2026-12-02.
// Issue 20's CSS-only edits in place (design.md §5.33: the compiler's layout of the document,
// preview.StyleOnlyChange, the port's patch path and 2 KB more minified runtime) add about
// 43 KB raw / 9 KB gzip / 6.6 KB brotli (StyleOnlyChange 7.8 KB and runtimeConfigLayout 5.6 KB
// of wasm code, inlining off): 12,476,363 raw / 2,897,369 gzip / 2,070,092 brotli on 2026-12-06
// against main's 12,433,781 / 2,888,295 / 2,061,442 (main at d6602a6, one commit past this
// branch's base). Both budgets follow that measurement with the usual ~7 KB margin.
// Merged with issue 13's script navigation (design.md §5.34: jsscan's location rewrite and
// its use for every script kind, the virtual Location in the runtime, 34.0 KB minified with
// both): 12,529,256 raw / 2,908,125 gzip / 2,075,200 brotli on 2026-12-06, about +5 KB brotli
// / +11 KB gzip against the CSS branch alone. The budgets keep the ~7 KB margin.
// Session 9 (measured the same way on both trees, 2026-12-06: 12,538,595 raw / 2,909,609 gzip
// / 2,071,059 brotli at 4c19341 → 12,697,016 / 2,945,946 / 2,097,460, +26.4 KB brotli) adds, in
// wasm code bytes: the import's reference order with one set of reference rules shared with the
// compiler (design.md §5.42: wasm/preview/pagerefs 22 KB, workspace 11 KB, jsscan 5 KB);
// workspace pages in frames (§5.37: preview 11 KB, and the runtime embedded in every document
// grew 34.3 → 39.9 KB minified); output checks proven from a result's type (§5.40: schema 15 KB)
// and the one-pass JSON validity check (mcp 11 KB), which put native tools/call under its floor;
// a durable claim as one transaction (§5.39: durable and idb 16 KB); the mount at commit, the
// render yield, "Saving…" and revisionAfter (studio, registry, main ≈ 8 KB). The budgets follow
// with the ~7 KB margin; issue 15's goal (2,000,000) is further away, and the only change that
// reaches it — a page-only schema validator — stays ruled out (docs/performance.md, "What the
// studio module's libraries cost").
// Session 11 (2026-12-07, issue 13's real-site fixes; measured by this test in a fresh-clone
// CI run: 12,719,589 raw / 2,951,957 gzip / 2,107,303 brotli, +22.6 KB raw / +6 KB gzip /
// +9.8 KB brotli) adds: the runtime embedded in every compiled document, 39.9 → 44.3 KB
// minified (a static <script src> reads its src as written: 25-scripts.js; every member named
// location answered by the object: design.md §5.34; <a> URL parts, document.URL, the
// document.write scanner, CSS comments, non-fetching links: docs/preview.md), and the
// compiler's marking of compiled scripts and keeping of missing script/stylesheet elements
// (wasm/preview document.go). The budgets follow with the ~7 KB margin; the goal is unchanged.
// Session 12 (2026-12-07): tool schemas are validated by wasm/schema's own closed vocabulary,
// held to jsonschema v5 in tests only (docs/design.md §5.45), which takes jsonschema, net/mail,
// mime, net and most of math/big out of the page: 11,774,379 raw / 2,771,135 gzip / 1,977,733
// brotli (−129.6 KB brotli); with the new-user test's fixes (linear uniqueItems, exact huge
// exponents, integers spelt 1.0 decoded by Call.Decode) 11,796,835 / 2,775,122 / 1,983,334;
// with the session's preview work merged (the folder URL, meta refresh and document.domain of
// design.md §5.46, the top-level rewrite of §5.47: runtime 44,259 → 45,408 bytes minified, and
// jsscan's combined scan) 11,822,364 / 2,781,661 / 1,986,164, 13.8 KB under the goal. The brotli budget is issue 15's goal again, and stays there: later
// work that would pass it trims something else or says why the goal must move.
// Sessions 13–14 (2026-12-07): <frameset>/<frame> pages from blob: URLs (design.md §5.48), the
// quirks-mode warning (§5.49), inline script text restored (§5.50), document.referrer, and a
// reference the workspace can never hold reported as a limit (§5.51): runtime 45,408 → 49,873
// bytes minified; measured by this test at 11,859,396 raw / 2,789,316 gzip / 1,992,971 brotli
// (+37.0 KB raw / +7.7 KB gzip / +6.8 KB brotli), 7.0 KB under the brotli goal. The gzip guard
// follows with the usual ~7 KB margin.
const (
	wasmBrotliBudget = 2_000_000 // bytes, brotli quality 11 (issue 15's goal)
	wasmGzipBudget   = 2_797_000 // bytes, gzip best: a guard against a large regression only
)

// TestWasmSizeBudget builds the site once (shared with the other tests), compresses the
// studio wasm with brotli (quality 11) and gzip (best), prints raw, gzip and brotli sizes and
// fails when brotli exceeds wasmBrotliBudget or gzip exceeds wasmGzipBudget.
func TestWasmSizeBudget(t *testing.T) {
	dir, rep := built(t)
	raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rep.Assets["studio.wasm"])))
	if err != nil {
		t.Fatal(err)
	}
	var gz, br bytes.Buffer
	gw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := gw.Close(); err != nil {
		t.Fatal(err)
	}
	bw := brotli.NewWriterLevel(&br, 11)
	if _, err := bw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := bw.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("studio wasm: %d bytes raw, %d gzip (budget %d), %d brotli q11 (budget %d)", len(raw), gz.Len(), wasmGzipBudget, br.Len(), wasmBrotliBudget)
	if br.Len() > wasmBrotliBudget {
		t.Errorf("studio wasm is %d bytes brotli, over the %d budget: say what the growth buys, or trim it", br.Len(), wasmBrotliBudget)
	}
	if gz.Len() > wasmGzipBudget {
		t.Errorf("studio wasm is %d bytes gzip, over the %d budget", gz.Len(), wasmGzipBudget)
	}
}

// axeMarker is a message of axe-core's own source (its "already running" error): present in
// the audit engine's asset, absent from everything else the page loads up front.
const axeMarker = "Axe is already running"

// TestAxeOnlyInItsOwnAsset (issue 17, docs/design.md §5.17): axe-core is bundled as its own
// asset (js/preview-axe.js), fetched when an audit is asked; it is not in the studio wasm nor
// in the page's main script.
func TestAxeOnlyInItsOwnAsset(t *testing.T) {
	dir, rep := built(t)
	read := func(logical string) []byte {
		t.Helper()
		name, ok := rep.Assets[logical]
		if !ok {
			t.Fatalf("no asset %s in the build", logical)
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	axe := read("js/preview-axe.js")
	if !bytes.Contains(axe, []byte(axeMarker)) {
		t.Fatalf("js/preview-axe.js (%d bytes) does not hold axe-core", len(axe))
	}
	t.Logf("js/preview-axe.js: %d bytes raw", len(axe))
	for _, logical := range []string{"studio.wasm", "js/main.js"} {
		if bytes.Contains(read(logical), []byte(axeMarker)) {
			t.Errorf("%s holds axe-core's source", logical)
		}
	}
}
