//go:build !(js && wasm)

package durableidb

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// pageTimeout bounds one run of the in-page test binary.
const pageTimeout = 5 * time.Minute

var (
	setupOnce sync.Once
	setupErr  error
	tmpDir    string
	origin    string // http://127.0.0.1:port, shared by every tab (one IndexedDB origin)
	server    *http.Server
)

func TestMain(m *testing.M) {
	code := m.Run()
	if server != nil {
		server.Close()
	}
	chromium.Shutdown()
	if tmpDir != "" {
		os.RemoveAll(tmpDir)
	}
	os.Exit(code)
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// The runner page: wasm_exec.js, the test binary with the arguments of ?args=[…], output
// collected in __out and the exit code in __exit.
const runnerPage = `<!doctype html><meta charset="utf-8"><title>durableidb</title>
<script src="/wasm_exec.js"></script>
<script>
window.__out = []; window.__exit = null;
(function(){
  var dec = new TextDecoder("utf-8"), buf = "";
  globalThis.fs.writeSync = function(fd, b) { buf += dec.decode(b); var nl = buf.lastIndexOf("\n"); if (nl >= 0) { window.__out.push(buf.slice(0, nl + 1)); buf = buf.slice(nl + 1); } return b.length; };
  var go = new Go();
  go.argv = ["test.wasm"].concat(JSON.parse(new URLSearchParams(location.search).get("args") || "[]"));
  go.exit = function(code) { if (buf) { window.__out.push(buf); buf = ""; } window.__exit = code; };
  WebAssembly.instantiateStreaming(fetch("/test.wasm"), go.importObject).then(function(r){ return go.run(r.instance); })
    .catch(function(e){ window.__out.push("runner: " + e + "\n"); window.__exit = 99; });
})();
</script>`

// setup builds this package's tests for GOOS=js once and serves them from one origin.
func setup(tb testing.TB) {
	tb.Helper()
	setupOnce.Do(func() {
		execJS, err := chromium.WasmExecJS()
		if err != nil {
			setupErr = err
			return
		}
		if tmpDir, err = os.MkdirTemp("", "durableidb-"); err != nil {
			setupErr = err
			return
		}
		wasm := filepath.Join(tmpDir, "test.wasm")
		cmd := exec.Command("go", "test", "-c", "-o", wasm, "./e2e/durableidb")
		cmd.Dir = repoRoot()
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			setupErr = fmt.Errorf("GOOS=js go test -c ./e2e/durableidb: %v\n%s", err, out)
			return
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, runnerPage)
		})
		mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			http.ServeFile(w, r, execJS)
		})
		mux.HandleFunc("/test.wasm", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/wasm")
			http.ServeFile(w, r, wasm)
		})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			setupErr = err
			return
		}
		server = &http.Server{Handler: mux}
		go server.Serve(ln)
		origin = "http://" + ln.Addr().String()
	})
	if setupErr != nil {
		tb.Fatal(setupErr)
	}
}

// startPage opens a tab running the test binary with args.
func startPage(tb testing.TB, args ...string) *chromium.Tab {
	tb.Helper()
	setup(tb)
	a, _ := json.Marshal(args)
	tab := chromium.NewTab(tb)
	if err := tab.Do(30*time.Second, chromedp.Navigate(origin+"/?args="+url.QueryEscape(string(a)))); err != nil {
		tb.Fatal(err)
	}
	return tab
}

// waitExit waits for the binary in tab to exit and returns its output and exit code.
func waitExit(tb testing.TB, tab *chromium.Tab, timeout time.Duration) (string, int) {
	tb.Helper()
	exit, err := chromium.WaitFor[int](tab, timeout, "window.__exit === null ? false : window.__exit + 1")
	out, _ := chromium.Eval[[]string](tab, 5*time.Second, "window.__out")
	if err != nil {
		tb.Fatalf("in-page test binary did not finish: %v\noutput:\n%s", err, strings.Join(out, ""))
	}
	return strings.Join(out, ""), exit - 1
}

// TestInPage runs the in-page tests (page_test.go): durabletest.Run unchanged against the
// IndexedDB backend, byte order beyond U+FFFF, 16 claimers over 8 connections, ErrBackend,
// reopening after a deletion.
func TestInPage(t *testing.T) {
	tab := startPage(t, "-test.v", "-test.run", "^(TestContract|TestByteOrderBeyondBMP|TestManyConnectionsOneKey|TestBackendErrors|TestReopenAfterDeletion)$")
	out, code := waitExit(t, tab, pageTimeout)
	t.Log(out)
	if code != 0 || strings.Contains(out, "--- FAIL") {
		t.Fatalf("in-page tests exited with %d", code)
	}
	for _, name := range []string{"TestContract", "TestContract/ConcurrentClaimers", "TestContract/Tampered",
		"TestByteOrderBeyondBMP", "TestManyConnectionsOneKey", "TestBackendErrors", "TestReopenAfterDeletion"} {
		if !strings.Contains(out, "--- PASS: "+name+" ") {
			t.Errorf("%s did not pass", name)
		}
	}
	if errs := tab.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

type claimReport struct {
	Outcome string `json:"outcome"`
	Owner   string `json:"owner"`
	LostCAS int    `json:"lostCAS"`
}

// TestTwoPagesContend: two pages of one origin, owners page-a and page-b, claim the same key
// (through durable.Store.Claim on the same database) at the same moment, 40 rounds: exactly
// one owner per round, the other page sees pending (the owner has not completed yet) or replay.
func TestTwoPagesContend(t *testing.T) {
	db := fmt.Sprintf("web-coding-operations-twopages-%d", time.Now().UnixNano())
	owners := []string{"page-a", "page-b"}
	tabs := make([]*chromium.Tab, len(owners))
	for i, o := range owners {
		tabs[i] = startPage(t, "-test.run", "^TestOwnerPage$", "-owner", o, "-db", db)
	}
	for i, tab := range tabs {
		if _, err := chromium.WaitFor[bool](tab, 30*time.Second, "window.durableReady === true || window.__exit !== null"); err != nil {
			t.Fatalf("%s not ready: %v", owners[i], err)
		}
		if ready, _ := chromium.Eval[bool](tab, 5*time.Second, "window.durableReady === true"); !ready {
			out, _ := chromium.Eval[[]string](tab, 5*time.Second, "window.__out")
			t.Fatalf("%s exited before it was ready:\n%s", owners[i], strings.Join(out, ""))
		}
	}
	const rounds = 40
	wins := map[string]int{}
	contended := 0
	for round := 0; round < rounds; round++ {
		key := fmt.Sprintf("two-pages/%d", round)
		reps := make([]claimReport, len(tabs))
		errs := make([]error, len(tabs))
		var wg sync.WaitGroup
		for i, tab := range tabs {
			wg.Add(1)
			go func(i int, tab *chromium.Tab) {
				defer wg.Done()
				s, err := chromium.Eval[string](tab, 30*time.Second, fmt.Sprintf("durableClaim(%q)", key))
				if err == nil {
					err = json.Unmarshal([]byte(s), &reps[i])
				}
				errs[i] = err
			}(i, tab)
		}
		wg.Wait()
		owner := -1
		for i, r := range reps {
			if errs[i] != nil {
				t.Fatalf("round %d %s: %v", round, owners[i], errs[i])
			}
			switch r.Outcome {
			case "owner":
				if owner >= 0 {
					t.Fatalf("round %d: both pages own %q: %+v", round, key, reps)
				}
				owner = i
			case "pending", "replay":
			default:
				t.Fatalf("round %d %s: outcome %q", round, owners[i], r.Outcome)
			}
			if r.LostCAS > 0 {
				contended++
			}
		}
		if owner < 0 {
			t.Fatalf("round %d: no owner: %+v", round, reps)
		}
		for i, r := range reps {
			if i != owner && r.Owner != owners[owner] {
				t.Fatalf("round %d: %s saw owner %q, the owner was %s", round, owners[i], r.Owner, owners[owner])
			}
		}
		wins[owners[owner]]++
	}
	t.Logf("%d rounds: wins %v; %d rounds where a page lost a compare-and-set to the other", rounds, wins, contended)
	if contended == 0 {
		t.Errorf("no round saw a lost compare-and-set: the two pages never actually raced")
	}
	for i, tab := range tabs {
		if _, err := chromium.Eval[any](tab, 5*time.Second, "durableStop(), null"); err != nil {
			t.Fatal(err)
		}
		out, code := waitExit(t, tab, 30*time.Second)
		if code != 0 {
			t.Fatalf("%s exited with %d:\n%s", owners[i], code, out)
		}
		if errs := tab.Errors(); len(errs) > 0 {
			t.Errorf("%s console errors: %v", owners[i], errs)
		}
	}
	// Clean up the database from one of the pages.
	if _, err := chromium.Eval[any](tabs[0], 10*time.Second, fmt.Sprintf(`new Promise((res, rej) => { const r = indexedDB.deleteDatabase(%q); r.onsuccess = () => res(null); r.onerror = () => rej(r.error); })`, db)); err != nil {
		t.Errorf("deleteDatabase: %v", err)
	}
}

// rawLoops is evaluated in the benchmark's page after the Go binary exited, on the same
// database: n raw read-modify-write readwrite transactions (get, then put of the incremented
// value, commit) in plain JavaScript, then n "pair-shaped" floors (the transactions one
// claim+complete pair makes: readonly get, readwrite get+put, readonly get, readwrite get+put).
// Returns [rawMs, floorMs].
const rawLoops = `(async (name, n, run) => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open(name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const enc = new TextEncoder();
  const rmw = (key) => new Promise((res, rej) => {
    const tx = db.transaction("operations", "readwrite"), st = tx.objectStore("operations"), g = st.get(key);
    g.onsuccess = () => { const v = g.result; const rec = v ? JSON.parse(v.record) : {revision: 0};
      rec.revision++; st.put({key, record: JSON.stringify(rec)}); tx.commit(); };
    tx.oncomplete = () => res(); tx.onerror = tx.onabort = () => rej(tx.error);
  });
  const get = (key) => new Promise((res, rej) => {
    const g = db.transaction("operations", "readonly").objectStore("operations").get(key);
    g.onsuccess = () => res(g.result); g.onerror = () => rej(g.error);
  });
  const rawKey = enc.encode("raw/counter");
  let t0 = performance.now();
  for (let i = 0; i < n; i++) await rmw(rawKey);
  const rawMs = performance.now() - t0;
  t0 = performance.now();
  for (let i = 0; i < n; i++) { const k = enc.encode("floor/" + run + "/" + i); await get(k); await rmw(k); await get(k); await rmw(k); }
  const floorMs = performance.now() - t0;
  db.close();
  return [rawMs, floorMs];
})`

// benchPairs is the number of claim+complete pairs (and of raw loop iterations) one benchmark
// iteration measures, in benchBlocks alternating blocks (Go pairs, raw loops, Go pairs, …) so
// that both sides see the same page, JIT tier and machine load.
const (
	benchPairs  = 300
	benchBlocks = 3
)

// BenchmarkClaimCompleteIndexedDB: claim+complete pairs per second on the IndexedDB backend
// (each pair: Claim of a new key as owner, then Complete; 2 readonly + 2 readwrite
// transactions), and beside it in the same page a raw JavaScript read-modify-write readwrite
// transaction loop (raw-rmw/s: get, put, commit per transaction) and the pair-shaped raw floor
// (floor-pairs/s: the same 4 transactions per pair in plain JavaScript). One iteration = one
// page, warmed up, then benchPairs of each; ns/op is that whole iteration, the metrics are what
// to read. Reported, not asserted (issue 5 goal: ≥ 0.8× the raw loop).
func BenchmarkClaimCompleteIndexedDB(b *testing.B) {
	var pairMs, rawMs, floorMs float64
	for i := 0; i < b.N; i++ {
		db := fmt.Sprintf("web-coding-operations-bench-%d", time.Now().UnixNano())
		tab := startPage(b, "-test.run", "^TestMeasure$", "-db", db)
		if _, err := chromium.WaitFor[bool](tab, 30*time.Second, "window.durableReady === true || window.__exit !== null"); err != nil {
			b.Fatal(err)
		}
		goPairs := func(run string, n int) float64 {
			ms, err := chromium.Eval[float64](tab, pageTimeout, fmt.Sprintf("durableMeasure(%q, %d).then(Number)", run, n))
			if err != nil {
				out, _ := chromium.Eval[[]string](tab, 5*time.Second, "window.__out")
				b.Fatalf("durableMeasure: %v\n%s", err, strings.Join(out, ""))
			}
			return ms
		}
		jsLoops := func(run string, n int) []float64 {
			raw, err := chromium.Eval[[]float64](tab, pageTimeout, fmt.Sprintf("%s(%q, %d, %q)", rawLoops, db, n, run))
			if err != nil {
				b.Fatal(err)
			}
			return raw
		}
		goPairs("warm", 30)
		jsLoops("warm", 30)
		per := benchPairs / benchBlocks
		for blk := 0; blk < benchBlocks; blk++ {
			run := strconv.Itoa(blk)
			pairMs += goPairs(run, per)
			raw := jsLoops(run, per)
			rawMs += raw[0]
			floorMs += raw[1]
		}
		if _, err := chromium.Eval[any](tab, 5*time.Second, "durableStop(), null"); err != nil {
			b.Fatal(err)
		}
		if out, code := waitExit(b, tab, 30*time.Second); code != 0 {
			b.Fatalf("measure page exited with %d:\n%s", code, out)
		}
		if _, err := chromium.Eval[any](tab, 10*time.Second, fmt.Sprintf(`new Promise((res) => { const r = indexedDB.deleteDatabase(%q); r.onsuccess = r.onerror = r.onblocked = () => res(null); })`, db)); err != nil {
			b.Errorf("deleteDatabase: %v", err)
		}
	}
	n := float64(b.N * (benchPairs / benchBlocks) * benchBlocks)
	pairsPerSec := n / (pairMs / 1000)
	rawPerSec := n / (rawMs / 1000)
	floorPerSec := n / (floorMs / 1000)
	b.ReportMetric(pairsPerSec, "pairs/s")
	b.ReportMetric(rawPerSec, "raw-rmw/s")
	b.ReportMetric(floorPerSec, "floor-pairs/s")
	b.ReportMetric(pairsPerSec/rawPerSec, "x-raw-rmw")
	b.ReportMetric(pairsPerSec/floorPerSec, "x-floor")
}
