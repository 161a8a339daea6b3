package studio

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/mcp/mcptest"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// The tools/call result assertions every catalog's tests share (wasm/mcp/mcptest).
var (
	ok      = mcptest.OK
	fails   = mcptest.Fails
	details = mcptest.Details
)

// session builds a studio session over p with cfg (catalog defaults to studio).
func session(t *testing.T, p Ports, cfg rpcsession.Config) *rpcsession.Session {
	t.Helper()
	s, err := Builder(p)(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call runs one direct-mode call and returns the result.
func call(t *testing.T, r *registry.Registry, name string, args any) *mcp.CallToolResult {
	t.Helper()
	return callMode(t, r, name, args, mcp.ModeDirect)
}

func callMode(t *testing.T, r *registry.Registry, name string, args any, mode string) *mcp.CallToolResult {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if args == nil {
		raw = []byte("{}")
	}
	return r.Call(context.Background(), mcp.CallToolParams{Name: name, Arguments: raw,
		Meta: &mcp.CallMeta{ToolCallID: "t-" + name, Source: mcp.SourceLocal, Mode: mode}})
}

type agentReport = planner.Report

var (
	jsonMarshal = json.Marshal
	agentCallID = planner.CallID
)
