// Package jsonrpc holds the JSON-RPC 2.0 envelope (https://www.jsonrpc.org/specification) and
// its standard error codes, for the places where the studio frames bytes: the rpcsession dispatcher.
// Tool failures are not JSON-RPC errors: they are tools/call results with isError true
// (SPEC §2.10); JSON-RPC errors are for malformed requests only.
//
// Owns: the JSON-RPC 2.0 envelope types and standard error codes.
//
// Must never: import another package of this module or dispatch methods (wasm/rpcsession does)
// (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package jsonrpc

import "encoding/json"

// Version is the only accepted "jsonrpc" member value.
const Version = "2.0"

// Standard error codes (JSON-RPC 2.0 §5.1).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// Request is a request or notification: {"jsonrpc":"2.0","id"?,"method","params"?}.
// ID is kept raw (a string, a number or null); a missing ID marks a notification.
type Request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// Response is {"jsonrpc":"2.0","id","result"} or {"jsonrpc":"2.0","id","error"}.
type Response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Null is the id of a response to a request whose id could not be read.
var Null = json.RawMessage("null")
