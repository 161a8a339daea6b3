package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// BenchmarkToolsCallInPage: one JSON-RPC request through globalThis.webcodingHandle inside the
// page, Promise round trip included: ping (the glue alone) and tools/call
// workspace.getStatus in direct mode (PLATFORM: 125–134 µs for a small tool).
func BenchmarkToolsCallInPage(b *testing.B) {
	for name, req := range map[string]string{
		"ping":              `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		"getStatus":         `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.getStatus","arguments":{},"_meta":{"source":"local","mode":"direct"}}}`,
		"getStatus-batch10": `[` + strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.getStatus","arguments":{},"_meta":{"source":"local","mode":"direct"}}},`, 9) + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.getStatus","arguments":{},"_meta":{"source":"local","mode":"direct"}}}]`,
		"readFile":          `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"index.html"},"_meta":{"source":"local","mode":"direct"}}}`,
	} {
		b.Run(name, func(b *testing.B) { benchRequest(b, req) })
	}
}

func benchRequest(b *testing.B, req string) {
	url := site(b)
	tab := chromium.NewTab(b)
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#status-text").textContent === "Ready"`); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	us, err := chromium.Eval[float64](tab, 5*time.Minute, fmt.Sprintf(`(async () => {
		const req = %s, n = %d; const t0 = performance.now();
		for (let i = 0; i < n; i++) { let r = JSON.parse(await webcodingHandle(req)); if (Array.isArray(r)) r = r[0]; if (r.error || r.result.isError) throw new Error("error: " + JSON.stringify(r)); }
		return (performance.now() - t0) * 1000 / n; })()`, jsString(req), b.N))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(us, "page-µs/call")
}

// BenchmarkEditAck: workspace.writeFile of app.js (direct mode) inside the page; the call
// returns after the sandboxed preview acknowledged the new revision, so this is edit → ack of a
// full mount. BenchmarkEditAckCSS is the same for a CSS-only edit, applied in place
// (design.md §5.33); run both in one go: -bench 'EditAck'. Reported: p50/p95 of the whole
// call, and frame-p50/p95 of the shim's part (srcdoc set or patch posted → ready read).
func BenchmarkEditAck(b *testing.B) {
	editAck(b, "app.js", `"// edit " + i + "\nconsole.log('edit', " + i + ");\n"`, false)
}

// BenchmarkEditAckCSS: workspace.writeFile of styles.css (a CSS-only edit of the seed page):
// edit → in-place acknowledgement. It fails when an edit was mounted instead.
func BenchmarkEditAckCSS(b *testing.B) {
	editAck(b, "styles.css", `":root { --bench: " + i + "; }\nh1 { letter-spacing: " + (i % 3) + "px; }\n"`, true)
}

// editAck times n writes of path (source: a JS expression of the loop index i) from the page,
// each awaited until the preview acknowledged it; inPlace: every write must have been applied
// in place (shim timings()).
func editAck(b *testing.B, path, source string, inPlace bool) {
	url := site(b)
	tab := chromium.NewTab(b)
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#preview-status").textContent.includes("acknowledged")`); err != nil {
		b.Fatal(err)
	}
	orig, err := chromium.Eval[string](tab, 30*time.Second, `webcodingHandle(`+jsString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"`+path+`"},"_meta":{"source":"local","mode":"direct"}}}`)+`).then((r) => JSON.parse(r).result.structuredContent.source)`)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		_, _ = chromium.Eval[string](tab, 30*time.Second, `webcodingHandle(`+jsString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.writeFile","arguments":{"path":"`+path+`","source":`+jsString(orig)+`},"_meta":{"source":"local","mode":"direct"}}}`)+`)`)
	}()
	b.ResetTimer()
	res, err := chromium.Eval[[]float64](tab, 5*time.Minute, fmt.Sprintf(`(async () => {
		const n = %d, ms = [], frame = []; let inPlace = 0;
		for (let i = 0; i < n; i++) {
			const req = JSON.stringify({jsonrpc: "2.0", id: i, method: "tools/call", params: {name: "workspace.writeFile",
				arguments: {path: %s, source: %s}, _meta: {source: "local", mode: "direct"}}});
			const t0 = performance.now();
			const r = JSON.parse(await webcodingHandle(req));
			ms.push(performance.now() - t0);
			if (r.result.isError) throw new Error(JSON.stringify(r.result.error));
			const t = webcodingPreview.timings(), last = t[t.length - 1];
			if (last.inPlace) inPlace++;
			if (last.ack) frame.push(last.ack - last.mount);
		}
		ms.sort((a, b) => a - b);
		frame.sort((a, b) => a - b);
		return [ms[Math.floor(n / 2)], ms[Math.min(n - 1, Math.floor(n * 0.95))], inPlace,
			frame.length ? frame[Math.floor(frame.length / 2)] : -1, frame.length ? frame[Math.min(frame.length - 1, Math.floor(frame.length * 0.95))] : -1]; })()`, b.N, jsString(path), source))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if inPlace && int(res[2]) != b.N {
		b.Fatalf("%v of %d CSS edits were applied in place", res[2], b.N)
	}
	if !inPlace && res[2] != 0 {
		b.Fatalf("%v of %d edits were applied in place", res[2], b.N)
	}
	b.ReportMetric(res[0], "p50-ms")
	b.ReportMetric(res[1], "p95-ms")
	// The shim's part: srcdoc set (or patch posted) → the frame's ready (or patched) read.
	b.ReportMetric(res[3], "frame-p50-ms")
	b.ReportMetric(res[4], "frame-p95-ms")
}

// BenchmarkColdStart: a fresh browser context (no HTTP cache, storage or service worker)
// navigates to the studio; reported: navigation → core ready and navigation → first preview
// ack, in ms (webcodingTimings, performance.now() since navigation start).
func BenchmarkColdStart(b *testing.B) {
	url := site(b)
	var ready, ack float64
	for i := 0; i < b.N; i++ {
		tab := chromium.NewIsolatedTab(b)
		if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
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

// BenchmarkSrcdocFloor: the raw floor under edit → ack — the same compiled document
// (preview/compile) set as srcdoc of a fresh sandboxed iframe in the studio page, timed until
// its bridge posts ready. Compare p50/p95 with BenchmarkEditAck (issue goal: ≤ 1.3×).
func BenchmarkSrcdocFloor(b *testing.B) {
	b.Run("fresh-frame", func(b *testing.B) { srcdocFloor(b, false) })
	b.Run("same-frame", func(b *testing.B) { srcdocFloor(b, true) })
}

func srcdocFloor(b *testing.B, reuse bool) {
	url := site(b)
	tab := chromium.NewTab(b)
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#preview-status").textContent.includes("acknowledged")`); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	res, err := chromium.Eval[[]float64](tab, 5*time.Minute, fmt.Sprintf(`(async () => {
		const r = JSON.parse(await webcodingHandle('{"jsonrpc":"2.0","id":1,"method":"preview/compile"}'));
		const html = r.result.html, n = %d, reuse = %t, ms = [];
		let kept = null;
		for (let i = 0; i < n; i++) {
			const f = kept || document.createElement("iframe");
			f.setAttribute("sandbox", "allow-scripts allow-forms allow-modals allow-popups");
			f.style.cssText = "position:fixed;left:-9999px;width:800px;height:600px";
			const t0 = performance.now();
			const done = new Promise((resolve) => {
				// The runtime's hello carries a MessagePort; its ready comes through that port.
				const on = (e) => { if (e.source === f.contentWindow && e.data && e.data.type === "webcoding.preview.hello" && e.ports.length === 1) {
					window.removeEventListener("message", on);
					e.ports[0].onmessage = (m) => { if (m.data && m.data.type === "webcoding.preview.ready") { e.ports[0].close(); resolve(); } };
				} };
				window.addEventListener("message", on);
			});
			f.srcdoc = html + "<!--" + i + "-->";
			if (!f.isConnected) document.body.appendChild(f);
			await done;
			ms.push(performance.now() - t0);
			if (reuse) kept = f; else f.remove();
		}
		ms.sort((a, b) => a - b);
		return [ms[Math.floor(n / 2)], ms[Math.min(n - 1, Math.floor(n * 0.95))]]; })()`, b.N, reuse))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(res[0], "p50-ms")
	b.ReportMetric(res[1], "p95-ms")
}

// BenchmarkKeystrokeToPaint: keystroke → next paint in the editor, idle and while edits land
// and the preview recompiles. In "agent-editing" a background loop in the page writes
// styles.css through tools/call (source model, mode direct: what an approved agent or model
// write does), each write recompiling and remounting the sandboxed preview and re-reading the
// workspace; meanwhile one key per iteration is dispatched with CDP Input.dispatchKeyEvent
// into the focused CodeMirror editor (README.md, restored afterwards). Two latencies per key:
//   - paint-p50/p95-ms: the browser's own keydown → next paint, the Event Timing API's
//     duration (W3C Event Timing; what Chromium reports as INP): from the event's timeStamp to
//     the presentation of the first frame after its handlers. Chromium rounds it to 8 ms and
//     reports only events of 16 ms or more (durationThreshold), so a key without an entry
//     counts as 16 ms, an upper bound. This is issue 15's keystroke → paint.
//   - p50/p95-ms: from the keydown's timeStamp to a task queued from the first
//     requestAnimationFrame after it. That task runs after the frame's rendering steps, but
//     also after every task queued before it (the background writes' own work), so it adds
//     queueing that happens after the paint; kept beside the first as the older measure.
//
// Also reported: the background writes completed (bg-writes).
func BenchmarkKeystrokeToPaint(b *testing.B) {
	b.Run("idle", func(b *testing.B) { keystrokeToPaint(b, false) })
	b.Run("agent-editing", func(b *testing.B) { keystrokeToPaint(b, true) })
}

func keystrokeToPaint(b *testing.B, load bool) {
	url := site(b)
	tab := chromium.NewTab(b)
	if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#preview-status").textContent.includes("acknowledged")`); err != nil {
		b.Fatal(err)
	}
	call := func(name, args, source string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `,"_meta":{"source":"` + source + `","mode":"direct"}}}`
	}
	readme, err := chromium.Eval[string](tab, loadTimeout, `webcodingHandle(`+jsString(call("workspace.readFile", `{"path":"README.md"}`, "local"))+`).then(r => JSON.parse(r).result.structuredContent.source)`)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := chromium.Eval[string](tab, loadTimeout, `webcodingHandle(`+jsString(call("workspace.openFile", `{"path":"README.md"}`, "local"))+`)`); err != nil {
		b.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `webcodingEditor.path() === "README.md"`); err != nil {
		b.Fatal(err)
	}
	setup := fmt.Sprintf(`(() => {
		window.__kp = [];
		window.__paint = [];
		new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === "keydown") window.__paint.push(e.duration); })
			.observe({type: "event", durationThreshold: 16});
		const content = document.querySelector("#editor-host .cm-content");
		content.addEventListener("keydown", (e) => {
			const t0 = e.timeStamp;
			requestAnimationFrame(() => { const ch = new MessageChannel(); ch.port1.onmessage = () => window.__kp.push(performance.now() - t0); ch.port2.postMessage(0); });
		}, true);
		window.__load = { on: %t, writes: 0, done: null };
		if (window.__load.on) window.__load.done = (async () => {
			const base = JSON.parse(await webcodingHandle('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"styles.css"},"_meta":{"source":"local","mode":"direct"}}}')).result.structuredContent.source;
			for (let i = 0; window.__load.on; i++) {
				const req = JSON.stringify({jsonrpc: "2.0", id: i, method: "tools/call", params: {name: "workspace.writeFile",
					arguments: {path: "styles.css", source: base + "\n/* agent edit " + i + " */\n"}, _meta: {source: "model", mode: "direct"}}});
				const r = JSON.parse(await webcodingHandle(req));
				if (r.result && !r.result.isError) window.__load.writes++;
			}
			await webcodingHandle(JSON.stringify({jsonrpc: "2.0", id: 0, method: "tools/call", params: {name: "workspace.writeFile", arguments: {path: "styles.css", source: base}, _meta: {source: "local", mode: "direct"}}}));
		})();
		const v = webcodingEditor.view(); v.focus(); v.dispatch({ selection: { anchor: v.state.doc.length } });
	})()`, load)
	if err := tab.Do(10*time.Second, chromedp.Evaluate[chromedp.Void](setup)); err != nil {
		b.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the load loop is running
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := tab.Do(10*time.Second, chromedp.KeyEvent(string(rune('a'+i%26)))); err != nil {
			b.Fatal(err)
		}
		time.Sleep(15 * time.Millisecond) // a fast typist, with the CDP round trip
	}
	b.StopTimer()
	res, err := chromium.WaitFor[[]float64](tab, 10*time.Second, fmt.Sprintf(`(() => { if (window.__kp.length < %d) return null;
		window.__load.on = false;
		const ms = window.__kp.slice().sort((a, b) => a - b), n = ms.length;
		const paint = window.__paint.slice(0, n);
		while (paint.length < n) paint.push(16); // no entry: under the 16 ms threshold
		paint.sort((a, b) => a - b);
		const at = (a, q) => a[Math.min(n - 1, Math.floor(n * q))];
		return [at(ms, 0.5), at(ms, 0.95), window.__load.writes, at(paint, 0.5), at(paint, 0.95)]; })()`, b.N))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(res[0], "p50-ms")
	b.ReportMetric(res[1], "p95-ms")
	b.ReportMetric(res[3], "paint-p50-ms")
	b.ReportMetric(res[4], "paint-p95-ms")
	if load {
		b.ReportMetric(res[2], "bg-writes")
	}
	// Put README.md back for the other tests of this binary (after the draft's idle flush).
	time.Sleep(time.Second)
	if _, err := chromium.Eval[bool](tab, loadTimeout, `(async () => { if (window.__load.done) await window.__load.done; await webcodingHandle(`+jsString(call("workspace.writeFile", `{"path":"README.md","source":`+jsString(readme)+`}`, "local"))+`); return true; })()`); err != nil {
		b.Fatal(err)
	}
}
