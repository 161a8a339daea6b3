// Package mcptest holds the assertions the catalogs' tests share about a tools/call result
// (mcp.CallToolResult): OK for a success, Fails for a typed error, Details for its details.
//
// This package is a test kit: it imports testing, never os or syscall/js.
//
// Owns: the CallToolResult assertions of the studio, realtime and Live Code Editor tests.
//
// Must never: be imported by non-test code (layer order: wasm/doc.go, enforced by
// wasm/layout_test.go).
package mcptest

import (
	"encoding/json"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// OK fails the test unless res is a success, and returns its structuredContent decoded as a
// JSON object.
func OK(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.IsError {
		t.Fatalf("call failed: %+v", res.Error)
	}
	var m map[string]any
	if err := json.Unmarshal(res.StructuredContent, &m); err != nil {
		t.Fatalf("structuredContent is not a JSON object: %v: %s", err, res.StructuredContent)
	}
	return m
}

// Fails fails the test unless res is an error result with code, and returns that error.
func Fails(t testing.TB, res *mcp.CallToolResult, code mcp.Code) *mcp.ToolError {
	t.Helper()
	if !res.IsError || res.Error == nil {
		t.Fatalf("want %s, got success %s", code, res.StructuredContent)
	}
	if res.Error.Code != code {
		t.Fatalf("want %s, got %s: %s", code, res.Error.Code, res.Error.Message)
	}
	return res.Error
}

// Details returns e's details as a JSON object (nil when it has none).
func Details(t testing.TB, e *mcp.ToolError) map[string]any {
	t.Helper()
	b, err := json.Marshal(e.Details)
	if err != nil {
		t.Fatalf("details do not encode: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("details are not a JSON object: %v: %s", err, b)
	}
	return m
}
