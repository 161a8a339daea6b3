// Package audit owns what the studio records about a tool call without leaking what the call
// carried: the provenance record attached to every lifecycle event, the lifecycle event type
// itself, the redaction/observability policy, the observation projection, the sanitized
// durable diagnostic of an error result, the idempotency fingerprint of a call, and the safe
// argument preview shown in approval snapshots.
//
// Sources: REFERENCE §8 (provenance, redaction, observation projection, approval preview),
// §4 (observability defaults, code pattern, provenance ownerId, approval preview bound) and
// §6.6 (fingerprint, sanitized durable diagnostic). SPEC §2.10 gives the result shape and
// SPEC §2.14 the unit of every text limit (Unicode code points).
//
// Everything here is plain data and pure functions: the registry (wasm/registry) builds
// events and calls Fingerprint and the policy; the trace view and durable store consume the
// projections. Nothing in this package keeps state between calls, so every function may be
// called from any goroutine.
//
// This package is core: it imports only the standard library and wasm/mcp. It must never
// import syscall/js, host code, or anything that reads files or the network.
//
// # Rationale
//
// The TypeScript original fell back to a bare {} or 0 when a redacted value still exceeded
// the byte bound, which made "nothing happened" and "too big to keep" look the same. Here an
// oversized value always becomes an explicit marker object naming the bound and the size
// (Policy.Redact). Values that are not JSON (functions, channels, cycles) cannot reach this
// package through JSON, and Go values that fail to marshal become typed string markers.
//
// Owns: audit events, fingerprints, redaction and the trace-facing projections of tool calls.
//
// Must never: import the registry or any package above it, or render views (layer order:
// wasm/doc.go, enforced by wasm/layout_test.go).
package audit
