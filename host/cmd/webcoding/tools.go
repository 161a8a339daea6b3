package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/webcoding/studio/wasm/mcp"
)

func init() {
	register(&command{
		Name:    "tools",
		Usage:   "[--surface studio|realtime|live] [--pretty] [--module PATH] [--host-timeout D]",
		Summary: `print the full canonical tools/list as {"tools":[...]}`,
		Run:     runTools,
	})
}

// runTools follows nextCursor through every tools/list page of the catalog --surface selects
// (studio by default; realtime: the web.* tools) — through every tools/list page of the module
// (registry.ListAllTools) and prints {"tools":[...]} on one line (or indented with --pretty).
//
// Errors (exit 1): the module cannot start, answers a JSON-RPC error, a page has no tools
// array, a cursor repeats, or there are more than registry.DefaultMaxPages pages.
func runTools(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("tools", e)
	pretty := fs.Bool("pretty", false, "indent the output")
	surface := addSurfaceFlag(fs)
	hf := addHostFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	catalog, err := surfaceCatalog(*surface, "", "")
	if err != nil {
		return err
	}
	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	c := &rpcClient{h: h}
	if err := configureSession(ctx, c, sessionConfig{catalog: catalog}); err != nil {
		return err
	}
	tools, err := listAllTools(ctx, c)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	if tools == nil {
		tools = []mcp.Tool{}
	}
	out, err := marshal(struct {
		Tools []mcp.Tool `json:"tools"`
	}{tools})
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	if *pretty {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err == nil {
			out = b.Bytes()
		}
	}
	if _, err := e.stdout.Write(append(out, '\n')); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
