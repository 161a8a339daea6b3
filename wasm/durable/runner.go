package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
)

// Status is what Run and Recover report (REFERENCE §6.4).
type Status string

// Run statuses. Completed, failed and unknown come from this run's execution (or, for unknown,
// from an existing unknown record); replayed, pending and conflict mean Execute did not run;
// cancelled means the context was done before the claim (nothing stored). Recover adds missing
// and resolved, and otherwise reports the record's state as a Status.
const (
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusUnknown   Status = "unknown"
	StatusReplayed  Status = "replayed"
	StatusPending   Status = "pending"
	StatusConflict  Status = "conflict"
	StatusCancelled Status = "cancelled"
	StatusMissing   Status = "missing"
	StatusResolved  Status = "resolved"
)

// Runner reasons (REFERENCE §6.4).
const (
	ReasonCancelledInFlight    = "side-effect caller cancelled while execution was in flight"
	ReasonGenericError         = "side-effect execution failed with an error that has no message"
	ReasonMalformedOutcome     = "side-effect returned a malformed outcome"
	ReasonClassificationFailed = "side-effect error classification failed: "
	ReasonUnknownDefault       = "side-effect outcome is unknown"
)

// DefaultMarkTimeout bounds the store write that records a cancelled execution as unknown
// (it runs after the caller's context is done, so it cannot use that context's deadline).
const DefaultMarkTimeout = 5 * time.Second

// Outcome is an execution's tagged result (REFERENCE §6.4):
//   - completed{Result}: the side effect happened; Result (any JSON, optional) is replayed later;
//   - failed{Reason, Result?, Diagnostic?}: it definitely did not happen (or was rejected);
//   - unknown{Reason, Diagnostic?}: it may or may not have happened; reconcile with Recover.
//
// Reason is bounded to MaxReasonRunes code points by the runner (longer reasons are cut).
type Outcome struct {
	Status     Status
	Result     json.RawMessage
	Reason     string
	Diagnostic json.RawMessage
}

// Completed returns a completed outcome carrying result (nil for none).
func Completed(result json.RawMessage) Outcome {
	return Outcome{Status: StatusCompleted, Result: result}
}

// Failed returns a failed outcome with a reason and an optional result.
func Failed(reason string, result json.RawMessage) Outcome {
	return Outcome{Status: StatusFailed, Reason: reason, Result: result}
}

// Unknown returns an unknown outcome with a reason and an optional diagnostic.
func Unknown(reason string, diagnostic json.RawMessage) Outcome {
	return Outcome{Status: StatusUnknown, Reason: reason, Diagnostic: diagnostic}
}

// RunRequest is one side effect to run at most once under Key.
type RunRequest struct {
	// Key identifies the side effect; Fingerprint identifies its arguments (a different
	// fingerprint under the same key is a conflict). Both non-blank.
	Key, Fingerprint string
	// Lease is the claim lease; 0 = DefaultLease. Execute should finish well within it: a
	// transition after the lease ended is refused (ErrLeaseExpired) and another owner may take
	// the key over.
	Lease time.Duration
	// Execute performs the side effect once. It receives the caller's context and should stop
	// when it is done; Run does not wait for it after a cancellation. A returned error or a
	// panic is classified by Classify.
	Execute func(ctx context.Context) (Outcome, error)
	// Classify maps an Execute error (or a recovered panic, as *PanicError) to an outcome;
	// nil = unknown with the error text. A Classify that panics or returns a malformed outcome
	// yields unknown.
	Classify func(err error) Outcome
	// AbortDiagnostic is stored as the diagnostic when the context is done while Execute runs.
	AbortDiagnostic json.RawMessage
}

// RunResult is what Run returns. Result and Diagnostic are the stored payload's members
// (for replayed: the original run's); Reason is the record's reason; Record is the record as
// last written or observed (zero when cancelled before the claim).
type RunResult struct {
	Status     Status
	Result     json.RawMessage
	Reason     string
	Diagnostic json.RawMessage
	Record     Record
}

// PanicError is the error Classify receives when Execute panicked.
type PanicError struct{ Value any }

func (e *PanicError) Error() string {
	return fmt.Sprintf("side-effect execution panicked: %v", e.Value)
}

// Runner runs side effects at most once per key through a Store (REFERENCE §6.4). Safe for
// concurrent use; immutable.
type Runner struct {
	store       *Store
	owner       string
	markTimeout time.Duration
}

// NewRunner returns a runner that claims keys as ownerID.
//
// # Errors
//   - *ValidationError: store is nil ("store"); ownerID blank ("ownerId").
func NewRunner(store *Store, ownerID string) (*Runner, error) {
	if store == nil {
		return nil, invalid("store", "must not be nil")
	}
	if err := checkText("ownerId", ownerID, true, MaxIDBytes); err != nil {
		return nil, err
	}
	return &Runner{store: store, owner: ownerID, markTimeout: DefaultMarkTimeout}, nil
}

// Store returns the runner's store.
func (r *Runner) Store() *Store { return r.store }

// OwnerID returns the owner id the runner claims with.
func (r *Runner) OwnerID() string { return r.owner }

// payload is the stored result of a runner record: {"result"?, "diagnostic"?}.
type payload struct {
	Result     json.RawMessage `json:"result,omitempty"`
	Diagnostic json.RawMessage `json:"diagnostic,omitempty"`
}

func encodePayload(result, diagnostic json.RawMessage) json.RawMessage {
	if result == nil && diagnostic == nil {
		return nil
	}
	raw, err := json.Marshal(payload{Result: result, Diagnostic: diagnostic})
	if err != nil {
		// Both members passed mcp.CheckJSON in normalize; Marshal cannot fail on them.
		return nil
	}
	return raw
}

func decodePayload(rec Record) (payload, error) {
	var p payload
	if rec.Result == nil {
		return p, nil
	}
	m, err := mcp.DecodeObject(rec.Result, []string{"result", "diagnostic"}, nil)
	if err != nil {
		return p, &ValidationError{Key: rec.Key, Field: "result", Reason: "is not a side-effect payload {result?, diagnostic?}: " + err.Error()}
	}
	p.Result, p.Diagnostic = m["result"], m["diagnostic"]
	return p, nil
}

// boundReason makes s a storable reason: valid UTF-8, no NUL, at most MaxReasonRunes code
// points, non-blank (fallback used when blank).
func boundReason(s, fallback string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	if strings.TrimSpace(s) == "" {
		s = fallback
	}
	if utf8.RuneCountInString(s) > MaxReasonRunes {
		r := []rune(s)
		s = string(r[:MaxReasonRunes-1]) + "…"
	}
	return s
}

// normalize turns whatever Execute/Classify produced into a storable outcome; anything
// malformed becomes unknown.
func normalize(o Outcome) Outcome {
	badJSON := func(raw json.RawMessage) bool { return raw != nil && mcp.CheckJSON(raw) != nil }
	switch o.Status {
	case StatusCompleted:
		if badJSON(o.Result) {
			return Unknown(ReasonMalformedOutcome+": completed result is not JSON", nil)
		}
		return Outcome{Status: StatusCompleted, Result: o.Result}
	case StatusFailed:
		if strings.TrimSpace(o.Reason) == "" || badJSON(o.Result) || badJSON(o.Diagnostic) {
			return Unknown(ReasonMalformedOutcome+": failed needs a reason and JSON result/diagnostic", nil)
		}
		return Outcome{Status: StatusFailed, Reason: boundReason(o.Reason, ""), Result: o.Result, Diagnostic: o.Diagnostic}
	case StatusUnknown:
		if badJSON(o.Diagnostic) {
			return Unknown(boundReason(o.Reason, ReasonUnknownDefault), nil)
		}
		return Outcome{Status: StatusUnknown, Reason: boundReason(o.Reason, ReasonUnknownDefault), Diagnostic: o.Diagnostic}
	}
	return Unknown(fmt.Sprintf("%s: status %q", ReasonMalformedOutcome, truncate(string(o.Status), 40)), nil)
}

func classify(classifier func(error) Outcome, err error) (out Outcome) {
	if classifier == nil {
		return Unknown(boundReason(err.Error(), ReasonGenericError), nil)
	}
	defer func() {
		if p := recover(); p != nil {
			out = Unknown(boundReason(fmt.Sprint(ReasonClassificationFailed, p), ReasonClassificationFailed), nil)
		}
	}()
	return normalize(classifier(err))
}

type execResult struct {
	out Outcome
	err error
}

// Run claims req.Key and, only as its owner, calls req.Execute once and records the outcome.
// It never retries and never executes for another status:
//   - cancelled: ctx was done before the claim; nothing stored, Execute not called;
//   - replayed: the key is completed or failed with this fingerprint; the stored payload is
//     returned (Result/Diagnostic) with the record's reason;
//   - pending (another owner holds a live lease), conflict (another fingerprint), unknown (the
//     record awaits reconciliation: see Recover);
//   - completed / failed / unknown: this run executed. An Execute error or panic goes through
//     req.Classify (default unknown with the error text, ≤ MaxReasonRunes); a malformed outcome
//     is unknown. If ctx is done while Execute runs, the record is marked unknown at once with
//     ReasonCancelledInFlight and req.AbortDiagnostic, and Run returns unknown without waiting
//     for Execute.
//
// The stored record result is the payload {"result"?, "diagnostic"?}.
//
// # Errors
//   - *ValidationError: blank key/fingerprint, nil Execute ("execute"), negative lease, or a
//     stored record/payload that does not decode.
//   - ErrBackend, ErrContention (retryable): the claim could not be made; Execute did not run.
//   - When Execute ran but its outcome could not be recorded (ErrLeaseExpired, ErrStaleFence,
//     ErrFenceChanged, ErrBackend…), Run returns the executed outcome in RunResult together with
//     an error wrapping the store error: the side effect's fate is known to the caller only.
func (r *Runner) Run(ctx context.Context, req RunRequest) (RunResult, error) {
	ctx = ensureCtx(ctx)
	if req.Execute == nil {
		return RunResult{}, invalid("execute", "must not be nil")
	}
	if ctx.Err() != nil {
		return RunResult{Status: StatusCancelled}, nil
	}
	c, err := r.store.Claim(ctx, req.Key, req.Fingerprint, r.owner, req.Lease)
	if err != nil {
		return RunResult{}, err
	}
	switch c.Outcome {
	case ClaimReplay:
		p, err := decodePayload(c.Record)
		if err != nil {
			return RunResult{}, err
		}
		return RunResult{Status: StatusReplayed, Result: p.Result, Diagnostic: p.Diagnostic, Reason: c.Record.Reason, Record: c.Record}, nil
	case ClaimPending:
		return RunResult{Status: StatusPending, Record: c.Record}, nil
	case ClaimConflict:
		return RunResult{Status: StatusConflict, Record: c.Record}, nil
	case ClaimUnknown:
		p, _ := decodePayload(c.Record)
		return RunResult{Status: StatusUnknown, Reason: c.Record.Reason, Diagnostic: p.Diagnostic, Record: c.Record}, nil
	}

	done := make(chan execResult, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- execResult{err: &PanicError{Value: p}}
			}
		}()
		o, err := req.Execute(ctx)
		done <- execResult{out: o, err: err}
	}()
	var res execResult
	select {
	case res = <-done:
	case <-ctx.Done():
		select {
		case res = <-done: // finished at the same moment: its outcome is better information
		default:
			return r.abandon(ctx, req, c)
		}
	}
	var out Outcome
	if res.err != nil {
		out = classify(req.Classify, res.err)
	} else {
		out = normalize(res.out)
	}
	return r.record(context.WithoutCancel(ctx), req.Key, c.Fence, out)
}

// abandon marks a claimed record unknown after the caller's context ended mid-execution.
func (r *Runner) abandon(ctx context.Context, req RunRequest, c Claim) (RunResult, error) {
	diag := req.AbortDiagnostic
	if diag != nil && mcp.CheckJSON(diag) != nil {
		diag = nil
	}
	mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.markTimeout)
	defer cancel()
	return r.record(mctx, req.Key, c.Fence, Unknown(ReasonCancelledInFlight, diag))
}

func (r *Runner) record(ctx context.Context, key string, fence Fence, out Outcome) (RunResult, error) {
	res := RunResult{Status: out.Status, Result: out.Result, Reason: out.Reason, Diagnostic: out.Diagnostic}
	var (
		rec Record
		err error
	)
	switch out.Status {
	case StatusCompleted:
		rec, err = r.store.Complete(ctx, key, r.owner, fence, encodePayload(out.Result, nil))
	case StatusFailed:
		rec, err = r.store.Fail(ctx, key, r.owner, fence, out.Reason, encodePayload(out.Result, out.Diagnostic))
	default:
		rec, err = r.store.MarkUnknown(ctx, key, r.owner, fence, out.Reason, encodePayload(nil, out.Diagnostic))
	}
	if err != nil {
		return res, fmt.Errorf("durable: side effect %q ended %s but its record was not updated: %w", key, out.Status, err)
	}
	res.Record = rec
	return res, nil
}

// RecoverContext is what a Resolver sees: the unknown record and its decoded payload.
type RecoverContext struct {
	Record     Record
	Result     json.RawMessage
	Diagnostic json.RawMessage
}

// Resolver decides an unknown side effect's fate out of band (for example by asking the
// provider about the idempotency key). It returns a Resolution whose Result is the side
// effect's result (the runner stores it as the payload's result).
type Resolver func(ctx context.Context, rc RecoverContext) (Resolution, error)

// RecoverOptions tune Recover. ReconcilerID defaults to the runner's owner id; Expected, when
// set, must equal the observed fence.
type RecoverOptions struct {
	Expected     *Fence
	ReconcilerID string
}

// RecoverResult is what Recover returns: StatusMissing (no record), StatusResolved (resolver
// ran and its resolution was stored), or the record's current state (pending, completed,
// failed) untouched.
type RecoverResult struct {
	Status Status
	Record Record
}

// Recover reconciles key (REFERENCE §6.4 recover): missing → StatusMissing; a record not in
// state unknown → its state, resolver not called; unknown → resolver(ctx, {record, result,
// diagnostic}) and ResolveUnknown with the observed fence → StatusResolved.
//
// # Errors
//   - *ValidationError: nil resolver ("resolver"), blank key, a record or payload that does not
//     decode, an invalid resolution (see ResolveUnknown).
//   - ErrStaleFence: opts.Expected is not the observed fence, or the record changed before the
//     resolution was stored; ErrFenceChanged: lost the compare-and-set.
//   - the resolver's error (wrapped), or a *PanicError when it panicked: nothing stored.
//   - ErrBackend (retryable).
func (r *Runner) Recover(ctx context.Context, key string, resolver Resolver, opts RecoverOptions) (RecoverResult, error) {
	ctx = ensureCtx(ctx)
	if resolver == nil {
		return RecoverResult{}, invalid("resolver", "must not be nil")
	}
	rec, found, err := r.store.Get(ctx, key)
	if err != nil {
		return RecoverResult{}, err
	}
	if !found {
		return RecoverResult{Status: StatusMissing}, nil
	}
	if opts.Expected != nil && *opts.Expected != rec.Fence() {
		return RecoverResult{Record: rec}, fmt.Errorf("%w: operation %q", ErrStaleFence, key)
	}
	if rec.State != StateUnknown {
		return RecoverResult{Status: Status(rec.State), Record: rec}, nil
	}
	p, err := decodePayload(rec)
	if err != nil {
		return RecoverResult{}, err
	}
	res, err := callResolver(ctx, resolver, RecoverContext{Record: rec, Result: p.Result, Diagnostic: p.Diagnostic})
	if err != nil {
		return RecoverResult{Status: StatusUnknown, Record: rec}, err
	}
	if res.Result != nil {
		if err := checkResult(res.Result); err != nil {
			return RecoverResult{Status: StatusUnknown, Record: rec}, err
		}
	}
	reconciler := opts.ReconcilerID
	if reconciler == "" {
		reconciler = r.owner
	}
	stored := Resolution{State: res.State, Reason: res.Reason, Result: encodePayload(res.Result, nil)}
	if res.State == StateCompleted && stored.Result == nil {
		stored.Result = json.RawMessage(`{}`)
	}
	next, err := r.store.ResolveUnknown(ctx, key, reconciler, rec.Fence(), stored)
	if err != nil {
		return RecoverResult{Status: StatusUnknown, Record: rec}, err
	}
	return RecoverResult{Status: StatusResolved, Record: next}, nil
}

func callResolver(ctx context.Context, resolver Resolver, rc RecoverContext) (res Resolution, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Value: p}
		}
	}()
	res, err = resolver(ctx, rc)
	if err != nil {
		return res, fmt.Errorf("durable: resolver failed: %w", err)
	}
	return res, nil
}

// Payload decodes a runner record's stored payload {"result"?, "diagnostic"?}.
//
// # Errors
//   - *ValidationError (field "result"): the record's result is not such an object.
func Payload(rec Record) (result, diagnostic json.RawMessage, err error) {
	p, err := decodePayload(rec)
	return p.Result, p.Diagnostic, err
}
