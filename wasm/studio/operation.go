package studio

import (
	"encoding/json"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

// Core operations that are deliberately not tools (SPEC §2.11: pick/import a folder, upload
// files, grant folder access, export, restore an arbitrary checkpoint) are JSON-RPC session
// methods called directly by the UI. They still report to the trace: ObserveOperation emits
// the same lifecycle events a tools/call emits (audit.ToolCallEvent started, then completed or
// failed) through Ports.Observer, with Name = the method name (it contains a "/", tool names a
// "." — that is how a consumer tells an operation from a tool), Source "local", Mode "direct"
// and a generated ToolCallID "op-<n>". Arguments are never copied into the event: pass a
// summary object (counts, paths) that is safe to show.

var operationSeq atomic.Int64

// ObserveOperation emits the started event of operation name with the safe summary args and
// returns the function that ends it: done(result) emits completed for a successful result
// and failed for an error result or nil. done must be called exactly once.
func ObserveOperation(p Ports, name string, args map[string]any) (done func(result *mcp.CallToolResult)) {
	if p.Observer == nil {
		return func(*mcp.CallToolResult) {}
	}
	now := p.Clock
	if now == nil {
		now = time.Now
	}
	id := "op-" + strconv.FormatInt(operationSeq.Add(1), 10)
	var raw json.RawMessage
	if args != nil {
		raw, _ = json.Marshal(args)
	}
	req := mcp.CallToolParams{Name: name, Arguments: raw, Meta: &mcp.CallMeta{ToolCallID: id, Source: "local", Mode: "direct"}}
	started := audit.Started(req, audit.NewProvenance("studio"), now())
	p.Observer(started)
	return func(result *mcp.CallToolResult) {
		p.Observer(started.Finished(result, started.Provenance, now()))
	}
}
