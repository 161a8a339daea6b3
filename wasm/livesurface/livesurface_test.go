package livesurface

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/schema/schematest"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

func TestToolsList(t *testing.T) {
	s := session(t, studio.Ports{}, rpcsession.Config{})
	if err := s.Registry.Check(); err != nil { // every schema compiles
		t.Fatal(err)
	}
	tools, err := s.Registry.ListAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := schematest.CheckTools(tools); err != nil { // wasm/schema agrees with the reference (docs/design.md §5.45)
		t.Error(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
		var in map[string]any
		if err := json.Unmarshal(tl.InputSchema, &in); err != nil || in["additionalProperties"] != false {
			t.Errorf("%s: input schema is not closed: %s", tl.Name, tl.InputSchema)
		}
		var out map[string]any
		if err := json.Unmarshal(tl.OutputSchema, &out); err != nil || out["additionalProperties"] != false {
			t.Errorf("%s: output schema is not closed: %s", tl.Name, tl.OutputSchema)
		}
		props, _ := in["properties"].(map[string]any)
		if _, guarded := props["expectedRevision"]; guarded != planner.IsEditorDocumentMutation(tl.Name) {
			t.Errorf("%s: expectedRevision in schema %v, planner says document mutation %v", tl.Name, guarded, planner.IsEditorDocumentMutation(tl.Name))
		}
	}
	if !reflect.DeepEqual(names, ToolNames()) {
		t.Fatalf("tools/list %v, want %v", names, ToolNames())
	}
	want := []string{planner.EditorGetStatus, planner.EditorListFiles, planner.EditorOpenFile, planner.EditorSaveFile, planner.EditorSaveAll,
		planner.EditorGetDocument, planner.EditorGetPreviewStatus, planner.EditorSetDocument, planner.EditorApplyPatch,
		planner.EditorSetScenario, planner.EditorResetDocument}
	if !reflect.DeepEqual(want, ToolNames()) {
		t.Fatalf("planner names %v differ from %v", want, ToolNames())
	}
	ro := map[string]bool{ToolGetStatus: true, ToolListFiles: true, ToolGetDocument: true, ToolGetPreviewStatus: true}
	destructive := map[string]bool{ToolSaveFile: true, ToolSaveAll: true, ToolResetDocument: true}
	for _, tl := range tools {
		if tl.Annotations.ReadOnlyHint != ro[tl.Name] || tl.Annotations.DestructiveHint != destructive[tl.Name] {
			t.Errorf("%s: annotations %+v", tl.Name, tl.Annotations)
		}
	}
	if DurableDatabase == "web-coding-operations" || !strings.Contains(DurableDatabase, "live-editor") {
		t.Fatalf("the surface's durable database %q must not be the studio's", DurableDatabase)
	}
}

// webFolder is a folder holding the web starter's three files (a linked --dir).
func webFolder() *workspace.MemFolder {
	return workspace.NewMemFolder("site", map[string]string{IndexPath: exampleIndexHTML, StylePath: exampleStyleCSS, ScriptPath: exampleScriptJS})
}

// TestCanonicalOrder is the design's call order (tools/list → editor.getStatus →
// editor.listFiles → editor.openFile → editor.setDocument → acknowledgement →
// editor.saveFile) with both clocks checked at every step. Headless, the acknowledgement is
// what the headless preview gives: the mount compiled for the document revision ("compiled",
// runtime headless); nothing ran.
func TestCanonicalOrder(t *testing.T) {
	folder := webFolder()
	s := session(t, studio.Ports{Folder: folder, Durable: memstore.New()}, rpcsession.Config{
		Approval: rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}})
	r := s.Registry
	tools, err := r.ListAll(context.Background())
	if err != nil || len(tools) != 11 {
		t.Fatalf("tools/list: %d tools, %v", len(tools), err)
	}
	// The workspace: seed 1, hydration 2, the folder's import 3. The document: 1 at start,
	// acknowledged once by the starting mount.
	st := ok(t, call(t, r, ToolGetStatus, nil))
	wantClocks(t, "getStatus", st, 3, 1)
	pv := st["preview"].(map[string]any)
	if pv["state"] != StateCompiled || num(pv["revision"]) != 1 || pv["runtime"] != preview.RuntimeHeadless ||
		st["documentPath"] != IndexPath || st["rootName"] != "site" || st["filesystem"].(map[string]any)["folderLinked"] != true ||
		len(st["dirtyPaths"].([]any)) != 0 || st["documentExampleId"] != ExampleWorkspace {
		t.Fatalf("getStatus %v", st)
	}
	ls := ok(t, call(t, r, ToolListFiles, nil))
	wantClocks(t, "listFiles", map[string]any{"workspaceRevision": ls["workspaceRevision"], "documentRevision": float64(1)}, 3, 1)
	if files := ls["files"].([]any); len(files) != 3 || files[0].(map[string]any)["path"] != IndexPath || num(files[1].(map[string]any)["size"]) != int64(len(exampleScriptJS)) {
		t.Fatalf("listFiles %v", ls)
	}
	open := ok(t, call(t, r, ToolOpenFile, map[string]any{"path": StylePath, "expectedRevision": 1}))
	wantClocks(t, "openFile", open, 3, 2)
	if open["activePath"] != StylePath || open["file"] != StylePath || open["source"] != exampleStyleCSS ||
		open["preview"].(map[string]any)["state"] != StateCompiled || num(open["preview"].(map[string]any)["revision"]) != 2 {
		t.Fatalf("openFile %v", open)
	}
	edited := exampleStyleCSS + ".card { outline: 1px solid red; }\n"
	set := ok(t, call(t, r, ToolSetDocument, map[string]any{"source": edited, "expectedRevision": 2}))
	wantClocks(t, "setDocument", set, 4, 3)
	if num(set["preview"].(map[string]any)["revision"]) != 3 {
		t.Fatalf("setDocument preview %v", set["preview"])
	}
	ack := ok(t, call(t, r, ToolGetPreviewStatus, nil))
	if ack["state"] != StateCompiled || num(ack["revision"]) != 3 || ack["runtime"] != preview.RuntimeHeadless {
		t.Fatalf("acknowledgement %v", ack)
	}
	wantClocks(t, "after the acknowledgement", ok(t, call(t, r, ToolGetDocument, nil)), 4, 3)
	if st := ok(t, call(t, r, ToolGetStatus, nil)); !reflect.DeepEqual(st["dirtyPaths"], []any{StylePath}) {
		t.Fatalf("dirty before the save: %v", st["dirtyPaths"])
	}
	// A model's save, approved, with the per-session-and-path key.
	model := meta{source: mcp.SourceModel, mode: mcp.ModeAgent, session: "s1", key: "editor.saveFile:s1:" + StylePath}
	saved := ok(t, callAs(t, r, model, ToolSaveFile, map[string]any{"path": StylePath}))
	wantClocks(t, "saveFile", saved, 4, 3)
	if saved["savedTo"] != SavedToFilesystem || len(saved["dirtyPaths"].([]any)) != 0 || saved["path"] != StylePath {
		t.Fatalf("saveFile %v", saved)
	}
	if got, _ := folder.ReadFile(context.Background(), StylePath); string(got) != edited {
		t.Fatalf("the folder holds %q", got)
	}
	// The same key replays: no second write.
	before := len(folder.Writes)
	ok(t, callAs(t, r, model, ToolSaveFile, map[string]any{"path": StylePath}))
	if len(folder.Writes) != before {
		t.Fatalf("a replayed save wrote again: %v", folder.Writes)
	}
	wantClocks(t, "end", ok(t, call(t, r, ToolGetDocument, nil)), 4, 3)
}

// TestClockTable: each row of live reference, section 2.2's table.
func TestClockTable(t *testing.T) {
	r := session(t, studio.Ports{}, rpcsession.Config{}).Registry
	ws, doc := clocks(t, r)
	if ws != 2 || doc != 1 {
		t.Fatalf("start: workspace %d document %d", ws, doc)
	}
	steps := []struct {
		name    string
		tool    string
		args    map[string]any
		dws     int64
		dirty   []any
		checkFn func(out map[string]any) bool
	}{
		{"setDocument, new text", ToolSetDocument, map[string]any{"source": "<p>new</p>\n"}, 1, []any{IndexPath}, nil},
		{"setDocument, same text and a scenario", ToolSetDocument, map[string]any{"source": "<p>new</p>\n", "scenario": ScenarioBlocked}, 0, []any{IndexPath},
			func(out map[string]any) bool { return out["scenario"] == ScenarioBlocked }},
		{"applyPatch", ToolApplyPatch, map[string]any{"search": "new", "replace": "newer", "occurrence": "all"}, 1, []any{IndexPath},
			func(out map[string]any) bool {
				return num(out["replacements"]) == 1 && out["source"] == "<p>newer</p>\n"
			}},
		{"setScenario", ToolSetScenario, map[string]any{"scenario": ScenarioInvalid}, 0, []any{IndexPath}, nil},
		{"resetDocument, text differs", ToolResetDocument, nil, 1, []any{},
			func(out map[string]any) bool {
				return out["source"] == exampleIndexHTML && out["scenario"] == ScenarioInvalid
			}},
		{"resetDocument, text equal", ToolResetDocument, nil, 0, []any{}, nil},
		{"openFile", ToolOpenFile, map[string]any{"path": "cart-store.ts"}, 0, []any{},
			func(out map[string]any) bool {
				return out["exampleId"] == "store" && out["activePath"] == "cart-store.ts"
			}},
	}
	for _, st := range steps {
		out := ok(t, call(t, r, st.tool, st.args))
		ws, doc = ws+st.dws, doc+1
		wantClocks(t, st.name, out, ws, doc)
		if st.checkFn != nil && !st.checkFn(out) {
			t.Fatalf("%s: %v", st.name, out)
		}
		if d := ok(t, call(t, r, ToolGetStatus, nil))["dirtyPaths"]; !reflect.DeepEqual(d, st.dirty) {
			t.Fatalf("%s: dirty %v, want %v", st.name, d, st.dirty)
		}
	}
	// Reads and failed calls move neither clock.
	for _, tool := range []string{ToolGetStatus, ToolListFiles, ToolGetDocument, ToolGetPreviewStatus} {
		ok(t, call(t, r, tool, nil))
	}
	fails(t, call(t, r, ToolApplyPatch, map[string]any{"search": "absent", "replace": "", "occurrence": "first"}), mcp.CodeWorkspacePatchNotFound)
	fails(t, call(t, r, ToolSaveAll, nil), mcp.CodeWorkspaceFolderNotConnected)
	if w, d := clocks(t, r); w != ws || d != doc {
		t.Fatalf("reads moved the clocks: %d %d, want %d %d", w, d, ws, doc)
	}
}

// TestStaleRevisionRefused: a stale expectedRevision on every guarded tool is a retryable
// WORKSPACE_REVISION_CONFLICT on the document clock and changes nothing.
func TestStaleRevisionRefused(t *testing.T) {
	calls := map[string]map[string]any{
		ToolOpenFile:      {"path": StylePath},
		ToolSetDocument:   {"source": "x"},
		ToolApplyPatch:    {"search": "Web starter", "replace": "W", "occurrence": "first"},
		ToolSetScenario:   {"scenario": ScenarioBlocked},
		ToolResetDocument: {},
	}
	for tool, args := range calls {
		t.Run(tool, func(t *testing.T) {
			r := session(t, studio.Ports{}, rpcsession.Config{}).Registry
			ok(t, call(t, r, ToolSetDocument, map[string]any{"source": exampleIndexHTML + "<!-- edited -->\n"})) // document 2, workspace 3
			before := ok(t, call(t, r, ToolGetDocument, nil))
			args["expectedRevision"] = 1
			e := fails(t, call(t, r, tool, args), mcp.CodeWorkspaceRevisionConflict)
			d := details(t, e)
			if !e.Retryable || d["expectedRevision"] != float64(1) || d["currentRevision"] != float64(2) || d["clock"] != "document" {
				t.Fatalf("conflict %+v", e)
			}
			if after := ok(t, call(t, r, ToolGetDocument, nil)); !reflect.DeepEqual(before, after) {
				t.Fatalf("changed: %v → %v", before, after)
			}
			// The current revision is accepted.
			args["expectedRevision"] = 2
			ok(t, call(t, r, tool, args))
		})
	}
}

// TestScenariosAndSafeRunner: scenario switches move only the document clock, the projection
// shows the scenario, and the safe runner answers its fixed events without executing anything.
func TestScenariosAndSafeRunner(t *testing.T) {
	port := studio.NewHeadlessPreview()
	s := session(t, studio.Ports{Preview: port}, rpcsession.Config{})
	r := s.Registry
	ok(t, call(t, r, ToolOpenFile, map[string]any{"path": "ui-tools.tsx"}))
	// A document that would run code if it were executed: it is shown as text.
	ok(t, call(t, r, ToolSetDocument, map[string]any{"source": "<script>window.ran = true</script>"}))
	res, rev := port.Document()
	if rev != 3 || strings.Contains(res.HTML, "<script>window.ran") || !strings.Contains(res.HTML, "&lt;script&gt;window.ran") {
		t.Fatalf("revision %d projection:\n%s", rev, res.HTML)
	}
	ws, _ := clocks(t, r)
	for i, sc := range []string{ScenarioInvalid, ScenarioBlocked, ScenarioSuccess} {
		out := ok(t, call(t, r, ToolSetScenario, map[string]any{"scenario": sc, "expectedRevision": 3 + i}))
		wantClocks(t, sc, out, ws, int64(4+i))
		if res, _ := port.Document(); !strings.Contains(res.HTML, "scenario "+sc) {
			t.Fatalf("%s: projection does not show the scenario", sc)
		}
		raw, jerr := s.Methods[MethodRunScenario](context.Background(), nil)
		if jerr != nil {
			t.Fatal(jerr)
		}
		run := raw.(ScenarioRun)
		if run.Scenario != sc || run.DocumentRevision != int64(4+i) || !reflect.DeepEqual(run.Events, SafeRun(sc)) || run.Runtime != RuntimeSafeRunner {
			t.Fatalf("%s: %+v", sc, run)
		}
	}
	if n := len(SafeRun(ScenarioSuccess)); n != 4 || len(SafeRun(ScenarioInvalid)) != 2 || len(SafeRun(ScenarioBlocked)) != 3 || SafeRun("x") != nil {
		t.Fatalf("safe runner event counts")
	}
}

// TestEveryExampleHasAPreview: opening each example (the usecase one included) is
// acknowledged; the web starter's files run (execute mode), the others are projected.
func TestEveryExampleHasAPreview(t *testing.T) {
	port := studio.NewHeadlessPreview()
	r := session(t, studio.Ports{Preview: port}, rpcsession.Config{}).Registry
	ok(t, call(t, r, ToolOpenFile, map[string]any{"path": StylePath}))
	for _, ex := range Examples() {
		out := ok(t, call(t, r, ToolOpenFile, map[string]any{"path": ex.File}))
		if out["exampleId"] != ex.ID || out["preview"].(map[string]any)["state"] != StateCompiled {
			t.Fatalf("%s: %v", ex.ID, out)
		}
		res, _ := port.Document()
		projected := strings.Contains(res.HTML, "safe runner: shown, not run")
		if projected != (ex.ID != "web") {
			t.Fatalf("%s: projected %v\n%s", ex.ID, projected, res.HTML)
		}
		// Every mutation on it is acknowledged too (the original's usecase example timed out).
		ok(t, call(t, r, ToolSetScenario, map[string]any{"scenario": ScenarioBlocked}))
	}
}

func TestErrors(t *testing.T) {
	r := session(t, studio.Ports{}, rpcsession.Config{}).Registry
	fails(t, call(t, r, ToolOpenFile, map[string]any{"path": "missing.ts"}), mcp.CodeWorkspaceFileNotFound)
	fails(t, call(t, r, ToolOpenFile, map[string]any{"path": "../x.ts"}), mcp.CodeWorkspacePathInvalid)
	fails(t, call(t, r, ToolApplyPatch, map[string]any{"search": "absent", "replace": "", "occurrence": "first"}), mcp.CodeWorkspacePatchNotFound)
	fails(t, call(t, r, ToolSaveFile, map[string]any{"path": IndexPath}), mcp.CodeWorkspaceFolderNotConnected)
	// The one budget, in the schema (strict validation) and in the handler (silent).
	big := strings.Repeat("é", workspace.MaxSourceChars+1)
	fails(t, call(t, r, ToolSetDocument, map[string]any{"source": big}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolSetDocument, map[string]any{"source": ""}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolSetScenario, map[string]any{"scenario": "other"}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolGetStatus, map[string]any{"extra": 1}), mcp.CodeToolValidationFailed)
	silent := session(t, studio.Ports{}, rpcsession.Config{Validation: "silent"}).Registry
	fails(t, call(t, silent, ToolSetDocument, map[string]any{"source": big}), mcp.CodeWorkspaceSourceLimit)
	fails(t, call(t, silent, ToolOpenFile, map[string]any{"path": strings.Repeat("p", MaxPathChars+1)}), mcp.CodeToolValidationFailed)
	ok(t, call(t, silent, ToolSetDocument, map[string]any{"source": strings.Repeat("a", workspace.MaxSourceChars-1)}))
	fails(t, call(t, silent, ToolApplyPatch, map[string]any{"search": "a", "replace": "bb", "occurrence": "all"}), mcp.CodeWorkspaceSourceLimit)
	if _, doc := clocks(t, silent); doc != 2 {
		t.Fatalf("refused calls moved the document clock: %d", doc)
	}
	// An asset of a linked folder cannot be opened.
	folder := workspace.NewMemFolder("site", map[string]string{IndexPath: "<p>x</p>", "logo.png": "\x89PNG\r\n\x1a\n"})
	r = session(t, studio.Ports{Folder: folder}, rpcsession.Config{}).Registry
	fails(t, call(t, r, ToolOpenFile, map[string]any{"path": "logo.png"}), mcp.CodeWorkspaceFileTypeConflict)
}

// scriptedPort answers every Await at once with an ack (status, message) or a timeout.
type scriptedPort struct {
	status, message string
	timeout         bool
}

func (p scriptedPort) Mount(context.Context, preview.Mount) error { return nil }
func (p scriptedPort) Await(_ context.Context, rev int64, _ time.Duration) (preview.Ack, error) {
	if p.timeout {
		return preview.Ack{}, preview.ErrAckTimeout
	}
	return preview.Ack{Revision: rev, Status: p.status, Message: p.message, Runtime: preview.RuntimeSandboxIframe}, nil
}
func (p scriptedPort) Runtime() string { return preview.RuntimeSandboxIframe }

// TestPreviewOutcomes: in a page the acknowledgement reads "rendered"; a timeout or an error is
// the typed failure with applied true, the change stays, and the preview status says so.
func TestPreviewOutcomes(t *testing.T) {
	r := session(t, studio.Ports{Preview: scriptedPort{status: workspace.PreviewSynced}}, rpcsession.Config{}).Registry
	if out := ok(t, call(t, r, ToolSetScenario, map[string]any{"scenario": ScenarioBlocked})); out["preview"].(map[string]any)["state"] != StateRendered {
		t.Fatalf("rendered: %v", out)
	}
	for _, c := range []struct {
		port      scriptedPort
		code      mcp.Code
		retryable bool
		state     string
	}{
		{scriptedPort{timeout: true}, mcp.CodePreviewAckTimeout, true, StatePending},
		{scriptedPort{status: workspace.PreviewError, message: "ReferenceError: x"}, mcp.CodePreviewRuntimeError, false, StateError},
	} {
		r := session(t, studio.Ports{Preview: c.port}, rpcsession.Config{}).Registry
		e := fails(t, call(t, r, ToolSetDocument, map[string]any{"source": "<p>x</p>", "expectedRevision": 1}), c.code)
		if d := details(t, e); e.Retryable != c.retryable || d["applied"] != true || d["revision"] != float64(2) {
			t.Fatalf("%s: %+v", c.code, e)
		}
		if ws, doc := clocks(t, r); ws != 3 || doc != 2 {
			t.Fatalf("%s: the applied change is not there: %d %d", c.code, ws, doc)
		}
		if st := ok(t, call(t, r, ToolGetPreviewStatus, nil)); st["state"] != c.state {
			t.Fatalf("%s: preview status %v", c.code, st)
		}
	}
}

// TestSaveApproval: saves from a model or an MCP client (mode agent) need approval, and a
// static approval needs --allow-destructive too; direct calls (the page's buttons) run.
func TestSaveApproval(t *testing.T) {
	for _, src := range []string{mcp.SourceModel, mcp.SourceMCP} {
		m := meta{source: src, mode: mcp.ModeAgent}
		r := session(t, studio.Ports{Folder: webFolder()}, rpcsession.Config{}).Registry
		fails(t, callAs(t, r, m, ToolSaveFile, map[string]any{"path": IndexPath}), mcp.CodeToolApprovalRequired)
		fails(t, callAs(t, r, m, ToolSaveAll, nil), mcp.CodeToolApprovalRequired)
		ok(t, callAs(t, r, m, ToolGetStatus, nil)) // reads run
		r = session(t, studio.Ports{Folder: webFolder()}, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}}).Registry
		fails(t, callAs(t, r, m, ToolSaveFile, map[string]any{"path": IndexPath}), mcp.CodeToolApprovalRequired)
		r = session(t, studio.Ports{Folder: webFolder()}, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}}).Registry
		ok(t, callAs(t, r, m, ToolSaveFile, map[string]any{"path": IndexPath}))
		r = session(t, studio.Ports{Folder: webFolder()}, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "scripted", Decisions: []string{"deny"}}}).Registry
		fails(t, callAs(t, r, m, ToolSaveFile, map[string]any{"path": IndexPath}), mcp.CodeToolPolicyDenied)
	}
	r := session(t, studio.Ports{Folder: webFolder()}, rpcsession.Config{}).Registry
	ok(t, call(t, r, ToolSaveAll, nil))
}

func agent(t *testing.T, s *rpcsession.Session, prompt string) planner.Report {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"prompt": prompt})
	out, jerr := s.Methods[MethodAgentRun](context.Background(), params)
	if jerr != nil {
		t.Fatal(jerr)
	}
	return out.(planner.Report)
}

func ran(rep planner.Report) []string {
	var got []string
	for _, st := range rep.Calls {
		got = append(got, st.Request.Name+" "+string(st.Request.Arguments))
	}
	return got
}

func TestAgent(t *testing.T) {
	s := session(t, studio.Ports{Folder: webFolder()}, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}})
	rep := agent(t, s, `Open style.css and change "#2563eb" to "#0f766e", then save`)
	want := []string{
		`editor.getDocument {}`,
		`editor.openFile {"expectedRevision":1,"path":"style.css"}`,
		`editor.applyPatch {"expectedRevision":2,"occurrence":"first","replace":"#0f766e","search":"#2563eb"}`,
		`editor.saveFile {"path":"style.css"}`,
	}
	if rep.Failed || !reflect.DeepEqual(ran(rep), want) || !strings.Contains(rep.Summary, "compiled, not run") {
		t.Fatalf("ran %q (%s), want %q", ran(rep), rep.Summary, want)
	}
	rep = agent(t, s, "Switch to the blocked scenario")
	if rep.Failed || !reflect.DeepEqual(ran(rep), []string{`editor.getDocument {}`, `editor.setScenario {"expectedRevision":3,"scenario":"blocked"}`}) {
		t.Fatalf("scenario: %q %s", ran(rep), rep.Summary)
	}
	rep = agent(t, s, "Make the button bigger")
	if !rep.Failed || !rep.NotUnderstood || len(rep.Calls) != 0 || !strings.Contains(rep.Summary, "did not understand") {
		t.Fatalf("not understood: %+v", rep)
	}
	// Without approval the run stops at the first document mutation and says so.
	s = session(t, studio.Ports{}, rpcsession.Config{})
	rep = agent(t, s, "reset the document")
	if !rep.Failed || rep.ErrorCode != mcp.CodeToolApprovalRequired || len(rep.Calls) != 2 {
		t.Fatalf("unapproved: %+v", rep)
	}
}

// TestConcurrentGuardedMutations: of many document mutations guarded on the same document
// revision, exactly one lands; every other one is a conflict, and each clock moved at most once.
func TestConcurrentGuardedMutations(t *testing.T) {
	r := session(t, studio.Ports{}, rpcsession.Config{}).Registry
	tools := []struct {
		name string
		args map[string]any
	}{
		{ToolSetScenario, map[string]any{"scenario": ScenarioBlocked}},
		{ToolSetDocument, map[string]any{"source": "<p>one</p>\n"}},
		{ToolApplyPatch, map[string]any{"search": "Web starter", "replace": "Starter", "occurrence": "first"}},
		{ToolOpenFile, map[string]any{"path": StylePath}},
		{ToolResetDocument, map[string]any{}},
	}
	const n = 20
	results := make(chan *mcp.CallToolResult, n)
	for i := 0; i < n; i++ {
		tl := tools[i%len(tools)]
		args := map[string]any{"expectedRevision": 1}
		for k, v := range tl.args {
			args[k] = v
		}
		raw, _ := json.Marshal(args)
		go func(name string) {
			results <- r.Call(context.Background(), mcp.CallToolParams{Name: name, Arguments: raw,
				Meta: &mcp.CallMeta{Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
		}(tl.name)
	}
	landed := 0
	for i := 0; i < n; i++ {
		res := <-results
		switch {
		case !res.IsError:
			landed++
		case res.Error == nil || res.Error.Code != mcp.CodeWorkspaceRevisionConflict:
			t.Fatalf("want success or a conflict, got %+v", res.Error)
		}
	}
	ws, doc := clocks(t, r)
	if landed != 1 || doc != 2 || ws > 3 {
		t.Fatalf("%d calls landed, clocks %d %d; want 1 call, document 2, workspace ≤ 3", landed, ws, doc)
	}
}
