// Package durable owns durable operation records: the fenced store that makes a side effect
// run at most once per key across owners, restarts and hosts, and the side-effect runner built
// on it.
//
// It implements REFERENCE §6 (record §6.1, backend contract §6.2, state machine §6.3, runner
// §6.4, HTTP and queue bridges §6.5) in the fenced generation chosen by SPEC §2.5: every record carries
// an opaque incarnation, every claim returns a Fence {incarnation, revision}, and every
// transition presents it. The TOOL_IDEMPOTENCY_* codes that the registry derives from these
// errors are listed in REFERENCE §3.1.
//
// # Ports
//
// Backend is the storage port (Read, CompareAndSet, ListPage). Implementations: memstore
// (reference, in memory), host/redisstore (Redis, one Lua script per CAS), host/pgstore
// (PostgreSQL, one statement per CAS) and, in the browser, an IndexedDB adapter. The contract
// every backend must pass is durabletest.Run. A backend may also implement Updater (one atomic
// read-decide-write per key); Store then runs each Claim and transition as one Update instead of
// Read + CompareAndSet (the IndexedDB adapter: one readwrite transaction per step, issue 20).
//
// # Rationale
//
// Times are stored as integer Unix milliseconds (the original used Date.now()), so no backend
// has to agree on a time format and no record can hold a non-finite time. Records travel to and
// from backends as JSON and are decoded strictly (DecodeRecord): an unknown member, a wrong type
// or a missing required member is a *ValidationError naming the field, never a panic and never
// a silent repair. Failures of a backend itself are always wrapped as ErrBackend (retryable), so
// a caller can never mistake "the store is down" for "no record".
//
// The HTTP bridge (RunHTTP) speaks in its own HTTPRequest/HTTPResponse types and takes the
// caller's transport as a function, so the core never links net/http: native hosts pass a
// net/http client, the browser a fetch adapter, the wasip1 module a host function.
//
// This package is core: standard library and wasm/mcp only; no syscall/js, no os, net or
// net/http.
//
// Owns: the durable idempotency and operation record: its states, transitions, validation and the
// Backend port.
//
// Must never: import the registry, know a tool, or talk to a concrete store (adapters and host/
// implement Backend) (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package durable
