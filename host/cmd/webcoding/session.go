package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"strconv"
	"strings"

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
	durable  string // durable backend name ("memory"); "" = none
}

// configureSession sends one session/configure (which rebuilds the session: the folder is
// imported again) with the approval of --approve when sc.approval, and the durable backend
// when sc.durable is set. Nothing is sent when there is nothing to configure.
//
// A --approve list is checked against the module's tools/list first: each name may be canonical
// ("workspace.writeFile") or in provider form ("workspace_writeFile"); the approval carries the
// canonical names. Errors: a usage error (exit 2) naming every unknown tool; a host failure or a
// refused configure (exit 1).
func configureSession(ctx context.Context, c *rpcClient, sc sessionConfig) error {
	cfg := map[string]any{}
	if sc.approval {
		a := approvalConfig(sc.approve)
		if names, ok := a["tools"].([]string); ok {
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

// durableBackend checks a --durable value: "" (none) and "memory" (the core's in-memory
// durable store, for this command's lifetime) are served; any other value is a usage error,
// redis:// and postgres:// URLs included, which are not supported yet. Messages never show the
// URL's user information, path or query (see redactDurable).
func durableBackend(cmd, v string) (string, error) {
	switch {
	case v == "" || v == "memory":
		return v, nil
	case strings.HasPrefix(v, "redis://"), strings.HasPrefix(v, "rediss://"), strings.HasPrefix(v, "postgres://"), strings.HasPrefix(v, "postgresql://"):
		return "", usagef("--durable %s is not supported yet by `%s` (it would run without the durable guard you asked for); use --durable memory or leave it out", redactDurable(v), cmd)
	default:
		return "", usagef("--durable must be memory (redis:// and postgres:// are not supported yet), got %s", redactDurable(v))
	}
}

// redactDurable shows a --durable value without credentials: for a URL only scheme://host; a
// value that is not a URL is quoted when it cannot hold a secret (no '@' or ':'), else hidden.
func redactDurable(v string) string {
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" {
		return u.Scheme + "://" + u.Hostname()
	}
	if strings.ContainsAny(v, "@:") {
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
			params = appendString([]byte(`{"cursor":`), cursor)
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
