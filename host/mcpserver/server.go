package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/provider"
	"github.com/webcoding/studio/wasm/registry"
)

// Name forms of Options.Names.
const (
	NamesProvider  = "provider"  // workspace_getStatus (default)
	NamesCanonical = "canonical" // workspace.getStatus
)

// ServerName is the implementation name the server reports in initialize.
const ServerName = "webcoding-studio"

// Core is the part of *wasmhost.Host the server uses: one JSON-RPC 2.0 request in, its
// response out (nil for a notification). Calls may be concurrent; the server serializes them.
type Core interface {
	Handle(ctx context.Context, req []byte) ([]byte, error)
}

// Approval is the --approve policy: None (the zero value), All, or the named Tools (canonical
// or provider names). Destructive tools also need Options.AllowDestructive.
type Approval struct {
	All   bool
	Tools []string
}

// ParseApprove parses a --approve value: "" or "none", "all", or a comma-separated list of
// tool names (surrounding spaces ignored).
//
// Errors: an empty element ("a,,b", "a,") or a name containing whitespace.
func ParseApprove(s string) (Approval, error) {
	switch strings.TrimSpace(s) {
	case "", "none":
		return Approval{}, nil
	case "all":
		return Approval{All: true}, nil
	}
	var a Approval
	for _, t := range strings.Split(s, ",") {
		t = strings.TrimSpace(t)
		if t == "" || strings.ContainsAny(t, " \t\r\n") {
			return Approval{}, fmt.Errorf("--approve must be all, none or TOOL,TOOL,...; got %q", s)
		}
		a.Tools = append(a.Tools, t)
	}
	return a, nil
}

// Options configure a Server. The zero value serves provider names and approves nothing.
type Options struct {
	// Names is NamesProvider ("" too) or NamesCanonical.
	Names string
	// Approval decides agent-mode mutations (default: none are approved).
	Approval Approval
	// AllowDestructive lets approved tools with destructiveHint run.
	AllowDestructive bool
	// AllowRemote lets the Streamable HTTP server listen on, and answer requests that
	// arrive on, a non-loopback address (Server.Listen, HTTPHandler). The server has no
	// authentication: anyone who reaches the port can edit the workspace.
	AllowRemote bool
	// Autosave follows every successful call of a tool that is not read-only with
	// workspace.saveAll, in the same tools/call (see Server.autosave).
	Autosave bool
	// Catalog is the session catalog the server serves (rpcsession.Config.Catalog): "" for
	// the core's default (the studio), "realtime" for the web.* surface (issue 18). It is
	// configured before the tools are listed and in every later configure.
	Catalog string
	// Durable names the durable idempotency backend built inside the module: "" (off; the
	// registry's in-memory idempotency still applies) or "memory" (rpcsession.DurableConfig).
	Durable string
	// SessionID is the sessionId given to every call whose _meta names none. Idempotency and
	// durable records are scoped by session (REFERENCE §6.6): the CLI derives it from --dir so
	// one shared store never replays one folder's result for another.
	SessionID string
	// Version is the implementation version reported in initialize ("" means "dev").
	Version string
	// Log receives diagnostics (never protocol bytes). Nil discards them.
	Log io.Writer
	// Flags names the command-line flags in approval messages; nil uses DefaultFlags.
	Flags *FlagNames
}

// FlagNames are the flag spellings quoted in TOOL_APPROVAL_REQUIRED messages.
type FlagNames struct {
	Approve, AllowDestructive, AllowRemote string
}

// DefaultFlags are the flags of `webcoding mcp`.
var DefaultFlags = FlagNames{Approve: "--approve", AllowDestructive: "--allow-destructive", AllowRemote: "--allow-remote"}

// Server is one MCP server over one core. It is safe for concurrent use by many sessions
// (stdio has one; Streamable HTTP may have several, all over the same workspace).
type Server struct {
	opts  Options
	core  *coreClient
	sdk   *sdk.Server
	log   *slog.Logger
	names *provider.NameMap
	tools map[string]mcp.Tool // canonical name → tool
	wg    sync.WaitGroup      // calls in flight (Close waits)
	order *arrivals           // the arrival order of LineTransport's tools/call requests
}

// New configures the core's session (static approvals from opts), reads the whole catalog
// with registry.ListAllTools and registers every tool with the SDK server.
//
// Errors: opts.Names is not a name form; the core refuses session/configure or tools/list
// (JSON-RPC error, host failure or a malformed page); two tool names collide in provider form;
// a tool's input schema is not an object schema.
func New(ctx context.Context, core Core, opts Options) (*Server, error) {
	switch opts.Names {
	case "":
		opts.Names = NamesProvider
	case NamesProvider, NamesCanonical:
	default:
		return nil, fmt.Errorf("mcpserver: names must be %q or %q, got %q", NamesProvider, NamesCanonical, opts.Names)
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Flags == nil {
		opts.Flags = &DefaultFlags
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{opts: opts, order: newArrivals(), log: slog.New(slog.NewTextHandler(opts.Log, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	s.core = &coreClient{core: core, sem: make(chan struct{}, 1)}
	if opts.Catalog != "" { // list the catalog the server will serve
		s.core.config, _ = json.Marshal(map[string]string{"catalog": opts.Catalog})
		if err := s.core.configure(ctx); err != nil {
			return nil, fmt.Errorf("mcpserver: %w", err)
		}
	}

	tools, err := registry.ListAllTools(ctx, s.core.listPage, registry.ListAllOptions{})
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	canon := make([]string, len(tools))
	s.tools = make(map[string]mcp.Tool, len(tools))
	for i, t := range tools {
		canon[i] = t.Name
		s.tools[t.Name] = t
	}
	if s.names, err = provider.NewNameMap(canon); err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	s.core.config = s.sessionConfig()
	if err := s.core.configure(ctx); err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}

	instr := instructions
	switch opts.Catalog {
	case CatalogRealtime:
		instr = realtimeInstructions
	case CatalogLive:
		instr = liveInstructions
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: ServerName, Title: "Web Coding Studio", Version: opts.Version},
		&sdk.ServerOptions{Logger: s.log, Instructions: instr})
	for _, t := range tools {
		st, err := s.sdkTool(t)
		if err != nil {
			return nil, err
		}
		s.sdk.AddTool(st, s.handler(t.Name))
	}
	return s, nil
}

const instructions = "Tools of the Web Coding Studio workspace (HTML/CSS/JS files). Read-only tools run; " +
	"mutations need the approvals the server was started with. Edits live in memory until workspace_saveAll."

// CatalogRealtime is Options.Catalog of the realtime web-coding surface (wasm/websurface).
const CatalogRealtime = "realtime"

const realtimeInstructions = "Tools of the realtime web-coding surface: a three-file site (index.html, style.css, " +
	"script.js) in memory, with one workspace revision. Call web_getWorkspace first and pass its revision as " +
	"expectedRevision; read-only tools run, mutations need the approvals the server was started with."

// CatalogLive is Options.Catalog of the Live Code Editor surface (wasm/livesurface).
const CatalogLive = "live"

const liveInstructions = "Tools of the Live Code Editor: one open document over the editor's files, with two " +
	"clocks (workspaceRevision for files, documentRevision for the document). Call editor_getStatus first; pass " +
	"the document revision as expectedRevision. editor_saveFile and editor_saveAll write to the linked folder and " +
	"need the approvals (and --allow-destructive) the server was started with; pass an idempotencyKey per session and path."

// sessionConfig is the session/configure params: static approvals with canonical tool names
// (provider names in Approval.Tools are mapped back; unknown names are kept and never match).
func (s *Server) sessionConfig() []byte {
	type approval struct {
		Mode             string   `json:"mode"`
		All              bool     `json:"all,omitempty"`
		Tools            []string `json:"tools,omitempty"`
		AllowDestructive bool     `json:"allowDestructive,omitempty"`
	}
	a := approval{Mode: "static", All: s.opts.Approval.All, AllowDestructive: s.opts.AllowDestructive}
	for _, t := range s.opts.Approval.Tools {
		if c, ok := s.names.ToCanonical(t); ok {
			t = c
		}
		a.Tools = append(a.Tools, t)
	}
	type durable struct {
		Backend string `json:"backend"`
	}
	cfg := struct {
		Approval approval `json:"approval"`
		Durable  *durable `json:"durable,omitempty"`
		Catalog  string   `json:"catalog,omitempty"`
	}{Approval: a, Catalog: s.opts.Catalog}
	if s.opts.Durable != "" {
		cfg.Durable = &durable{Backend: s.opts.Durable}
	}
	b, _ := json.Marshal(cfg)
	return b
}

// UnknownApprovals returns the --approve names that name no tool (for a warning).
func (s *Server) UnknownApprovals() []string {
	var out []string
	for _, t := range s.opts.Approval.Tools {
		if _, ok := s.tools[t]; ok {
			continue
		}
		if _, ok := s.names.ToCanonical(t); ok {
			continue
		}
		out = append(out, t)
	}
	return out
}

// servedName is a canonical name in the served form.
func (s *Server) servedName(canonical string) string {
	if s.opts.Names == NamesCanonical {
		return canonical
	}
	p, _ := s.names.ToProvider(canonical) // every tool is in the map (New)
	return p
}

// sdkTool converts a canonical tool to the SDK's, keeping schemas as raw bytes and every hint
// explicit.
func (s *Server) sdkTool(t mcp.Tool) (*sdk.Tool, error) {
	var probe struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(t.InputSchema, &probe) != nil || probe.Type != "object" {
		return nil, fmt.Errorf("mcpserver: tool %q: input schema is not {\"type\":\"object\",...}", t.Name)
	}
	st := &sdk.Tool{
		Name:        s.servedName(t.Name),
		Title:       t.Title,
		Description: t.Description,
		InputSchema: t.InputSchema,
	}
	if len(t.OutputSchema) > 0 {
		st.OutputSchema = t.OutputSchema
	}
	if a := t.Annotations; a != nil {
		d, o := a.DestructiveHint, a.OpenWorldHint
		st.Annotations = &sdk.ToolAnnotations{Title: a.Title, ReadOnlyHint: a.ReadOnlyHint,
			DestructiveHint: &d, IdempotentHint: a.IdempotentHint, OpenWorldHint: &o}
	}
	return st, nil
}

// SDK returns the underlying SDK server (for transports other than Run's).
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Tools returns the canonical catalog as read in New, in the core's order. (tools/list serves
// it sorted by name: the SDK keeps tools in a sorted set.)
func (s *Server) Tools() []mcp.Tool {
	out := make([]mcp.Tool, 0, len(s.tools))
	for _, c := range s.names.Canonical() {
		out = append(out, s.tools[c])
	}
	return out
}

// Run serves one session over t until the client disconnects or ctx ends, then waits for the
// calls still inside the core (see the package doc, "Cancellation") and reports unsaved edits
// to Options.Log (WarnUnsaved).
//
// Over a *LineTransport, tools/call requests reach the core in the order they were read, even
// when the client sends them without waiting for the answers (arrivals): a later write never
// runs before an earlier one.
//
// Errors: the transport fails or ctx ended (ctx.Err()); a client that simply disconnects
// (EOF) is not an error.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	if lt, ok := t.(*LineTransport); ok {
		lt.order = s.order
	}
	err := s.sdk.Run(ctx, t)
	s.wg.Wait()
	s.WarnUnsaved(ctx)
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// Wait blocks until no call is inside the core.
func (s *Server) Wait() { s.wg.Wait() }

// StatusTool is the read-only tool WarnUnsaved asks for the unsaved changes.
const StatusTool = "workspace.getStatus"

// WarnUnsaved asks the core (workspace.getStatus, mode "direct") whether edits were not
// written: dirtyPaths (changed in memory) or deletedPaths (deletions not yet applied to the
// folder), and adds the paths whose confirmed edits a reset of the core lost before any save
// (coreClient: the fresh instance starts again from the folder, so its status no longer names
// them). If any, it writes one line to Options.Log naming them and saying they were not
// written, and returns it; otherwise, or when the core cannot answer, it returns "". Run calls
// it when the session ends; an HTTP server calls it after Wait.
func (s *Server) WarnUnsaved(ctx context.Context) string {
	params := mustMarshal(map[string]any{"name": StatusTool, "arguments": map[string]any{},
		"_meta": map[string]any{"source": mcp.SourceMCP, "mode": mcp.ModeDirect, "toolCallId": newCallID() + "-exit-status"}})
	res, terr := s.coreCall(context.WithoutCancel(ctx), params, "exit-status")
	if terr != nil || res == nil {
		return ""
	}
	var r struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			DirtyPaths   []string `json:"dirtyPaths"`
			DeletedPaths []string `json:"deletedPaths"`
			Filesystem   struct {
				FolderLinked bool `json:"folderLinked"`
			} `json:"filesystem"`
		} `json:"structuredContent"`
	}
	if json.Unmarshal(res, &r) != nil || r.IsError {
		return ""
	}
	sc := r.StructuredContent
	lost := s.core.lostPaths()
	if len(sc.DirtyPaths)+len(sc.DeletedPaths)+len(lost) == 0 {
		return ""
	}
	var parts []string
	if len(sc.DirtyPaths) > 0 {
		parts = append(parts, "changed "+strings.Join(sc.DirtyPaths, ", "))
	}
	if len(sc.DeletedPaths) > 0 {
		parts = append(parts, "deleted "+strings.Join(sc.DeletedPaths, ", "))
	}
	if len(lost) > 0 {
		parts = append(parts, "lost when the core was reset: "+strings.Join(lost, ", "))
	}
	where := "to the linked folder (" + s.servedName(SaveAllTool) + " was not called after them)"
	if !sc.Filesystem.FolderLinked {
		where = "anywhere: no folder is linked, so they lived only in this server's memory"
	}
	line := fmt.Sprintf("mcp: exiting with unsaved changes (%s); they were not written %s.", strings.Join(parts, "; "), where)
	fmt.Fprintln(s.opts.Log, line)
	return line
}
