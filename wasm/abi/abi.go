// Package abi is the studio's one byte-oriented entry point: JSON-RPC 2.0 requests in,
// responses out. Both hosts (the wasip1 reactor under wazero and the js build in the page)
// call Handler.Handle and nothing else.
package abi

import "context"

// Handler answers JSON-RPC 2.0 requests (single or batch) against one assembled registry.
// It is safe for concurrent use and never panics.
type Handler struct{}

// Handle answers one JSON-RPC 2.0 request or batch. (Placeholder: replaced by the real router.)
func (h *Handler) Handle(ctx context.Context, req []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"not implemented yet"}}`)
}
