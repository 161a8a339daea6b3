package websurface

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/mcp/mcptest"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/schema/schematest"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// The tools/call result assertions every catalog's tests share (wasm/mcp/mcptest).
var (
	ok      = mcptest.OK
	fails   = mcptest.Fails
	details = mcptest.Details
)

// session builds one realtime session over the default (headless) ports with cfg.
func session(t *testing.T, cfg rpcsession.Config) *rpcsession.Session {
	t.Helper()
	Install()
	cfg.Catalog = Catalog
	s, err := studio.Builder(studio.Ports{})(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func call(t *testing.T, r *registry.Registry, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	raw := []byte("{}")
	if args != nil {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			t.Fatal(err)
		}
	}
	return r.Call(context.Background(), mcp.CallToolParams{Name: name, Arguments: raw,
		Meta: &mcp.CallMeta{ToolCallID: "t-" + name, Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
}

func revision(t *testing.T, r *registry.Registry) int64 {
	t.Helper()
	return int64(ok(t, call(t, r, ToolGetWorkspace, nil))["revision"].(float64))
}

func source(t *testing.T, r *registry.Registry, path string) string {
	t.Helper()
	return ok(t, call(t, r, ToolReadFile, map[string]any{"path": path}))["source"].(string)
}

func TestToolsList(t *testing.T) {
	s := session(t, rpcsession.Config{})
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
		if len(tl.OutputSchema) == 0 {
			t.Errorf("%s: no output schema", tl.Name)
		}
		props, _ := in["properties"].(map[string]any)
		_, guarded := props["expectedRevision"]
		if guarded != planner.IsWebMutation(tl.Name) {
			t.Errorf("%s: expectedRevision in schema %v, planner says mutation %v", tl.Name, guarded, planner.IsWebMutation(tl.Name))
		}
	}
	if !reflect.DeepEqual(names, ToolNames()) {
		t.Fatalf("tools/list %v, want %v", names, ToolNames())
	}
	ro := map[string]bool{ToolGetWorkspace: true, ToolReadFile: true, ToolRunPreview: true}
	for _, tl := range tools {
		if tl.Annotations.ReadOnlyHint != ro[tl.Name] {
			t.Errorf("%s: readOnlyHint %v", tl.Name, tl.Annotations.ReadOnlyHint)
		}
	}
	// The planner's names are these names.
	want := []string{planner.WebGetWorkspace, planner.WebReadFile, planner.WebWriteFile, planner.WebApplyPatch,
		planner.WebSetTheme, planner.WebAddFeature, planner.WebUpdateHero, planner.WebRunPreview}
	if !reflect.DeepEqual(want, ToolNames()) {
		t.Fatalf("planner names %v differ from %v", want, ToolNames())
	}
}

func TestSeedAndReads(t *testing.T) {
	r := session(t, rpcsession.Config{}).Registry
	ws := ok(t, call(t, r, ToolGetWorkspace, nil))
	if ws["revision"].(float64) != 2 || ws["rootName"] != RootName || ws["activePath"] != IndexPath {
		t.Fatalf("seed workspace %v", ws)
	}
	files := ws["files"].([]any)
	if len(files) != 3 {
		t.Fatalf("files %v", files)
	}
	for i, p := range []string{"index.html", "style.css", "script.js"} {
		f := files[i].(map[string]any)
		if f["path"] != p || f["isText"] != true || int(f["size"].(float64)) != len(source(t, r, p)) {
			t.Errorf("file %d: %v", i, f)
		}
	}
	if got := revision(t, r); got != 2 {
		t.Fatalf("reads changed the revision: %d", got)
	}
}

// TestMutationsBumpOnce: every successful mutation adds exactly one revision (also a repeated
// theme), its result carries that revision and a preview compiled for it (headless).
func TestMutationsBumpOnce(t *testing.T) {
	cases := []struct {
		tool  string
		args  map[string]any
		check func(t *testing.T, r *registry.Registry, out map[string]any)
	}{
		{ToolWriteFile, map[string]any{"path": "script.js", "source": "console.log(1);\n"}, func(t *testing.T, r *registry.Registry, out map[string]any) {
			if source(t, r, "script.js") != "console.log(1);\n" {
				t.Error("script.js not written")
			}
		}},
		{ToolWriteFile, map[string]any{"path": "notes.md", "source": "# n\n"}, func(t *testing.T, r *registry.Registry, out map[string]any) {
			if out["activePath"] != "notes.md" || source(t, r, "notes.md") != "# n\n" {
				t.Errorf("new file: %v", out)
			}
		}},
		{ToolApplyPatch, map[string]any{"path": "index.html", "search": "Try it", "replace": "Go", "occurrence": "all"}, func(t *testing.T, r *registry.Registry, out map[string]any) {
			if out["replacements"].(float64) != 1 || !strings.Contains(source(t, r, "index.html"), ">Go</button>") {
				t.Errorf("patch: %v", out)
			}
		}},
		{ToolSetTheme, map[string]any{"theme": "emerald"}, func(t *testing.T, r *registry.Registry, out map[string]any) {
			css := source(t, r, "style.css")
			if !strings.Contains(css, "--accent: #0f9f78;") || !strings.Contains(css, "--accent-soft: #e7f8f2;") || out["theme"] != "emerald" {
				t.Errorf("theme: %v\n%s", out, css)
			}
		}},
		{ToolSetTheme, map[string]any{"theme": "violet"}, func(t *testing.T, r *registry.Registry, out map[string]any) {
			if source(t, r, "style.css") != Seed().Files[1].Source {
				t.Error("violet is the seed's palette; the source should equal the seed")
			}
		}},
		{ToolAddFeature, map[string]any{"title": "A <b> & 'c'", "description": "d\"e"}, func(t *testing.T, r *registry.Registry, out map[string]any) {
			html := source(t, r, "index.html")
			card := `<article class="feature-card"><strong>A &lt;b&gt; &amp; &#39;c&#39;</strong><span>d&quot;e</span></article>`
			grid := html[strings.Index(html, `id="feature-grid"`):]
			if i := strings.Index(grid, card); i < 0 || i > strings.Index(grid, "</section>") {
				t.Errorf("card not appended inside the grid:\n%s", html)
			}
		}},
		{ToolUpdateHero, map[string]any{"title": "New <title>", "subtitle": "Sub"}, func(t *testing.T, r *registry.Registry, out map[string]any) {
			html := source(t, r, "index.html")
			if !strings.Contains(html, `<h1 id="hero-title">New &lt;title&gt;</h1>`) || !strings.Contains(html, `<p id="hero-subtitle">Sub</p>`) {
				t.Errorf("hero:\n%s", html)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			r := session(t, rpcsession.Config{}).Registry
			args := map[string]any{"expectedRevision": 2}
			for k, v := range c.args {
				args[k] = v
			}
			out := ok(t, call(t, r, c.tool, args))
			if out["revision"].(float64) != 3 || revision(t, r) != 3 {
				t.Fatalf("revision after %s: %v", c.tool, out["revision"])
			}
			pv := out["preview"].(map[string]any)
			if pv["state"] != StateCompiled || pv["revision"].(float64) != 3 || pv["runtime"] != preview.RuntimeHeadless {
				t.Fatalf("preview %v", pv)
			}
			c.check(t, r, out)
			// The same call again (without a guard) adds exactly one more revision.
			delete(args, "expectedRevision")
			if c.tool == ToolApplyPatch {
				return // the search text is gone
			}
			if out := ok(t, call(t, r, c.tool, args)); out["revision"].(float64) != 4 {
				t.Fatalf("second call: revision %v", out["revision"])
			}
		})
	}
}

// TestStaleRevisionRefused: a stale expectedRevision on every mutation is a retryable
// WORKSPACE_REVISION_CONFLICT and changes nothing.
func TestStaleRevisionRefused(t *testing.T) {
	calls := map[string]map[string]any{
		ToolWriteFile:  {"path": "index.html", "source": "x"},
		ToolApplyPatch: {"path": "index.html", "search": "Try it", "replace": "Go", "occurrence": "first"},
		ToolSetTheme:   {"theme": "sky"},
		ToolAddFeature: {"title": "t", "description": "d"},
		ToolUpdateHero: {"title": "t", "subtitle": "s"},
	}
	for tool, args := range calls {
		t.Run(tool, func(t *testing.T) {
			r := session(t, rpcsession.Config{})
			before := map[string]string{}
			for _, p := range []string{"index.html", "style.css", "script.js"} {
				before[p] = source(t, r.Registry, p)
			}
			args["expectedRevision"] = 1
			e := fails(t, call(t, r.Registry, tool, args), mcp.CodeWorkspaceRevisionConflict)
			d := details(t, e)
			if !e.Retryable || d["expectedRevision"] != float64(1) || d["currentRevision"] != float64(2) {
				t.Fatalf("conflict %+v", e)
			}
			if revision(t, r.Registry) != 2 {
				t.Fatal("revision moved")
			}
			for p, src := range before {
				if source(t, r.Registry, p) != src {
					t.Fatalf("%s changed", p)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	r := session(t, rpcsession.Config{}).Registry
	fails(t, call(t, r, ToolReadFile, map[string]any{"path": "missing.html"}), mcp.CodeWorkspaceFileNotFound)
	fails(t, call(t, r, ToolWriteFile, map[string]any{"path": "../x.html", "source": ""}), mcp.CodeWorkspacePathInvalid)
	fails(t, call(t, r, ToolWriteFile, map[string]any{"path": "logo.png", "source": ""}), mcp.CodeWorkspaceFileTypeConflict)
	fails(t, call(t, r, ToolApplyPatch, map[string]any{"path": "index.html", "search": "absent", "replace": "", "occurrence": "first"}), mcp.CodeWorkspacePatchNotFound)
	fails(t, call(t, r, ToolApplyPatch, map[string]any{"path": "nope.css", "search": "a", "replace": "", "occurrence": "first"}), mcp.CodeWorkspaceFileNotFound)
	// Schema bounds (strict validation): the one source budget, the visual texts, the theme.
	big := strings.Repeat("é", workspace.MaxSourceChars+1)
	fails(t, call(t, r, ToolWriteFile, map[string]any{"path": "index.html", "source": big}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolAddFeature, map[string]any{"title": strings.Repeat("t", MaxFeatureTitleChars+1), "description": "d"}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolUpdateHero, map[string]any{"title": "t"}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolSetTheme, map[string]any{"theme": "teal"}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolGetWorkspace, map[string]any{"extra": 1}), mcp.CodeToolValidationFailed)
	// A patch that would cross the budget.
	ok(t, call(t, r, ToolWriteFile, map[string]any{"path": "script.js", "source": strings.Repeat("a", workspace.MaxSourceChars-1)}))
	fails(t, call(t, r, ToolApplyPatch, map[string]any{"path": "script.js", "search": "a", "replace": "bb", "occurrence": "all"}), mcp.CodeWorkspaceSourceLimit)
	// Missing visual targets.
	ok(t, call(t, r, ToolWriteFile, map[string]any{"path": "style.css", "source": ":root { --accent: #111111; }"}))
	e := fails(t, call(t, r, ToolSetTheme, map[string]any{"theme": "rose"}), mcp.CodePreviewTargetNotFound)
	if d := details(t, e); d["target"] != "theme-tokens" || !reflect.DeepEqual(d["missing"], []any{"--accent-soft"}) {
		t.Fatalf("theme tokens: %+v", e)
	}
	ok(t, call(t, r, ToolWriteFile, map[string]any{"path": "index.html", "source": "<h1 id=\"hero-title\">x</h1>"}))
	e = fails(t, call(t, r, ToolAddFeature, map[string]any{"title": "t", "description": "d"}), mcp.CodePreviewTargetNotFound)
	if details(t, e)["target"] != "feature-grid" {
		t.Fatalf("feature grid: %+v", e)
	}
	e = fails(t, call(t, r, ToolUpdateHero, map[string]any{"title": "t", "subtitle": "s"}), mcp.CodePreviewTargetNotFound)
	if details(t, e)["target"] != "hero-subtitle" {
		t.Fatalf("hero: %+v", e)
	}
	rev := revision(t, r)
	fails(t, call(t, r, ToolSetTheme, map[string]any{"theme": "rose"}), mcp.CodePreviewTargetNotFound)
	if revision(t, r) != rev {
		t.Fatal("a failed visual tool moved the revision")
	}
}

// TestHandlerGuards: with validation "silent" the schema lets anything through and the
// handlers' guards hold the same bounds.
func TestHandlerGuards(t *testing.T) {
	r := session(t, rpcsession.Config{Validation: "silent"}).Registry
	fails(t, call(t, r, ToolWriteFile, map[string]any{"path": "index.html", "source": strings.Repeat("x", workspace.MaxSourceChars+1)}), mcp.CodeWorkspaceSourceLimit)
	fails(t, call(t, r, ToolSetTheme, map[string]any{"theme": "teal"}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolUpdateHero, map[string]any{"title": "t", "subtitle": strings.Repeat("s", MaxHeroSubtitleChars+1)}), mcp.CodeToolValidationFailed)
	fails(t, call(t, r, ToolReadFile, map[string]any{"path": strings.Repeat("p", MaxPathChars+1)}), mcp.CodeToolValidationFailed)
	if revision(t, r) != 2 {
		t.Fatal("a refused call moved the revision")
	}
}

func TestRunPreviewHeadless(t *testing.T) {
	r := session(t, rpcsession.Config{}).Registry
	out := ok(t, call(t, r, ToolRunPreview, nil))
	pv := out["preview"].(map[string]any)
	// Nothing was mounted yet: the hydrated revision is pending.
	if pv["state"] != StatePending || pv["runtime"] != preview.RuntimeHeadless || out["note"] != HeadlessNote || out["entry"] != "index.html" {
		t.Fatalf("before any mutation: %v", out)
	}
	if d := out["diagnostics"].([]any); len(d) != 0 {
		t.Fatalf("the seed has diagnostics: %v", d)
	}
	ok(t, call(t, r, ToolSetTheme, map[string]any{"theme": "amber"}))
	out = ok(t, call(t, r, ToolRunPreview, nil))
	pv = out["preview"].(map[string]any)
	if pv["state"] != StateCompiled || pv["revision"].(float64) != 3 || out["workspace"].(map[string]any)["revision"].(float64) != 3 {
		t.Fatalf("after setTheme: %v", out)
	}
}

// TestAgentModeNeedsApproval: the surface uses the studio's policy — an agent-mode mutation
// without an approver is refused, a read runs.
func TestAgentModeNeedsApproval(t *testing.T) {
	r := session(t, rpcsession.Config{}).Registry
	res := r.Call(context.Background(), mcp.CallToolParams{Name: ToolSetTheme, Arguments: []byte(`{"theme":"sky"}`),
		Meta: &mcp.CallMeta{ToolCallID: "a-1", Source: mcp.SourceLocal, Mode: mcp.ModeAgent}})
	fails(t, res, mcp.CodeToolApprovalRequired)
	res = r.Call(context.Background(), mcp.CallToolParams{Name: ToolGetWorkspace, Arguments: []byte(`{}`),
		Meta: &mcp.CallMeta{ToolCallID: "a-2", Source: mcp.SourceLocal, Mode: mcp.ModeAgent}})
	ok(t, res)
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

// TestPaletteCardsRun: every palette card's prompt plans its tools and runs them successfully
// through agent/run (approved), on a fresh seed.
func TestPaletteCardsRun(t *testing.T) {
	cards := planner.WebPalette()
	if len(cards) != len(ToolNames()) {
		t.Fatalf("%d cards for %d tools", len(cards), len(ToolNames()))
	}
	for i, c := range cards {
		if c.Tool != ToolNames()[i] {
			t.Fatalf("card %d is %s, want %s", i, c.Tool, ToolNames()[i])
		}
		t.Run(c.Tool, func(t *testing.T) {
			s := session(t, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
			rep := agent(t, s, c.Prompt)
			if rep.Failed {
				t.Fatalf("%q failed: %s", c.Prompt, rep.Summary)
			}
			var got []string
			for _, st := range rep.Calls {
				got = append(got, st.Request.Name)
			}
			if !reflect.DeepEqual(got, c.Tools) {
				t.Fatalf("%q ran %v, want %v", c.Prompt, got, c.Tools)
			}
			if planner.IsWebMutation(c.Tool) {
				last := rep.Calls[len(rep.Calls)-1]
				var args map[string]any
				_ = json.Unmarshal(last.Request.Arguments, &args)
				if args["expectedRevision"] != float64(2) || !strings.Contains(rep.Summary, "compiled, not run") {
					t.Fatalf("guard %v, summary %q", args, rep.Summary)
				}
			}
		})
	}
}

func TestAgentPrompts(t *testing.T) {
	s := session(t, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
	rep := agent(t, s, "Make it sky blue and add a feature card")
	var got []string
	for _, st := range rep.Calls {
		got = append(got, st.Request.Name+" "+string(st.Request.Arguments))
	}
	want := []string{
		`web.getWorkspace {}`,
		`web.setTheme {"expectedRevision":2,"theme":"sky"}`,
		`web.addFeature {"description":"Added by the local agent through web.addFeature.","expectedRevision":3,"title":"Palette feature"}`,
	}
	if rep.Failed || !reflect.DeepEqual(got, want) {
		t.Fatalf("ran %q (%s), want %q", got, rep.Summary, want)
	}
	rep = agent(t, s, "Make the button bigger")
	if !rep.Failed || !rep.NotUnderstood || len(rep.Calls) != 0 || !strings.Contains(rep.Summary, "did not understand") {
		t.Fatalf("not understood: %+v", rep)
	}
	rep = agent(t, s, `Change "#0b83c6" to "#123456" in the style`)
	if rep.Failed || rep.Calls[1].Request.Name != ToolApplyPatch || !strings.Contains(string(rep.Calls[1].Request.Arguments), `"path":"style.css"`) {
		t.Fatalf("style patch: %+v", rep)
	}
	// Without approval the run stops at the first mutation and says so.
	s = session(t, rpcsession.Config{})
	rep = agent(t, s, "Make it rose")
	if !rep.Failed || rep.ErrorCode != mcp.CodeToolApprovalRequired || len(rep.Calls) != 2 {
		t.Fatalf("unapproved: %+v", rep)
	}
}

func TestFolderRefused(t *testing.T) {
	Install()
	_, err := studio.Builder(studio.Ports{Folder: workspace.NewMemFolder("site", nil)})(context.Background(), rpcsession.Config{Catalog: Catalog})
	if err == nil || !strings.Contains(err.Error(), "no linked folder") {
		t.Fatalf("a folder was accepted: %v", err)
	}
}

// TestConcurrentGuardedWrites: of many mutations guarded on the same revision, exactly one
// lands; every other one is a conflict, and the revision moved by one.
func TestConcurrentGuardedWrites(t *testing.T) {
	r := session(t, rpcsession.Config{}).Registry
	tools := []struct {
		name string
		args map[string]any
	}{
		{ToolSetTheme, map[string]any{"theme": "amber"}},
		{ToolAddFeature, map[string]any{"title": "t", "description": "d"}},
		{ToolUpdateHero, map[string]any{"title": "t", "subtitle": "s"}},
		{ToolWriteFile, map[string]any{"path": "script.js", "source": "// x\n"}},
		{ToolApplyPatch, map[string]any{"path": "index.html", "search": "Try it", "replace": "Go", "occurrence": "first"}},
	}
	const n = 20
	results := make(chan *mcp.CallToolResult, n)
	for i := 0; i < n; i++ {
		tl := tools[i%len(tools)]
		args := map[string]any{"expectedRevision": 2}
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
	if landed != 1 || revision(t, r) != 3 {
		t.Fatalf("%d calls landed, revision %d; want 1 and 3", landed, revision(t, r))
	}
}
