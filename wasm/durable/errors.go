package durable

import (
	"context"
	"errors"
	"fmt"
)

// Sentinel errors returned by Store, Runner and the backends. Test them with errors.Is.
//
// Retryable: ErrBackend, ErrContention. Every other sentinel describes a state that retrying
// the same request cannot change (REFERENCE §3.1: TOOL_IDEMPOTENCY_STORE_FAILED is retryable).
var (
	// ErrInvalid marks a validation failure; the error is a *ValidationError naming the field.
	ErrInvalid = errors.New("durable: invalid")
	// ErrBackend marks a failure of the backend itself (network, server, driver, context
	// expiry while talking to it). Always retryable; never means "absent".
	ErrBackend = errors.New("durable: backend failed")
	// ErrNotFound: a transition or resolution named a key with no record.
	ErrNotFound = errors.New("durable: operation not found")
	// ErrStaleFence: the presented fence {incarnation, revision} is not the record's current
	// fence (another owner took over, the key was pruned and recreated, or the caller is late).
	ErrStaleFence = errors.New("durable: fence is stale")
	// ErrFenceChanged: the fence matched when read, but the compare-and-set lost to a concurrent
	// writer ("fence changed during transition"). Distinct from ErrStaleFence.
	ErrFenceChanged = errors.New("durable: fence changed during transition")
	// ErrNotOwner: the record is owned by another owner id.
	ErrNotOwner = errors.New("durable: operation is owned by another owner")
	// ErrNotPending: complete/fail/markUnknown on a record that is not pending.
	ErrNotPending = errors.New("durable: operation is not pending")
	// ErrLeaseExpired: the caller's lease ended (leaseExpiresAt <= now) before its transition.
	ErrLeaseExpired = errors.New("durable: lease expired")
	// ErrNotUnknown: ResolveUnknown on a record that is not in state unknown.
	ErrNotUnknown = errors.New("durable: operation is not unknown")
	// ErrContention: Claim lost MaxClaimAttempts compare-and-sets in a row
	// ("could not claim after concurrent updates"). Retryable.
	ErrContention = errors.New("durable: could not claim after concurrent updates")
	// ErrCursorStalled: a ListPage cursor did not advance (repeated, went backwards, or an
	// empty page that still names a next cursor) during Prune.
	ErrCursorStalled = errors.New("durable: list cursor did not advance")
	// ErrPageCap: Prune needed more pages than its page cap.
	ErrPageCap = errors.New("durable: prune exceeded its page cap")
)

// ValidationError names the field that failed validation: a request argument ("key",
// "ownerId", "fingerprint", "reason", "lease", "fence.revision", …) or a member of a record
// read back from a backend ("revision", "state", "createdAt", or the unknown member's name).
// It matches ErrInvalid with errors.Is.
type ValidationError struct {
	Key    string // operation key of the record, when known
	Field  string
	Reason string
}

func (e *ValidationError) Error() string {
	if e.Key != "" {
		return fmt.Sprintf("durable: invalid %s of operation %q: %s", e.Field, e.Key, e.Reason)
	}
	return fmt.Sprintf("durable: invalid %s: %s", e.Field, e.Reason)
}

// Is reports whether target is ErrInvalid.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

func invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// BackendError is a failure of a backend operation (Op is "read", "compareAndSet" or
// "listPage"). It matches ErrBackend with errors.Is, and also the context error when the
// failure was a cancellation or deadline. The driver's own error value is flattened to text so
// that no driver type leaves an adapter (STYLE §7).
type BackendError struct {
	Op  string
	Msg string
	ctx error // context.Canceled or context.DeadlineExceeded, when that was the cause
}

func (e *BackendError) Error() string {
	return fmt.Sprintf("durable: backend %s failed: %s", e.Op, e.Msg)
}

// Is reports whether target is ErrBackend (or the context error that caused the failure).
func (e *BackendError) Is(target error) bool {
	return target == ErrBackend || (e.ctx != nil && target == e.ctx)
}

// BackendFailure wraps err, a failure of backend operation op, as a *BackendError. Adapters
// call it for every driver error; Store calls it for any backend error that is neither a
// *BackendError nor a *ValidationError already. Returns nil for a nil err.
func BackendFailure(op string, err error) error {
	if err == nil {
		return nil
	}
	var be *BackendError
	if errors.As(err, &be) {
		return be
	}
	out := &BackendError{Op: op, Msg: err.Error()}
	switch {
	case errors.Is(err, context.Canceled):
		out.ctx = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		out.ctx = context.DeadlineExceeded
	}
	return out
}

// Retryable reports whether err is a store failure that the same request may succeed on later:
// ErrBackend or ErrContention (REFERENCE §3.1 TOOL_IDEMPOTENCY_STORE_FAILED is retryable).
func Retryable(err error) bool {
	return errors.Is(err, ErrBackend) || errors.Is(err, ErrContention)
}

// backendErr classifies an error returned by a Backend: validation errors (a record that does
// not decode) pass through with the key filled in; everything else becomes a *BackendError.
func backendErr(op, key string, err error) error {
	var ve *ValidationError
	if errors.As(err, &ve) {
		if ve.Key == "" && key != "" {
			c := *ve
			c.Key = key
			return &c
		}
		return ve
	}
	return BackendFailure(op, err)
}
