package websurface

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// Catalog is the name that selects this surface in rpcsession.Config.Catalog.
const Catalog = "realtime"

// The IndexedDB databases of the realtime page (wasm/cmd/surface): its workspace
// (Ports.Repository) and its durable operation records (Ports.Durable). They never share a name
// with the studio's ("web-coding-studio", "web-coding-operations") nor with the Live Code
// Editor's, so the three surfaces keep their work apart in one browser (issue 18).
const (
	WorkspaceDatabase = "web-coding-realtime"
	DurableDatabase   = "web-coding-realtime-operations"
)

// Install makes Catalog selectable in every studio.Builder of this process
// (studio.RegisterCatalog). Entries that serve the surface call it once at start-up
// (wasm/cmd/reactor); the page module does not, so it does not carry the surface. Calling it
// again does nothing.
func Install() { installOnce.Do(func() { studio.RegisterCatalog(Catalog, register) }) }

var installOnce sync.Once

// MethodAgentRun is the realtime surface's local agent (planner.RunWeb), the same method name
// as the studio's so the CLI's `agent` command serves both:
//
//	params {"prompt": non-blank string, "sessionId"?: 1..256 characters}
//	result planner.Report
const MethodAgentRun = "agent/run"

// register builds one session of the surface: a workspace over the three-file seed
// (studio.HydrateWorkspace: persisted in Ports.Repository when the host gave one, else in
// memory: revision 1, hydrated to 2), the host's preview port (a headless one when the host
// gave none), the eight tools and agent/run. A host folder (the CLI's --dir) is refused: the
// surface works on its own seed only.
func register(ctx context.Context, r *registry.Registry, p studio.Ports) (map[string]rpcsession.Method, error) {
	if p.Folder != nil {
		return nil, errors.New("websurface: the realtime surface has no linked folder; use the studio surface for a folder")
	}
	m := studio.HydrateWorkspace(ctx, p, Seed)
	s := &surface{m: m, port: studio.PreviewPortOf(p), ackTimeout: studio.PreviewAckTimeout}
	for _, t := range s.tools() {
		if err := r.Register(t); err != nil {
			return nil, err
		}
	}
	return map[string]rpcsession.Method{MethodAgentRun: s.agentRun(r)}, nil
}

func (s *surface) agentRun(r *registry.Registry) rpcsession.Method {
	return func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		prompt, session, _, jerr := studio.DecodeAgentRun(params)
		if jerr != nil {
			return nil, jerr
		}
		ctx = registry.WithRun(ctx, MethodAgentRun)
		return planner.RunWeb(ctx, r.Call, prompt, planner.WebRunOptions{SessionID: session, PreviewExecuted: s.executed()}), nil
	}
}

// Schema pieces.
var (
	inPath     = studio.StringSchema(1, MaxPathChars)
	inRevision = studio.SchemaRevision
	outPreview = studio.ObjectSchema([]studio.Prop{
		studio.P("state", studio.EnumSchema(StateRendered, StateCompiled, StatePending, StateError)),
		studio.P("revision", `{"type":"integer","minimum":-1}`),
		studio.P("runtime", studio.SchemaString),
		studio.P("message", studio.StringSchema(0, workspace.MaxMessageChars)),
	}, "state", "revision", "runtime")
	outWorkspaceProps = []studio.Prop{
		studio.P("activePath", studio.SchemaString), studio.P("rootName", studio.SchemaString),
		studio.P("revision", studio.SchemaRevision),
		studio.P("files", studio.ArraySchema(studio.ObjectSchema([]studio.Prop{
			studio.P("path", studio.SchemaString), studio.P("isText", studio.SchemaBool), studio.P("size", studio.IntSchema(0, 0)),
		}, "path", "isText", "size"))),
	}
	outWorkspaceRequired = []string{"activePath", "rootName", "revision", "files"}
)

// mutationOut is the closed output schema of a mutation: {path, activePath, revision,
// preview} plus extra, all required.
func mutationOut(extra ...studio.Prop) json.RawMessage {
	props := append([]studio.Prop{studio.P("path", studio.SchemaString), studio.P("activePath", studio.SchemaString),
		studio.P("revision", studio.SchemaRevision), studio.P("preview", outPreview)}, extra...)
	req := []string{"path", "activePath", "revision", "preview"}
	for _, e := range extra {
		req = append(req, e.Name())
	}
	return studio.OutputSchema(props, req...)
}

// guardText is the description sentence every mutation ends with.
const guardText = " expectedRevision: optional; when given and not the current revision the call fails with WORKSPACE_REVISION_CONFLICT before anything changes (read it from web.getWorkspace). Every successful mutation adds exactly one revision and waits for the preview's acknowledgement."

var sourceLimit = studio.Thousands(workspace.MaxSourceChars)

// tools returns the eight tools in live reference, section 3.4's order, bound to s.
func (s *surface) tools() []registry.Tool {
	P, str, itoa := studio.P, studio.StringSchema, func(n int) string { return studio.Thousands(n) }
	noArgs := studio.InputSchema(nil)
	return []registry.Tool{
		{Name: ToolGetWorkspace, Annotations: mcp.ToolAnnotations{ReadOnlyHint: true}, Handler: s.getWorkspace,
			Description:  "Report the realtime workspace: active path, root name, the workspace revision (one monotonic clock) and every file with isText and its size in UTF-8 bytes. Call it first; pass its revision as expectedRevision.",
			InputSchema:  noArgs,
			OutputSchema: studio.OutputSchema(outWorkspaceProps, outWorkspaceRequired...)},
		{Name: ToolReadFile, Annotations: mcp.ToolAnnotations{ReadOnlyHint: true}, Handler: s.readFile,
			Description:  "Read one text file with the current revision. path: 1.." + itoa(MaxPathChars) + " characters.",
			InputSchema:  studio.InputSchema([]studio.Prop{P("path", inPath)}, "path"),
			OutputSchema: studio.OutputSchema([]studio.Prop{P("path", studio.SchemaString), P("source", studio.SchemaString), P("revision", studio.SchemaRevision)}, "path", "source", "revision")},
		{Name: ToolWriteFile, Annotations: mcp.ToolAnnotations{IdempotentHint: true}, Handler: s.writeFile,
			Description:  "Replace the whole source of a text file, or create it when the path is new (it then becomes the active file). path: 1.." + itoa(MaxPathChars) + " characters; source: at most " + sourceLimit + " characters." + guardText,
			InputSchema:  studio.InputSchema([]studio.Prop{P("path", inPath), P("source", str(0, workspace.MaxSourceChars)), P("expectedRevision", inRevision)}, "path", "source"),
			OutputSchema: mutationOut()},
		{Name: ToolApplyPatch, Handler: s.applyPatch,
			Description: "Replace literal text in an existing text file (no regular expressions). search: 1.." + itoa(workspace.MaxPatchSearchChars) + " characters; replace: 0.." + itoa(workspace.MaxPatchReplaceChars) + "; occurrence: first or all. The patched source must stay within " + sourceLimit + " characters; a miss fails with WORKSPACE_PATCH_NOT_FOUND." + guardText,
			InputSchema: studio.InputSchema([]studio.Prop{P("path", inPath), P("search", str(1, workspace.MaxPatchSearchChars)),
				P("replace", str(0, workspace.MaxPatchReplaceChars)), P("occurrence", studio.EnumSchema("first", "all")),
				P("expectedRevision", inRevision)}, "path", "search", "replace", "occurrence"),
			OutputSchema: mutationOut(P("replacements", studio.IntSchema(1, 0)))},
		{Name: ToolSetTheme, Annotations: mcp.ToolAnnotations{IdempotentHint: true}, Handler: s.setTheme,
			Description:  "Recolour the page: rewrite the first --accent and --accent-soft hex declarations of style.css (both must exist). theme: " + strings.Join(ThemeNames, ", ") + "." + guardText,
			InputSchema:  studio.InputSchema([]studio.Prop{P("theme", studio.EnumSchema(ThemeNames...)), P("expectedRevision", inRevision)}, "theme"),
			OutputSchema: mutationOut(P("theme", studio.EnumSchema(ThemeNames...)))},
		{Name: ToolAddFeature, Handler: s.addFeature,
			Description:  "Append one feature card to the feature grid (<section id=\"feature-grid\" class=\"feature-grid\">) of index.html; every call adds a card. title: 1.." + itoa(MaxFeatureTitleChars) + " characters; description: 1.." + itoa(MaxFeatureDescriptionChars) + " (both HTML-escaped)." + guardText,
			InputSchema:  studio.InputSchema([]studio.Prop{P("title", str(1, MaxFeatureTitleChars)), P("description", str(1, MaxFeatureDescriptionChars)), P("expectedRevision", inRevision)}, "title", "description"),
			OutputSchema: mutationOut(P("title", studio.SchemaString))},
		{Name: ToolUpdateHero, Annotations: mcp.ToolAnnotations{IdempotentHint: true}, Handler: s.updateHero,
			Description:  "Replace the text of the hero title (h1#hero-title) and subtitle (p#hero-subtitle) of index.html. title: 1.." + itoa(MaxHeroTitleChars) + " characters; subtitle: 1.." + itoa(MaxHeroSubtitleChars) + " (both HTML-escaped)." + guardText,
			InputSchema:  studio.InputSchema([]studio.Prop{P("title", str(1, MaxHeroTitleChars)), P("subtitle", str(1, MaxHeroSubtitleChars)), P("expectedRevision", inRevision)}, "title", "subtitle"),
			OutputSchema: mutationOut(P("title", studio.SchemaString))},
		{Name: ToolRunPreview, Annotations: mcp.ToolAnnotations{ReadOnlyHint: true}, Handler: s.runPreview,
			Description: "Read the preview of the current revision without remounting it: the workspace, the preview state (rendered: the page ran and acknowledged; compiled: a headless host compiled it and ran nothing; pending; error), the runtime, the HTML entry and the compiler's diagnostics (missing, blocked or unsupported references).",
			InputSchema: noArgs,
			OutputSchema: studio.OutputSchema([]studio.Prop{
				P("workspace", studio.ObjectSchema(outWorkspaceProps, outWorkspaceRequired...)),
				P("preview", outPreview), P("entry", studio.SchemaString),
				P("diagnostics", studio.ArraySchema(studio.ObjectSchema([]studio.Prop{P("kind", studio.SchemaString),
					P("sourcePath", studio.SchemaString), P("requestedPath", studio.SchemaString), P("message", studio.SchemaString)},
					"kind", "sourcePath", "requestedPath", "message"))),
				P("note", studio.SchemaString)},
				"workspace", "preview", "entry", "diagnostics")},
	}
}
