package browser

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// noPrefetch turns off the shim's early workspace read (site/js/main.js) in the tab's pages.
const noPrefetch = `globalThis.webcodingNoPrefetch = true;`

// BenchmarkPrefetchAB (issue 20, docs/performance.md "IndexedDB A/B (2026-12-06)"): cold start
// (fresh profile → first ack) and warm reload with and without the shim's workspace prefetch,
// interleaved in one browser: each round opens one fresh isolated tab per variant (order
// alternating), then reloads a warmed tab of each variant in turn. Reports medians (ms since
// navigation start). IDB_AB_ROUNDS sets the rounds (default 7).
func BenchmarkPrefetchAB(b *testing.B) {
	url := site(b)
	rounds := 7
	if v, err := strconv.Atoi(os.Getenv("IDB_AB_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	const timingsJS = `(() => { const t = window.webcodingTimings; return t && t.firstAck && t.coreReady ? t : false; })()`
	res := map[string][]float64{}
	open := func(prefetch bool) *chromium.Tab {
		tab := chromium.NewIsolatedTab(b)
		if !prefetch {
			if err := tab.Do(loadTimeout, onNewDocument(noPrefetch)); err != nil {
				b.Fatal(err)
			}
		}
		return tab
	}
	name := map[bool]string{true: "prefetch", false: "off"}
	load := func(tab *chromium.Tab, action chromedp.Action[chromedp.Void], kind string, prefetch bool) {
		if err := tab.Do(loadTimeout, action); err != nil {
			b.Fatal(err)
		}
		t, err := chromium.WaitFor[map[string]float64](tab, loadTimeout, timingsJS)
		if err != nil {
			b.Fatal(err)
		}
		res[kind+"-ack-"+name[prefetch]] = append(res[kind+"-ack-"+name[prefetch]], t["firstAck"])
		res[kind+"-ready-"+name[prefetch]] = append(res[kind+"-ready-"+name[prefetch]], t["coreReady"])
		if t["loadEnd"] > 0 {
			res[kind+"-load-"+name[prefetch]] = append(res[kind+"-load-"+name[prefetch]], t["loadEnd"]-t["loadStart"])
			res[kind+"-loadstart-"+name[prefetch]] = append(res[kind+"-loadstart-"+name[prefetch]], t["loadStart"])
			res[kind+"-inst-"+name[prefetch]] = append(res[kind+"-inst-"+name[prefetch]], t["wasmInstantiated"])
		}
		if got, _ := chromium.Eval[bool](tab, 5*time.Second, `document.body.dataset.state !== "failed"`); !got {
			b.Fatalf("%s %s: the studio failed", kind, name[prefetch])
		}
	}
	for i := 0; i < b.N; i++ {
		// Cold: a fresh profile per load (skipped with IDB_AB_FILES: warm reloads of a larger
		// workspace only).
		for r := 0; r < rounds && os.Getenv("IDB_AB_FILES") == ""; r++ {
			for _, p := range []bool{r%2 == 0, r%2 != 0} {
				tab := open(p)
				load(tab, chromedp.Navigate(url), "cold", p)
				tab.Close()
			}
		}
		// Warm: one warmed tab per variant (its workspace stored, its code cache written).
		tabs := map[bool]*chromium.Tab{}
		for _, p := range []bool{true, false} {
			tabs[p] = open(p)
			load(tabs[p], chromedp.Navigate(url), "first", p)
		}
		if n, _ := strconv.Atoi(os.Getenv("IDB_AB_FILES")); n > 0 { // a larger workspace to hydrate
			for _, tab := range tabs {
				if _, err := chromium.Eval[any](tab, 5*time.Minute, fmt.Sprintf(`(async () => {
					const body = "// " + "x".repeat(2000) + "\n";
					for (let i = 0; i < %d; i++) {
						const r = JSON.parse(await webcodingHandle(JSON.stringify({jsonrpc: "2.0", id: i, method: "tools/call", params: {name: "workspace.createFile",
							arguments: {path: "lib/f" + i + ".js", source: body + i}, _meta: {source: "local", mode: "direct"}}})));
						if (!r.result || r.result.isError) throw new Error(JSON.stringify(r));
					}
					return null; })()`, n)); err != nil {
					b.Fatal(err)
				}
			}
		}
		time.Sleep(time.Second)
		for r := 0; r < rounds; r++ {
			for _, p := range []bool{r%2 == 0, r%2 != 0} {
				load(tabs[p], chromedp.Reload(), "warm", p)
			}
		}
		for _, t := range tabs {
			t.Close()
		}
	}
	for k, v := range res {
		s := append([]float64(nil), v...)
		sort.Float64s(s)
		b.ReportMetric(s[len(s)/2], k+"-ms")
		fmt.Printf("%s: %.0f\n", k, v)
	}
}
