package rpcsession

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
)

// Durable operation methods (REFERENCE §6.3/§6.4 get and recover, over the registry's
// operation methods). A session adds them with OperationMethods when its registry has a
// durable store; without one they do not exist (-32601).
const (
	// MethodOperationsGet reads the durable record of one idempotent call.
	//
	//	params {"sessionId"?: string, "tool": string, "idempotencyKey": string}
	//	result {"found": false} or {"found": true, "operation": OperationView}
	MethodOperationsGet = "operations/get"
	// MethodOperationsReconcile settles an unknown operation as completed or failed.
	//
	//	params {"sessionId"?, "tool", "idempotencyKey", "state": "completed"|"failed",
	//	        "structuredContent"?: {...} (completed: required), "reason"?: string
	//	        (failed: required), "fence"?: {"incarnation", "revision"}, "reconcilerId"?}
	//	result {"status": "resolved"|"missing"|"pending"|"completed"|"failed", "operation"?: OperationView}
	//
	// With a fence, the record must still be at that fence (registry.ReconcileOperation).
	// Without one, the fence observed by this call is presented, and only an unknown record
	// is resolved: otherwise the status says what the record is and nothing changes
	// (registry.RecoverOperation).
	MethodOperationsReconcile = "operations/reconcile"
)

// OperationView is a durable record as the operation methods show it: the members of
// durable.Record, with the times as RFC 3339 UTC strings (millisecond precision) instead of
// Unix milliseconds, and the stored result as JSON.
//
//	{"key", "fingerprint", "ownerId", "incarnation", "revision", "state", "result"?, "reason"?,
//	 "createdAt", "updatedAt", "leaseExpiresAt"?, "reconciledBy"?, "reconciledAt"?}
type OperationView struct {
	Key            string          `json:"key"`
	Fingerprint    string          `json:"fingerprint"`
	OwnerID        string          `json:"ownerId"`
	Incarnation    string          `json:"incarnation"`
	Revision       int64           `json:"revision"`
	State          durable.State   `json:"state"`
	Result         json.RawMessage `json:"result,omitempty"`
	Reason         string          `json:"reason,omitempty"`
	CreatedAt      string          `json:"createdAt"`
	UpdatedAt      string          `json:"updatedAt"`
	LeaseExpiresAt string          `json:"leaseExpiresAt,omitempty"`
	ReconciledBy   string          `json:"reconciledBy,omitempty"`
	ReconciledAt   string          `json:"reconciledAt,omitempty"`
}

func msTime(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// ViewOperation projects rec for the operation methods.
func ViewOperation(rec durable.Record) OperationView {
	return OperationView{Key: rec.Key, Fingerprint: rec.Fingerprint, OwnerID: rec.OwnerID, Incarnation: rec.Incarnation,
		Revision: rec.Revision, State: rec.State, Result: rec.Result, Reason: rec.Reason,
		CreatedAt: msTime(rec.CreatedAt), UpdatedAt: msTime(rec.UpdatedAt), LeaseExpiresAt: msTime(rec.LeaseExpiresAt),
		ReconciledBy: rec.ReconciledBy, ReconciledAt: msTime(rec.ReconciledAt)}
}

// operationRef is the call an operation method names.
type operationRef struct {
	session, tool, key string
}

func textParam(m map[string]json.RawMessage, name string, required bool, max int) (string, error) {
	raw, ok := m[name]
	if !ok {
		if required {
			return "", fmt.Errorf("%s is required", name)
		}
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil || s == "" || utf8.RuneCountInString(s) > max {
		return "", fmt.Errorf("%s must be a string of 1..%d characters", name, max)
	}
	return s, nil
}

func parseRef(m map[string]json.RawMessage) (operationRef, error) {
	var ref operationRef
	var err error
	if ref.session, err = textParam(m, "sessionId", false, mcp.MaxSessionIDChars); err != nil {
		return ref, err
	}
	if ref.tool, err = textParam(m, "tool", true, 256); err != nil {
		return ref, err
	}
	ref.key, err = textParam(m, "idempotencyKey", true, mcp.MaxIdempotencyKeyChars)
	return ref, err
}

// operationError maps a registry/store error to a JSON-RPC error: a request the store refuses
// (validation, no record, stale fence, not unknown, lost race) is -32602 with data {"reason"};
// a store failure is -32603 with data {"reason": "store-failed", "retryable": true}.
func operationError(method string, err error) *jsonrpc.Error {
	msg := err.Error()
	reason := ""
	switch {
	case errors.Is(err, durable.ErrBackend), errors.Is(err, durable.ErrContention):
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: method + ": " + msg,
			Data: map[string]any{"reason": "store-failed", "retryable": true}}
	case errors.Is(err, durable.ErrInvalid):
		reason = "invalid"
	case errors.Is(err, durable.ErrNotFound):
		reason, msg = "not-found", "no operation is recorded under this key"
	case errors.Is(err, durable.ErrStaleFence):
		// The store's message names the current incarnation; keep it out of the response.
		reason, msg = "stale-fence", "the presented fence is not the operation's current fence; read it again with operations/get"
	case errors.Is(err, durable.ErrFenceChanged):
		reason, msg = "fence-changed", "the operation changed while it was being reconciled; read it again with operations/get"
	case errors.Is(err, durable.ErrNotUnknown):
		reason, msg = "not-unknown", "only an operation in state unknown can be reconciled"
	case errors.Is(err, registry.ErrDurableDisabled):
		reason = "durable-disabled"
	default:
		reason = "resolver-failed"
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: method + ": " + msg, Data: map[string]any{"reason": reason}}
}

// OperationMethods returns operations/get and operations/reconcile over r (see the method
// constants for their shapes).
func OperationMethods(r *registry.Registry) map[string]Method {
	return map[string]Method{
		MethodOperationsGet: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			m, err := mcp.DecodeObject(bytes.TrimSpace(params), []string{"sessionId", "tool", "idempotencyKey"}, nil)
			if err != nil {
				return nil, invalid(MethodOperationsGet, err)
			}
			ref, err := parseRef(m)
			if err != nil {
				return nil, invalid(MethodOperationsGet, err)
			}
			rec, found, err := r.GetOperationStatus(ctx, ref.session, ref.tool, ref.key)
			if err != nil {
				return nil, operationError(MethodOperationsGet, err)
			}
			if !found {
				return map[string]any{"found": false}, nil
			}
			return map[string]any{"found": true, "operation": ViewOperation(rec)}, nil
		},
		MethodOperationsReconcile: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			m, err := mcp.DecodeObject(bytes.TrimSpace(params), []string{"sessionId", "tool", "idempotencyKey", "state",
				"structuredContent", "reason", "fence", "reconcilerId"}, nil)
			if err != nil {
				return nil, invalid(MethodOperationsReconcile, err)
			}
			ref, err := parseRef(m)
			if err != nil {
				return nil, invalid(MethodOperationsReconcile, err)
			}
			var rc registry.Reconciliation
			var state string
			if json.Unmarshal(m["state"], &state) != nil || (state != "completed" && state != "failed") {
				return nil, invalid(MethodOperationsReconcile, errors.New(`state must be "completed" or "failed"`))
			}
			rc.State = durable.State(state)
			rc.StructuredContent = m["structuredContent"]
			if rc.Reason, err = textParam(m, "reason", false, durable.MaxReasonRunes); err != nil {
				return nil, invalid(MethodOperationsReconcile, err)
			}
			if rc.ReconcilerID, err = textParam(m, "reconcilerId", false, 256); err != nil {
				return nil, invalid(MethodOperationsReconcile, err)
			}
			if raw, ok := m["fence"]; ok {
				fm, err := mcp.DecodeObject(raw, []string{"incarnation", "revision"}, nil)
				var f durable.Fence
				if err == nil && (json.Unmarshal(fm["incarnation"], &f.Incarnation) != nil || json.Unmarshal(fm["revision"], &f.Revision) != nil ||
					f.Incarnation == "" || f.Revision < 1) {
					err = errors.New("fence must be {incarnation: non-empty string, revision: positive integer}")
				}
				if err != nil {
					return nil, invalid(MethodOperationsReconcile, err)
				}
				rec, err := r.ReconcileOperation(ctx, ref.session, ref.tool, ref.key, f, rc)
				if err != nil {
					return nil, operationError(MethodOperationsReconcile, err)
				}
				return map[string]any{"status": durable.StatusResolved, "operation": ViewOperation(rec)}, nil
			}
			rr, err := r.RecoverOperation(ctx, ref.session, ref.tool, ref.key,
				func(context.Context, durable.Record) (registry.Reconciliation, error) { return rc, nil })
			if err != nil {
				return nil, operationError(MethodOperationsReconcile, err)
			}
			if rr.Status == durable.StatusMissing {
				return map[string]any{"status": rr.Status}, nil
			}
			return map[string]any{"status": rr.Status, "operation": ViewOperation(rr.Record)}, nil
		},
	}
}

func invalid(method string, err error) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: method + ": " + err.Error(), Data: map[string]any{"reason": "invalid"}}
}
