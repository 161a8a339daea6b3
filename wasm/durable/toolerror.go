package durable

import (
	"errors"
	"fmt"

	"github.com/webcoding/studio/wasm/mcp"
)

// PendingDetails is the details object of TOOL_IDEMPOTENCY_PENDING:
// {"state": "pending", "ownerId": "…", "leaseExpiresAt": 1764465330000} (Unix ms; omitted when
// the record has no lease).
type PendingDetails struct {
	State          State  `json:"state"`
	OwnerID        string `json:"ownerId"`
	LeaseExpiresAt int64  `json:"leaseExpiresAt,omitempty"`
}

// UnknownDetails is the details object of TOOL_IDEMPOTENCY_UNKNOWN: {"state", "reason"?}.
type UnknownDetails struct {
	State  State  `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// KeyDetails is the details object of TOOL_IDEMPOTENCY_CONFLICT and
// TOOL_IDEMPOTENCY_STORE_FAILED: {"operationKey"}.
type KeyDetails struct {
	OperationKey string `json:"operationKey"`
}

// AppliedKeyDetails are the details of TOOL_IDEMPOTENCY_STORE_FAILED when the call's handler
// had already succeeded: its change is applied (SPEC §2.13), only its record is missing, so the
// error is not retryable — re-running would apply the change twice.
type AppliedKeyDetails struct {
	OperationKey string `json:"operationKey"`
	Applied      bool   `json:"applied"`
}

// ClaimError maps a claim that must not run the handler to its tool error (REFERENCE §3.1):
//   - conflict → TOOL_IDEMPOTENCY_CONFLICT (not retryable), details KeyDetails;
//   - pending → TOOL_IDEMPOTENCY_PENDING (retryable), details PendingDetails;
//   - unknown → TOOL_IDEMPOTENCY_UNKNOWN (not retryable), details UnknownDetails.
//
// It returns nil for owner (run the handler) and replay (return the stored result).
func ClaimError(c Claim) error {
	key := c.Record.Key
	switch c.Outcome {
	case ClaimConflict:
		return mcp.NewError(mcp.CodeToolIdempotencyConflict, false, KeyDetails{OperationKey: key},
			"Durable operation %q was already claimed with different arguments.", key)
	case ClaimPending:
		return mcp.NewError(mcp.CodeToolIdempotencyPending, true,
			PendingDetails{State: c.Record.State, OwnerID: c.Record.OwnerID, LeaseExpiresAt: c.Record.LeaseExpiresAt},
			"Durable operation %q is still pending under another owner.", key)
	case ClaimUnknown:
		return mcp.NewError(mcp.CodeToolIdempotencyUnknown, false, UnknownDetails{State: c.Record.State, Reason: c.Record.Reason},
			"Durable operation %q has an unknown outcome; reconcile before retrying.", key)
	}
	return nil
}

// StoreError maps a failed claim or terminal transition to TOOL_IDEMPOTENCY_STORE_FAILED with
// details KeyDetails (REFERENCE §3.1). It is retryable when Retryable(err) — the backend failed
// or the claim lost to contention — and not retryable for a record that fails validation or a
// fence that no longer holds, where retrying the same call cannot succeed. Returns nil for a
// nil err.
func StoreError(key string, err error) error {
	if err == nil {
		return nil
	}
	what := "could not be recorded"
	var ve *ValidationError
	switch {
	case errors.Is(err, ErrBackend):
		what = "could not be recorded: the durable store is unavailable"
	case errors.Is(err, ErrContention):
		what = "could not be claimed after concurrent updates"
	case errors.As(err, &ve):
		what = fmt.Sprintf("could not be recorded: invalid %s", ve.Field)
	case errors.Is(err, ErrStaleFence), errors.Is(err, ErrFenceChanged), errors.Is(err, ErrLeaseExpired),
		errors.Is(err, ErrNotOwner), errors.Is(err, ErrNotPending):
		what = "could not be recorded: its claim no longer holds"
	}
	return mcp.NewError(mcp.CodeToolIdempotencyStoreFailed, Retryable(err), KeyDetails{OperationKey: key},
		"Durable operation %q %s.", key, what)
}
