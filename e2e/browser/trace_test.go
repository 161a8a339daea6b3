package browser

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
)

// Browser tests of the execution trace panel (issue 9, REFERENCE §8): agent.request rows
// bracket prompt runs (completed, cancelled, provider failure), exports carry no sources,
// search/replace text or key, the trace stays bounded under 100 quick calls, and the
// inspector tabs and rows work by keyboard.

// traceRow is a row as the panel shows it.
type traceRow struct {
	ID, Kind, Status, Parent, Name, Summary string
}

// traceRows switches to Show all and returns every row of the panel.
func traceRows(t *testing.T, tab *chromium.Tab) []traceRow {
	t.Helper()
	showAllTrace(t, tab)
	out, err := chromium.Eval[string](tab, 10*time.Second, `JSON.stringify([...document.querySelectorAll("#trace-list li[data-trace-id]")].map(li => ({
		ID: li.dataset.traceId, Kind: li.dataset.kind, Status: li.dataset.status, Parent: li.dataset.parentId || "",
		Name: li.querySelector(".trace-name").textContent, Summary: (li.querySelector(".trace-summary")||{}).textContent || ""})))`)
	if err != nil {
		t.Fatal(err)
	}
	var rows []traceRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

func showAllTrace(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const b = document.querySelector('#trace-show[data-action="trace-all"]'); if (b) b.click(); return true; })()`); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `!!document.querySelector('#trace-show[data-action="trace-recent"]')`); err != nil {
		t.Fatalf("Show all did not switch: %v", err)
	}
}

// waitTraceRow waits for a row matching the CSS attribute selector sel (e.g.
// `[data-kind="agent"][data-status="completed"]`) among all rows.
func waitTraceRow(t *testing.T, tab *chromium.Tab, sel string) {
	t.Helper()
	showAllTrace(t, tab)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!!document.querySelector(`+jsString(`#trace-list li`+sel)+`)`); err != nil {
		html, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#trace-list").textContent`)
		t.Fatalf("no trace row %s: %v; rows: %s", sel, err, html)
	}
}

// TestTracePromptRunBracket: "Make it emerald" + Approve is one completed agent.request row
// whose bracketed calls (getStatus, setTheme) have their own unique trace ids; the tools/list
// discovery row says "26 tools available".
func TestTracePromptRunBracket(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	directCall(t, tab, "preview.setTheme", `{"theme":"violet"}`)
	sendPrompt(t, tab, "Make it emerald")
	approve(t, tab, "preview.setTheme")
	waitRunDone(t, tab)
	waitTraceRow(t, tab, `[data-kind="agent"][data-status="completed"]`)
	rows := traceRows(t, tab)
	ids := map[string]bool{}
	var agents []traceRow
	discovery := false
	for _, r := range rows {
		if ids[r.ID] {
			t.Fatalf("trace id %s twice: %+v", r.ID, rows)
		}
		ids[r.ID] = true
		switch r.Kind {
		case "agent":
			agents = append(agents, r)
		case "discovery":
			discovery = discovery || r.Summary == "26 tools available"
		}
	}
	if !discovery {
		t.Errorf("no tools/list discovery row with 26 tools: %+v", rows)
	}
	if len(agents) != 1 || agents[0].Name != "agent.request" || agents[0].Summary != "2 tool calls" {
		t.Fatalf("agent rows %+v", agents)
	}
	var children []string
	for _, r := range rows {
		if r.Parent == agents[0].ID {
			if r.Status != "completed" {
				t.Errorf("bracketed call %+v", r)
			}
			children = append(children, r.Name)
		}
	}
	if strings.Join(children, ",") != "workspace.getStatus,preview.setTheme" {
		t.Fatalf("bracketed calls %v (rows %+v)", children, rows)
	}
	// Two sessions (the UI's direct calls and the run's "studio"): the selector filters.
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `(() => { const s = document.querySelector("#trace-session"); if (!s) return false;
		s.value = "s:studio"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`); err != nil {
		t.Fatalf("no session selector: %v", err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `(() => { const li = [...document.querySelectorAll("#trace-list li[data-trace-id]")];
		return li.length === 3 && li.every(l => l.dataset.session === "studio"); })()`); err != nil {
		t.Fatalf("the studio session does not show its 3 rows: %v", err)
	}
	noConsoleErrors(t, tab)
}

// TestTraceCancelledRun: Escape during the approval ends the run; its agent.request row is
// cancelled and none of its mutations completed.
func TestTraceCancelledRun(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	sendPrompt(t, tab, "Make it amber")
	waitApproval(t, tab, "preview.setTheme")
	// While the run (and its call) wait, Clear is disabled.
	showAllTrace(t, tab)
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#trace-clear").disabled && !!document.querySelector('#trace-list li[data-kind="agent"][data-status="running"]')`); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#trace-toolbar").innerHTML + " ROWS " + [...document.querySelectorAll("#trace-list li")].map(l => l.dataset.kind + ":" + l.dataset.status).join()`)
		t.Fatalf("Clear is enabled while a call runs: %v; %s", err, got)
	}
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#approve-0")), chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Execution cancelled.")
	waitTraceRow(t, tab, `[data-kind="agent"]:not([data-status="running"])`)
	var agent traceRow
	rows := traceRows(t, tab)
	for _, r := range rows {
		if r.Kind == "agent" {
			agent = r
		}
	}
	if agent.Status != "cancelled" || agent.Summary != "cancelled" {
		t.Fatalf("agent row %+v", agent)
	}
	for _, r := range rows {
		if r.Parent == agent.ID && r.Name != "workspace.getStatus" && r.Status == "completed" {
			t.Errorf("a completed mutation in the cancelled run: %+v", r)
		}
	}
	noConsoleErrors(t, tab)
}

// providerFailServer answers every chat request with 401 (CORS allowed for the page).
func providerFailServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Headers", "*")
		w.Header().Set("Access-Control-Allow-Methods", "POST, GET, OPTIONS")
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"No auth credentials found","code":401}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// plantedKey is the fake key planted in localStorage; it must never reach the trace.
const plantedKey = "sk-or-v1-PLANTED-trace-key-5f2c9a"

// TestTraceExportHasNoSecrets: with a planted OpenRouter key whose provider fails, a prompt
// run is one failed agent.request row without tool calls; direct calls carrying sources and
// search/replace text are traced, and the expanded rows, the copied export and the downloaded
// export contain none of the seed's sources, the search/replace text or the key.
func TestTraceExportHasNoSecrets(t *testing.T) {
	t.Parallel()
	srv := providerFailServer(t)
	u := site(t)
	tab := chromium.NewRecycledTab(t)
	if err := tab.Do(loadTimeout, chromedp.Navigate(u)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => {
		localStorage.setItem("context-action.openrouter.api-key", `+jsString(plantedKey)+`);
		localStorage.setItem("context-action.openrouter.endpoint", `+jsString(srv.URL+"/api/v1/chat/completions")+`);
		localStorage.setItem("context-action.openrouter.model", "test/model");
		return true; })()`); err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#preview-status", "acknowledged")

	// The seed's sources (read before anything changes them).
	var sources []string
	for _, p := range []string{"index.html", "styles.css", "app.js", "README.md"} {
		resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"`+p+`"},"_meta":{"source":"local","mode":"direct"}}}`)
		if res, _ := resp["result"].(map[string]any); res != nil {
			if sc, _ := res["structuredContent"].(map[string]any); sc != nil {
				if s, _ := sc["source"].(string); s != "" {
					sources = append(sources, s)
				}
			}
		}
	}
	if len(sources) < 3 {
		t.Fatalf("seed sources: %d", len(sources))
	}
	const search, replace, written = "SEARCH-needle-7d1e", "REPLACE-text-93ab", "WRITTEN-source-c4f0"
	directCall(t, tab, "workspace.createFile", `{"path":"notes.md","source":"# notes `+search+`"}`)
	directCall(t, tab, "workspace.applyPatch", `{"path":"notes.md","search":"`+search+`","replace":"`+replace+`","occurrence":"all"}`)
	directCall(t, tab, "workspace.writeFile", `{"path":"notes.md","source":"`+written+`"}`)
	directCall(t, tab, "workspace.deleteFile", `{"path":"notes.md"}`)

	// A prompt run whose provider fails before any tool call.
	sendPrompt(t, tab, "Make it emerald")
	waitTraceRow(t, tab, `[data-kind="agent"][data-status="failed"]`)
	rows := traceRows(t, tab)
	var agent traceRow
	for _, r := range rows {
		if r.Kind == "agent" {
			agent = r
		}
	}
	if !strings.HasPrefix(agent.Summary, "OPENROUTER_") {
		t.Fatalf("agent row %+v", agent)
	}
	for _, r := range rows {
		if r.Parent == agent.ID {
			t.Errorf("a tool call in a run whose provider failed: %+v", r)
		}
	}

	// Expand every row: the details are redacted too.
	// One click per poll: a re-render replaces the buttons, so a batch of clicks would hit
	// detached elements.
	if _, err := chromium.WaitFor[bool](tab, 30*time.Second, `(() => { const b = document.querySelector('#trace-list .trace-toggle[aria-expanded="false"]'); if (b) { b.click(); return false; }
		return document.querySelectorAll("#trace-list .trace-details").length >= `+fmt.Sprint(len(rows))+`; })()`); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, `JSON.stringify({li: document.querySelectorAll("#trace-list li[data-trace-id]").length, details: document.querySelectorAll("#trace-list .trace-details").length, open: document.querySelectorAll('#trace-list [aria-expanded="true"]').length})`)
		t.Fatalf("rows did not expand (%d rows): %v %s", len(rows), err, got)
	}
	panel, err := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#trace-panel").textContent`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(panel, "[search redacted · 18 chars]") {
		t.Errorf("the applyPatch arguments do not show the redaction marker")
	}
	secrets := append([]string{search, replace, written, plantedKey}, sources...)
	assertNoSecrets(t, "expanded trace panel", panel, secrets)

	// Copy (clipboard captured) and Download (Blob captured).
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => {
		window.__copied = [];
		Object.defineProperty(navigator, "clipboard", {configurable: true, value: {writeText: s => { window.__copied.push(s); return Promise.resolve(); }}});
		window.__blobs = [];
		const create = URL.createObjectURL.bind(URL);
		URL.createObjectURL = b => { window.__blobs.push(b); return create(b); };
		return true; })()`); err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#trace-copy")), chromedp.Click(chromedp.CSS("#trace-download"))); err != nil {
		t.Fatal(err)
	}
	copied, err := chromium.WaitFor[string](tab, 10*time.Second, `window.__copied.length ? window.__copied[0] : ""`)
	if err != nil {
		t.Fatal(err)
	}
	downloaded, err := chromium.WaitFor[string](tab, 10*time.Second, `window.__blobs.length ? window.__blobs[window.__blobs.length-1].text() : ""`)
	if err != nil {
		t.Fatal(err)
	}
	for name, exp := range map[string]string{"copied export": copied, "downloaded export": downloaded} {
		if len(exp) > 8192 {
			t.Errorf("%s: %d bytes", name, len(exp))
		}
		var doc struct {
			SchemaVersion string           `json:"schemaVersion"`
			Rows          []map[string]any `json:"rows"`
		}
		if err := json.Unmarshal([]byte(exp), &doc); err != nil || doc.SchemaVersion != "webcoding-trace-export.v1" || len(doc.Rows) == 0 {
			t.Fatalf("%s: %v %.300s", name, err, exp)
		}
		if !strings.Contains(exp, `"agent.request"`) || !strings.Contains(exp, "OPENROUTER_") || strings.Contains(exp, "argumentsText") || strings.Contains(exp, "resultText") {
			t.Errorf("%s lacks the agent row or carries details: %.400s", name, exp)
		}
		assertNoSecrets(t, name, exp, secrets)
	}
}

// assertNoSecrets fails when text contains any secret, or any line (≥ 16 characters, trimmed)
// of a multi-line secret such as a seed source.
func assertNoSecrets(t *testing.T, where, text string, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s contains %.60q", where, s)
			continue
		}
		for _, line := range strings.Split(s, "\n") {
			if line = strings.TrimSpace(line); len(line) >= 16 && strings.Contains(text, line) {
				t.Errorf("%s contains the source line %q", where, line)
			}
		}
	}
}

// TestTraceBoundedUnderQuickCalls: 100 quick direct calls (as fast as the page answers) keep
// the trace at ≤ 256 rows, the Recent view at 8 rows, and the page responsive; the render time
// of the panel with all rows is logged.
func TestTraceBoundedUnderQuickCalls(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	for round := 0; round < 3; round++ {
		n, err := chromium.Eval[int](tab, loadTimeout, `(async () => {
			const calls = [];
			for (let i = 0; i < 100; i++) calls.push(webcodingHandle(JSON.stringify({jsonrpc: "2.0", id: i, method: "tools/call",
				params: {name: "workspace.getStatus", arguments: {}, _meta: {source: "local", mode: "direct"}}})));
			return (await Promise.all(calls)).length; })()`)
		if err != nil || n != 100 {
			t.Fatalf("round %d: %d calls, %v", round, n, err)
		}
	}
	// The UI stays responsive: a click is handled promptly.
	start := time.Now()
	showAllTrace(t, tab)
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `Number(document.querySelector("#trace-panel").dataset.rows) >= 256`); err != nil {
		t.Fatalf("the trace did not fill: %v", err)
	}
	n, err := chromium.WaitFor[int](tab, 10*time.Second, `document.querySelectorAll("#trace-list li[data-trace-id]").length`)
	if err != nil {
		t.Fatal(err)
	}
	if n > 256 || n < 200 {
		t.Fatalf("%d rows shown after 300 calls, want ≤ 256", n)
	}
	t.Logf("Show all with %d rows answered in %v", n, time.Since(start))
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#trace-show`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `document.querySelectorAll("#trace-list li[data-trace-id]").length === 8`); err != nil {
		t.Fatalf("Recent does not show 8 rows: %v", err)
	}
	// Clear empties the trace (nothing runs now) and leaves the files alone.
	before := directCall(t, tab, "workspace.getStatus", `{}`)["revision"]
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#trace-clear`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#trace-status", "cleared")
	if after := directCall(t, tab, "workspace.getStatus", `{}`)["revision"]; after != before {
		t.Errorf("Clear changed the revision: %v → %v", before, after)
	}
	noConsoleErrors(t, tab)
}

// TestInspectorKeyboard: the inspector tabs move with the arrow keys (roving tabindex, the
// panel follows) and Enter on a focused trace row expands it.
func TestInspectorKeyboard(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	directCall(t, tab, "workspace.listFiles", `{}`)
	if err := tab.Do(10*time.Second, chromedp.Focus(chromedp.CSS("#inspector-tab-trace")), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	state := `JSON.stringify({focus: document.activeElement.id, sel: document.querySelector('#inspector-tabs [role=tab][aria-selected=true]').id,
		trace: document.querySelector("#trace-panel").hidden, tools: document.querySelector("#catalog-panel").hidden,
		history: document.querySelector("#history-panel").hidden, tabindex: [...document.querySelectorAll("#inspector-tabs [role=tab]")].map(t => t.tabIndex).join()})`
	want := func(exp string) {
		t.Helper()
		if _, err := chromium.WaitFor[bool](tab, 5*time.Second, state+` === `+jsString(exp)); err != nil {
			got, _ := chromium.Eval[string](tab, 5*time.Second, state)
			t.Fatalf("inspector state %s, want %s", got, exp)
		}
	}
	want(`{"focus":"inspector-tab-tools","sel":"inspector-tab-tools","trace":true,"tools":false,"history":true,"tabindex":"-1,0,-1"}`)
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	want(`{"focus":"inspector-tab-history","sel":"inspector-tab-history","trace":true,"tools":true,"history":false,"tabindex":"-1,-1,0"}`)
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.ArrowRight)); err != nil { // wraps
		t.Fatal(err)
	}
	want(`{"focus":"inspector-tab-trace","sel":"inspector-tab-trace","trace":false,"tools":true,"history":true,"tabindex":"0,-1,-1"}`)
	// Tab into the panel and open the newest row with Enter.
	id, err := chromium.WaitFor[string](tab, 10*time.Second, `(() => { const b = [...document.querySelectorAll("#trace-list .trace-toggle")].pop(); return b ? b.id : ""; })()`)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#"+id)), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.getElementById(`+jsString(id)+`).getAttribute("aria-expanded") === "true" && !!document.getElementById(`+jsString(id+"-details")+`) && document.activeElement.id === `+jsString(id)); err != nil {
		t.Fatalf("Enter did not expand the row (focus kept): %v", err)
	}
	noConsoleErrors(t, tab)
}

// BenchmarkTracePanelRender measures, inside the page, the time from clicking "Show all" to
// the trace list holding every row (Go render of the rows + DOM update), with 24 and 256 rows
// (reported as render-ms per switch; the Recent view of 8 rows is restored between switches).
func BenchmarkTracePanelRender(b *testing.B) {
	for _, n := range []int{24, 256} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			u := site(b)
			tab := chromium.NewTab(b)
			if err := tab.Do(loadTimeout, chromedp.Navigate(u)); err != nil {
				b.Fatal(err)
			}
			if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#status-text") && document.querySelector("#status-text").textContent === "Ready" && !!document.querySelector("#trace-clear")`); err != nil {
				b.Fatal(err)
			}
			time.Sleep(time.Second) // boot reads settle
			fill := fmt.Sprintf(`(async () => {
				document.querySelector("#trace-clear").click();
				await new Promise(r => setTimeout(r, 300));
				for (let i = 0; i < %d; i++) await webcodingHandle(JSON.stringify({jsonrpc: "2.0", id: i, method: "tools/call",
					params: {name: "workspace.getStatus", arguments: {}, _meta: {source: "local", mode: "direct"}}}));
				return true; })()`, n)
			if _, err := chromium.Eval[bool](tab, loadTimeout, fill); err != nil {
				b.Fatal(err)
			}
			if _, err := chromium.WaitFor[bool](tab, loadTimeout, fmt.Sprintf(`Number(document.querySelector("#trace-panel").dataset.rows) >= %d`, n)); err != nil {
				b.Fatal(err)
			}
			measure := `(async (want) => {
				const count = () => document.querySelectorAll("#trace-list li[data-trace-id]").length;
				const until = (pred) => new Promise(res => { if (pred()) return res(); const o = new MutationObserver(() => { if (pred()) { o.disconnect(); res(); } }); o.observe(document.querySelector("#trace-panel"), {childList: true, subtree: true}); });
				if (document.querySelector('#trace-show[data-action="trace-recent"]')) { document.querySelector("#trace-show").click(); await until(() => count() === 8); }
				const t0 = performance.now();
				document.querySelector("#trace-show").click();
				await until(() => count() >= want);
				return performance.now() - t0; })`
			total := 0.0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ms, err := chromium.Eval[float64](tab, loadTimeout, measure+fmt.Sprintf("(%d)", n))
				if err != nil {
					b.Fatal(err)
				}
				total += ms
			}
			b.ReportMetric(total/float64(b.N), "render-ms")
		})
	}
}
