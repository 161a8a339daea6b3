package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/webcoding/studio/host/pgstore"
	"github.com/webcoding/studio/host/redisstore"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/jsonstring"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/provider"
	"github.com/webcoding/studio/wasm/registry"
)

// workspaceFlags are the workspace flags of the commands that edit or read a workspace.
type workspaceFlags struct {
	dir, downloads string
}

// addWorkspaceFlags declares --dir (and --downloads when downloads is true).
func addWorkspaceFlags(fs *flag.FlagSet, downloads bool) *workspaceFlags {
	wf := &workspaceFlags{}
	fs.StringVar(&wf.dir, "dir", "", "the workspace `folder`, linked like a picked folder (default: the built-in 4-file seed workspace, in memory)")
	if downloads {
		fs.StringVar(&wf.downloads, "downloads", "", "`directory` that receives workspace.downloadFile (default: no download target)")
	}
	return wf
}

// checkDir reports a --dir that names nothing, or a file, as a usage error (exit 2) before the
// host starts. Other failures to reach the folder are left to the host (exit 1).
func (wf *workspaceFlags) checkDir() error {
	if wf.dir == "" {
		return nil
	}
	st, err := os.Stat(wf.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("--dir %s: no such directory", wf.dir)
	case err == nil && !st.IsDir():
		return usagef("--dir %s: not a directory", wf.dir)
	}
	return nil
}

// apply hands the folder and download directory to the host.
func (wf *workspaceFlags) apply(hf *hostFlags) {
	hf.folderDir, hf.downloadsDir = wf.dir, wf.downloads
}

// validateApprove checks --approve: all, none, or a comma-separated list of tool names.
func validateApprove(v string) error {
	switch v {
	case "", "all", "none":
		return nil
	}
	for _, t := range strings.Split(v, ",") {
		if strings.TrimSpace(t) == "" {
			return usagef("--approve must be all, none or TOOL,TOOL,...; got %q", v)
		}
	}
	return nil
}

// approvalConfig maps --approve onto session/configure's approval (SPEC §3): a static
// approver; "all" approves every tool and "TOOL,..." the named ones, destructive ones included
// (in the CLI the flag is the person's decision; only the MCP server separates
// --allow-destructive); "none" or "" approves nothing, so agent-mode mutations are refused.
func approvalConfig(v string) map[string]any {
	a := map[string]any{"mode": "static"}
	switch v {
	case "", "none":
	case "all":
		a["all"], a["allowDestructive"] = true, true
	default:
		var tools []string
		for _, t := range strings.Split(v, ",") {
			tools = append(tools, strings.TrimSpace(t))
		}
		a["tools"], a["allowDestructive"] = tools, true
	}
	return a
}

// configureApproval sends session/configure with the --approve approval (which rebuilds the
// session: the folder is imported again). See configureSession.
func configureApproval(ctx context.Context, c *rpcClient, approve string) error {
	return configureSession(ctx, c, sessionConfig{approve: approve, approval: true})
}

// sessionConfig is what the CLI's flags put in one session/configure.
type sessionConfig struct {
	approval bool   // send the --approve approval (agent mode)
	approve  string // the --approve value
	durable  string // durable backend the core builds ("memory"); "" = none (or the host's)
	catalog  string // session catalog (--surface); "" = the core's default (studio)
}

// configureSession sends one session/configure (which rebuilds the session: the folder is
// imported again) with the approval of --approve when sc.approval, and the durable backend
// when sc.durable is set. Nothing is sent when there is nothing to configure.
//
// A --approve list is checked against the module's tools/list first: each name may be canonical
// ("workspace.writeFile") or in provider form ("workspace_writeFile"); the approval carries the
// canonical names (with sc.catalog, the catalog is configured first so the names are checked
// against it). Errors: a usage error (exit 2) naming every unknown tool; a host failure or a
// refused configure (exit 1).
func configureSession(ctx context.Context, c *rpcClient, sc sessionConfig) error {
	cfg := map[string]any{}
	if sc.approval {
		a := approvalConfig(sc.approve)
		if names, ok := a["tools"].([]string); ok {
			if sc.catalog != "" { // check the names against the catalog that will serve them
				if err := configureSession(ctx, c, sessionConfig{catalog: sc.catalog}); err != nil {
					return err
				}
			}
			canonical, err := resolveToolNames(ctx, c, names)
			if err != nil {
				return err
			}
			a["tools"] = canonical
		}
		cfg["approval"] = a
	}
	if sc.durable != "" {
		cfg["durable"] = map[string]any{"backend": sc.durable}
	}
	if sc.catalog != "" {
		cfg["catalog"] = sc.catalog
	}
	if len(cfg) == 0 {
		return nil
	}
	params, err := marshal(cfg)
	if err != nil {
		return err
	}
	_, rerr, err := c.call(ctx, "session/configure", params)
	if err != nil {
		return err
	}
	if rerr != nil {
		return fmt.Errorf("session/configure: the core answered %v", rerr)
	}
	return nil
}

// resolveToolNames maps --approve names (canonical or provider form) to canonical names using
// the module's tools/list. Errors: a usage error naming the unknown names; a tools/list failure.
func resolveToolNames(ctx context.Context, c *rpcClient, names []string) ([]string, error) {
	tools, err := listAllTools(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("--approve: listing the tools to check the names: %w", err)
	}
	known := map[string]string{} // canonical or provider name → canonical
	for _, t := range tools {
		known[t.Name] = t.Name
		if p, err := provider.ProviderName(t.Name); err == nil {
			if _, taken := known[p]; !taken {
				known[p] = t.Name
			}
		}
	}
	var canonical, unknown []string
	for _, n := range names {
		if cn, ok := known[n]; ok {
			canonical = append(canonical, cn)
		} else {
			unknown = append(unknown, strconv.Quote(n))
		}
	}
	if len(unknown) > 0 {
		return nil, usagef("--approve names %s, which the core does not have (run 'webcoding tools' to see the tool names; canonical workspace.writeFile or provider form workspace_writeFile)",
			strings.Join(unknown, ", "))
	}
	return canonical, nil
}

// durableSpec is a checked --durable value.
type durableSpec struct {
	// name is the backend the core builds itself ("memory"), sent in session/configure; ""
	// when none is (no --durable, or a URL served by the host).
	name string
	// url is a redis://, rediss://, postgres:// or postgresql:// URL that the host opens and
	// hands to the module (wasmhost.Options.Durable); "" for none.
	url string
}

// durableBackend checks a --durable value: "" (none), "memory" (the core's in-memory durable
// store, for this command's lifetime), or a redis://, rediss://, postgres:// or postgresql://
// URL (the host's backend, see openDurable). Anything else is a usage error. Messages never
// show the URL's user information, path or query (see redactDurable).
func durableBackend(cmd, v string) (durableSpec, error) {
	switch {
	case v == "" || v == "memory":
		return durableSpec{name: v}, nil
	case strings.HasPrefix(v, "redis://"), strings.HasPrefix(v, "rediss://"), strings.HasPrefix(v, "postgres://"), strings.HasPrefix(v, "postgresql://"):
		if u, err := url.Parse(v); err != nil || u.Host == "" {
			return durableSpec{}, usagef("--durable %s is not a URL with a host", redactDurable(v))
		}
		return durableSpec{url: v}, nil
	default:
		return durableSpec{}, usagef("--durable must be memory, redis://HOST[:PORT][/DB] or postgres://HOST[:PORT]/DB, got %s", redactDurable(v))
	}
}

// setupDurable is the one --durable setup of call, agent and mcp: it checks v
// (durableBackend), opens the host's backend (openDurable) into hf.durable, and returns the
// spec and the backend's close function (run it after the host is closed; a no-op for none).
func setupDurable(ctx context.Context, cmd, v string, hf *hostFlags) (durableSpec, func(), error) {
	spec, err := durableBackend(cmd, v)
	if err != nil {
		return spec, nil, err
	}
	b, closeFn, err := openDurable(ctx, spec)
	if err != nil {
		return spec, nil, err
	}
	hf.durable = b
	return spec, closeFn, nil
}

// durableProbeTimeout bounds the one read openDurable makes to check the backend answers.
const durableProbeTimeout = 10 * time.Second

// durableProbeKey is the key openDurable reads (never written) to check the backend answers.
const durableProbeKey = "webcoding:probe"

// openDurable opens the host's durable backend for spec.url (nil, no-op close for none):
// Redis through host/redisstore (keys under redisstore.DefaultPrefix), PostgreSQL through
// host/pgstore (the table of pgstore.Schema must exist: the CLI never creates it). It reads one
// absent key first, so a backend that does not answer stops the command before the module
// starts rather than failing every idempotent call. Every error the backend reports afterwards
// has the URL's password removed (scrubBackend).
//
// Errors (exit 1, credential-free): the URL does not parse for its driver; the probe read
// fails (server unreachable, authentication, missing table — then the message shows the SQL to
// create it).
func openDurable(ctx context.Context, spec durableSpec) (durable.Backend, func(), error) {
	if spec.url == "" {
		return nil, func() {}, nil
	}
	shown := redactDurable(spec.url)
	var (
		b       durable.Backend
		closeFn func()
		pg      bool
	)
	if strings.HasPrefix(spec.url, "redis") {
		rb, c, err := redisstore.Open(spec.url, redisstore.Options{})
		if err != nil {
			return nil, nil, fmt.Errorf("--durable %s: %s", shown, scrubSecrets(err.Error(), secretsOf(spec.url)))
		}
		b, closeFn = rb, func() { _ = c() }
	} else {
		pb, c, err := pgstore.Open(spec.url)
		if err != nil {
			return nil, nil, fmt.Errorf("--durable %s: %s", shown, scrubSecrets(err.Error(), secretsOf(spec.url)))
		}
		b, closeFn, pg = pb, c, true
	}
	b = scrubBackend{b: b, secrets: secretsOf(spec.url)}
	pctx, cancel := context.WithTimeout(ctx, durableProbeTimeout)
	defer cancel()
	if _, _, err := b.Read(pctx, durableProbeKey); err != nil {
		closeFn()
		msg := fmt.Sprintf("--durable %s: the backend does not answer: %v", shown, err)
		if pg && strings.Contains(err.Error(), "durable_operations") {
			msg += "\ncreate its table once (the CLI never migrates), e.g. psql \"$URL\" -c '" + strings.Join(strings.Fields(pgstore.Schema), " ") + "'"
		}
		return nil, nil, errors.New(msg)
	}
	// Each operation answers within durable.DefaultOpTimeout (2 s) and, after a failure, all
	// fail at once for durable.DefaultOpenInterval (10 s): a store that hangs or goes down
	// mid-run costs each call a bounded time instead of the driver's retries (issue 14).
	g, err := durable.Guard(b, durable.GuardOptions{})
	if err != nil { // the defaults are valid: cannot happen
		closeFn()
		return nil, nil, err
	}
	return g, closeFn, nil
}

// secretsOf lists the credentials in a --durable URL: the password of its user information
// and any password query parameter.
func secretsOf(v string) []string {
	u, err := url.Parse(v)
	if err != nil {
		return nil
	}
	var out []string
	if p, ok := u.User.Password(); ok && p != "" {
		out = append(out, p)
	}
	for _, p := range u.Query()["password"] {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// scrubSecrets replaces every secret in msg with "***".
func scrubSecrets(msg string, secrets []string) string {
	for _, s := range secrets {
		msg = strings.ReplaceAll(msg, s, "***")
	}
	return msg
}

// scrubBackend is a durable.Backend whose failures never carry the URL's credentials: every
// error other than a *durable.ValidationError becomes a *durable.BackendError with the secrets
// replaced (a context error stays matchable with errors.Is).
type scrubBackend struct {
	b       durable.Backend
	secrets []string
}

// scrubbedError is a failure whose text had its secrets removed; it unwraps to the context
// error that caused it, if any.
type scrubbedError struct {
	msg   string
	cause error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.cause }

func (s scrubBackend) scrub(op string, err error) error {
	if err == nil {
		return nil
	}
	var ve *durable.ValidationError
	if errors.As(err, &ve) {
		return err
	}
	se := &scrubbedError{msg: scrubSecrets(err.Error(), s.secrets)}
	switch {
	case errors.Is(err, context.Canceled):
		se.cause = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		se.cause = context.DeadlineExceeded
	}
	if be := (*durable.BackendError)(nil); errors.As(err, &be) {
		se.msg = scrubSecrets(be.Msg, s.secrets)
	}
	return durable.BackendFailure(op, se)
}

func (s scrubBackend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	r, found, err := s.b.Read(ctx, key)
	return r, found, s.scrub("read", err)
}

func (s scrubBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	ok, err := s.b.CompareAndSet(ctx, key, expected, next)
	return ok, s.scrub("compareAndSet", err)
}

func (s scrubBackend) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	recs, next, err := s.b.ListPage(ctx, cursor, limit)
	return recs, next, s.scrub("listPage", err)
}

// redactDurable shows a --durable value without credentials: for a URL only scheme://host; a
// value that is not a URL is quoted when it cannot hold a secret (no '@' or ':'), else hidden.
func redactDurable(v string) string {
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" {
		return u.Scheme + "://" + u.Hostname()
	}
	// A value that is not a URL may be a key=value connection string holding a password:
	// show it only when it is a short plain word (a typo such as "memroy").
	if len(v) > 32 || strings.ContainsAny(v, "@:= \t/?&;") {
		return "(a value that is not a URL; not shown)"
	}
	return strconv.Quote(v)
}

// toolCall runs one tools/call made by the CLI itself (source local, the given mode, a
// generated id with prefix) and returns the raw params sent, the raw result and its decoding.
// A JSON-RPC error becomes an error result, as in `call`.
func toolCall(ctx context.Context, c *rpcClient, name string, args any, mode, prefix string) (params, raw json.RawMessage, res *mcp.CallToolResult, err error) {
	id := prefix + newCallID()[len("cli-"):]
	type meta struct {
		ToolCallID string `json:"toolCallId"`
		Source     string `json:"source"`
		Mode       string `json:"mode"`
	}
	p := struct {
		Name      string `json:"name"`
		Arguments any    `json:"arguments,omitempty"`
		Meta      meta   `json:"_meta"`
	}{name, args, meta{id, mcp.SourceLocal, mode}}
	if params, err = marshal(p); err != nil {
		return nil, nil, nil, err
	}
	raw, rerr, err := c.call(ctx, mcp.MethodToolsCall, params)
	if err != nil {
		return params, nil, nil, err
	}
	if rerr != nil {
		raw = errorLine(id, rpcErrorToTool(rerr))
	}
	res = &mcp.CallToolResult{}
	if err := json.Unmarshal(raw, res); err != nil {
		return params, raw, nil, fmt.Errorf("%s: the module answered a result that is not a CallToolResult: %v", name, err)
	}
	return params, raw, res, nil
}

// unsaved is what workspace.getStatus says is not written to the folder.
type unsaved struct {
	DirtyPaths   []string `json:"dirtyPaths"`
	DeletedPaths []string `json:"deletedPaths"`
	Filesystem   struct {
		FolderLinked     bool `json:"folderLinked"`
		SaveAllAvailable bool `json:"saveAllAvailable"`
	} `json:"filesystem"`
}

func (u *unsaved) any() bool { return len(u.DirtyPaths)+len(u.DeletedPaths) > 0 }

// workspaceStatus asks workspace.getStatus (read-only: allowed in every mode) for the unsaved
// changes. It returns nil (and no error) when the catalog does not answer it; err is a host
// failure.
func workspaceStatus(ctx context.Context, c *rpcClient) (*unsaved, error) {
	_, _, res, err := toolCall(ctx, c, "workspace.getStatus", nil, mcp.ModeDirect, "cli-status-")
	if err != nil || res == nil || res.IsError {
		return nil, err
	}
	var u unsaved
	if json.Unmarshal(res.StructuredContent, &u) != nil {
		return nil, nil
	}
	return &u, nil
}

// unsavedNote is the sentence that says changes were not written.
func unsavedNote(dir, how string) string {
	if dir == "" {
		return "Changes were not written: no --dir was given, so they live only in this command's in-memory seed workspace."
	}
	return fmt.Sprintf("Changes were not written to %s: %s.", dir, how)
}

// listAllTools follows every tools/list page of the module (registry.ListAllTools: one
// implementation of cursor following, repeated-cursor and page-cap checks included).
func listAllTools(ctx context.Context, c *rpcClient) ([]mcp.Tool, error) {
	page := 0
	return registry.ListAllTools(ctx, func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
		page++
		var params []byte
		if cursor != "" {
			params = jsonstring.Append([]byte(`{"cursor":`), cursor, jsonstring.NoHTML)
			params = append(params, '}')
		}
		res, rerr, err := c.call(ctx, "tools/list", params)
		if err != nil {
			return nil, err
		}
		if rerr != nil {
			return nil, fmt.Errorf("the core answered %v", rerr)
		}
		var p struct {
			Tools      *[]mcp.Tool `json:"tools"`
			NextCursor string      `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &p); err != nil || p.Tools == nil {
			return nil, fmt.Errorf("page %d is not {tools, nextCursor?}: %.200q", page, res)
		}
		return &mcp.ListToolsResult{Tools: *p.Tools, NextCursor: p.NextCursor}, nil
	}, registry.ListAllOptions{})
}

// Surfaces of --surface (issue 18): the tool catalog a headless command serves.
const (
	surfaceStudio   = "studio"   // the 26 workspace.*/preview.* tools (the default)
	surfaceRealtime = "realtime" // the 8 web.* tools over a three-file site in memory (wasm/websurface)
	surfaceLive     = "live"     // the 11 editor.* tools over the built-in examples or --dir (wasm/livesurface)
)

// surfaceUsage is the --surface flag's help text.
const surfaceUsage = "tool surface: studio (workspace.*/preview.*, default), realtime (web.*: a three-file site in memory) or live (editor.*: the Live Code Editor over its built-in examples, or over --dir, which editor.saveFile/saveAll write to)"

// addSurfaceFlag declares --surface.
func addSurfaceFlag(fs *flag.FlagSet) *string {
	return fs.String("surface", surfaceStudio, surfaceUsage)
}

// surfaceCatalog checks --surface against the other flags and returns the session catalog to
// configure ("" for the studio, the core's default). Usage errors (exit 2): an unknown
// surface; realtime with --dir (the surface has no linked folder); realtime or live with a
// flag that saves the studio's workspace (--autosave, --save: named in saveFlag, "" for
// none) — live saves through its own tools, editor.saveFile and editor.saveAll.
func surfaceCatalog(surface, dir, saveFlag string) (string, error) {
	switch surface {
	case surfaceStudio:
		return "", nil
	case surfaceLive:
		if saveFlag != "" {
			return "", usagef("--surface live saves through editor.saveFile and editor.saveAll (to --dir, with approval for agent calls): drop %s", saveFlag)
		}
		return surfaceLive, nil
	case surfaceRealtime:
		if dir != "" {
			return "", usagef("--surface realtime works on its own three-file seed in memory and links no folder: drop --dir")
		}
		if saveFlag != "" {
			return "", usagef("--surface realtime has no folder to save to: drop %s", saveFlag)
		}
		return surfaceRealtime, nil
	}
	return "", usagef("--surface must be studio, realtime or live, got %q", surface)
}
