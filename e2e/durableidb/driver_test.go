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
	"sort"
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
func TestTwoPagesContend(t *testing.T) { twoPages(t, false) }

// TestTwoPagesContendUpdater is TestTwoPagesContend through durable.Updater (what the studio
// runs: Claim as ONE readwrite transaction): exactly one owner per round, the other page pending
// or replay; a round is contended when the other page saw pending (its claim ran before the
// owner completed).
func TestTwoPagesContendUpdater(t *testing.T) { twoPages(t, true) }

func twoPages(t *testing.T, updater bool) {
	db := fmt.Sprintf("web-coding-operations-twopages-%d", time.Now().UnixNano())
	owners := []string{"page-a", "page-b"}
	tabs := make([]*chromium.Tab, len(owners))
	for i, o := range owners {
		tabs[i] = startPage(t, "-test.run", "^TestOwnerPage$", "-owner", o, "-db", db, "-updater="+strconv.FormatBool(updater))
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
			if r.LostCAS > 0 || (updater && r.Outcome == "pending") {
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
	t.Logf("%d rounds (updater %v): wins %v; %d page-rounds contended (a lost compare-and-set, or pending through the Updater)", rounds, updater, wins, contended)
	if contended == 0 {
		t.Errorf("no round was contended: the two pages never actually raced")
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
// claim+complete pair makes since durable.Updater: readwrite get+put twice, on a new key), then
// n pairs of the earlier four-transaction shape (readonly get, readwrite get+put, readonly get,
// readwrite get+put; Store without an Updater). Returns [rawMs, floorMs, floor4Ms].
const rawLoops = `(async (name, n, run) => {
` + floorSteps + `  const rawKey = enc.encode("raw/counter");
  let t0 = performance.now();
  for (let i = 0; i < n; i++) await rmw(rawKey);
  const rawMs = performance.now() - t0;
  t0 = performance.now();
  for (let i = 0; i < n; i++) { const k = enc.encode("floor/" + run + "/" + i); await rmw(k); await rmw(k); }
  const floorMs = performance.now() - t0;
  t0 = performance.now();
  for (let i = 0; i < n; i++) { const k = enc.encode("floor4/" + run + "/" + i); await get(k); await rmw(k); await get(k); await rmw(k); }
  const floor4Ms = performance.now() - t0;
  db.close();
  return [rawMs, floorMs, floor4Ms];
})`

// benchPairs is the number of claim+complete pairs (and of raw loop iterations) one benchmark
// iteration measures, in benchBlocks alternating blocks (Go pairs, raw loops, Go pairs, …) so
// that both sides see the same page, JIT tier and machine load.
const (
	benchPairs  = 300
	benchBlocks = 3
)

// BenchmarkClaimCompleteIndexedDB: claim+complete pairs per second on the IndexedDB backend
// (each pair: Claim of a new key as owner, then Complete; two readwrite get+put transactions
// through durable.Updater), and beside it in the same page a raw JavaScript read-modify-write
// readwrite transaction loop (raw-rmw/s: get, put, commit per transaction), the pair-shaped raw
// floor (floor-pairs/s: the same 2 transactions per pair in plain JavaScript) and the earlier
// four-transaction floor (floor4-pairs/s). One iteration = one
// page, warmed up, then benchPairs of each; ns/op is that whole iteration, the metrics are what
// to read. Reported, not asserted (issue 5 goal: ≥ 0.8× the raw loop).
func BenchmarkClaimCompleteIndexedDB(b *testing.B) {
	var pairMs, rawMs, floorMs, floor4Ms float64
	for i := 0; i < b.N; i++ {
		db := fmt.Sprintf("web-coding-operations-bench-%d", time.Now().UnixNano())
		tab := startPage(b, "-test.run", "^TestMeasure$", "-db", db)
		if _, err := chromium.WaitFor[bool](tab, 30*time.Second, "window.durableReady === true || window.__exit !== null"); err != nil {
			b.Fatal(err)
		}
		goPairs := func(run string, n int) float64 {
			ms, err := chromium.Eval[float64](tab, pageTimeout, fmt.Sprintf("durableMeasure(%q, %d, %q).then(Number)", run, n, os.Getenv("IDB_BENCH_MODE")))
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
			floor4Ms += raw[2]
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
	b.ReportMetric(n/(floor4Ms/1000), "floor4-pairs/s")
	b.ReportMetric(pairsPerSec/rawPerSec, "x-raw-rmw")
	b.ReportMetric(pairsPerSec/floorPerSec, "x-floor")
}

// abFloors is evaluated in the A/B benchmark's page: n pairs of the 4-transaction floor
// (readonly get, readwrite get+put, readonly get, readwrite get+put, as rawLoops) and n pairs
// of the 2-transaction floor (readwrite get+put twice) on new keys. Returns [floor4Ms, floor2Ms].
const abFloors = `(async (name, n, run) => {
` + floorSteps + `  let t0 = performance.now();
  for (let i = 0; i < n; i++) { const k = enc.encode("floor4/" + run + "/" + i); await get(k); await rmw(k); await get(k); await rmw(k); }
  const f4 = performance.now() - t0;
  t0 = performance.now();
  for (let i = 0; i < n; i++) { const k = enc.encode("floor2/" + run + "/" + i); await rmw(k); await rmw(k); }
  const f2 = performance.now() - t0;
  db.close();
  return [f4, f2];
})`

// abTimed is the 2-transaction floor with the timing of rmwRawTimed (ab_test.go): n pairs,
// returns the mean ms per transaction [get→success, commit→complete, between].
const abTimed = `(async (name, n, run) => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open(name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const enc = new TextEncoder(), acc = [0, 0, 0];
  const rmw = (key) => new Promise((res, rej) => {
    const t0 = performance.now();
    const tx = db.transaction("operations", "readwrite"), st = tx.objectStore("operations"), g = st.get(key);
    let t2;
    g.onsuccess = () => { const t1 = performance.now(); acc[0] += t1 - t0; const v = g.result; const rec = v ? JSON.parse(v.record) : {revision: 0};
      rec.revision++; st.put({key, record: JSON.stringify(rec)}); tx.commit(); t2 = performance.now(); acc[2] += t2 - t1; };
    tx.oncomplete = () => { acc[1] += performance.now() - t2; res(); }; tx.onerror = tx.onabort = () => rej(tx.error);
  });
  for (let i = 0; i < n; i++) { const k = enc.encode("timed/" + run + "/" + i); await rmw(k); await rmw(k); }
  db.close();
  return acc.map(x => x / (2 * n));
})`

// BenchmarkIndexedDBAB (issue 20, docs/performance.md "IndexedDB A/B (2026-12-06)"): in ONE
// page, rounds of interleaved blocks (order rotated per round) of claim+complete pairs through
// (idb) durable.Store over idb.Durable as is (Updater: two readwrite transactions), (idb-cas) the
// same with the Updater hidden (Read + CompareAndSet: four transactions), (sysjs) those four
// transactions in syscall/js (ab_test.go), (rmw-sysjs) the two-transaction pair in syscall/js,
// the 4- and 2-transaction JavaScript floors, and two diagnostics without IndexedDB: the Go work
// of a pair (rmw-mem) and four JavaScript → Go events (events4). Reports the median pairs/s of
// each over the rounds.
// Set IDB_AB_ROUNDS / IDB_AB_PAIRS to change 7 rounds of 60 pairs, IDB_AB_MODES to pick modes.
func BenchmarkIndexedDBAB(b *testing.B) {
	rounds, per := 7, 60
	if v, err := strconv.Atoi(os.Getenv("IDB_AB_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	if v, err := strconv.Atoi(os.Getenv("IDB_AB_PAIRS")); err == nil && v > 0 {
		per = v
	}
	modes := []string{"", "cas", "sysjs", "rmw-sysjs", "floors", "rmw-mem", "events4"}
	if v := os.Getenv("IDB_AB_MODES"); v != "" { // e.g. ",cas,floors" (an empty name is the backend as is)
		modes = strings.Split(v, ",")
	}
	names := map[string]string{"": "idb", "cas": "idb-cas", "sysjs": "sysjs", "rmw-goidb": "rmw-idb", "rmw-sysjs": "rmw-sysjs", "rmw-mem": "rmw-mem", "events4": "events4"}
	rates := map[string][]float64{}
	for i := 0; i < b.N; i++ {
		db := fmt.Sprintf("web-coding-operations-ab-%d", time.Now().UnixNano())
		tab := startPage(b, "-test.run", "^TestMeasure$", "-db", db)
		if _, err := chromium.WaitFor[bool](tab, 30*time.Second, "window.durableReady === true || window.__exit !== null"); err != nil {
			b.Fatal(err)
		}
		block := func(mode, run string, n int) {
			if mode == "floors" {
				ms, err := chromium.Eval[[]float64](tab, pageTimeout, fmt.Sprintf("%s(%q, %d, %q)", abFloors, db, n, run))
				if err != nil {
					b.Fatal(err)
				}
				rates["floor4"] = append(rates["floor4"], float64(n)/(ms[0]/1000))
				rates["floor2"] = append(rates["floor2"], float64(n)/(ms[1]/1000))
				return
			}
			ms, err := chromium.Eval[float64](tab, pageTimeout, fmt.Sprintf("durableMeasure(%q, %d, %q).then(Number)", run, n, mode))
			if err != nil {
				out, _ := chromium.Eval[[]string](tab, 5*time.Second, "window.__out")
				b.Fatalf("durableMeasure(%s): %v\n%s", mode, err, strings.Join(out, ""))
			}
			rates[names[mode]] = append(rates[names[mode]], float64(n)/(ms/1000))
		}
		for _, m := range modes {
			block(m, "warm", 20)
		}
		clear(rates)
		for r := 0; r < rounds; r++ {
			for j := range modes {
				block(modes[(j+r)%len(modes)], fmt.Sprint(i, "-", r), per)
			}
		}
		// Where a two-transaction pair's time goes, Go (syscall/js) beside JavaScript: mean ms
		// from get issued to its success event, from commit to complete, and in between.
		for r := 0; r < 3; r++ {
			g, err := chromium.Eval[string](tab, pageTimeout, fmt.Sprintf("durableMeasure(%q, %d, %q)", fmt.Sprint("t", r), per, "rmw-sysjs-t"))
			if err != nil {
				b.Fatal(err)
			}
			j, err := chromium.Eval[[]float64](tab, pageTimeout, fmt.Sprintf("%s(%q, %d, %q)", abTimed, db, per, fmt.Sprint("t", r)))
			if err != nil {
				b.Fatal(err)
			}
			fmt.Printf("per transaction get→success / commit→complete / between, ms: go %s; js %.3f,%.3f,%.3f\n", g, j[0], j[1], j[2])
		}
		if _, err := chromium.Eval[any](tab, 5*time.Second, "durableStop(), null"); err != nil {
			b.Fatal(err)
		}
		if out, code := waitExit(b, tab, 30*time.Second); code != 0 {
			b.Fatalf("measure page exited with %d:\n%s", code, out)
		}
		_, _ = chromium.Eval[any](tab, 10*time.Second, fmt.Sprintf(`new Promise((res) => { const r = indexedDB.deleteDatabase(%q); r.onsuccess = r.onerror = r.onblocked = () => res(null); })`, db))
	}
	med := func(xs []float64) float64 {
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		return s[len(s)/2]
	}
	for k, v := range rates {
		b.ReportMetric(med(v), k+"-pairs/s")
		fmt.Printf("%s: %.0f\n", k, v)
	}
	b.ReportMetric(med(rates["idb-cas"])/med(rates["floor4"]), "x-idb-cas/floor4")
	b.ReportMetric(med(rates["sysjs"])/med(rates["floor4"]), "x-sysjs/floor4")
	b.ReportMetric(med(rates["idb"])/med(rates["floor2"]), "x-idb/floor2")
	b.ReportMetric(med(rates["rmw-sysjs"])/med(rates["floor2"]), "x-rmw-sysjs/floor2")
}

// floorSteps opens the benchmark's database as db and defines the floors' two steps in plain
// JavaScript: rmw(key), one readwrite transaction that reads the record and puts it back with
// its revision incremented (committed), and get(key), one readonly read. rawLoops and abFloors
// start with it.
const floorSteps = `  const db = await new Promise((res, rej) => { const r = indexedDB.open(name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
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
`
