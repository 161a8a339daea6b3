//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/toolcatalog"
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

var catalog = struct {
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
}{scope: toolcatalog.ScopeAll}

func init() {
	registerFeature(&feature{name: "catalog", bind: catalogBind, start: catalogStart, render: catalogRender, action: catalogAction})
}

var catalogTpl = template.Must(template.New("").Funcs(template.FuncMap{"toolID": catalogToolID}).Parse(`
{{define "scopes"}}{{range .Scopes}}<button type="button" class="catalog-scope" id="catalog-scope-{{.ID}}" data-action="catalog-scope" data-scope="{{.ID}}" aria-pressed="{{if .On}}true{{else}}false{{end}}">{{.Label}} <span class="catalog-count" data-count="{{.Count}}">{{.Count}}</span></button>{{end}}{{end}}
{{define "list"}}{{if .Err}}<li class="catalog-error" role="alert">{{.Err}}</li>{{else if not .Tools}}<li class="catalog-empty">No tool matches.</li>{{end}}{{range .Tools}}<li><button type="button" class="catalog-tool" id="{{toolID .Name}}" data-action="catalog-select" data-tool="{{.Name}}" aria-pressed="false"><span class="catalog-tool-name">{{.Name}}</span>{{range .Hints}} <span class="catalog-hint hint-{{.}}">{{.}}</span>{{end}}</button></li>{{end}}{{end}}
{{define "definition"}}{{if .}}<h3 class="catalog-def-name">{{.Name}}</h3><p class="catalog-def-description">{{.Description}}</p><p class="catalog-policy">{{.Policy}}</p>{{if .Hints}}<p class="catalog-hints">Annotations: {{range $i, $h := .Hints}}{{if $i}}, {{end}}{{$h}}{{end}}</p>{{end}}<details open><summary>Input schema</summary><pre class="catalog-schema" id="catalog-input-schema">{{.Input}}</pre></details><details><summary>Output schema</summary><pre class="catalog-schema" id="catalog-output-schema">{{.Output}}</pre></details><div class="catalog-def-actions"><button type="button" data-action="catalog-copy-definition" id="catalog-copy-definition">Copy definition</button> <button type="button" data-action="catalog-download-definition" id="catalog-download-definition">Download definition</button></div>{{else}}<p class="catalog-hint-text">Select a tool to see its definition. Selecting never runs it.</p>{{end}}{{end}}
`))

// catalogToolID is a stable element id for a tool name.
func catalogToolID(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return "catalog-tool-" + b.String()
}

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
	on(doc, "input", func(_ js.Value, args []js.Value) any {
		t := args[0].Get("target")
		switch t.Get("id").String() {
		case "catalog-search":
			catalog.mu.Lock()
			catalog.query = t.Get("value").String()
			catalog.mu.Unlock()
			a.markDirty()
		case "catalog-sample":
			catalog.mu.Lock()
			catalog.editor.Edit(t.Get("value").String())
			catalog.mu.Unlock()
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
			catalog.mu.Lock()
			catalog.err = err.Error()
			catalog.mu.Unlock()
			a.markDirty()
			return
		}
		tools = append(tools, res.Tools...)
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	catalog.mu.Lock()
	catalog.tools, catalog.loaded, catalog.err = tools, true, ""
	catalog.lastKey = ""
	catalog.mu.Unlock()
	traceDiscovery(a, len(tools), start, time.Since(start))
}

type scopeView struct {
	ID, Label string
	Count     int
	On        bool
}

type toolView struct {
	Name  string
	Hints []string
}

type definitionView struct {
	Name, Description, Policy string
	Hints                     []string
	Input, Output             string
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
func catalogSample(tool mcp.Tool, rev int64, active string) (text string, changed bool) {
	gk := tool.Name + "|" + strconv.FormatInt(rev, 10) + "|" + active
	if gk != catalog.genKey {
		catalog.genKey = gk
		gen, err := toolcatalog.Sample(tool.InputSchema, toolcatalog.SampleOptions{ActivePath: active, Revision: rev, HasRevision: rev > 0})
		if err != nil {
			gen = "{}"
		}
		changed = catalog.editor.Refresh(tool.Name, gen)
	}
	return catalog.editor.Text(), changed
}

func catalogSelectedTool() (mcp.Tool, bool) {
	for _, t := range catalog.tools {
		if t.Name == catalog.selected {
			return t, true
		}
	}
	return mcp.Tool{}, false
}

func catalogRender(a *app) {
	a.mu.Lock()
	rev, active := a.st.revision, a.st.activePath
	a.mu.Unlock()
	catalog.mu.Lock()
	key := catalog.query + "|" + string(catalog.scope) + "|" + catalog.selected + "|" + strconv.FormatInt(rev, 10) + "|" + active +
		"|" + catalog.result + "|" + strconv.FormatBool(catalog.loaded) + "|" + catalog.err + "|" + strconv.FormatBool(catalog.running)
	if key == catalog.lastKey {
		catalog.mu.Unlock()
		return
	}
	catalog.lastKey = key
	counts := toolcatalog.Counts(catalog.tools, catalog.query)
	scopes := make([]scopeView, 0, len(toolcatalog.Scopes))
	for _, s := range toolcatalog.Scopes {
		scopes = append(scopes, scopeView{ID: string(s), Label: scopeLabels[s], Count: counts[s], On: s == catalog.scope})
	}
	list := toolcatalog.Filter(catalog.tools, catalog.query, catalog.scope)
	views := make([]toolView, len(list))
	for i, t := range list {
		views[i] = toolView{Name: t.Name, Hints: toolcatalog.Hints(t)}
	}
	var def *definitionView
	sampleText, sampleChanged := "", false
	tool, ok := catalogSelectedTool()
	if ok {
		def = &definitionView{Name: tool.Name, Description: tool.Description, Policy: toolcatalog.PolicySummary(tool),
			Hints: toolcatalog.Hints(tool), Input: prettyJSON(tool.InputSchema), Output: prettyJSON(tool.OutputSchema)}
		sampleText, sampleChanged = catalogSample(tool, rev, active)
	}
	data := map[string]any{"Tools": views, "Selected": catalog.selected, "Err": catalog.err}
	result, running := catalog.result, catalog.running
	catalog.mu.Unlock()

	setRegion("catalog-scopes", catalogExec("scopes", map[string]any{"Scopes": scopes}))
	// The list's HTML does not depend on the selection (aria-pressed is set in place below):
	// re-creating the buttons on a selection change could remove the button under a pointer
	// between its press and release, and that click was lost.
	setRegion("catalog-list", catalogExec("list", data))
	if btns := js.Global().Get("document").Call("querySelectorAll", "#catalog-list .catalog-tool"); !btns.IsNull() {
		for i, n := 0, btns.Get("length").Int(); i < n; i++ {
			b := btns.Index(i)
			if on := strconv.FormatBool(attr(b, "data-tool") == data["Selected"]); attr(b, "aria-pressed") != on {
				b.Call("setAttribute", "aria-pressed", on)
			}
		}
	}
	setRegion("catalog-definition", catalogExec("definition", def))
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

func catalogExec(name string, data any) string {
	var b bytes.Buffer
	if err := catalogTpl.ExecuteTemplate(&b, name, data); err != nil {
		return template.HTMLEscapeString(err.Error())
	}
	return b.String()
}

func catalogSetResult(a *app, s string) {
	catalog.mu.Lock()
	catalog.result = s
	catalog.mu.Unlock()
	a.markDirty()
}

func catalogAction(a *app, act uiAction) bool {
	ctx := context.Background()
	switch act.Name {
	case "catalog-scope":
		catalog.mu.Lock()
		catalog.scope = toolcatalog.ParseScope(act.Get("scope"))
		catalog.mu.Unlock()
		a.markDirty()
	case "catalog-select":
		// Selecting shows the definition and a sample; it never runs anything.
		catalog.mu.Lock()
		catalog.selected = act.Get("tool")
		catalog.result = ""
		catalog.mu.Unlock()
		a.markDirty()
	case "catalog-reset-sample":
		catalog.mu.Lock()
		catalog.editor.Reset()
		catalog.genKey = "" // regenerate against the current revision
		catalog.lastKey = ""
		catalog.mu.Unlock()
		a.markDirty()
	case "catalog-run":
		catalogRun(ctx, a)
	case "catalog-copy-list", "catalog-download-list":
		catalog.mu.Lock()
		data := toolcatalog.List(catalog.tools)
		catalog.mu.Unlock()
		catalogDeliver(ctx, a, act.Name == "catalog-copy-list", "webcoding-tools.json", data)
	case "catalog-copy-definition", "catalog-download-definition":
		catalog.mu.Lock()
		tool, ok := catalogSelectedTool()
		catalog.mu.Unlock()
		if ok {
			catalogDeliver(ctx, a, act.Name == "catalog-copy-definition", tool.Name+".json", toolcatalog.Definition(tool))
		}
	case "catalog-copy-request", "catalog-download-request":
		a.mu.Lock()
		rev, active := a.st.revision, a.st.activePath
		a.mu.Unlock()
		catalog.mu.Lock()
		tool, ok := catalogSelectedTool()
		text := ""
		if ok {
			text, _ = catalogSample(tool, rev, active)
		}
		catalog.mu.Unlock()
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
	catalog.mu.Lock()
	tool, ok := catalogSelectedTool()
	if !ok || catalog.running {
		catalog.mu.Unlock()
		return
	}
	// The selected tool's sample (or the user's edit of it, recorded by the input listener),
	// even when the click came before the render that shows it.
	text, _ := catalogSample(tool, rev, active)
	catalog.running = true
	catalog.mu.Unlock()
	defer func() {
		catalog.mu.Lock()
		catalog.running = false
		catalog.mu.Unlock()
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
	catalogSetResult(a, "✓ "+tool.Name+" completed.")
}
