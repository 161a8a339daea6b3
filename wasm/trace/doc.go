// Package trace is the execution trace of the studio (REFERENCE §8 "Trace entries", issue 9):
// a bounded, redacted, in-memory list of rows built from the registry's tool-call lifecycle
// events (audit.ToolCallEvent), the agent.request bracket events that wasm/studio emits around
// every prompt run, the non-tool core operations (names with a "/", studio.ObserveOperation)
// and tools/list discovery.
//
// # Rows and correlation
//
// Every lifecycle gets its own internal trace id ("tr-<n>", unique for the life of a Trace),
// so a provider that reuses a tool-call id, or a call without one, never overwrites another
// row. A finished event is matched to its started event by the request object the registry
// shares between both events (the *mcp.CallMeta pointer), falling back to a FIFO queue per
// (session, name, toolCallId). A finished event without a started one (missed, or dropped by
// retention) makes a row of its own.
//
// Calls in agent mode that start while an agent.request row of the same session (or of an
// unknown session) runs are bracketed by it: they carry its trace id in ParentID.
//
// # Redaction and bounds
//
// Rows keep only what is safe to show: a summary ("3 files · revision 7", "index.html · 2
// replacements", "theme emerald", the error code of a failure), identifiers, status and
// duration. The expandable detail (ArgumentsText, ResultText) is redacted with the audit
// policy (audit.Policy.Redact: sources, search/replace text and secrets become
// "[<key> redacted · <n> chars]" markers, strings are truncated) and bounded to
// MaxDetailBytes bytes each. A Trace keeps at most MaxRows rows (256) and MaxBytes bytes
// (512 KiB, counted as the UTF-8 bytes of the rows' strings plus RowOverhead each), dropping
// the oldest finished rows first. Export is metadata only (no argument or result text) and
// at most MaxExportBytes (8 KiB).
//
// Everything here is pure Go and safe for concurrent use: Observe never blocks on anything
// but the Trace's own mutex, so it may be called from the registry's Observer.
//
// Owns: the bounded trace of tool-call events and its exports.
//
// Must never: import the registry or any package above it (layer order: wasm/doc.go, enforced by
// wasm/layout_test.go).
package trace
