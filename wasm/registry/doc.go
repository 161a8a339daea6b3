// Package registry is the ToolContext: the one place where tools are registered, listed
// (tools/list with opaque cursors) and called (tools/call). Every caller — UI buttons, the
// palette, the local agent, the OpenRouter loop, the MCP server — goes through Registry.Call.
//
// # Pipeline
//
// Call runs these steps in order; each failure is a canonical error result (never a Go error,
// never a panic), and the toolCallId is always echoed (REFERENCE §3.1):
//
//  1. request guard (mcp.ParseCallToolParams for raw bytes): TOOL_VALIDATION_FAILED
//  2. option checks: idempotencyKey 1..256 characters, timeoutMs finite and >= 0,
//     maxOutputBytes a positive integer: TOOL_INVALID_OPTIONS
//  3. "started" event
//  4. lookup: TOOL_NOT_FOUND (any unregistered name, including "toString" or "__proto__")
//  5. allowlist: TOOL_NOT_ALLOWED (the same allowlist hides the tool from tools/list)
//  6. argument validation against the closed input schema, before any policy:
//     TOOL_VALIDATION_FAILED with details {issues}; ValidationWarn and ValidationSilent modes
//     dispatch anyway for callers that ask for it (the studio always runs strict)
//  7. policy allow/ask/deny, given the call's context and cancellation: TOOL_POLICY_DENIED,
//     TOOL_APPROVAL_REQUIRED, TOOL_POLICY_FAILED, TOOL_CANCELLED
//  8. readiness: TOOL_REGISTRY_NOT_READY
//  9. in-memory idempotency (same key and argument fingerprint share one execution):
//     TOOL_IDEMPOTENCY_CONFLICT, TOOL_EXECUTION_ABORTED; with Options.Durable, the owner of
//     the in-memory execution then claims the durable record before the handler and records
//     its outcome after it: TOOL_IDEMPOTENCY_PENDING, TOOL_IDEMPOTENCY_UNKNOWN,
//     TOOL_IDEMPOTENCY_STORE_FAILED, TOOL_IDEMPOTENCY_CONFLICT, or a replay (see durable.go)
//  10. handler, with a context carrying cancellation and the timeout: TOOL_CANCELLED,
//     TOOL_TIMEOUT {timeoutMs, executionState: "detached"} (with a timeout the handler runs on its
//     own goroutine and is detached when it ignores its context; without one it runs inline and
//     cancellation is cooperative), TOOL_EXECUTION_FAILED
//     {handlerId, message} for errors without a code and for recovered panics; handler
//     errors of type *mcp.ToolError keep their code, message and details
//  11. output-schema validation: TOOL_OUTPUT_VALIDATION_FAILED {issues}; not run for a
//     result whose Go type proves the schema (schema.AdmitsType: a struct of strings,
//     booleans, numbers and nested structs against a schema of only those assertions, decided
//     once per type), since no value of that type can fail it
//  12. output budget, UTF-8 bytes of content + structuredContent: TOOL_OUTPUT_LIMIT_EXCEEDED
//     {maxOutputBytes, usedOutputBytes}
//  13. "completed" or "failed" event
//
// # Durable idempotency
//
// With Options.Durable the two idempotency layers compose as in the original ToolContext
// (REFERENCE §6.6, §3.1 pipeline order): the in-memory layer stays in front, and the durable
// claim, the handler and the durable bookkeeping together are the one execution that
// same-process callers with the same key and fingerprint share. The owner of that execution
// claims OperationKey(sessionId, tool, key) with the argument fingerprint (audit.Fingerprint)
// before the handler: owner → run; completed/failed record → replay of the stored result with
// the caller's toolCallId, handler not run; live claim of another owner (or an unfinished own
// claim) → TOOL_IDEMPOTENCY_PENDING {state, ownerId, leaseExpiresAt}; unknown →
// TOOL_IDEMPOTENCY_UNKNOWN {state, reason}; other fingerprint → TOOL_IDEMPOTENCY_CONFLICT
// {operationKey}; store failure → TOOL_IDEMPOTENCY_STORE_FAILED {operationKey}, never an
// unguarded run. After the handler (or the moment a timeout or cancellation detaches it),
// REFERENCE §3.1 "Durable persistence of results": success → Complete with the result without
// toolCallId; TOOL_TIMEOUT, TOOL_CANCELLED, TOOL_EXECUTION_ABORTED, TOOL_EXECUTION_UNKNOWN →
// MarkUnknown; other errors → Fail; errors stored as audit.DurableDiagnostic. A transition
// that fails to persist turns the result into TOOL_IDEMPOTENCY_STORE_FAILED {operationKey}.
// Only outcomes that mirror a completed or failed record stay in memory; every other outcome
// is given to the callers already waiting and then dropped, so the next call re-reads the
// durable record. GetOperationStatus, ReconcileOperation and RecoverOperation read and settle
// records.
//
// # Approvals
//
// ApprovalQueue holds the calls DefaultPolicy puts to a person (REFERENCE §8): snapshots list
// them newest first (Arguments are kept for the in-process UI only and never serialized),
// Resolve and DenyAll answer them. A call made with a context from WithRun belongs to that
// prompt run (Approval.RunID); ApproveRun allows it, the run's other pending calls and its
// later calls ("Approve all for this run"). The mark lives in the run's context value only:
// never persisted, gone with the run.
//
// # Concurrency
//
// A Registry is safe for concurrent use once registration is over; Register must not race
// with List or Call. Handlers run concurrently with each other.
//
// This package is core: no syscall/js, no host access.
//
// Owns: the tool registry: registration, tools/list, the tools/call pipeline (validation, policy,
// approvals, idempotency, timeouts) and its audit events.
//
// Must never: import rpcsession, openrouter, studio, an adapter or an entry; it knows no concrete
// tool (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package registry
