// Package mcp holds the studio's wire types for the Model Context Protocol tool methods
// (tools/list, tools/call), the full error-code catalogue, and guards for untrusted JSON.
//
// It implements the shapes of SPEC §2.10 (canonical result: an MCP CallToolResult plus
// toolCallId and a structured error) and the request rules of REFERENCE §3.1. Untrusted
// bytes are checked with CheckJSON (UTF-8, syntax, depth, no repeated keys) and decoded with
// exact, case-sensitive key matching before any struct decoding.
//
// This package is core: it imports only the standard library and must never import
// syscall/js or host code.
//
// Owns: the MCP wire types (CallToolResult, ToolError, tool definitions), the error-code catalogue,
// the strict JSON request checks and the canonical result encoding.
//
// Must never: import another package of this module but wasm/jsonstring, keep state, or do
// I/O (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package mcp
