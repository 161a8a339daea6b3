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
// Round 3 merged the preview's tree builder (golang.org/x/net/html) and runtime into the page
// after html/template left it: measured 11,395,389 raw / 3,010,523 gzip / 2,150,834 brotli on
// 2026-12-02. Issue 15's goal (≤ 2.0 MB brotli) is NOT met; the budget is set at the measured
// size so it only stops further growth, until the goal is reached and it goes back down.
// Where the bytes go and what was tried (turning inlining off reaches 1.91–1.97 MB but slowed
// the page's first preview ack past its timeout): docs/performance.md, "Size of the page
// module: where the bytes go".
//
// Round 4 added streamed answers with usage and budgets (wasm/openrouter), and
// preview.getConsole / preview.inspect with the cascadia selector engine: measured 11,865,046
// raw / 3,111,550 gzip / 2,231,141 brotli on 2026-12-02 (+78 KB brotli); the budget follows the
// measured size again, and the goal is still not met.
//
// Round 5 added preview.audit (the tool, the strict decoder of the frame's reply, the iframe
// port's audit request), the audit panel and the device sizes: measured 12,040,095 raw /
// 3,150,615 gzip / 2,252,393 brotli on 2026-12-02, +141,651 bytes raw over main's 11,898,444
// (+57 KB the tool and decoder, +28 KB the port, +56 KB the two UI features and their views).
// axe-core itself (about 0.6 MB) is a separate asset fetched on the first audit, never part
// of the wasm (docs/design.md §5.17). The budget follows the measured size; the goal is
// still not met.
const (
	wasmBrotliBudget = 2_260_000 // bytes, brotli quality 11 (goal: 2,000,000)
	wasmGzipBudget   = 3_160_000 // bytes, gzip best: a guard against a large regression only
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
