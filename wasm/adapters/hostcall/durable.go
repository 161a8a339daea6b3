//go:build wasip1

package hostcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
)

// StatusInvalid is the status of a durable_* call whose record (stored or sent) failed
// validation; the result bytes are JSON {"key","field","reason"} of the *durable.ValidationError.
// Keep identical to host/wasmhost/durable.go. durable_* also answer StatusOK, StatusMissing
// (durable_read: no record under the key), StatusFailed (the backend failed; the result is its
// credential-free message), StatusNone (the host has no durable backend), StatusTooLarge and
// StatusTimeout (the request's deadline expired in the host).
const StatusInvalid = 11

// webcoding.durable_read(req, reqLen, buf, cap, out) → status. req is JSON {"key",
// "timeoutMs"?}; the answer is the stored record's bytes (durable.EncodeRecord), StatusMissing
// when there is none.
//
//go:wasmimport webcoding durable_read
func hostDurableRead(req unsafe.Pointer, reqLen uint32, buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.durable_cas(req, reqLen, rec, recLen, buf, cap, out) → status. req is JSON {"key",
// "expected": {"incarnation","revision"}|null, "delete": bool, "timeoutMs"?}; rec holds the
// next record's bytes (durable.EncodeRecord; empty when delete). The answer is `true` (stored)
// or `false` (the expectation did not hold).
//
//go:wasmimport webcoding durable_cas
func hostDurableCAS(req unsafe.Pointer, reqLen uint32, rec unsafe.Pointer, recLen uint32, buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.durable_list(req, reqLen, buf, cap, out) → status. req is JSON {"cursor","limit",
// "timeoutMs"?}; the answer is JSON {"records":[<record>...],"nextCursor":"..."}.
//
//go:wasmimport webcoding durable_list
func hostDurableList(req unsafe.Pointer, reqLen uint32, buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// Durable is the durable.Backend of the wasip1 module: every operation goes to the host's
// backend (Redis or PostgreSQL behind `webcoding --durable URL`, see host/wasmhost
// Options.Durable) through the durable_read, durable_cas and durable_list host functions.
// Records cross as the bytes of durable.EncodeRecord and are decoded here with
// durable.DecodeRecord (strict: a record the host sends that does not decode is a
// *durable.ValidationError, never repaired).
//
// ctx's deadline becomes the request's timeoutMs, enforced by the host (the guest's timers
// cannot fire while a host call blocks). Errors: a validation failure (*durable.ValidationError,
// from the host's backend or from decoding here); every other failure — ctx already done, the
// host's timeout, a backend failure, no backend in the host, an answer that does not parse — is
// a *durable.BackendError (durable.ErrBackend, retryable), so the store reports
// TOOL_IDEMPOTENCY_STORE_FAILED and never treats a failure as "absent". Safe for concurrent
// use: host calls do not yield.
type Durable struct{}

var _ durable.Backend = Durable{}

// durableReq is the JSON request of the durable_* host functions.
type durableReq struct {
	Key       string         `json:"key,omitempty"`
	Expected  *durable.Fence `json:"expected,omitempty"`
	Delete    bool           `json:"delete,omitempty"`
	Cursor    string         `json:"cursor,omitempty"`
	Limit     int            `json:"limit,omitempty"`
	TimeoutMs int64          `json:"timeoutMs,omitempty"`
}

// prepare checks ctx and encodes req with ctx's deadline as timeoutMs.
func prepare(ctx context.Context, op string, req durableReq) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, durable.BackendFailure(op, err)
	}
	if d, ok := ctx.Deadline(); ok {
		left := time.Until(d)
		if left <= 0 {
			return nil, durable.BackendFailure(op, context.DeadlineExceeded)
		}
		req.TimeoutMs = max(left.Milliseconds(), 1)
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, durable.BackendFailure(op, err)
	}
	return b, nil
}

// durableStatusError maps a status other than StatusOK (and StatusMissing for read) to the
// error of op.
func durableStatusError(op string, st int32, msg []byte) error {
	switch st {
	case StatusInvalid:
		var v struct {
			Key    string `json:"key"`
			Field  string `json:"field"`
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal(msg, &v); err != nil || v.Field == "" {
			return durable.BackendFailure(op, fmt.Errorf("the host answered an invalid-record status without a field: %.200q", msg))
		}
		return &durable.ValidationError{Key: v.Key, Field: v.Field, Reason: v.Reason}
	case StatusTimeout:
		return durable.BackendFailure(op, fmt.Errorf("%s: %w", msg, context.DeadlineExceeded))
	case StatusNone:
		return durable.BackendFailure(op, fmt.Errorf("%w: %s", ErrNotConfigured, msg))
	default:
		if len(msg) == 0 {
			msg = []byte(fmt.Sprintf("host status %d", st))
		}
		return durable.BackendFailure(op, errors.New(string(msg)))
	}
}

// Read returns the record under key (found == false when there is none).
func (Durable) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	req, err := prepare(ctx, "read", durableReq{Key: key})
	if err != nil {
		return durable.Record{}, false, err
	}
	st, res := invoke(func(buf unsafe.Pointer, n uint32, o unsafe.Pointer) int32 {
		return hostDurableRead(bytesPtr(req), uint32(len(req)), buf, n, o)
	})
	switch st {
	case StatusOK:
	case StatusMissing:
		return durable.Record{}, false, nil
	default:
		return durable.Record{}, false, durableStatusError("read", st, res)
	}
	rec, err := durable.DecodeRecord(res)
	if err != nil {
		return durable.Record{}, false, err
	}
	if rec.Key != key {
		return durable.Record{}, false, &durable.ValidationError{Key: key, Field: "key", Reason: "the stored record names another key"}
	}
	return rec, true, nil
}

// CompareAndSet replaces (next != nil) or deletes (next == nil) the record under key when its
// fence is *expected (or, expected == nil, when there is none). See durable.Backend.
func (Durable) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	var rec []byte
	if next != nil {
		var err error
		if rec, err = durable.EncodeRecord(*next); err != nil {
			return false, err
		}
		if next.Key != key {
			return false, &durable.ValidationError{Key: key, Field: "key", Reason: "the next record names another key"}
		}
	}
	req, err := prepare(ctx, "compareAndSet", durableReq{Key: key, Expected: expected, Delete: next == nil})
	if err != nil {
		return false, err
	}
	st, res := invoke(func(buf unsafe.Pointer, n uint32, o unsafe.Pointer) int32 {
		return hostDurableCAS(bytesPtr(req), uint32(len(req)), bytesPtr(rec), uint32(len(rec)), buf, n, o)
	})
	if st != StatusOK {
		return false, durableStatusError("compareAndSet", st, res)
	}
	switch string(res) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, durable.BackendFailure("compareAndSet", fmt.Errorf("the host answered %.100q, not true or false", res))
}

// ListPage returns up to limit records after cursor in key order; limit is clamped to
// 1..durable.MaxListLimit. See durable.Backend.
func (Durable) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	limit = min(max(limit, 1), durable.MaxListLimit) // as memstore: clamped, never refused
	req, err := prepare(ctx, "listPage", durableReq{Cursor: cursor, Limit: limit})
	if err != nil {
		return nil, "", err
	}
	st, res := invoke(func(buf unsafe.Pointer, n uint32, o unsafe.Pointer) int32 {
		return hostDurableList(bytesPtr(req), uint32(len(req)), buf, n, o)
	})
	if st != StatusOK {
		return nil, "", durableStatusError("listPage", st, res)
	}
	m, err := mcp.DecodeObject(res, []string{"records", "nextCursor"}, nil)
	if err != nil {
		return nil, "", durable.BackendFailure("listPage", fmt.Errorf("the host answered a page that does not parse: %w", err))
	}
	var raws []json.RawMessage
	var next string
	if err := json.Unmarshal(m["records"], &raws); err != nil || raws == nil {
		return nil, "", durable.BackendFailure("listPage", errors.New("the host answered a page without a records array"))
	}
	if c, ok := m["nextCursor"]; ok {
		if err := json.Unmarshal(c, &next); err != nil {
			return nil, "", durable.BackendFailure("listPage", errors.New("the host answered a page whose nextCursor is not a string"))
		}
	}
	if len(raws) > limit {
		return nil, "", durable.BackendFailure("listPage", fmt.Errorf("the host answered %d records for a limit of %d", len(raws), limit))
	}
	// The host's page says itself whether more follow (nextCursor), so more is false here.
	out, _, err := durable.DecodePage(raws, false, func(raw json.RawMessage) (durable.Record, error) {
		return durable.DecodeRecord(raw)
	})
	if err != nil {
		return nil, "", err
	}
	return out, next, nil
}
