package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// Browser tests of the tool catalog panel (issue 9): counts and search against tools/list,
// selecting never runs anything (a destructive tool asks before Run sample), the sample
// editor follows the revision but keeps edits, a stale expectedRevision fails with
// WORKSPACE_REVISION_CONFLICT (and Re-read & retry in the chat), and Copy of the list, a
// definition and the tools/call request.

type listedTool struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Annotations struct {
		ReadOnlyHint    bool `json:"readOnlyHint"`
		DestructiveHint bool `json:"destructiveHint"`
	} `json:"annotations"`
}

// listAllTools reads every page of tools/list through the page's handler.
func listAllTools(t *testing.T, tab *chromium.Tab) []listedTool {
	t.Helper()
	var all []listedTool
	cursor := ""
	for page := 0; page < 50; page++ {
		params := `{}`
		if cursor != "" {
			params = `{"cursor":` + jsString(cursor) + `}`
		}
		resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":`+params+`}`)
		raw, _ := json.Marshal(resp["result"])
		var res struct {
			Tools      []listedTool `json:"tools"`
			NextCursor string       `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		all = append(all, res.Tools...)
		if cursor = res.NextCursor; cursor == "" {
			return all
		}
	}
	t.Fatal("tools/list never ended")
	return nil
}

// expectedCounts applies the catalog's rules to the listed tools.
func expectedCounts(tools []listedTool, query string) map[string]int {
	q := strings.ToLower(query)
	out := map[string]int{}
	for _, tl := range tools {
		if q != "" && !strings.Contains(strings.ToLower(tl.Name+"\x00"+tl.Title+"\x00"+tl.Description), q) {
			continue
		}
		out["all"]++
		if tl.Annotations.ReadOnlyHint {
			out["read-only"]++
		}
		if strings.HasPrefix(tl.Name, "workspace.") {
			out["workspace"]++
		}
		if strings.HasPrefix(tl.Name, "preview.") {
			out["preview"]++
		}
	}
	return out
}

func openCatalog(t *testing.T) *chromium.Tab {
	t.Helper()
	tab := openStudio(t)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#inspector-tab-tools"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!document.querySelector("#catalog-panel").hidden && document.querySelectorAll("#catalog-list .catalog-tool").length > 0`); err != nil {
		t.Fatalf("the catalog did not load: %v", err)
	}
	return tab
}

func shownCounts(t *testing.T, tab *chromium.Tab) (map[string]int, int) {
	t.Helper()
	out, err := chromium.Eval[string](tab, 5*time.Second, `JSON.stringify({counts: Object.fromEntries([...document.querySelectorAll("#catalog-scopes [data-scope]")].map(b => [b.dataset.scope, Number(b.querySelector(".catalog-count").dataset.count)])), listed: document.querySelectorAll("#catalog-list .catalog-tool").length})`)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Counts map[string]int `json:"counts"`
		Listed int            `json:"listed"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return v.Counts, v.Listed
}

// TestCatalogSearchAndScopeCounts: the scope counts and the listed tools match tools/list
// (every page), before and after a search.
func TestCatalogSearchAndScopeCounts(t *testing.T) {
	t.Parallel()
	tab := openCatalog(t)
	tools := listAllTools(t, tab)
	if len(tools) != 26 {
		t.Fatalf("tools/list: %d tools", len(tools))
	}
	for _, query := range []string{"", "FILE", "theme"} {
		if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector("#catalog-search"); s.value = `+jsString(query)+`; s.dispatchEvent(new Event("input", {bubbles: true})); })()`)); err != nil {
			t.Fatal(err)
		}
		want := expectedCounts(tools, query)
		exp := fmt.Sprintf(`(() => { const c = Object.fromEntries([...document.querySelectorAll("#catalog-scopes [data-scope]")].map(b => [b.dataset.scope, Number(b.querySelector(".catalog-count").dataset.count)])); return c.all === %d && c["read-only"] === %d && c.workspace === %d && c.preview === %d && document.querySelectorAll("#catalog-list .catalog-tool").length === %d; })()`,
			want["all"], want["read-only"], want["workspace"], want["preview"], want["all"])
		if _, err := chromium.WaitFor[bool](tab, 10*time.Second, exp); err != nil {
			got, listed := shownCounts(t, tab)
			t.Fatalf("query %q: counts %v (%d listed), want %v", query, got, listed, want)
		}
		for _, scope := range []string{"read-only", "workspace", "preview", "all"} {
			if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#catalog-scope-"+scope))); err != nil {
				t.Fatal(err)
			}
			if _, err := chromium.WaitFor[bool](tab, 10*time.Second, fmt.Sprintf(`document.querySelector("#catalog-scope-%s").getAttribute("aria-pressed") === "true" && document.querySelectorAll("#catalog-list .catalog-tool").length === %d`, scope, want[scope])); err != nil {
				_, listed := shownCounts(t, tab)
				t.Fatalf("query %q scope %s: %d listed, want %d", query, scope, listed, want[scope])
			}
		}
	}
	noConsoleErrors(t, tab)
}

func traceRowCount(t *testing.T, tab *chromium.Tab) int {
	t.Helper()
	n, err := chromium.Eval[int](tab, 5*time.Second, `Number(document.querySelector("#trace-panel").dataset.rows || 0)`)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCatalogSelectingRunsNothing: selecting a destructive tool shows its definition and
// runs nothing (the trace and the revision stay as they were); Run sample asks in the in-app
// dialog and Cancel runs nothing either.
func TestCatalogSelectingRunsNothing(t *testing.T) {
	t.Parallel()
	tab := openCatalog(t)
	time.Sleep(500 * time.Millisecond) // let the boot reads settle
	rows := traceRowCount(t, tab)
	rev := directCall(t, tab, "workspace.getStatus", `{}`)["revision"]
	rows++ // that getStatus
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, fmt.Sprintf(`Number(document.querySelector("#trace-panel").dataset.rows) === %d`, rows)); err != nil {
		t.Fatalf("trace rows: %d, want %d", traceRowCount(t, tab), rows)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#catalog-tool-workspace-deleteFile"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#catalog-definition", "Destructive")
	waitContains(t, tab, "#catalog-input-schema", `"path"`)
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#catalog-sample").value.includes('"path"')`); err != nil {
		t.Fatalf("no sample arguments: %v", err)
	}
	time.Sleep(700 * time.Millisecond)
	if n := traceRowCount(t, tab); n != rows {
		t.Fatalf("selecting a tool changed the trace: %d rows, want %d", n, rows)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#catalog-run"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#confirm-dialog").open && document.querySelector("#confirm-dialog-text").textContent.includes("workspace.deleteFile")`); err != nil {
		t.Fatalf("Run sample of a destructive tool did not ask: %v", err)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#confirm-dialog-cancel"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#catalog-result", "Not run")
	if n := traceRowCount(t, tab); n != rows {
		t.Fatalf("a cancelled Run sample changed the trace: %d rows, want %d", n, rows)
	}
	if after := directCall(t, tab, "workspace.getStatus", `{}`)["revision"]; after != rev {
		t.Fatalf("revision %v → %v", rev, after)
	}
	noConsoleErrors(t, tab)
}

func sampleArgs(t *testing.T, tab *chromium.Tab) map[string]any {
	t.Helper()
	s, err := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#catalog-sample").value`)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("sample %q: %v", s, err)
	}
	return m
}

// TestCatalogRunSampleStaleRevision: the writeFile sample follows the revision until edited;
// an edit survives revision changes and reselection; Run sample with a stale expectedRevision
// goes through the registry (a local · direct row in the trace) and shows
// [WORKSPACE_REVISION_CONFLICT], with Re-read & retry in the chat; a read-only sample runs.
func TestCatalogRunSampleStaleRevision(t *testing.T) {
	t.Parallel()
	tab := openCatalog(t)
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#catalog-tool-workspace-writeFile"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#catalog-sample").value.includes("expectedRevision")`); err != nil {
		t.Fatal(err)
	}
	rev := int(sampleArgs(t, tab)["expectedRevision"].(float64))
	// A revision change refreshes an unedited sample.
	next := int(directCall(t, tab, "preview.setTheme", `{"theme":"rose"}`)["revision"].(float64))
	if next == rev {
		t.Fatalf("revision did not move: %d", rev)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, fmt.Sprintf(`document.querySelector("#catalog-sample").value.includes('"expectedRevision": %d')`, next)); err != nil {
		t.Fatalf("the sample did not follow revision %d: %v", next, sampleArgs(t, tab))
	}
	// An edit (a stale revision) is kept across a revision change and a reselection.
	stale := fmt.Sprintf(`{"path": "index.html", "source": "<p>stale</p>", "expectedRevision": %d}`, rev)
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector("#catalog-sample"); s.value = `+jsString(stale)+`; s.dispatchEvent(new Event("input", {bubbles: true})); })()`)); err != nil {
		t.Fatal(err)
	}
	directCall(t, tab, "preview.setTheme", `{"theme":"amber"}`)
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#catalog-tool-preview-setTheme")), chromedp.Click(chromedp.CSS("#catalog-tool-workspace-writeFile"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `document.querySelector("#catalog-sample").value === `+jsString(stale)); err != nil {
		t.Fatalf("the edit was not kept: %v", sampleArgs(t, tab))
	}
	before := traceRowCount(t, tab)
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#catalog-run"))); err != nil {
		t.Fatal(err)
	}
	// writeFile is not read-only: Run sample asks first (catalog_guard_test.go covers Cancel).
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#confirm-dialog").open && document.querySelector("#confirm-dialog-title").textContent === "Run workspace.writeFile on the workspace?"`); err != nil {
		t.Fatalf("Run sample of workspace.writeFile did not ask: %v", err)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#confirm-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#catalog-result", "[WORKSPACE_REVISION_CONFLICT]")
	waitContains(t, tab, "#transcript", "WORKSPACE_REVISION_CONFLICT")
	waitContains(t, tab, "#transcript", "Re-read & retry")
	waitTraceRow(t, tab, `[data-kind="call"][data-status="failed"]`)
	row, err := chromium.Eval[string](tab, 5*time.Second, `(() => { const r = [...document.querySelectorAll('#trace-list li[data-status="failed"]')].pop(); return r.querySelector(".trace-name").textContent + " | " + r.querySelector(".trace-source").textContent + " | " + r.querySelector(".trace-summary").textContent; })()`)
	if err != nil || row != "workspace.writeFile | local · direct | WORKSPACE_REVISION_CONFLICT" {
		t.Fatalf("trace row %q (%v)", row, err)
	}
	if n := traceRowCount(t, tab); n <= before {
		t.Fatalf("the run is not in the trace (%d rows, %d before)", n, before)
	}
	if got, _ := chromium.EvalInFrame[string](tab, 5*time.Second, `document.body.textContent`); strings.Contains(got, "stale") {
		t.Fatal("a stale write reached the preview")
	}
	// A read-only sample runs directly (no dialog).
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#catalog-tool-workspace-getStatus")), chromedp.Click(chromedp.CSS("#catalog-run"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#catalog-result", "✓ workspace.getStatus completed:")
	waitContains(t, tab, "#catalog-result", `"storageMode"`) // the result itself (issue 14 item 7)

	// Copy the list, the definition and the request (clipboard captured).
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { window.__copied = [];
		Object.defineProperty(navigator, "clipboard", {configurable: true, value: {writeText: s => { window.__copied.push(s); return Promise.resolve(); }}});
		return true; })()`); err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"#catalog-copy-list", "#catalog-copy-definition", "#catalog-copy-request"} {
		if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS(id))); err != nil {
			t.Fatal(err)
		}
		if _, err := chromium.WaitFor[bool](tab, 5*time.Second, fmt.Sprintf(`window.__copied.length === %d`, i+1)); err != nil {
			t.Fatalf("%s copied nothing", id)
		}
	}
	copied, err := chromium.Eval[[]string](tab, 5*time.Second, `window.__copied`)
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Tools []listedTool }
	var def listedTool
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
			Meta struct {
				Source string `json:"source"`
				Mode   string `json:"mode"`
			} `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(copied[0]), &list) != nil || len(list.Tools) != 26 {
		t.Errorf("copied list: %.200s", copied[0])
	}
	if json.Unmarshal([]byte(copied[1]), &def) != nil || def.Name != "workspace.getStatus" {
		t.Errorf("copied definition: %.200s", copied[1])
	}
	if json.Unmarshal([]byte(copied[2]), &req) != nil || req.Method != "tools/call" || req.Params.Name != "workspace.getStatus" || req.Params.Meta.Mode != "direct" || req.Params.Meta.Source != "local" {
		t.Errorf("copied request: %.300s", copied[2])
	}
	noConsoleErrors(t, tab)
}
