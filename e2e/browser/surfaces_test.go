package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/fakeprovider"
	"github.com/webcoding/studio/wasm/livesurface"
	"github.com/webcoding/studio/wasm/websurface"
)

// The two surface pages of issue 18, live/ (the Live Code Editor, catalog "live", editor.*)
// and realtime/ (realtime web coding, catalog "realtime", web.*), served from the same built
// site as the studio (site_test.go). Their page contract (wasm/cmd/surface): body[data-state]
// is "ready" once the UI is drawn and the first preview acknowledgement arrived ("failed" on a
// fatal error); globalThis.webcodingHandle takes one JSON-RPC 2.0 message, as in the studio;
// the regions #surface-status, #surface-palette, #surface-doc, #surface-chat, #surface-trace
// are drawn by wasm/ui/surfaceview.

// surfaceURL is the page of surface ("live" or "realtime").
func surfaceURL(t testing.TB, surface string) string {
	return site(t) + surface + "/"
}

// openSurface opens surface in a new tab — of a fresh browser context when profile is nil,
// else in profile's — with the scripts of hooks run before the page's own in every document,
// and waits for body[data-state="ready"] (failing at once on "failed").
func openSurface(t *testing.T, profile *chromium.Tab, surface string, hooks ...string) *chromium.Tab {
	t.Helper()
	url := surfaceURL(t, surface)
	var tab *chromium.Tab
	if profile == nil {
		tab = chromium.NewRecycledTab(t)
	} else {
		tab = chromium.NewTabIn(t, profile)
	}
	defer bootSlot(t)()
	var steps []chromedp.Action[chromedp.Void]
	for _, h := range hooks {
		steps = append(steps, onNewDocument(h))
	}
	steps = append(steps, chromedp.Navigate(url))
	start := time.Now()
	if err := tab.Do(loadTimeout, steps...); err != nil {
		t.Fatal(err)
	}
	waitSurfaceReady(t, tab)
	t.Logf("%s/ ready %v after the navigation started", surface, time.Since(start).Round(time.Millisecond))
	return tab
}

// surfaceStateExpr is body[data-state] once it has left "loading" ("" before).
const surfaceStateExpr = `(() => { const s = document.body && document.body.dataset.state; return s && s !== "loading" ? s : ""; })()`

// waitSurfaceReady waits until the page's body[data-state] leaves "loading" and checks that it
// is "ready".
func waitSurfaceReady(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	state, err := chromium.WaitFor[string](tab, loadTimeout, surfaceStateExpr)
	if err != nil || state != "ready" {
		status, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector("#surface-status")||{}).textContent || ""`)
		t.Fatalf("body[data-state] = %q (%v), want ready; #surface-status %q; console %v", state, err, status, tab.Console())
	}
	// Ready means acknowledged: the preview line says so (not the page's fallback after a
	// preview that never answered).
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `(() => { const p = document.querySelector("#preview-state"); return !!p && p.dataset.state === "acknowledged" && Number(p.dataset.revision) >= 1; })()`); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector("#preview-state")||{}).textContent || "(no #preview-state)"`)
		t.Fatalf("the page is ready but its preview says %q", got)
	}
}

// callSeq numbers the toolCallIds of the calls the tests make.
var callSeq atomic.Int64

// callMeta is a tools/call's _meta: source and mode ("local"/"direct" when empty), and the
// session and idempotency key when set.
type callMeta struct {
	Source, Mode, Session, Key string
}

// callRequest is the JSON-RPC text of a tools/call of name with args under m.
func callRequest(name string, args any, m callMeta) string {
	if args == nil {
		args = map[string]any{}
	}
	if m.Source == "" {
		m.Source, m.Mode = "local", "direct"
	}
	meta := map[string]any{"toolCallId": fmt.Sprintf("e2e-%d", callSeq.Add(1)), "source": m.Source, "mode": m.Mode}
	if m.Session != "" {
		meta["sessionId"] = m.Session
	}
	if m.Key != "" {
		meta["idempotencyKey"] = m.Key
	}
	raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": callSeq.Add(1), "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args, "_meta": meta}})
	return string(raw)
}

// surfCallAs runs one tools/call and returns its result object ({isError, structuredContent,
// error, …}); a JSON-RPC error fails the test.
func surfCallAs(t *testing.T, tab *chromium.Tab, m callMeta, name string, args any) map[string]any {
	t.Helper()
	resp := rpc(t, tab, callRequest(name, args, m))
	res, _ := resp["result"].(map[string]any)
	if res == nil {
		t.Fatalf("%s: no result: %v", name, resp)
	}
	return res
}

// surfOK runs name in direct mode and returns its structuredContent, failing on a tool error.
func surfOK(t *testing.T, tab *chromium.Tab, name string, args any) map[string]any {
	t.Helper()
	return okResult(t, name, surfCallAs(t, tab, callMeta{}, name, args))
}

func okResult(t *testing.T, name string, res map[string]any) map[string]any {
	t.Helper()
	if res["isError"] == true {
		t.Fatalf("%s failed: %v", name, res["error"])
	}
	sc, _ := res["structuredContent"].(map[string]any)
	if sc == nil {
		t.Fatalf("%s: no structuredContent: %v", name, res)
	}
	return sc
}

// toolErr returns a failed result's error object, failing the test when the call succeeded or
// its code is not code.
func toolErr(t *testing.T, name string, res map[string]any, code string) map[string]any {
	t.Helper()
	e, _ := res["error"].(map[string]any)
	if res["isError"] != true || e == nil || e["code"] != code {
		t.Fatalf("%s: want %s, got %v", name, code, res)
	}
	return e
}

// surfMethod calls a session method (agent/run, editor/runScenario, editor/recoverSave) and
// returns its result, failing on a JSON-RPC error.
func surfMethod(t *testing.T, tab *chromium.Tab, method string, params any) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": callSeq.Add(1), "method": method, "params": params})
	resp := rpc(t, tab, string(raw))
	res, _ := resp["result"].(map[string]any)
	if res == nil {
		t.Fatalf("%s: %v", method, resp)
	}
	return res
}

func n64(v any) int64 { f, _ := v.(float64); return int64(f) }

// clocksOf checks a Live result's two clocks (and that revision, when present, is the
// document clock).
func clocksOf(t *testing.T, step string, out map[string]any, ws, doc int64) {
	t.Helper()
	if n64(out["workspaceRevision"]) != ws || n64(out["documentRevision"]) != doc {
		t.Fatalf("%s: workspaceRevision %v documentRevision %v, want %d and %d (%v)", step, out["workspaceRevision"], out["documentRevision"], ws, doc, out)
	}
	if rev, has := out["revision"]; has && n64(rev) != doc {
		t.Fatalf("%s: revision %v is not the document clock %d", step, rev, doc)
	}
}

// liveClocks reads both clocks through editor.getStatus.
func liveClocks(t *testing.T, tab *chromium.Tab) (ws, doc int64) {
	t.Helper()
	st := surfOK(t, tab, "editor.getStatus", nil)
	return n64(st["workspaceRevision"]), n64(st["documentRevision"])
}

// previewOf checks a result's preview {state, revision}.
func previewOf(t *testing.T, step string, out map[string]any, state string, rev int64) {
	t.Helper()
	pv, _ := out["preview"].(map[string]any)
	if pv == nil || pv["state"] != state || n64(pv["revision"]) != rev {
		t.Fatalf("%s: preview %v, want %s at revision %d", step, out["preview"], state, rev)
	}
}

// waitUIClocks waits until the document region shows the two clocks (#workspace-revision,
// #document-revision data-value; doc < 0 skips the document clock, for realtime/).
func waitUIClocks(t *testing.T, tab *chromium.Tab, ws, doc int64) {
	t.Helper()
	expr := fmt.Sprintf(`(() => { const w = document.querySelector("#workspace-revision"), d = document.querySelector("#document-revision");
		return !!w && w.dataset.value === "%d" && (%d < 0 || (!!d && d.dataset.value === "%d")); })()`, ws, doc, doc)
	if _, err := chromium.WaitFor[bool](tab, 15*time.Second, expr); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector(".doc-clocks")||{}).textContent || "(no .doc-clocks)"`)
		t.Fatalf("the page does not show workspace revision %d / document revision %d: %q", ws, doc, got)
	}
}

// connectLiveFolder creates the OPFS directory dir holding files, injects it for the folder
// picker and presses "Connect folder"; it waits until the page is ready again and the core
// reports the folder linked and the new session's first preview rendered.
func connectLiveFolder(t *testing.T, tab *chromium.Tab, dir string, files map[string]any) {
	t.Helper()
	evalOK(t, tab, opfsJS+`; true`)
	mkProject(t, tab, dir, files)
	evalOK(t, tab, `__opfs.inject(`+jsString(dir)+`)`)
	fclick(t, tab, `#connect-folder`)
	waitContains(t, tab, "#folder-name", dir)
	waitSurfaceReady(t, tab)
	expr := `webcodingHandle(` + jsString(callRequest("editor.getStatus", nil, callMeta{})) + `).then(r => {
		const s = (JSON.parse(r).result || {}).structuredContent || {};
		return s.rootName === ` + jsString(dir) + ` && !!s.filesystem && s.filesystem.folderLinked === true && !!s.preview && s.preview.state === "rendered"; })`
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, expr); err != nil {
		t.Fatalf("the folder %s is not linked after Connect folder: %v; status %v; console %v", dir, err,
			surfOK(t, tab, "editor.getStatus", nil), tab.Console())
	}
}

// writeCountHook counts the bytes that reach a file through the File System Access API: every
// FileSystemWritableFileStream closed is one write, recorded in window.__writes as its file
// name (independent of the page's own folder shim log). Tests reset it after their setup.
const writeCountHook = `(() => {
  window.__writes = [];
  const createWritable = FileSystemFileHandle.prototype.createWritable;
  FileSystemFileHandle.prototype.createWritable = async function (...args) {
    const w = await createWritable.apply(this, args);
    w.__name = this.name;
    return w;
  };
  const close = FileSystemWritableFileStream.prototype.close;
  FileSystemWritableFileStream.prototype.close = async function () {
    const r = await close.call(this);
    if (this.__name) window.__writes.push(this.__name);
    return r;
  };
})();`

func fsWrites(t *testing.T, tab *chromium.Tab) []string {
	t.Helper()
	w, err := chromium.Eval[[]string](tab, 5*time.Second, `window.__writes`)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// liveFolder is the folder of the canonical-order and approval tests: a page whose script
// runs in the preview (execute mode: it is a web folder with an HTML entry).
func liveFolder() map[string]any {
	return map[string]any{
		"index.html": `<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body><h1 id="t">Folder start</h1><script src="script.js"></script></body></html>`,
		"style.css":  "h1 { color: rgb(1, 2, 3); }\n",
		"script.js":  `document.getElementById("t").dataset.ran = "yes";` + "\n",
	}
}

// TestSurfaceLiveCanonicalOrder (issue 18, live reference section 2.2): the design's call order
// on the Live page with a linked folder — tools/list (the eleven editor.* tools in order) →
// editor.getStatus → editor.listFiles → editor.openFile → editor.setDocument → the preview's
// acknowledgement (the iframe's DOM shows the new text, editor.getPreviewStatus "rendered")
// → editor.saveFile (the folder's bytes equal the document, one write) — with both clocks
// checked at every step: openFile moves only the document clock, setDocument with new text
// both, reads, the acknowledgement and the save neither; a replay of the keyed save writes
// nothing. The page's own clocks (#workspace-revision, #document-revision) follow.
func TestSurfaceLiveCanonicalOrder(t *testing.T) {
	t.Parallel()
	tab := openSurface(t, nil, "live", writeCountHook)
	connectLiveFolder(t, tab, "site", liveFolder())
	evalOK(t, tab, `(window.__writes = [], true)`)

	list := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var names []string
	for _, tl := range list["result"].(map[string]any)["tools"].([]any) {
		names = append(names, tl.(map[string]any)["name"].(string))
	}
	want := []string{"editor.getStatus", "editor.listFiles", "editor.openFile", "editor.saveFile", "editor.saveAll",
		"editor.getDocument", "editor.getPreviewStatus", "editor.setDocument", "editor.applyPatch", "editor.setScenario", "editor.resetDocument"}
	if !slices.Equal(names, want) || !slices.Equal(names, livesurface.ToolNames()) {
		t.Fatalf("tools/list %v, want the 11 tools %v", names, want)
	}

	// A fresh session over the folder: the document clock starts at 1 (acknowledged by the
	// first mount), the workspace clock is above the seed's and the hydration's (the folder's
	// import is one more change).
	st := surfOK(t, tab, "editor.getStatus", nil)
	ws := n64(st["workspaceRevision"])
	if ws < 3 {
		t.Errorf("workspaceRevision %d after the folder import, want ≥ 3 (seed 1, hydration 2, import +1)", ws)
	}
	clocksOf(t, "getStatus", st, ws, 1)
	previewOf(t, "getStatus", st, "rendered", 1)
	if st["rootName"] != "site" || st["documentPath"] != "index.html" || len(st["dirtyPaths"].([]any)) != 0 || n64(st["fileCount"]) != 3 {
		t.Fatalf("getStatus %v", st)
	}

	ls := surfOK(t, tab, "editor.listFiles", nil)
	if n64(ls["workspaceRevision"]) != ws || len(ls["files"].([]any)) != 3 {
		t.Fatalf("listFiles %v", ls)
	}
	var paths []string
	for _, f := range ls["files"].([]any) {
		paths = append(paths, f.(map[string]any)["path"].(string))
	}
	if !slices.Equal(paths, []string{"index.html", "script.js", "style.css"}) {
		t.Errorf("listFiles paths %v", paths)
	}

	open := surfOK(t, tab, "editor.openFile", map[string]any{"path": "index.html", "expectedRevision": 1})
	clocksOf(t, "openFile", open, ws, 2)
	previewOf(t, "openFile", open, "rendered", 2)
	if open["activePath"] != "index.html" || open["file"] != "index.html" || open["source"] != liveFolder()["index.html"] {
		t.Fatalf("openFile %v", open)
	}
	// The folder's page runs in the preview (execute mode).
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `document.getElementById("t") ? document.getElementById("t").dataset.ran || "" : ""`, "yes"); err != nil {
		t.Fatalf("the folder's script did not run in the preview: %q %v", got, err)
	}

	edited := `<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body><h1 id="t">Edited 4711</h1><script src="script.js"></script></body></html>`
	set := surfOK(t, tab, "editor.setDocument", map[string]any{"source": edited, "expectedRevision": 2})
	clocksOf(t, "setDocument", set, ws+1, 3)
	previewOf(t, "setDocument", set, "rendered", 3)

	// The acknowledgement: the iframe shows the new text, the status says rendered at 3.
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `(document.getElementById("t")||{}).textContent || ""`, "Edited 4711"); err != nil {
		t.Fatalf("the preview shows %q after setDocument (%v)", got, err)
	}
	ack := surfOK(t, tab, "editor.getPreviewStatus", nil)
	if ack["state"] != "rendered" || n64(ack["revision"]) != 3 {
		t.Fatalf("getPreviewStatus %v, want rendered at 3", ack)
	}
	clocksOf(t, "after the acknowledgement", surfOK(t, tab, "editor.getDocument", nil), ws+1, 3)
	waitUIClocks(t, tab, ws+1, 3)
	if st := surfOK(t, tab, "editor.getStatus", nil); !reflect.DeepEqual(st["dirtyPaths"], []any{"index.html"}) {
		t.Fatalf("dirtyPaths before the save: %v", st["dirtyPaths"])
	}
	if got, _ := opfsRead(t, tab, "site", "index.html"); got != liveFolder()["index.html"] {
		t.Fatalf("the folder changed before the save: %q", got)
	}

	key := callMeta{Source: "local", Mode: "direct", Session: "e2e-live", Key: "editor.saveFile:e2e-live:index.html"}
	saved := okResult(t, "editor.saveFile", surfCallAs(t, tab, key, "editor.saveFile", map[string]any{"path": "index.html"}))
	clocksOf(t, "saveFile", saved, ws+1, 3)
	if saved["savedTo"] != "filesystem" || saved["path"] != "index.html" || len(saved["dirtyPaths"].([]any)) != 0 {
		t.Fatalf("saveFile %v", saved)
	}
	if got, _ := opfsRead(t, tab, "site", "index.html"); got != edited {
		t.Fatalf("the folder's index.html holds %q, want the document %q", got, edited)
	}
	if w := fsWrites(t, tab); !slices.Equal(w, []string{"index.html"}) {
		t.Fatalf("writes to the folder %v, want exactly [index.html]", w)
	}
	// The same key replays the result: no second write; the clocks stay.
	replay := okResult(t, "editor.saveFile replay", surfCallAs(t, tab, key, "editor.saveFile", map[string]any{"path": "index.html"}))
	if replay["savedTo"] != "filesystem" {
		t.Errorf("replay %v", replay)
	}
	if w := fsWrites(t, tab); len(w) != 1 {
		t.Fatalf("the replayed save wrote again: %v", w)
	}
	ws2, doc2 := liveClocks(t, tab)
	if ws2 != ws+1 || doc2 != 3 {
		t.Fatalf("clocks at the end %d/%d, want %d/3", ws2, doc2, ws+1)
	}

	// The page's own Save all writes the connected folder too (one write per dirty file).
	css := "h1 { color: rgb(4, 5, 6); }\n"
	surfOK(t, tab, "editor.openFile", map[string]any{"path": "style.css", "expectedRevision": 3})
	surfOK(t, tab, "editor.setDocument", map[string]any{"source": css, "expectedRevision": 4})
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `getComputedStyle(document.getElementById("t")).color`, "rgb(4, 5, 6)"); err != nil {
		t.Fatalf("the preview's h1 colour %q after editing style.css (%v)", got, err)
	}
	waitContains(t, tab, "#dirty-paths", "style.css")
	fclick(t, tab, `#surface-doc button[data-action="save-all"]`)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `__opfs.read("site", "style.css").then(s => s === `+jsString(css)+`)`); err != nil {
		t.Fatalf("Save all did not write style.css: %v", err)
	}
	waitContains(t, tab, "#dirty-paths", "No unsaved files")
	if w := fsWrites(t, tab); !slices.Equal(w, []string{"index.html", "style.css"}) {
		t.Fatalf("writes %v, want [index.html style.css]: Save all wrote a file that was not dirty", w)
	}
	noConsoleErrors(t, tab)
}

// TestSurfaceLivePalette: every card of the Live page's palette (one per editor.* tool, in
// tools/list order) runs as it starts, one after the other on one session: each result is a
// success, or the typed error that state demands — the saves without a connected folder
// WORKSPACE_FOLDER_NOT_CONNECTED (retryable), and editor.applyPatch's "Web starter" no longer
// in the document after the setDocument card replaced it (WORKSPACE_PATCH_NOT_FOUND).
// The reset card then restores the baseline: nothing is dirty.
func TestSurfaceLivePalette(t *testing.T) {
	t.Parallel()
	tab := openSurface(t, nil, "live")
	waitContains(t, tab, "#surface-status", "11 tools")
	cards, err := chromium.Eval[[]string](tab, 10*time.Second, `[...document.querySelectorAll("#surface-palette .tool-card")].map(c => c.dataset.tool)`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cards, livesurface.ToolNames()) {
		t.Fatalf("palette cards %v, want one per tool %v", cards, livesurface.ToolNames())
	}
	wantErr := map[string]string{"editor.saveFile": "WORKSPACE_FOLDER_NOT_CONNECTED", "editor.saveAll": "WORKSPACE_FOLDER_NOT_CONNECTED",
		"editor.applyPatch": "WORKSPACE_PATCH_NOT_FOUND"}
	for _, tool := range cards {
		state := runCard(t, tab, tool)
		want := "ok "
		if c := wantErr[tool]; c != "" {
			want = "error " + c + " "
		}
		if !strings.HasPrefix(state, want) {
			t.Errorf("card %s: %q, want %q…", tool, state, want)
		}
	}
	st := surfOK(t, tab, "editor.getStatus", nil)
	if len(asSlice(st["dirtyPaths"])) != 0 || st["documentPath"] != "style.css" {
		t.Errorf("after the reset card: %v", st)
	}
	noConsoleErrors(t, tab)
}

// runCard presses a palette card's Run and returns its result: "ok …" or "error CODE …".
func runCard(t *testing.T, tab *chromium.Tab, tool string) string {
	t.Helper()
	sel := `#surface-palette .tool-card[data-tool="` + tool + `"]`
	fclick(t, tab, sel+` button[data-action="run-tool"]`)
	state, err := chromium.WaitFor[string](tab, loadTimeout, `(() => { const o = document.querySelector(`+jsString(sel+` output.tool-result`)+`);
		return o && (o.dataset.state === "ok" || o.dataset.state === "error") ? o.dataset.state + " " + (o.dataset.code || "") + " " + o.textContent.slice(0, 300) : ""; })()`)
	if err != nil {
		t.Fatalf("card %s: no result (%v)", tool, err)
	}
	return state
}

// TestSurfaceStaleRevision: a stale expectedRevision on every guarded tool of both surfaces is
// a retryable WORKSPACE_REVISION_CONFLICT ({expectedRevision, currentRevision}; on the Live
// page clock "document") and changes nothing: the clocks, every file and the preview stay; the
// current revision is then accepted.
func TestSurfaceStaleRevision(t *testing.T) {
	t.Parallel()
	t.Run("live", func(t *testing.T) {
		t.Parallel()
		tab := openSurface(t, nil, "live")
		ws0, doc0 := liveClocks(t, tab)
		if doc0 != 1 {
			t.Fatalf("a fresh Live page starts at document revision %d, want 1", doc0)
		}
		set := surfOK(t, tab, "editor.setDocument", map[string]any{"source": "<!doctype html><h1 id=\"t\">Stale test</h1>\n", "expectedRevision": 1})
		clocksOf(t, "setDocument", set, ws0+1, 2)
		if _, err := chromium.WaitInFrame(tab, loadTimeout, `(document.getElementById("t")||{}).textContent || ""`, "Stale test"); err != nil {
			t.Fatalf("preview: %v", err)
		}
		before := surfOK(t, tab, "editor.getDocument", nil)
		files := liveSizes(t, tab)
		calls := []struct {
			tool string
			args map[string]any
		}{
			{"editor.openFile", map[string]any{"path": "style.css"}},
			{"editor.setDocument", map[string]any{"source": "x"}},
			{"editor.applyPatch", map[string]any{"search": "Stale", "replace": "W", "occurrence": "first"}},
			{"editor.setScenario", map[string]any{"scenario": "blocked"}},
			{"editor.resetDocument", map[string]any{}},
		}
		for _, c := range calls {
			c.args["expectedRevision"] = 1
			e := toolErr(t, c.tool, surfCallAs(t, tab, callMeta{}, c.tool, c.args), "WORKSPACE_REVISION_CONFLICT")
			d, _ := e["details"].(map[string]any)
			if e["retryable"] != true || d == nil || n64(d["expectedRevision"]) != 1 || n64(d["currentRevision"]) != 2 || d["clock"] != "document" {
				t.Errorf("%s: conflict %v", c.tool, e)
			}
			if after := surfOK(t, tab, "editor.getDocument", nil); !reflect.DeepEqual(before, after) {
				t.Fatalf("%s with a stale revision changed the document: %v → %v", c.tool, before, after)
			}
		}
		if !reflect.DeepEqual(files, liveSizes(t, tab)) {
			t.Fatal("a refused call changed a file")
		}
		if ws, doc := liveClocks(t, tab); ws != ws0+1 || doc != 2 {
			t.Fatalf("refused calls moved the clocks: %d/%d, want %d/2", ws, doc, ws0+1)
		}
		if got, _ := chromium.EvalInFrame[string](tab, 5*time.Second, `(document.getElementById("t")||{}).textContent || ""`); got != "Stale test" {
			t.Fatalf("the preview changed: %q", got)
		}
		waitUIClocks(t, tab, ws0+1, 2)
		// The current revision is accepted.
		out := surfOK(t, tab, "editor.setScenario", map[string]any{"scenario": "blocked", "expectedRevision": 2})
		clocksOf(t, "setScenario at the current revision", out, ws0+1, 3)
		noConsoleErrors(t, tab)
	})
	t.Run("realtime", func(t *testing.T) {
		t.Parallel()
		tab := openSurface(t, nil, "realtime")
		rev := n64(surfOK(t, tab, "web.getWorkspace", nil)["revision"])
		if rev != 2 {
			t.Errorf("a fresh realtime page starts at revision %d, want 2 (seed 1, hydration 2)", rev)
		}
		before := webTexts(t, tab)
		title := frameHeroTitle(t, tab)
		calls := []struct {
			tool string
			args map[string]any
		}{
			{"web.writeFile", map[string]any{"path": "index.html", "source": "x"}},
			{"web.applyPatch", map[string]any{"path": "index.html", "search": "Try it", "replace": "Go", "occurrence": "first"}},
			{"web.setTheme", map[string]any{"theme": "sky"}},
			{"web.addFeature", map[string]any{"title": "t", "description": "d"}},
			{"web.updateHero", map[string]any{"title": "Stale hero", "subtitle": "s"}},
		}
		for _, c := range calls {
			c.args["expectedRevision"] = rev - 1
			e := toolErr(t, c.tool, surfCallAs(t, tab, callMeta{}, c.tool, c.args), "WORKSPACE_REVISION_CONFLICT")
			d, _ := e["details"].(map[string]any)
			if e["retryable"] != true || d == nil || n64(d["expectedRevision"]) != rev-1 || n64(d["currentRevision"]) != rev {
				t.Errorf("%s: conflict %v", c.tool, e)
			}
		}
		if got := n64(surfOK(t, tab, "web.getWorkspace", nil)["revision"]); got != rev {
			t.Fatalf("refused calls moved the revision to %d", got)
		}
		if after := webTexts(t, tab); !reflect.DeepEqual(before, after) {
			t.Fatal("a refused call changed a file")
		}
		if got := frameHeroTitle(t, tab); got != title {
			t.Fatalf("the preview's hero changed: %q → %q", title, got)
		}
		waitUIClocks(t, tab, rev, -1)
		out := surfOK(t, tab, "web.updateHero", map[string]any{"title": "Current hero", "subtitle": "accepted", "expectedRevision": rev})
		if n64(out["revision"]) != rev+1 {
			t.Fatalf("updateHero at the current revision: %v", out)
		}
		if got, err := chromium.WaitInFrame(tab, loadTimeout, heroTitleExpr, "Current hero"); err != nil {
			t.Fatalf("hero %q: %v", got, err)
		}
		noConsoleErrors(t, tab)
	})
}

// liveSizes is path → size of every file of the Live workspace (reading each file would take
// editor.openFile, which moves the document clock; the document itself is compared through
// editor.getDocument).
func liveSizes(t *testing.T, tab *chromium.Tab) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, f := range surfOK(t, tab, "editor.listFiles", nil)["files"].([]any) {
		m := f.(map[string]any)
		out[m["path"].(string)] = n64(m["size"])
	}
	return out
}

// webTexts is path → source of every file of the realtime workspace.
func webTexts(t *testing.T, tab *chromium.Tab) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range surfOK(t, tab, "web.getWorkspace", nil)["files"].([]any) {
		p := f.(map[string]any)["path"].(string)
		out[p] = surfOK(t, tab, "web.readFile", map[string]any{"path": p})["source"].(string)
	}
	return out
}

const heroTitleExpr = `(document.getElementById("hero-title")||{}).textContent || ""`

func frameHeroTitle(t *testing.T, tab *chromium.Tab) string {
	t.Helper()
	got, err := chromium.WaitFor[bool](tab, loadTimeout, `!!document.querySelector("#preview-host iframe")`)
	if err != nil || !got {
		t.Fatalf("no preview iframe: %v", err)
	}
	deadline := time.Now().Add(loadTimeout)
	for {
		s, err := chromium.EvalInFrame[string](tab, 5*time.Second, heroTitleExpr)
		if err == nil && s != "" {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("the preview has no hero title: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestSurfaceLiveScenarios: on a built-in example (checkout-action.ts, shown as a text
// projection), editor.setScenario invalid → blocked → success each moves only the document
// clock, the projection in the iframe names the scenario and the revision, and
// editor/runScenario answers the safe runner's fixed events for it (never running the code);
// an unknown scenario is refused by the schema with nothing moved; the page's scenario buttons
// and "Run scenario" do the same; a document holding a script is shown, not run.
func TestSurfaceLiveScenarios(t *testing.T) {
	t.Parallel()
	tab := openSurface(t, nil, "live")
	ws, doc := liveClocks(t, tab)
	open := surfOK(t, tab, "editor.openFile", map[string]any{"path": "checkout-action.ts", "expectedRevision": doc})
	doc++
	clocksOf(t, "openFile", open, ws, doc)
	previewOf(t, "openFile", open, "rendered", doc)
	if open["exampleId"] != "pipeline" {
		t.Fatalf("openFile checkout-action.ts: %v", open)
	}
	projection := func(sc string, rev int64) {
		t.Helper()
		want := fmt.Sprintf("pipeline · checkout-action.ts · revision %d · scenario %s", rev, sc)
		expr := `(() => { const h = document.querySelector("header"); return (document.body.dataset.scenario || "") + "|" + (h ? h.textContent : ""); })()`
		if got, err := chromium.WaitInFrame(tab, loadTimeout, expr, sc+"|"+want+" · safe runner: shown, not run"); err != nil {
			t.Fatalf("the projection shows %q, want scenario %s at revision %d (%v)", got, sc, rev, err)
		}
	}
	for _, sc := range []string{"invalid", "blocked", "success"} {
		out := surfOK(t, tab, "editor.setScenario", map[string]any{"scenario": sc, "expectedRevision": doc})
		doc++
		clocksOf(t, "setScenario "+sc, out, ws, doc)
		previewOf(t, "setScenario "+sc, out, "rendered", doc)
		if out["scenario"] != sc || out["file"] != "checkout-action.ts" {
			t.Fatalf("setScenario %s: %v", sc, out)
		}
		projection(sc, doc)
		run := surfMethod(t, tab, "editor/runScenario", map[string]any{})
		raw, _ := json.Marshal(run["events"])
		var events []livesurface.RunEvent
		_ = json.Unmarshal(raw, &events)
		if run["scenario"] != sc || n64(run["documentRevision"]) != doc || run["runtime"] != "safe-runner" || !reflect.DeepEqual(events, livesurface.SafeRun(sc)) {
			t.Fatalf("editor/runScenario after %s: %v, want events %v", sc, run, livesurface.SafeRun(sc))
		}
	}
	toolErr(t, "setScenario other", surfCallAs(t, tab, callMeta{}, "editor.setScenario", map[string]any{"scenario": "other"}), "TOOL_VALIDATION_FAILED")
	if w, d := liveClocks(t, tab); w != ws || d != doc {
		t.Fatalf("an invalid scenario moved the clocks: %d/%d, want %d/%d", w, d, ws, doc)
	}
	waitUIClocks(t, tab, ws, doc)

	// The page's buttons: Scenario blocked, then Run scenario.
	fclick(t, tab, `#surface-doc button[data-action="set-scenario"][data-scenario="blocked"]`)
	doc++
	waitUIClocks(t, tab, ws, doc)
	waitTrue(t, tab, "blocked pressed", `document.querySelector('#surface-doc button[data-scenario="blocked"]').getAttribute("aria-pressed") === "true"`)
	projection("blocked", doc)
	fclick(t, tab, `#surface-doc button[data-action="run-scenario"]`)
	waitTrue(t, tab, "scenario run shown", `(() => { const r = document.querySelector("#scenario-run"); return !!r && r.dataset.scenario === "blocked" &&
		r.querySelectorAll("li").length === 3 && r.querySelectorAll("li.run-pass").length === 1 && r.querySelectorAll("li.run-fail").length === 2; })()`)

	// A document that would run code if it were executed is shown as text.
	src := `<script>window.ran = true; document.title = "ran"</script>`
	set := surfOK(t, tab, "editor.setDocument", map[string]any{"source": src, "expectedRevision": doc})
	doc++
	clocksOf(t, "setDocument script", set, ws+1, doc)
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `(document.querySelector("pre")||{}).textContent || ""`, src); err != nil {
		t.Fatalf("the projection shows %q (%v)", got, err)
	}
	if ran, _ := chromium.EvalInFrame[bool](tab, 5*time.Second, `window.ran === true || document.title === "ran"`); ran {
		t.Fatal("the projected document's script ran in the preview")
	}
	noConsoleErrors(t, tab)
}

// TestSurfaceLiveSaveAllRecovered (issue 18, live reference section 2.6): a keyed
// editor.saveAll of n = 5 dirty files whose folder fails after k = 2 writes (the shim's
// failAfter, nothing written for the third) ends TOOL_EXECUTION_UNKNOWN with the two written
// paths; a retry with the key is refused without writing; editor/recoverSave reads the folder
// back, finds the three others different and writes nothing; a new save writes only those
// three, so every file reached the folder exactly once (writes counted on the File System
// Access streams). Then a save whose last write lands and reports a failure is completed by
// recoverSave's read-back (status completed, nothing dirty) and its key replays without a
// write; the page's Save all cut short the same way offers "Check the folder", which
// completes it without a write. The durable records live in "web-coding-live-editor-operations", never in the
// studio's databases.
func TestSurfaceLiveSaveAllRecovered(t *testing.T) {
	t.Parallel()
	tab := openSurface(t, nil, "live", writeCountHook)
	files := map[string]any{"index.html": "<!doctype html><h1>site</h1>\n"}
	names := []string{"a.txt", "b.txt", "c.txt", "d.txt", "e.txt"}
	for _, p := range names {
		files[p] = "old " + p + "\n"
	}
	connectLiveFolder(t, tab, "proj", files)
	edit := func(paths []string, text string) {
		t.Helper()
		for _, p := range paths {
			surfOK(t, tab, "editor.openFile", map[string]any{"path": p})
			surfOK(t, tab, "editor.setDocument", map[string]any{"source": text + " " + p + "\n"})
		}
	}
	edit(names, "new")
	if st := surfOK(t, tab, "editor.getStatus", nil); fmt.Sprint(st["dirtyPaths"]) != "[a.txt b.txt c.txt d.txt e.txt]" {
		t.Fatalf("dirty before the save: %v", st["dirtyPaths"])
	}
	ws, doc := liveClocks(t, tab)
	evalOK(t, tab, `(window.__writes = [], webcodingFolderTest.failAfter(2, "throw-before"), true)`)

	m := callMeta{Source: "local", Mode: "direct", Session: "e2e-save", Key: "editor.saveAll:e2e-save"}
	e := toolErr(t, "saveAll", surfCallAs(t, tab, m, "editor.saveAll", nil), "TOOL_EXECUTION_UNKNOWN")
	d, _ := e["details"].(map[string]any)
	if e["retryable"] != true || d == nil || d["outcome"] != "unknown" || n64(d["plannedFiles"]) != 5 || n64(d["completedCount"]) != 2 ||
		fmt.Sprint(d["completedPaths"]) != "[a.txt b.txt]" || d["planRecorded"] != true {
		t.Fatalf("the interrupted save: %v", e)
	}
	if w := fsWrites(t, tab); !slices.Equal(w, []string{"a.txt", "b.txt"}) {
		t.Fatalf("writes of the interrupted save %v, want [a.txt b.txt]", w)
	}
	for _, p := range names {
		want := "old " + p + "\n"
		if p == "a.txt" || p == "b.txt" {
			want = "new " + p + "\n"
		}
		if got, _ := opfsRead(t, tab, "proj", p); got != want {
			t.Errorf("after the interruption the folder's %s holds %q, want %q", p, got, want)
		}
	}
	// A retry with the same key is refused; nothing is written.
	toolErr(t, "saveAll retry", surfCallAs(t, tab, m, "editor.saveAll", nil), "TOOL_IDEMPOTENCY_UNKNOWN")
	if w := fsWrites(t, tab); len(w) != 2 {
		t.Fatalf("the refused retry wrote: %v", w)
	}
	// Recovery reads back: three files differ, the record stays unknown, nothing is written.
	rec := surfMethod(t, tab, "editor/recoverSave", map[string]any{"tool": "editor.saveAll", "idempotencyKey": m.Key, "sessionId": m.Session})
	mism, _ := json.Marshal(rec["mismatches"])
	if rec["status"] != "unknown" || string(mism) != `[{"path":"c.txt","reason":"different"},{"path":"d.txt","reason":"different"},{"path":"e.txt","reason":"different"}]` ||
		len(asSlice(rec["recoveredPaths"])) != 0 {
		t.Fatalf("editor/recoverSave: %v", rec)
	}
	if w := fsWrites(t, tab); len(w) != 2 {
		t.Fatalf("the recovery wrote: %v", w)
	}
	st := surfOK(t, tab, "editor.getStatus", nil)
	if fmt.Sprint(st["dirtyPaths"]) != "[c.txt d.txt e.txt]" {
		t.Fatalf("dirty after the interruption: %v", st["dirtyPaths"])
	}
	clocksOf(t, "after the recovery", st, ws, doc)
	// A deliberate new save (new key) writes only the three others.
	m2 := m
	m2.Key = "editor.saveAll:e2e-save:2"
	saved := okResult(t, "saveAll 2", surfCallAs(t, tab, m2, "editor.saveAll", nil))
	if fmt.Sprint(saved["savedPaths"]) != "[c.txt d.txt e.txt]" || len(asSlice(saved["dirtyPaths"])) != 0 {
		t.Fatalf("the second save: %v", saved)
	}
	clocksOf(t, "second save", saved, ws, doc)
	w := fsWrites(t, tab)
	for _, p := range names {
		if n := countOf(w, p); n != 1 {
			t.Errorf("%s was written %d times (writes %v), want once", p, n, w)
		}
		if got, _ := opfsRead(t, tab, "proj", p); got != "new "+p+"\n" {
			t.Errorf("the folder's %s holds %q", p, got)
		}
	}

	// The last write lands and reports a failure: recovery completes the record by read-back.
	edit(names[:3], "third")
	evalOK(t, tab, `(window.__writes = [], webcodingFolderTest.failAfter(2, "throw-after"), true)`)
	m3 := m
	m3.Key = "editor.saveAll:e2e-save:3"
	toolErr(t, "saveAll 3", surfCallAs(t, tab, m3, "editor.saveAll", nil), "TOOL_EXECUTION_UNKNOWN")
	if w := fsWrites(t, tab); !slices.Equal(w, []string{"a.txt", "b.txt", "c.txt"}) {
		t.Fatalf("writes of the landed save %v", w)
	}
	rec = surfMethod(t, tab, "editor/recoverSave", map[string]any{"tool": "editor.saveAll", "idempotencyKey": m3.Key, "sessionId": m3.Session})
	if rec["status"] != "completed" || fmt.Sprint(rec["recoveredPaths"]) != "[a.txt b.txt c.txt]" || len(asSlice(rec["mismatches"])) != 0 {
		t.Fatalf("editor/recoverSave of the landed save: %v", rec)
	}
	if st := surfOK(t, tab, "editor.getStatus", nil); len(asSlice(st["dirtyPaths"])) != 0 {
		t.Fatalf("dirty after the completed recovery: %v", st["dirtyPaths"])
	}
	replay := okResult(t, "saveAll 3 replay", surfCallAs(t, tab, m3, "editor.saveAll", nil))
	if fmt.Sprint(replay["savedPaths"]) != "[a.txt b.txt c.txt]" {
		t.Errorf("the replay: %v", replay)
	}
	if w := fsWrites(t, tab); len(w) != 3 {
		t.Fatalf("the replay or the recovery wrote again: %v", w)
	}

	// The same through the page: Save all cut short after its last write landed → "Check the
	// folder" → the read-back completes it; nothing is written again, nothing stays dirty.
	edit(names[:3], "fourth")
	evalOK(t, tab, `(window.__writes = [], webcodingFolderTest.failAfter(2, "throw-after"), true)`)
	fclick(t, tab, `#surface-doc button[data-action="save-all"]`)
	waitContains(t, tab, "#surface-doc", "TOOL_EXECUTION_UNKNOWN")
	if w := fsWrites(t, tab); !slices.Equal(w, []string{"a.txt", "b.txt", "c.txt"}) {
		t.Fatalf("writes of the page's cut-short Save all %v", w)
	}
	fclick(t, tab, `#recover-save`)
	waitContains(t, tab, "#surface-doc", "saved (checked by reading the folder back; nothing was written again)")
	if w := fsWrites(t, tab); len(w) != 3 {
		t.Fatalf("Check the folder wrote: %v", w)
	}
	waitContains(t, tab, "#dirty-paths", "No unsaved files")
	for _, p := range names[:3] {
		if got, _ := opfsRead(t, tab, "proj", p); got != "fourth "+p+"\n" {
			t.Errorf("the folder's %s holds %q after the page's save", p, got)
		}
	}

	// The durable records are in the surface's own database.
	dbs, err := chromium.Eval[[]string](tab, 10*time.Second, `indexedDB.databases().then(l => l.map(d => d.name).sort())`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(dbs, "web-coding-live-editor-operations") || !slices.Contains(dbs, "web-coding-live-editor") ||
		slices.Contains(dbs, "web-coding-operations") || slices.Contains(dbs, "web-coding-studio") {
		t.Errorf("IndexedDB databases %v: want the Live editor's own, never the studio's", dbs)
	}
	keys, err := chromium.Eval[[]string](tab, 10*time.Second, strings.ReplaceAll(opKeysJS, "__DB__", "web-coding-live-editor-operations"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(k, "editor.saveAll:e2e-save:3") }) {
		t.Errorf("no durable record of the keyed save in web-coding-live-editor-operations: %v", keys)
	}
	noConsoleErrors(t, tab)
}

// opKeysJS lists every stored value (as JSON text) of every object store of the database
// __DB__.
const opKeysJS = `new Promise((resolve, reject) => {
  const r = indexedDB.open("__DB__");
  r.onerror = () => reject(r.error);
  r.onsuccess = () => {
    const db = r.result, out = [];
    const names = [...db.objectStoreNames];
    if (!names.length) { db.close(); resolve(out); return; }
    const tx = db.transaction(names);
    for (const n of names) tx.objectStore(n).getAll().onsuccess = (e) => { for (const v of e.target.result) out.push(JSON.stringify(v)); };
    tx.oncomplete = () => { db.close(); resolve(out); };
    tx.onerror = () => reject(tx.error);
  };
})`

func asSlice(v any) []any { s, _ := v.([]any); return s }

// TestSurfaceRealtimePaletteAndAgent: every card of the realtime palette (one per web.* tool,
// in tools/list order) runs as it starts — Run, a non-error result — and the revision ends
// two plus the five mutations; the iframe shows web.setTheme's --accent, web.updateHero's title
// and subtitle, the added feature card and the patched button. Then the local agent end to end
// through the chat: a typed prompt, Send, an approval card per mutation approved, the
// transcript lists the calls and the local-fallback marker, and the preview changes.
func TestSurfaceRealtimePaletteAndAgent(t *testing.T) {
	t.Parallel()
	tab := openSurface(t, nil, "realtime")
	waitContains(t, tab, "#surface-status", "8 tools")
	cards, err := chromium.Eval[[]string](tab, 10*time.Second, `[...document.querySelectorAll("#surface-palette .tool-card")].map(c => c.dataset.tool)`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cards, websurface.ToolNames()) {
		t.Fatalf("palette cards %v, want one per tool %v", cards, websurface.ToolNames())
	}
	for _, tool := range cards {
		if state := runCard(t, tab, tool); !strings.HasPrefix(state, "ok ") {
			t.Errorf("card %s as it starts: %s", tool, state)
		}
	}
	rev := n64(surfOK(t, tab, "web.getWorkspace", nil)["revision"])
	if rev != 7 {
		t.Errorf("revision %d after the palette, want 7 (2 + five mutations)", rev)
	}
	waitUIClocks(t, tab, rev, -1)
	if got, err := chromium.WaitInFrame(tab, loadTimeout, accentExpr, "#0f9f78"); err != nil {
		t.Errorf("the preview's --accent %q after web.setTheme emerald (%v)", got, err)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, "("+heroTitleExpr+`) + "|" + (document.getElementById("hero-subtitle")||{}).textContent`,
		"Build in realtime|Every palette card is one registry call, acknowledged by the preview."); err != nil {
		t.Errorf("the preview's hero %q after web.updateHero (%v)", got, err)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `[...document.querySelectorAll("#feature-grid .feature-card strong")].map(s => s.textContent).join(",")`,
		"Discover,Mutate,Render,Offline first"); err != nil {
		t.Errorf("the preview's feature cards %q after web.addFeature (%v)", got, err)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `(document.getElementById("hero-button")||{}).textContent || ""`, "Start now"); err != nil {
		t.Errorf("the preview's button %q after web.applyPatch (%v)", got, err)
	}
	if src := surfOK(t, tab, "web.readFile", map[string]any{"path": "notes.txt"})["source"]; src != "Written from the tool palette.\n" {
		t.Errorf("notes.txt after web.writeFile: %q", src)
	}

	// The local agent through the chat.
	if err := tab.Do(10*time.Second, chromedp.SendKeys(chromedp.CSS("#chat-prompt"), "Make it sky blue and add a feature card")); err != nil {
		t.Fatal(err)
	}
	fclick(t, tab, "#chat-send")
	approveCards(t, tab, `document.querySelectorAll("#chat-transcript li[data-kind=agent], #chat-transcript li[data-kind=error]").length > 0`, 4)
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#chat-transcript li[data-kind=agent]").length`); n != 1 {
		text, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#chat-transcript").innerText`)
		t.Fatalf("the agent's run did not end with an answer:\n%s", text)
	}
	waitContains(t, tab, "#chat-transcript", "web.setTheme")
	waitContains(t, tab, "#chat-transcript", "web.addFeature")
	waitContains(t, tab, "#chat-transcript", "local-fallback")
	text, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#chat-transcript").innerText`)
	if strings.Contains(text, "✗") {
		t.Errorf("a call of the agent's run failed:\n%s", text)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, accentExpr, "#0b83c6"); err != nil {
		t.Errorf("the preview's --accent %q after the agent's sky theme (%v); transcript:\n%s", got, err, text)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `[...document.querySelectorAll("#feature-grid .feature-card strong")].map(s => s.textContent).pop() || ""`, "Palette feature"); err != nil {
		t.Errorf("the preview's last feature card %q after the agent (%v)", got, err)
	}
	if got := n64(surfOK(t, tab, "web.getWorkspace", nil)["revision"]); got != rev+2 {
		t.Errorf("revision %d after the agent's two mutations, want %d", got, rev+2)
	}
	waitTrue(t, tab, "trace rows", `document.querySelectorAll('#surface-trace li[data-tool="web.addFeature"]').length >= 2`)
	noConsoleErrors(t, tab)
}

// takeOverLive closes the Live tab a (which holds the lock and wrote last) and writes in b
// from that moment on, without waiting: every write while b takes the lock over is either
// refused WORKSPACE_READ_ONLY (nothing changed) or lands for good — never reported applied and
// then lost by the rebuild that reloads A's stored workspace. Once b says "held" its document
// is A's last text, and after a reload b's document is b's last successful write.
func takeOverLive(t *testing.T, a, b *chromium.Tab) {
	t.Helper()
	fromA := surfOK(t, a, "editor.getDocument", nil)["source"]
	_ = chromedp.Cancel(a.Ctx)
	var landed string
	deadline := time.Now().Add(loadTimeout)
	for i := 0; landed == "" || !lockHeld(t, b); i++ {
		if time.Now().After(deadline) {
			t.Fatalf("B never took the lock over (landed %q); console %v", landed, b.Console())
		}
		text := fmt.Sprintf("<h1>B write %d</h1>", i)
		res := surfCallAs(t, b, callMeta{}, "editor.setDocument", map[string]any{"source": text})
		switch e, _ := res["error"].(map[string]any); {
		case res["isError"] != true:
			landed = text
		case e != nil && e["code"] == "WORKSPACE_READ_ONLY":
			if landed != "" {
				t.Fatalf("B refused %q as read-only after it had accepted %q", text, landed)
			}
		default:
			t.Fatalf("B's write %q while it took the lock over: %v (after %d refusals)", text, res["error"], i)
		}
	}
	t.Logf("B's first accepted write: %q", landed)
	if doc := surfOK(t, b, "editor.getDocument", nil); doc["source"] != landed {
		t.Fatalf("B's document %q, want its accepted write %q (A's last was %q)", doc["source"], landed, fromA)
	}
	if err := b.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitSurfaceReady(t, b)
	waitTrueFor(t, b, "B holds the lock after its reload", `(document.querySelector("#lock-state")||{dataset:{}}).dataset.lock === "held"`)
	if doc := surfOK(t, b, "editor.getDocument", nil); doc["source"] != landed {
		t.Fatalf("after a reload B's document is %q, want its accepted write %q", doc["source"], landed)
	}
	noConsoleErrors(t, b)
}

func lockHeld(t *testing.T, tab *chromium.Tab) bool {
	ok, _ := chromium.Eval[bool](tab, 5*time.Second, `(document.querySelector("#lock-state")||{dataset:{}}).dataset.lock === "held"`)
	return ok
}

// waitTrueFor is waitTrue with loadTimeout (a lock released by a closing tab, a rebuild).
func waitTrueFor(t *testing.T, tab *chromium.Tab, what, expr string) {
	t.Helper()
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, expr); err != nil {
		t.Fatalf("%s: %v (%s); console %v", what, err, expr, tab.Console())
	}
}

// approveCards clicks the first approval card's Approve button until done (a JavaScript
// condition) holds, at most max cards; it fails when done never holds.
func approveCards(t *testing.T, tab *chromium.Tab, done string, max int) {
	t.Helper()
	cond := `(() => { if (` + done + `) return "done"; const b = document.querySelector("#approve-0"); return b && !b.disabled ? b.closest("article").id : ""; })()`
	for i := 0; i <= max; i++ {
		got, err := chromium.WaitFor[string](tab, loadTimeout, cond)
		if err != nil {
			text, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector("#surface-chat")||{}).innerText || ""`)
			t.Fatalf("the run neither finished nor asked for approval: %v\n%s", err, text)
		}
		if got == "done" {
			return
		}
		fclick(t, tab, "#approve-0")
		if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!document.getElementById(`+jsString(got)+`)`); err != nil {
			t.Fatalf("the approved card %s stays: %v", got, err)
		}
	}
	t.Fatalf("more than %d approval cards", max)
}

// TestSurfaceLiveSaveApproval (issue 18): an editor.saveFile from a model (source model, mode
// agent) waits for the page's approval card and writes nothing meanwhile; Deny → the call
// fails TOOL_POLICY_DENIED, the folder keeps its bytes and the file stays dirty; a second
// model save, approved → written once, the folder's bytes equal the document.
func TestSurfaceLiveSaveApproval(t *testing.T) {
	t.Parallel()
	tab := openSurface(t, nil, "live", writeCountHook)
	connectLiveFolder(t, tab, "site", liveFolder())
	edited := `<!doctype html><h1 id="t">Approved 0815</h1>`
	surfOK(t, tab, "editor.openFile", map[string]any{"path": "index.html"})
	surfOK(t, tab, "editor.setDocument", map[string]any{"source": edited})
	evalOK(t, tab, `(window.__writes = [], true)`)
	start := func(key string) {
		t.Helper()
		req := callRequest("editor.saveFile", map[string]any{"path": "index.html"}, callMeta{Source: "model", Mode: "agent", Session: "e2e-model", Key: key})
		evalOK(t, tab, `(window.__save = undefined, webcodingHandle(`+jsString(req)+`).then(r => { window.__save = r; }), true)`)
		waitText(t, tab, "#approve-0", "Approve editor.saveFile")
		waitTrue(t, tab, "card for editor.saveFile", `!!document.querySelector('#surface-chat .approval-card[data-tool="editor.saveFile"]')`)
		if ok, _ := chromium.Eval[bool](tab, 2*time.Second, `window.__save === undefined`); !ok {
			t.Fatal("the model's save finished before it was approved")
		}
		if w := fsWrites(t, tab); len(w) != 0 {
			t.Fatalf("the folder was written while the save waited for approval: %v", w)
		}
	}
	result := func() map[string]any {
		t.Helper()
		raw, err := chromium.WaitFor[string](tab, loadTimeout, `window.__save || ""`)
		if err != nil {
			t.Fatalf("the model's save never answered: %v", err)
		}
		var resp map[string]any
		if err := json.Unmarshal([]byte(raw), &resp); err != nil {
			t.Fatal(err)
		}
		res, _ := resp["result"].(map[string]any)
		if res == nil {
			t.Fatalf("save: %s", raw)
		}
		return res
	}

	start("editor.saveFile:e2e-model:index.html:1")
	fclick(t, tab, "#deny-0")
	toolErr(t, "denied saveFile", result(), "TOOL_POLICY_DENIED")
	if got, _ := opfsRead(t, tab, "site", "index.html"); got != liveFolder()["index.html"] {
		t.Fatalf("a denied save changed the folder: %q", got)
	}
	if w := fsWrites(t, tab); len(w) != 0 {
		t.Fatalf("a denied save wrote: %v", w)
	}
	if st := surfOK(t, tab, "editor.getStatus", nil); fmt.Sprint(st["dirtyPaths"]) != "[index.html]" {
		t.Fatalf("dirty after the denied save: %v", st["dirtyPaths"])
	}
	waitTrue(t, tab, "card gone", `!document.querySelector("#surface-chat .approval-card")`)

	start("editor.saveFile:e2e-model:index.html:2")
	fclick(t, tab, "#approve-0")
	saved := okResult(t, "approved saveFile", result())
	if saved["savedTo"] != "filesystem" || len(asSlice(saved["dirtyPaths"])) != 0 {
		t.Fatalf("approved save: %v", saved)
	}
	if got, _ := opfsRead(t, tab, "site", "index.html"); got != edited {
		t.Fatalf("the approved save left %q in the folder, want %q", got, edited)
	}
	if w := fsWrites(t, tab); !slices.Equal(w, []string{"index.html"}) {
		t.Fatalf("writes %v, want exactly [index.html]", w)
	}
	noConsoleErrors(t, tab)
}

// TestSurfaceOffline: both pages load and reach ready online with no console error (Ready ·
// 11 tools / 8 tools); after a visit the service worker serves them, so with the server
// stopped a reload of realtime/ and a navigation to live/ both reach ready again with their
// catalogs and a preview acknowledgement (SPEC §2.8). Its server is its own (ownSite): it stops it.
func TestSurfaceOffline(t *testing.T) {
	t.Parallel()
	base, stop := ownSite(t)
	tab := chromium.NewServiceWorkerTab(t)
	load := func(surface string) {
		t.Helper()
		defer bootSlot(t)()
		if err := tab.Do(loadTimeout, chromedp.Navigate(base+surface+"/")); err != nil {
			t.Fatalf("navigate to %s: %v", surface, err)
		}
		waitSurfaceReady(t, tab)
		tools := map[string]string{"live": "11 tools", "realtime": "8 tools"}[surface]
		waitContains(t, tab, "#status-text", tools)
		if got, _ := chromium.Eval[string](tab, 5*time.Second, `document.body.dataset.surface`); got != surface {
			t.Fatalf("body[data-surface] %q, want %s", got, surface)
		}
		// The preview is the studio's sandboxed frame: scripts, never the page's origin.
		sandbox, err := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector("#preview-host iframe")||{getAttribute: () => "(no iframe)"}).getAttribute("sandbox") || ""`)
		if err != nil || !strings.Contains(sandbox, "allow-scripts") || strings.Contains(sandbox, "allow-same-origin") {
			t.Fatalf("%s: the preview iframe's sandbox is %q (%v)", surface, sandbox, err)
		}
		if got, err := chromium.WaitInFrame(tab, loadTimeout, `(() => { try { return String(window["top"].document.title); } catch (e) { return "blocked"; } })()`, "blocked"); err != nil {
			t.Fatalf("%s: the preview reads the page: %q (%v)", surface, got, err)
		}
	}
	start := time.Now()
	load("live")
	t.Logf("live/ ready in %v", time.Since(start).Round(time.Millisecond))
	noConsoleErrors(t, tab)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!!navigator.serviceWorker.controller`); err != nil {
		t.Fatalf("the service worker never controlled live/: %v", err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `caches.keys().then(k => k.some(n => n.startsWith("webcoding-")))`); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	load("realtime")
	t.Logf("realtime/ ready in %v", time.Since(start).Round(time.Millisecond))
	noConsoleErrors(t, tab)

	stop()
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatalf("reload of realtime/ with the server stopped: %v", err)
	}
	waitSurfaceReady(t, tab)
	waitContains(t, tab, "#status-text", "8 tools")
	load("live")
	for _, e := range tab.Errors() {
		if !strings.Contains(e.Text, "net::ERR_CONNECTION_REFUSED") {
			t.Errorf("console error: %v", e)
		}
	}
}

// TestSurfaceSecondTabReadOnly: per surface, a second tab of the same profile is read-only
// while the first holds the surface's Web Lock ("web-coding-<surface>/workspace"): its
// #lock-state says busy, every mutation is refused WORKSPACE_READ_ONLY and changes nothing,
// reads answer, and the first tab still writes; when the first Live tab closes the second
// takes the lock over (takeOverLive: no write accepted in the meantime is lost). The two surfaces' locks are not the studio's
// and not each other's (a Live and a realtime tab of one profile both write), and their
// IndexedDB workspaces are their own.
func TestSurfaceSecondTabReadOnly(t *testing.T) {
	t.Parallel()
	profile := chromium.NewRecycledTab(t)
	mutation := map[string]struct {
		tool string
		args map[string]any
	}{
		"live":     {"editor.setDocument", map[string]any{"source": "<h1>from B</h1>"}},
		"realtime": {"web.setTheme", map[string]any{"theme": "rose"}},
	}
	read := map[string]string{"live": "editor.getDocument", "realtime": "web.getWorkspace"}
	var last *chromium.Tab // a page of the site's origin (the blank profile tab is not)
	for _, surface := range []string{"live", "realtime"} {
		a := openSurface(t, profile, surface)
		last = a
		waitTrue(t, a, surface+" A holds the lock", `(document.querySelector("#lock-state")||{dataset:{}}).dataset.lock === "held"`)
		b := openSurface(t, profile, surface)
		waitTrue(t, b, surface+" B is read-only", `(document.querySelector("#lock-state")||{dataset:{}}).dataset.lock === "busy"`)
		waitTrue(t, b, surface+" B's composer is disabled", `document.querySelector("#chat-send").disabled && document.querySelector("#chat-prompt").disabled`)
		before := toJSON(surfOK(t, a, read[surface], nil))
		mu := mutation[surface]
		toolErr(t, surface+" B "+mu.tool, surfCallAs(t, b, callMeta{}, mu.tool, mu.args), "WORKSPACE_READ_ONLY")
		surfOK(t, b, read[surface], nil)
		if after := toJSON(surfOK(t, a, read[surface], nil)); after != before {
			t.Fatalf("%s: the refused mutation in B changed A's workspace", surface)
		}
		surfOK(t, a, mu.tool, mu.args)
		noConsoleErrors(t, a)
		noConsoleErrors(t, b)
		if surface == "live" {
			takeOverLive(t, a, b)
			last = b
		}
	}
	held, err := chromium.Eval[[]string](last, 10*time.Second, `navigator.locks ? navigator.locks.query().then(s => s.held.map(l => l.name).sort()) : []`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(held, "web-coding-live/workspace") || !slices.Contains(held, "web-coding-realtime/workspace") || slices.Contains(held, "web-coding-studio/workspace") {
		t.Errorf("held locks %v: want the Live and realtime workspace locks, not the studio's", held)
	}
	dbs, err := chromium.Eval[[]string](last, 10*time.Second, `indexedDB.databases().then(l => l.map(d => d.name).sort())`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(dbs, "web-coding-live-editor") || !slices.Contains(dbs, "web-coding-realtime") || slices.Contains(dbs, "web-coding-studio") {
		t.Errorf("IndexedDB databases %v: want the surfaces' own, never the studio's", dbs)
	}
}

// TestSurfaceReloadKeepsFiles (issue 18, no lost work): what a surface page reported applied is
// in its own IndexedDB database and comes back after a reload — realtime: a web.writeFile and
// its revision (which never goes back); Live: an editor.setDocument (the workspace revision
// resumes, the document revision starts again at 1, docs/design.md §5.35).
func TestSurfaceReloadKeepsFiles(t *testing.T) {
	t.Parallel()
	reload := func(tab *chromium.Tab) {
		t.Helper()
		if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
			t.Fatal(err)
		}
		waitSurfaceReady(t, tab)
	}
	t.Run("realtime", func(t *testing.T) {
		tab := openSurface(t, nil, "realtime")
		out := surfOK(t, tab, "web.writeFile", map[string]any{"path": "notes.txt", "source": "kept across a reload\n"})
		rev := n64(out["revision"])
		reload(tab)
		got := surfOK(t, tab, "web.readFile", map[string]any{"path": "notes.txt"})
		if got["source"] != "kept across a reload\n" || n64(got["revision"]) < rev {
			t.Fatalf("after a reload: %v (the write was at revision %d)", got, rev)
		}
		noConsoleErrors(t, tab)
	})
	t.Run("live", func(t *testing.T) {
		tab := openSurface(t, nil, "live")
		surfOK(t, tab, "editor.openFile", map[string]any{"path": "style.css"})
		out := surfOK(t, tab, "editor.setDocument", map[string]any{"source": "body { color: teal; }\n"})
		ws := n64(out["workspaceRevision"])
		reload(tab)
		surfOK(t, tab, "editor.openFile", map[string]any{"path": "style.css"})
		got := surfOK(t, tab, "editor.getDocument", nil)
		if got["source"] != "body { color: teal; }\n" || n64(got["workspaceRevision"]) < ws || n64(got["documentRevision"]) != 2 {
			t.Fatalf("after a reload: source %q, workspaceRevision %v (was %d), documentRevision %v (want 2: 1 at start, +1 openFile)",
				got["source"], got["workspaceRevision"], ws, got["documentRevision"])
		}
		noConsoleErrors(t, tab)
	})
}

// openSurfaceAudited is openSurface in a fresh browser context whose every network request is
// recorded (audit) from before the navigation.
func openSurfaceAudited(t *testing.T, surface string, audit *netAudit) *chromium.Tab {
	t.Helper()
	tab := chromium.NewIsolatedTab(t)
	audit.reqs = map[network.RequestID]*auditedRequest{}
	if err := chromedp.Listen(tab.Ctx, audit.listen); err != nil {
		t.Fatal(err)
	}
	defer bootSlot(t)()
	if err := tab.Do(loadTimeout, chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
		return chromedp.Void{}, err
	}), chromedp.Navigate(surfaceURL(t, surface))); err != nil {
		t.Fatal(err)
	}
	waitSurfaceReady(t, tab)
	return tab
}

// chooseProvider picks kind in the chat's provider menu (as a user does: a change event),
// types endpoint and model, and clicks Use provider.
func chooseProvider(t *testing.T, tab *chromium.Tab, kind, endpoint, model string) {
	t.Helper()
	evalOK(t, tab, `(() => { const s = document.querySelector("#provider-kind"); s.value = `+jsString(kind)+
		`; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	waitTrue(t, tab, "the endpoint field follows the menu", `document.querySelector("#provider-endpoint").disabled === `+fmt.Sprint(kind != "openai-compatible"))
	evalOK(t, tab, `(() => { for (const id of ["provider-endpoint", "provider-model"]) { const f = document.getElementById(id); f.value = ""; f.dispatchEvent(new Event("input", {bubbles: true})); } return true; })()`)
	var steps []chromedp.Action[chromedp.Void]
	if endpoint != "" {
		steps = append(steps, chromedp.SendKeys(chromedp.CSS("#provider-endpoint"), endpoint))
	}
	if model != "" {
		steps = append(steps, chromedp.SendKeys(chromedp.CSS("#provider-model"), model))
	}
	if len(steps) > 0 {
		if err := tab.Do(10*time.Second, steps...); err != nil {
			t.Fatal(err)
		}
	}
	fclick(t, tab, "#set-key")
}

// TestSurfaceRealtimeOpenAICompatible (issue 18): the realtime page's chat against
// host/fakeprovider as an OpenAI-compatible server on another loopback origin (real CORS), with
// no key. A bad endpoint (ftp://x) and a missing model are refused in the page with nothing
// sent. Then a prompt: the model asks for web_setTheme, the call waits for its approval card,
// the preview turns emerald, the tool result goes back, the answer closes the run and names
// the provider and the model; every request went to the served origin or the fake's, none
// with an Authorization header. A 401 next shows OPENROUTER_AUTHENTICATION_FAILED and "Use
// local agent & retry" runs the same prompt through the local agent (the local-fallback
// marker), the provider untouched.
func TestSurfaceRealtimeOpenAICompatible(t *testing.T) {
	t.Parallel()
	const model = "qwen2.5-coder:7b"
	fake := fakeprovider.New(t, fakeprovider.Options{},
		fakeprovider.Step{Body: chatBody("", "call_theme_1", "web_setTheme", `{"theme":"emerald"}`)},
		fakeprovider.Step{Body: chatBody("Emerald it is.")},
		fakeprovider.Step{Status: 401, BodyFile: "error_401.json"})
	audit := &netAudit{}
	tab := openSurfaceAudited(t, "realtime", audit)

	// Refused in the page: nothing reaches the fake, prompts still run the local agent.
	for _, bad := range []struct{ endpoint, model, field string }{
		{"ftp://x", model, "Endpoint:"},
		{fake.URL + "/api/v1", "", "Model:"},
	} {
		chooseProvider(t, tab, "openai-compatible", bad.endpoint, bad.model)
		waitContains(t, tab, "#provider-error", bad.field)
		if p, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#agent-mode").dataset.provider`); p != "local" {
			t.Errorf("after the refused %s the page runs %q, want local", bad.field, p)
		}
	}
	if n, pre := len(fake.Requests()), fake.Preflights(); n != 0 || pre != 0 {
		t.Fatalf("a refused choice sent %d requests and %d preflights to the fake", n, pre)
	}

	// A loopback server without a key; its base URL (…/v1) is completed.
	chooseProvider(t, tab, "openai-compatible", fake.URL+"/api/v1", model)
	waitTrue(t, tab, "the provider is set", `document.querySelector("#agent-mode").dataset.provider === "openai-compatible" && !document.querySelector("#provider-error")`)
	waitContains(t, tab, "#agent-mode", model)
	waitContains(t, tab, "#provider-state", model)
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#openrouter-key").value + "|" + (document.querySelector("#openrouter-key").getAttribute("value") || "")`); v != "|" {
		t.Errorf("the key field holds %q", v)
	}
	accent0, _ := chromium.EvalInFrame[string](tab, 5*time.Second, accentExpr)
	if err := tab.Do(10*time.Second, chromedp.SendKeys(chromedp.CSS("#chat-prompt"), "Make it emerald")); err != nil {
		t.Fatal(err)
	}
	fclick(t, tab, "#chat-send")
	ended := `document.querySelectorAll("#chat-transcript li[data-kind=agent], #chat-transcript li[data-kind=error]").length > 0`
	approveCards(t, tab, ended, 2)
	text, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#chat-transcript").innerText`)
	answer, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector("#chat-transcript li[data-kind=agent]")||{}).innerText || ""`)
	for _, want := range []string{"Emerald it is.", "OpenAI-compatible server", model, "1 tool call(s)"} {
		if !strings.Contains(answer, want) {
			t.Errorf("the answer entry %q lacks %q; transcript:\n%s", answer, want, text)
		}
	}
	if strings.Contains(text, "local-fallback") || strings.Contains(text, "✗") {
		t.Errorf("the provider run fell back or failed a call:\n%s", text)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, accentExpr, "#0f9f78"); err != nil {
		t.Errorf("the preview's --accent %q (was %q) after the model's web.setTheme emerald (%v)", got, accent0, err)
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("the fake saw %d chat requests, want 2", len(reqs))
	}
	if reqs[0].Path != "/api/v1/chat/completions" || reqs[0].Chat["model"] != model {
		t.Errorf("first request %s model %v, want /api/v1/chat/completions and %s", reqs[0].Path, reqs[0].Chat["model"], model)
	}
	for i, r := range reqs {
		if h := r.Header.Get("Authorization") + r.Header.Get("HTTP-Referer") + r.Header.Get("X-Title"); h != "" {
			t.Errorf("request %d carries Authorization or OpenRouter attribution: %q", i, h)
		}
	}
	sawResult := false
	for _, m := range asSlice(reqs[1].Chat["messages"]) {
		if mm, _ := m.(map[string]any); mm["role"] == "tool" && mm["tool_call_id"] == "call_theme_1" {
			sawResult = true
		}
	}
	if !sawResult {
		t.Error("the second request lacks the web_setTheme result")
	}
	served, endpoint := originOfURL(site(t)), originOfURL(fake.URL)
	sawEndpoint := false
	for _, r := range audit.requests() {
		if r.URL == "" || strings.HasPrefix(r.URL, "data:") || strings.HasPrefix(r.URL, "blob:") || strings.HasPrefix(r.URL, "about:") {
			continue
		}
		switch o := originOfURL(r.URL); o {
		case endpoint:
			sawEndpoint = true
		case served:
		default:
			t.Errorf("request to a third origin: %s %s", r.Method, r.URL)
		}
	}
	if !sawEndpoint {
		t.Error("the audit saw no request to the fake")
	}
	noConsoleErrors(t, tab)

	// A provider failure: its typed code, and the local agent on offer for the same prompt.
	if err := tab.Do(10*time.Second, chromedp.SendKeys(chromedp.CSS("#chat-prompt"), "Make it sky blue")); err != nil {
		t.Fatal(err)
	}
	fclick(t, tab, "#chat-send")
	waitContains(t, tab, "#chat-transcript li[data-kind=error]", "OPENROUTER_AUTHENTICATION_FAILED")
	fclick(t, tab, "#chat-transcript li[data-kind=error] button[data-action=local-retry]")
	approveCards(t, tab, `document.querySelectorAll("#chat-transcript li[data-kind=agent]").length > 1`, 3)
	last, _ := chromium.Eval[string](tab, 5*time.Second, `[...document.querySelectorAll("#chat-transcript li[data-kind=agent]")].pop().innerText`)
	if !strings.Contains(last, "local-fallback") {
		t.Errorf("the retry's answer %q lacks the local-fallback marker", last)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, accentExpr, "#0b83c6"); err != nil {
		t.Errorf("the preview's --accent %q after the local agent's sky theme (%v)", got, err)
	}
	if n := len(fake.ChatRequests()); n != 3 {
		t.Errorf("the fake saw %d chat requests, want 3 (the retry runs locally)", n)
	}
	waitContains(t, tab, "#agent-mode", model) // the provider stays set
}

// TestSurfaceLiveRefusedDraftStays (new-user finding, no lost work): a typed text the core
// refuses (over the 80,000-character budget) stays in the editor for its own file; the page
// does not switch files until the user chooses; "Keep my text" after fixing it writes it to
// that file, never to another one.
func TestSurfaceLiveRefusedDraftStays(t *testing.T) {
	t.Parallel()
	tab := openSurface(t, nil, "live")
	fclick(t, tab, "#file-style-css")
	waitTrue(t, tab, "style.css in the editor", `webcodingEditor.path() === "style.css"`)
	typeText := func(text string) {
		t.Helper()
		evalOK(t, tab, `(() => { const v = webcodingEditor.view(); v.dispatch({changes: {from: 0, to: v.state.doc.length, insert: `+jsString(text)+`}}); return true; })()`)
	}
	typeText(strings.Repeat("a", 80010))
	waitTrue(t, tab, "the refusal shown", `!!document.querySelector("#conflict-keep") && document.querySelector("#surface-doc").textContent.includes("style.css was not applied")`)
	before := surfOK(t, tab, "editor.listFiles", nil)
	fclick(t, tab, "#file-cart-store-ts") // refused while the text waits: the editor stays on style.css
	waitTrue(t, tab, "the switch refused", `document.querySelector("#surface-doc").textContent.includes("choose Keep my text or Take the current text first")`)
	if p, _ := chromium.Eval[string](tab, 5*time.Second, `webcodingEditor.path()`); p != "style.css" {
		t.Fatalf("the editor moved to %q with a refused draft of style.css", p)
	}
	fixed := "body { color: rebeccapurple; }\n"
	typeText(fixed)
	fclick(t, tab, "#conflict-keep")
	waitTrue(t, tab, "the kept text written", `!document.querySelector("#conflict-keep")`)
	doc := surfOK(t, tab, "editor.getDocument", nil)
	if doc["file"] != "style.css" || doc["source"] != fixed {
		t.Fatalf("after Keep my text the document is %v %q, want style.css with the fixed text", doc["file"], doc["source"])
	}
	after := surfOK(t, tab, "editor.listFiles", nil)
	for _, f := range asSlice(after["files"]) {
		m := f.(map[string]any)
		if m["path"] == "style.css" {
			continue
		}
		for _, g := range asSlice(before["files"]) {
			o := g.(map[string]any)
			if o["path"] == m["path"] && n64(o["size"]) != n64(m["size"]) {
				t.Fatalf("%s changed size %d → %d: the text went to another file", m["path"], n64(o["size"]), n64(m["size"]))
			}
		}
	}
	noConsoleErrors(t, tab)
}

// TestSurfaceLivePreviewErrorIsWritten (new-user finding): typed code that makes the preview
// fail is written (PREVIEW_RUNTIME_ERROR with applied true) and shown as the preview's error —
// not as a refused edit that locks the file list and asks to keep the text.
func TestSurfaceLivePreviewErrorIsWritten(t *testing.T) {
	t.Parallel()
	tab := openSurface(t, nil, "live")
	fclick(t, tab, "#file-script-js")
	waitTrue(t, tab, "script.js in the editor", `webcodingEditor.path() === "script.js"`)
	broken := "let y = ;\n"
	evalOK(t, tab, `(() => { const v = webcodingEditor.view(); v.dispatch({changes: {from: 0, to: v.state.doc.length, insert: `+jsString(broken)+`}}); return true; })()`)
	waitTrue(t, tab, "the preview error shown as written", `document.querySelector("#surface-doc").textContent.includes("Written; the preview reports") && document.querySelector("#surface-doc").textContent.includes("PREVIEW_RUNTIME_ERROR")`)
	if ok, _ := chromium.Eval[bool](tab, 5*time.Second, `!document.querySelector("#conflict-keep")`); !ok {
		t.Fatal("a written text is offered as a refused one (Keep my text)")
	}
	doc := surfOK(t, tab, "editor.getDocument", nil)
	if doc["file"] != "script.js" || doc["source"] != broken {
		t.Fatalf("the document is %v %q, want script.js with the typed text", doc["file"], doc["source"])
	}
	fclick(t, tab, "#file-style-css") // not locked: the text was written
	waitTrue(t, tab, "style.css opens", `webcodingEditor.path() === "style.css"`)
}
