package registry

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
)

// DefaultDurableLease is the lease of a durable claim made by a tool call when
// Options.DurableLease is zero: 5 minutes (REFERENCE §4, "ToolContext durable lease default").
const DefaultDurableLease = 5 * time.Minute

// ErrDurableDisabled is returned by the operation methods of a Registry built without
// Options.Durable.
var ErrDurableDisabled = errors.New("registry: durable operations are not configured")

// OperationKey is the durable operation key of a tool call (REFERENCE §6.6): the JSON array
// [sessionId or "default", toolName, idempotencyKey] serialized as a string, e.g.
// `["default","test.counter","k1"]`. The in-memory idempotency layer uses the same scoping.
func OperationKey(sessionID, tool, idempotencyKey string) string {
	if sessionID == "" {
		sessionID = "default"
	}
	b, _ := json.Marshal([]string{sessionID, tool, idempotencyKey})
	return string(b)
}

// DurableOwnerID returns the owner id this registry claims durable records with.
func (r *Registry) DurableOwnerID() string { return r.opts.DurableOwnerID }

// defaultDurableOwner is OwnerID plus 48 random bits, so two registries (two tabs, two
// processes) sharing one store are distinct owners unless the caller names them.
func defaultDurableOwner(owner string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return owner + ":" + hex.EncodeToString(b[:])
}

// storedResult is the canonical result as a durable record keeps it (REFERENCE §3.1
// "Durable persistence of results"): CallToolResult without toolCallId.
//
//	{"content": [...], "structuredContent"?: {...}, "isError": bool, "error"?: {code, message, retryable, details?}}
type storedResult struct {
	Content           []mcp.Content   `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
	Error             *mcp.ToolError  `json:"error,omitempty"`
	// Effect is where a mutating success's effect lives (Options.Effects; absent in records
	// written without it, which replay as recorded).
	Effect *Effect `json:"effect,omitempty"`
}

func encodeStored(sr storedResult) json.RawMessage {
	raw, err := json.Marshal(sr)
	if err != nil {
		return nil
	}
	return raw
}

// decodeStored decodes a record's result strictly; ok is false when it is absent or is not a
// stored result (another version, or tampered).
func decodeStored(raw json.RawMessage) (storedResult, bool) {
	var sr storedResult
	if len(raw) == 0 {
		return sr, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sr); err != nil || len(sr.Content) == 0 {
		return sr, false
	}
	if sr.IsError != (sr.Error != nil) {
		return sr, false
	}
	if sr.IsError && !mcp.ValidCode(sr.Error.Code) {
		return sr, false
	}
	if !sr.IsError && (len(sr.StructuredContent) == 0 || sr.StructuredContent[0] != '{') {
		return sr, false
	}
	return sr, true
}

// successStored is the stored form of a success: structuredContent sc and its text block.
func successStored(sc json.RawMessage) storedResult {
	return storedResult{Content: []mcp.Content{mcp.TextContent(string(sc))}, StructuredContent: sc}
}

// durableRun is the durable half of an idempotent call, run by the owner of the in-memory
// execution ex (REFERENCE §6.6: the in-memory registry's create function runs the durable
// claim, the handler and the durable bookkeeping, §3.1 pipeline order). It settles ex itself:
// outcomes that mirror a terminal durable record (completed, failed, or their replay) stay in
// memory for retention; every other outcome (claim refused, store failure, marked unknown) is
// settled for the callers already waiting and then forgotten, so the next call re-reads the
// durable record.
func (s *callState) durableRun(ctx, hctx context.Context, e *entry, ex *execution, key, fp string) (out outcome) {
	keep := false
	defer func() { s.r.idem.settleDurable(ex, out, keep) }()
	store, owner := s.r.opts.Durable, s.r.opts.DurableOwnerID
	if ctx.Err() != nil {
		return s.interrupted(ctx) // cancelled before the claim: nothing stored (REFERENCE §6.4)
	}
	c, err := store.Claim(ctx, key, fp, owner, s.r.opts.DurableLease)
	if err != nil {
		return outcome{state: audit.StateFailed, err: mcp.ToolErrorOf(durable.StoreError(key, err))}
	}
	switch c.Outcome {
	case durable.ClaimReplay:
		out = replayOutcome(c.Record)
		// A replay whose effect must be checked is checked on every call (never kept in memory).
		keep = out.effect == nil && (out.err == nil || out.err.Code != mcp.CodeToolIdempotencyUnknown)
		return s.checkReplay(ctx, key, out)
	case durable.ClaimOwner:
	default:
		return outcome{state: audit.StateFailed, err: mcp.ToolErrorOf(durable.ClaimError(c))}
	}

	done := make(chan outcome, 1)
	if hctx.Done() == nil {
		done <- s.invokeStamped(hctx, ctx, e)
	} else {
		go func() { done <- s.invokeStamped(hctx, ctx, e) }()
	}
	select {
	case out = <-done:
	case <-hctx.Done():
		out = s.interrupted(ctx)
		out.aborted = true
	}
	persisted, perr := s.persist(ctx, key, c.Fence, out)
	if perr != nil {
		te := mcp.ToolErrorOf(perr)
		if out.err == nil && !out.aborted {
			// The handler succeeded: its change is applied and must not be re-run (SPEC §2.13).
			te = mcp.NewError(te.Code, false, durable.AppliedKeyDetails{OperationKey: key, Applied: true},
				"%s The call's change was applied; do not retry it: re-read the workspace.", te.Message)
		}
		return outcome{state: audit.StateFailed, err: te}
	}
	keep = persisted == durable.StateCompleted || persisted == durable.StateFailed
	if persisted == durable.StateUnknown {
		out.aborted = true
	}
	return out
}

// unknownCodes are the outcomes recorded as unknown (REFERENCE §3.1): the side effect may or
// may not have happened.
func unknownCode(c mcp.Code) bool {
	switch c {
	case mcp.CodeToolTimeout, mcp.CodeToolCancelled, mcp.CodeToolExecutionAborted, mcp.CodeToolExecutionUnknown:
		return true
	}
	return false
}

// persist records the outcome under the claim's fence: success → Complete with the result
// (without toolCallId); TIMEOUT, CANCELLED, EXECUTION_ABORTED, EXECUTION_UNKNOWN → MarkUnknown;
// other errors → Fail; both with the sanitized diagnostic (audit.DurableDiagnostic) as result
// and its reason. The write runs detached from the caller's cancellation, bounded by
// durable.DefaultMarkTimeout. A failed write is TOOL_IDEMPOTENCY_STORE_FAILED {operationKey}.
func (s *callState) persist(ctx context.Context, key string, fence durable.Fence, out outcome) (durable.State, error) {
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), durable.DefaultMarkTimeout)
	defer cancel()
	store, owner := s.r.opts.Durable, s.r.opts.DurableOwnerID
	var err error
	state := durable.StateCompleted
	if out.err == nil {
		sr := successStored(out.sc)
		sr.Effect = out.effect
		_, err = store.Complete(pctx, key, owner, fence, encodeStored(sr))
	} else {
		diag, _ := audit.DurableDiagnostic(mcp.ErrorResult("", out.err))
		raw := encodeStored(storedResult{Content: diag.Result.Content, IsError: true, Error: diag.Result.Error})
		if unknownCode(out.err.Code) {
			state = durable.StateUnknown
			_, err = store.MarkUnknown(pctx, key, owner, fence, diag.Reason, raw)
		} else {
			state = durable.StateFailed
			_, err = store.Fail(pctx, key, owner, fence, diag.Reason, raw)
		}
	}
	if err != nil {
		return "", durable.StoreError(key, err)
	}
	return state, nil
}

// replayOutcome turns a completed or failed record into the outcome of its replay. A record
// without a decodable stored result is TOOL_IDEMPOTENCY_UNKNOWN (REFERENCE §3.1: "replay
// record without result").
func replayOutcome(rec durable.Record) outcome {
	sr, ok := decodeStored(rec.Result)
	if !ok {
		return outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolIdempotencyUnknown, false,
			durable.UnknownDetails{State: rec.State, Reason: rec.Reason},
			"Durable operation %q has no replayable result; reconcile before retrying.", rec.Key)}
	}
	if sr.IsError {
		e := *sr.Error
		return outcome{state: audit.StateFailed, err: &e}
	}
	return outcome{state: audit.StateCompleted, sc: sr.StructuredContent, effect: sr.Effect}
}

// settleDurable settles ex like settle and, unless keep, forgets it at once so that the next
// call with the same key re-reads the durable record.
func (m *idempotency) settleDurable(ex *execution, out outcome, keep bool) {
	if keep {
		m.settle(ex, out)
		return
	}
	m.mu.Lock()
	ex.out = out
	ex.settledAt = m.clock()
	if m.entries[ex.key] == ex {
		delete(m.entries, ex.key)
	}
	m.mu.Unlock()
	close(ex.done)
}

// forget drops the in-memory entry of key, if settled (pending executions are kept).
func (m *idempotency) forget(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ex := m.entries[key]; ex != nil && ex.elem != nil {
		m.settled.Remove(ex.elem)
		delete(m.entries, key)
	}
}

// Reconciliation is an operator's (or resolver's) verdict on an unknown operation:
//   - State durable.StateCompleted: StructuredContent (a JSON object: what the tool returned)
//     is required; later calls with the key replay it as a success.
//   - State durable.StateFailed: Reason (1..durable.MaxReasonRunes code points) is required;
//     later calls replay TOOL_EXECUTION_FAILED {reason, reconciledBy}, not retryable.
//
// ReconcilerID names who decided (default: the registry's DurableOwnerID).
type Reconciliation struct {
	State             durable.State
	StructuredContent json.RawMessage
	Reason            string
	ReconcilerID      string
}

func (r *Registry) durableStore() (*durable.Store, error) {
	if r.opts.Durable == nil {
		return nil, ErrDurableDisabled
	}
	return r.opts.Durable, nil
}

// GetOperationStatus returns the durable record of the call (sessionID, tool, idempotencyKey)
// — key OperationKey(sessionID, tool, idempotencyKey) — or found == false.
//
// # Errors
//   - ErrDurableDisabled: no Options.Durable.
//   - the store's errors: *durable.ValidationError (blank key, a stored record that does not
//     decode), durable.ErrBackend (retryable).
func (r *Registry) GetOperationStatus(ctx context.Context, sessionID, tool, idempotencyKey string) (durable.Record, bool, error) {
	store, err := r.durableStore()
	if err != nil {
		return durable.Record{}, false, err
	}
	return store.Get(ctx, OperationKey(sessionID, tool, idempotencyKey))
}

// ReconcileOperation settles an unknown operation (REFERENCE §6.3 resolveUnknown) presenting
// expected, the fence observed in state unknown. A completed verdict stores the result as the
// call's success (replayed by later calls); a failed verdict stores a TOOL_EXECUTION_FAILED
// result carrying the reason. The in-memory idempotency entry of the key is dropped.
//
// # Errors
//   - ErrDurableDisabled.
//   - *durable.ValidationError: state not completed/failed ("resolution.state"), completed
//     without a JSON-object StructuredContent ("structuredContent"), failed without a reason
//     ("reason"), a bad fence.
//   - durable.ErrNotFound, durable.ErrStaleFence, durable.ErrNotUnknown,
//     durable.ErrFenceChanged, durable.ErrBackend (retryable).
func (r *Registry) ReconcileOperation(ctx context.Context, sessionID, tool, idempotencyKey string, expected durable.Fence, rc Reconciliation) (durable.Record, error) {
	store, err := r.durableStore()
	if err != nil {
		return durable.Record{}, err
	}
	key := OperationKey(sessionID, tool, idempotencyKey)
	reconciler := rc.ReconcilerID
	if reconciler == "" {
		reconciler = r.opts.DurableOwnerID
	}
	res := durable.Resolution{State: rc.State, Reason: rc.Reason}
	switch rc.State {
	case durable.StateCompleted:
		var sc json.RawMessage
		if len(rc.StructuredContent) > 0 && mcp.CheckJSON(rc.StructuredContent) == nil {
			var buf bytes.Buffer
			if json.Compact(&buf, rc.StructuredContent) == nil && buf.Len() > 0 && buf.Bytes()[0] == '{' {
				sc = buf.Bytes()
			}
		}
		if sc == nil {
			return durable.Record{}, &durable.ValidationError{Key: key, Field: "structuredContent", Reason: "must be a JSON object to reconcile as completed"}
		}
		res.Result = encodeStored(successStored(sc))
	case durable.StateFailed:
		if rc.Reason != "" {
			e := mcp.NewError(mcp.CodeToolExecutionFailed, false,
				map[string]any{"reason": rc.Reason, "reconciledBy": reconciler},
				"Tool %q was reconciled as failed: %s", tool, rc.Reason)
			res.Result = encodeStored(storedResult{Content: []mcp.Content{mcp.TextContent(e.Error())}, IsError: true, Error: e})
		}
	}
	rec, err := store.ResolveUnknown(ctx, key, reconciler, expected, res)
	if err != nil {
		return rec, err
	}
	r.idem.forget(key)
	return rec, nil
}

// OperationResolver decides an unknown operation's fate out of band (for example by
// inspecting the workspace). rec is the record observed in state unknown; its Result holds the
// sanitized diagnostic of the call that ended ambiguously.
type OperationResolver func(ctx context.Context, rec durable.Record) (Reconciliation, error)

// RecoverOperation reconciles the operation when it is unknown (REFERENCE §6.4 recover):
// missing → durable.StatusMissing, resolver not called; a record in any other state than
// unknown → its state as a Status, resolver not called; unknown → resolver, then
// ReconcileOperation presenting the observed fence → durable.StatusResolved with the new
// record.
//
// # Errors
//   - ErrDurableDisabled; *durable.ValidationError (nil resolver "resolver", bad verdict);
//   - the resolver's error, wrapped, or "resolver panicked": nothing stored;
//   - ReconcileOperation's errors (durable.ErrStaleFence when the record moved after it was
//     read, durable.ErrBackend).
func (r *Registry) RecoverOperation(ctx context.Context, sessionID, tool, idempotencyKey string, resolver OperationResolver) (durable.RecoverResult, error) {
	if resolver == nil {
		return durable.RecoverResult{}, &durable.ValidationError{Field: "resolver", Reason: "must not be nil"}
	}
	rec, found, err := r.GetOperationStatus(ctx, sessionID, tool, idempotencyKey)
	if err != nil {
		return durable.RecoverResult{}, err
	}
	if !found {
		return durable.RecoverResult{Status: durable.StatusMissing}, nil
	}
	if rec.State != durable.StateUnknown {
		return durable.RecoverResult{Status: durable.Status(rec.State), Record: rec}, nil
	}
	rc, err := callOperationResolver(ctx, resolver, rec)
	if err != nil {
		return durable.RecoverResult{Status: durable.StatusUnknown, Record: rec}, err
	}
	next, err := r.ReconcileOperation(ctx, sessionID, tool, idempotencyKey, rec.Fence(), rc)
	if err != nil {
		return durable.RecoverResult{Status: durable.StatusUnknown, Record: rec}, err
	}
	return durable.RecoverResult{Status: durable.StatusResolved, Record: next}, nil
}

func callOperationResolver(ctx context.Context, resolver OperationResolver, rec durable.Record) (rc Reconciliation, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("registry: resolver panicked: %v", v)
		}
	}()
	rc, err = resolver(ctx, rec.Clone())
	if err != nil {
		return rc, fmt.Errorf("registry: resolver failed: %w", err)
	}
	return rc, nil
}
