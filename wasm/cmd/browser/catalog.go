//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/toolcatalog"
	"github.com/webcoding/studio/wasm/ui/views"
)

// The tool catalog panel (#catalog-panel, issue 9): the canonical tools/list (every page,
// following nextCursor), search (#catalog-search) and scope filters with counts (all /
// read-only / workspace / preview, wasm/toolcatalog), a definition view (description, policy
// summary, annotations, input and output schema as formatted JSON), a sample-arguments editor
// (#catalog-sample) generated from the input schema — refreshed when the selection, the
// revision or the active file changes, unless the user edited it — and "Run sample", a
// separate button: selecting a tool never runs anything, and every tool that is not read-only
// (annotations.readOnlyHint) asks in the in-app confirm dialog first ("Run <tool> on the
// workspace?", naming a destructive tool and the existing files it would modify); the sample
// text must pass the strict JSON guard (mcp.CheckJSON: repeated keys are refused). A run is a direct
// tools/call through a.tool (source local, mode direct), so it shows in the trace; a failure
// shows "[CODE] message" here and a transcript entry with its recovery actions.
// Copy/Download: the whole list, the selected definition, or the tools/call request.

// catalogPanel (app.catalog) is the tool catalog panel's state (guarded by mu).
type catalogPanel struct {
	mu       sync.Mutex
	tools    []mcp.Tool
	loaded   bool
	err      string
	query    string
	scope    toolcatalog.Scope
	selected string
	editor   toolcatalog.Editor
	genKey   string // tool|revision|activePath of the generated sample
	result   string // the last run's line
	running  bool
	lastKey  string
}

func init() {
	registerFeature(&feature{name: "catalog", bind: catalogBind, start: catalogStart, render: catalogRender, action: catalogAction})
}

// catalogToolID is a stable element id for a tool name (views.CatalogToolID).
func catalogToolID(name string) string { return views.CatalogToolID(name) }

func catalogBind(a *app) {
	doc := js.Global().Get("document")
	p := doc.Call("getElementById", "catalog-panel")
	if p.IsNull() {
		return
	}
	p.Set("innerHTML", `<div class="catalog-head"><input type="search" id="catalog-search" aria-label="Search tools" placeholder="Search tools" autocomplete="off"><div id="catalog-scopes" class="catalog-scopes" role="group" aria-label="Tool scope"></div><div class="catalog-list-actions"><button type="button" data-action="catalog-copy-list" id="catalog-copy-list">Copy list</button> <button type="button" data-action="catalog-download-list" id="catalog-download-list">Download list</button></div></div>`+
		`<div class="catalog-body"><ul id="catalog-list" class="catalog-list" aria-label="Tools"></ul><div class="catalog-detail"><div id="catalog-definition" class="catalog-definition"></div>`+
		`<div id="catalog-sample-box" class="catalog-sample" hidden><label for="catalog-sample">Sample arguments</label><textarea id="catalog-sample" rows="8" spellcheck="false" autocomplete="off"></textarea>`+
		`<div class="catalog-sample-actions"><button type="button" data-action="catalog-run" id="catalog-run" class="primary">Run sample</button> <button type="button" data-action="catalog-reset-sample" id="catalog-reset-sample">Reset sample</button> <button type="button" data-action="catalog-copy-request" id="catalog-copy-request">Copy request</button> <button type="button" data-action="catalog-download-request" id="catalog-download-request">Download request</button></div>`+
		`<p id="catalog-result" class="catalog-result" role="status" aria-live="polite"></p></div></div></div>`)
	a.on(doc, "input", func(_ js.Value, args []js.Value) any {
		t := args[0].Get("target")
		switch t.Get("id").String() {
		case "catalog-search":
			a.catalog.mu.Lock()
			a.catalog.query = t.Get("value").String()
			a.catalog.mu.Unlock()
			a.markDirty()
		case "catalog-sample":
			a.catalog.mu.Lock()
			a.catalog.editor.Edit(t.Get("value").String())
			a.catalog.mu.Unlock()
		}
		return nil
	})
}

// catalogStart lists every page of tools/list and records the discovery row in the trace.
func catalogStart(a *app, ctx context.Context) {
	catalogLoad(ctx, a)
}

func catalogLoad(ctx context.Context, a *app) {
	start := time.Now()
	var tools []mcp.Tool
	cursor := ""
	for page := 0; page < 100; page++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var res mcp.ListToolsResult
		if err := a.rpc(ctx, "", "tools/list", params, &res); err != nil {
			a.catalog.mu.Lock()
			a.catalog.err = err.Error()
			a.catalog.mu.Unlock()
			a.markDirty()
			return
		}
		tools = append(tools, res.Tools...)
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	a.catalog.mu.Lock()
	a.catalog.tools, a.catalog.loaded, a.catalog.err = tools, true, ""
	a.catalog.lastKey = ""
	a.catalog.mu.Unlock()
	traceDiscovery(a, len(tools), start, time.Since(start))
}

var scopeLabels = map[toolcatalog.Scope]string{toolcatalog.ScopeAll: "All", toolcatalog.ScopeReadOnly: "Read-only",
	toolcatalog.ScopeWorkspace: "Workspace", toolcatalog.ScopePreview: "Preview"}

func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(none)"
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// catalogSample brings the editor to tool at revision rev (a new generated sample unless the
// user edited tool's) and returns the text to show. Call with catalog.mu held.
func (a *app) catalogSample(tool mcp.Tool, rev int64, active string) (text string, changed bool) {
	gk := tool.Name + "|" + strconv.FormatInt(rev, 10) + "|" + active
	if gk != a.catalog.genKey {
		a.catalog.genKey = gk
		gen, err := toolcatalog.Sample(tool.InputSchema, toolcatalog.SampleOptions{ActivePath: active, Revision: rev, HasRevision: rev > 0})
		if err != nil {
			gen = "{}"
		}
		changed = a.catalog.editor.Refresh(tool.Name, gen)
	}
	return a.catalog.editor.Text(), changed
}

func (a *app) catalogSelectedTool() (mcp.Tool, bool) { return a.catalogToolLocked(a.catalog.selected) }

// catalogToolLocked returns the listed tool named name (false before the catalog loaded or for
// an unknown name); a.catalog.mu held.
func (a *app) catalogToolLocked(name string) (mcp.Tool, bool) {
	for _, t := range a.catalog.tools {
		if t.Name == name {
			return t, true
		}
	}
	return mcp.Tool{}, false
}

func catalogRender(a *app) {
	a.mu.Lock()
	rev, active := a.st.revision, a.st.activePath
	a.mu.Unlock()
	a.catalog.mu.Lock()
	unlock := sync.OnceFunc(a.catalog.mu.Unlock) // also on a panic: the next render must not block (design.md §5.28)
	defer unlock()
	key := a.catalog.query + "|" + string(a.catalog.scope) + "|" + a.catalog.selected + "|" + strconv.FormatInt(rev, 10) + "|" + active +
		"|" + a.catalog.result + "|" + strconv.FormatBool(a.catalog.loaded) + "|" + a.catalog.err + "|" + strconv.FormatBool(a.catalog.running)
	if key == a.catalog.lastKey {
		unlock()
		return
	}
	a.catalog.lastKey = key
	counts := toolcatalog.Counts(a.catalog.tools, a.catalog.query)
	scopes := make([]views.CatalogScope, 0, len(toolcatalog.Scopes))
	for _, s := range toolcatalog.Scopes {
		scopes = append(scopes, views.CatalogScope{ID: string(s), Label: scopeLabels[s], Count: counts[s], On: s == a.catalog.scope})
	}
	list := toolcatalog.Filter(a.catalog.tools, a.catalog.query, a.catalog.scope)
	tools := make([]views.CatalogTool, len(list))
	for i, t := range list {
		tools[i] = views.CatalogTool{Name: t.Name, Hints: toolcatalog.Hints(t)}
	}
	var def *views.CatalogDefinition
	sampleText, sampleChanged := "", false
	tool, ok := a.catalogSelectedTool()
	if ok {
		def = &views.CatalogDefinition{Name: tool.Name, Description: tool.Description, Policy: toolcatalog.PolicySummary(tool),
			Hints: toolcatalog.Hints(tool), Input: prettyJSON(tool.InputSchema), Output: prettyJSON(tool.OutputSchema)}
		sampleText, sampleChanged = a.catalogSample(tool, rev, active)
	}
	selected, errText := a.catalog.selected, a.catalog.err
	result, running := a.catalog.result, a.catalog.running
	unlock()

	a.setRegion("catalog-scopes", views.CatalogScopesHTML(scopes))
	// A selection change only flips aria-pressed: the morph patches the attribute in place,
	// so the buttons keep their identity and a click in flight is never lost.
	a.setRegion("catalog-list", views.CatalogListHTML(tools, selected, errText))
	a.setRegion("catalog-definition", views.CatalogDefinitionHTML(def))
	doc := js.Global().Get("document")
	if box := doc.Call("getElementById", "catalog-sample-box"); !box.IsNull() {
		box.Set("hidden", def == nil)
	}
	if ta := doc.Call("getElementById", "catalog-sample"); !ta.IsNull() && def != nil && (sampleChanged || ta.Get("value").String() != sampleText && !catalogEditing(ta)) {
		ta.Set("value", sampleText)
	}
	if b := doc.Call("getElementById", "catalog-run"); !b.IsNull() {
		b.Set("disabled", running)
	}
	setText("catalog-result", result)
}

// catalogEditing reports whether the user is typing in the sample editor.
func catalogEditing(ta js.Value) bool {
	return js.Global().Get("document").Get("activeElement").Equal(ta)
}

func catalogSetResult(a *app, s string) {
	a.catalog.mu.Lock()
	a.catalog.result = s
	a.catalog.mu.Unlock()
	a.markDirty()
}

func catalogAction(a *app, act uiAction) bool {
	ctx := context.Background()
	switch act.Name {
	case "catalog-scope":
		a.catalog.mu.Lock()
		a.catalog.scope = toolcatalog.ParseScope(act.Get("scope"))
		a.catalog.mu.Unlock()
		a.markDirty()
	case "catalog-select":
		// Selecting shows the definition and a sample; it never runs anything.
		a.catalog.mu.Lock()
		a.catalog.selected = act.Get("tool")
		a.catalog.result = ""
		a.catalog.mu.Unlock()
		a.markDirty()
	case "catalog-reset-sample":
		a.catalog.mu.Lock()
		a.catalog.editor.Reset()
		a.catalog.genKey = "" // regenerate against the current revision
		a.catalog.lastKey = ""
		a.catalog.mu.Unlock()
		a.markDirty()
	case "catalog-run":
		catalogRun(ctx, a)
	case "catalog-copy-list", "catalog-download-list":
		a.catalog.mu.Lock()
		data := toolcatalog.List(a.catalog.tools)
		a.catalog.mu.Unlock()
		catalogDeliver(ctx, a, act.Name == "catalog-copy-list", "webcoding-tools.json", data)
	case "catalog-copy-definition", "catalog-download-definition":
		a.catalog.mu.Lock()
		tool, ok := a.catalogSelectedTool()
		a.catalog.mu.Unlock()
		if ok {
			catalogDeliver(ctx, a, act.Name == "catalog-copy-definition", tool.Name+".json", toolcatalog.Definition(tool))
		}
	case "catalog-copy-request", "catalog-download-request":
		a.mu.Lock()
		rev, active := a.st.revision, a.st.activePath
		a.mu.Unlock()
		a.catalog.mu.Lock()
		tool, ok := a.catalogSelectedTool()
		text := ""
		if ok {
			text, _ = a.catalogSample(tool, rev, active)
		}
		a.catalog.mu.Unlock()
		if !ok {
			return true
		}
		req, err := toolcatalog.CallRequest(tool.Name, json.RawMessage(text))
		if err != nil {
			catalogSetResult(a, err.Error())
			return true
		}
		catalogDeliver(ctx, a, act.Name == "catalog-copy-request", tool.Name+".tools-call.json", req)
	default:
		return false
	}
	return true
}

// catalogDeliver copies data to the clipboard or downloads it as name.
func catalogDeliver(ctx context.Context, a *app, copy bool, name string, data []byte) {
	if copy {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := copyText(cctx, string(data)); err != nil {
			catalogSetResult(a, "Copy failed: "+err.Error())
			return
		}
		catalogSetResult(a, "Copied "+name+" ("+strconv.Itoa(len(data))+" bytes).")
		return
	}
	if err := download(name, "application/json", data); err != nil {
		catalogSetResult(a, "Download failed: "+err.Error())
		return
	}
	catalogSetResult(a, "Downloaded "+name+".")
}

// catalogRun runs the selected tool with the editor's arguments (Run sample).
func catalogRun(ctx context.Context, a *app) {
	a.mu.Lock()
	rev, active := a.st.revision, a.st.activePath
	a.mu.Unlock()
	a.catalog.mu.Lock()
	tool, ok := a.catalogSelectedTool()
	if !ok || a.catalog.running {
		a.catalog.mu.Unlock()
		return
	}
	// The selected tool's sample (or the user's edit of it, recorded by the input listener),
	// even when the click came before the render that shows it.
	text, _ := a.catalogSample(tool, rev, active)
	a.catalog.running = true
	a.catalog.mu.Unlock()
	defer func() {
		a.catalog.mu.Lock()
		a.catalog.running = false
		a.catalog.mu.Unlock()
		a.markDirty()
	}()
	args, err := toolcatalog.ParseArguments(json.RawMessage(text))
	if err != nil {
		catalogSetResult(a, err.Error())
		return
	}
	a.mu.Lock()
	paths := make(map[string]bool, len(a.st.files))
	for _, f := range a.st.files {
		paths[f.Path] = true
	}
	a.mu.Unlock()
	if c := toolcatalog.RunConfirmation(tool, args, func(p string) bool { return paths[p] }); c != nil &&
		!a.confirm(ctx, confirmOptions{Title: c.Title, Text: c.Text, OK: c.OK, Danger: c.Danger}) {
		catalogSetResult(a, "Not run: "+tool.Name+" was not confirmed.")
		return
	}
	catalogSetResult(a, "Running "+tool.Name+"…")
	a.flushDraft(ctx)
	var out json.RawMessage
	err = a.tool(ctx, tool.Name, args, &out)
	a.reload(ctx)
	if err != nil {
		catalogSetResult(a, err.Error())
		a.addEntry(a.failureEntry(err))
		return
	}
	if tool.Annotations != nil && tool.Annotations.ReadOnlyHint {
		// A read-only tool's result is what the user asked to see (issue 14 item 7): shown in
		// the catalog panel, bounded (redaction is for traces and exports, not the user's view).
		catalogSetResult(a, "✓ "+tool.Name+" completed:\n"+boundedJSON(out, maxCatalogResultChars))
		return
	}
	catalogSetResult(a, "✓ "+tool.Name+" completed.")
}

// maxCatalogResultChars bounds the result shown in the catalog panel, in code points.
const maxCatalogResultChars = 4000

// boundedJSON is raw indented, cut to max code points with a note of how much was left out.
func boundedJSON(raw json.RawMessage, max int) string {
	var b bytes.Buffer
	text := string(raw)
	if json.Indent(&b, raw, "", "  ") == nil {
		text = b.String()
	}
	r := []rune(text)
	if len(r) <= max {
		return text
	}
	return string(r[:max]) + "\n… (" + groupThousands(len(r)-max) + " more characters not shown)"
}
