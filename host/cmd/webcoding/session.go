package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
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
// session: the folder is imported again).
func configureApproval(ctx context.Context, c *rpcClient, approve string) error {
	params, err := marshal(map[string]any{"approval": approvalConfig(approve)})
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
