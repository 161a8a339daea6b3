package browser

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/devserver"
)

const helloPage = `<!doctype html><meta charset="utf-8"><title>hello</title>
<script src="wasm_exec.js"></script>
<script>const go = new Go(); WebAssembly.instantiateStreaming(fetch("hello.wasm"), go.importObject).then(r => go.run(r.instance));</script>`

var (
	helloOnce sync.Once
	helloURL  string
	helloErr  error
)

// helloSite builds the hello-world Go wasm (same flags as the studio) with its brotli sibling
// and serves it with host/devserver, like the studio.
func helloSite(b *testing.B) string {
	helloOnce.Do(func() {
		dir, err := os.MkdirTemp("", "webcoding-hello-")
		if err != nil {
			helloErr = err
			return
		}
		site := filepath.Join(dir, "hello")
		os.MkdirAll(site, 0o755)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(site, "hello.wasm"), "./e2e/browser/testdata/hello")
		cmd.Dir = repoRoot()
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			helloErr = err
			b.Log(string(out))
			return
		}
		execJS, err := chromium.WasmExecJS()
		if err != nil {
			helloErr = err
			return
		}
		js, _ := os.ReadFile(execJS)
		os.WriteFile(filepath.Join(site, "wasm_exec.js"), js, 0o644)
		os.WriteFile(filepath.Join(site, "index.html"), []byte(helloPage), 0o644)
		for _, name := range []string{"hello.wasm", "wasm_exec.js", "index.html"} {
			raw, _ := os.ReadFile(filepath.Join(site, name))
			var br bytes.Buffer
			w := brotli.NewWriterLevel(&br, 5)
			w.Write(raw)
			w.Close()
			os.WriteFile(filepath.Join(site, name+".br"), br.Bytes(), 0o644)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			helloErr = err
			return
		}
		go (&http.Server{Handler: devserver.Handler(dir)}).Serve(ln)
		helloURL = "http://" + ln.Addr().String() + "/hello/"
	})
	if helloErr != nil {
		b.Fatal(helloErr)
	}
	return helloURL
}

// BenchmarkColdStartHelloWorld: the same measurement as BenchmarkColdStart for a hello-world
// Go wasm page (navigation → main ran), the baseline of the ratio goals.
func BenchmarkColdStartHelloWorld(b *testing.B) {
	url := helloSite(b)
	var total float64
	for i := 0; i < b.N; i++ {
		tab := chromium.NewIsolatedTab(b)
		if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
			b.Fatal(err)
		}
		ms, err := chromium.WaitFor[float64](tab, loadTimeout, `window.helloReady || false`)
		if err != nil {
			b.Fatal(err)
		}
		total += ms
	}
	b.ReportMetric(total/float64(b.N), "ready-ms")
}

// BenchmarkWarmReload: navigation → first preview ack on a reload of an already visited page
// (HTTP cache, V8 code cache and service worker warm).
func BenchmarkWarmReload(b *testing.B) {
	url := site(b)
	tab := chromium.NewIsolatedTab(b)
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!!(window.webcodingTimings && window.webcodingTimings.firstAck)`); err != nil {
		b.Fatal(err)
	}
	time.Sleep(time.Second) // let the code cache be written
	var ready, ack float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
			b.Fatal(err)
		}
		t, err := chromium.WaitFor[map[string]float64](tab, loadTimeout, `(() => { const t = window.webcodingTimings; return t && t.firstAck && t.coreReady ? t : false; })()`)
		if err != nil {
			b.Fatal(err)
		}
		ready += t["coreReady"]
		ack += t["firstAck"]
	}
	b.ReportMetric(ready/float64(b.N), "ready-ms")
	b.ReportMetric(ack/float64(b.N), "first-ack-ms")
}
