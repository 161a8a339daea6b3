package studio

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
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

// ok asserts success and decodes structuredContent.
func ok(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.IsError {
		t.Fatalf("call failed: %+v", res.Error)
	}
	var m map[string]any
	if err := json.Unmarshal(res.StructuredContent, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// fails asserts a failure with code and returns the error.
func fails(t *testing.T, res *mcp.CallToolResult, code mcp.Code) *mcp.ToolError {
	t.Helper()
	if !res.IsError || res.Error == nil {
		t.Fatalf("want %s, got success %s", code, res.StructuredContent)
	}
	if res.Error.Code != code {
		t.Fatalf("want %s, got %s: %s", code, res.Error.Code, res.Error.Message)
	}
	return res.Error
}

func details(t *testing.T, e *mcp.ToolError) map[string]any {
	t.Helper()
	b, _ := json.Marshal(e.Details)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

type agentReport = planner.Report

var (
	jsonMarshal = json.Marshal
	agentCallID = planner.CallID
)
