package wasmhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
)

// statusInvalid is the status of a durable_* call whose record failed validation (a stored
// record that does not decode, or a record the guest sent); the result bytes are JSON
// {"key","field","reason"}. The guest (wasm/adapters/hostcall/durable.go) maps it back to a
// *durable.ValidationError; keep both lists identical.
const statusInvalid = 11

// DefaultDurableTimeout bounds one durable_* call when the guest sends no timeoutMs.
const DefaultDurableTimeout = 30 * time.Second

// maxDurableRequestBytes bounds the JSON request of a durable_* call (a key is at most
// durable.MaxKeyBytes, a cursor too).
const maxDurableRequestBytes = 64 << 10

// durableRequest is the JSON request of durable_read, durable_cas and durable_list.
type durableRequest struct {
	Key       string
	Expected  *durable.Fence
	Delete    bool
	Cursor    string
	Limit     int
	TimeoutMs int64
}

// readDurableRequest reads and strictly decodes the guest's request (members allowed: key,
// expected, delete, cursor, limit, timeoutMs).
func readDurableRequest(m api.Module, ptr, size uint32) (durableRequest, error) {
	var r durableRequest
	if size > maxDurableRequestBytes {
		return r, fmt.Errorf("durable request is %d bytes, limit %d", size, maxDurableRequestBytes)
	}
	raw, ok := m.Memory().Read(ptr, size)
	if !ok {
		return r, errors.New("durable request out of guest memory")
	}
	return decodeDurableRequest(raw)
}

// decodeDurableRequest decodes a durable_* request strictly (mcp.DecodeObject: valid UTF-8,
// no repeated or unknown member; members typed as documented, "expected" null or a fence).
// It copies everything it keeps, so raw may alias guest memory.
func decodeDurableRequest(raw []byte) (durableRequest, error) {
	var r durableRequest
	fields, err := mcp.DecodeObject(raw, []string{"key", "expected", "delete", "cursor", "limit", "timeoutMs"}, nil)
	if err != nil {
		return r, fmt.Errorf("durable request: %w", err)
	}
	for name, v := range fields {
		var err error
		switch name {
		case "key":
			err = json.Unmarshal(v, &r.Key)
		case "expected":
			if string(v) != "null" {
				var f durable.Fence
				if err = json.Unmarshal(v, &f); err == nil {
					r.Expected = &f
				}
			}
		case "delete":
			err = json.Unmarshal(v, &r.Delete)
		case "cursor":
			err = json.Unmarshal(v, &r.Cursor)
		case "limit":
			err = json.Unmarshal(v, &r.Limit)
		case "timeoutMs":
			err = json.Unmarshal(v, &r.TimeoutMs)
		}
		if err != nil {
			return r, fmt.Errorf("durable request member %q: %v", name, err)
		}
	}
	return r, nil
}

// durableOf returns the calling host and its backend, nil when it has none.
func durableOf(ctx context.Context) (*Host, durable.Backend) {
	h := hostFrom(ctx)
	if h == nil {
		return nil, nil
	}
	return h, h.opts.Durable
}

// durableContext bounds ctx by the guest's timeoutMs (else DefaultDurableTimeout).
func durableContext(ctx context.Context, r durableRequest) (context.Context, context.CancelFunc) {
	d := DefaultDurableTimeout
	if r.TimeoutMs > 0 {
		d = min(d, time.Duration(r.TimeoutMs)*time.Millisecond)
	}
	return context.WithTimeout(ctx, d)
}

// durableCall is what every durable_* host function starts from (beginDurable): the calling
// host, its backend, the guest's request and a context bounded by the request's deadline.
type durableCall struct {
	h      *Host
	b      durable.Backend
	r      durableRequest
	ctx    context.Context
	cancel context.CancelFunc
}

// beginDurable is the one prologue of the durable_* host functions: no backend → statusNone;
// a request that cannot be read → statusFailed with the reason. ok false means st is the reply
// already given. On ok the caller must call dc.cancel.
func beginDurable(ctx context.Context, m api.Module, reqPtr, reqLen, buf, bufCap, out uint32) (dc durableCall, st int32, ok bool) {
	h, b := durableOf(ctx)
	if b == nil {
		return dc, none(m, "the host has no durable backend (--durable)", buf, bufCap, out), false
	}
	r, err := readDurableRequest(m, reqPtr, reqLen)
	if err != nil {
		return dc, h.reply(m, statusFailed, []byte(err.Error()), buf, bufCap, out), false
	}
	dctx, cancel := durableContext(ctx, r)
	return durableCall{h: h, b: b, r: r, ctx: dctx, cancel: cancel}, 0, true
}

// durableFail replies with the status of err: statusInvalid and {"key","field","reason"} for a
// *durable.ValidationError, statusTimeout when the deadline expired, else statusFailed with
// the message.
func (h *Host) durableFail(m api.Module, op string, err error, buf, bufCap, out uint32) int32 {
	var ve *durable.ValidationError
	if errors.As(err, &ve) {
		b, _ := json.Marshal(struct {
			Key    string `json:"key,omitempty"`
			Field  string `json:"field"`
			Reason string `json:"reason"`
		}{ve.Key, ve.Field, ve.Reason})
		if len(b) > int(bufCap) { // a reason that does not fit: keep the field, drop the rest
			b, _ = json.Marshal(struct {
				Field  string `json:"field"`
				Reason string `json:"reason"`
			}{truncateField(ve.Field), "(reason too long for the guest's buffer)"})
		}
		return h.reply(m, statusInvalid, b, buf, bufCap, out)
	}
	st := int32(statusFailed)
	if errors.Is(err, context.DeadlineExceeded) {
		st = statusTimeout
	}
	h.logf("durable %s: %v", op, err)
	return h.reply(m, st, []byte(err.Error()), buf, bufCap, out)
}

func truncateField(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

// hostDurableRead answers the record under key as durable.EncodeRecord bytes:
//
//	durable_read(req u32, reqLen u32, buf u32, cap u32, out u32) -> status
//
// req is {"key","timeoutMs"?}. Statuses: statusOK (the record), statusMissing (no record),
// statusInvalid (the stored record does not decode), statusTimeout, statusFailed (backend
// failure or a bad request), statusNone (no Options.Durable).
func hostDurableRead(ctx context.Context, m api.Module, reqPtr, reqLen, buf, bufCap, out uint32) int32 {
	dc, st, ok := beginDurable(ctx, m, reqPtr, reqLen, buf, bufCap, out)
	if !ok {
		return st
	}
	defer dc.cancel()
	h, b, r := dc.h, dc.b, dc.r
	dctx := dc.ctx
	rec, found, err := b.Read(dctx, r.Key)
	if err != nil {
		return h.durableFail(m, "read", err, buf, bufCap, out)
	}
	if !found {
		return h.reply(m, statusMissing, nil, buf, bufCap, out)
	}
	raw, err := durable.EncodeRecord(rec)
	if err != nil {
		return h.durableFail(m, "read", err, buf, bufCap, out)
	}
	return h.reply(m, statusOK, raw, buf, bufCap, out)
}

// hostDurableCAS runs one compare-and-set:
//
//	durable_cas(req u32, reqLen u32, rec u32, recLen u32, buf u32, cap u32, out u32) -> status
//
// req is {"key","expected":{"incarnation","revision"}|null,"delete":bool,"timeoutMs"?}; rec is
// the next record (durable.EncodeRecord bytes, decoded strictly here; empty with delete). The
// answer is `true` or `false`. Statuses as durable_read (statusInvalid: the next record does
// not decode or names another key).
func hostDurableCAS(ctx context.Context, m api.Module, reqPtr, reqLen, recPtr, recLen, buf, bufCap, out uint32) int32 {
	dc, st, ok := beginDurable(ctx, m, reqPtr, reqLen, buf, bufCap, out)
	if !ok {
		return st
	}
	defer dc.cancel()
	h, b, r := dc.h, dc.b, dc.r
	var next *durable.Record
	switch {
	case r.Delete && recLen != 0:
		return h.reply(m, statusFailed, []byte("durable_cas: a delete carries no record"), buf, bufCap, out)
	case !r.Delete:
		if recLen > durable.MaxRecordBytes {
			return h.durableFail(m, "compareAndSet", &durable.ValidationError{Key: r.Key, Field: "record", Reason: "encodes to more than MaxRecordBytes"}, buf, bufCap, out)
		}
		raw, ok := m.Memory().Read(recPtr, recLen)
		if !ok {
			return h.reply(m, statusFailed, []byte("durable_cas: record out of guest memory"), buf, bufCap, out)
		}
		rec, err := durable.DecodeRecord(raw) // copies every member out of guest memory
		if err != nil {
			return h.durableFail(m, "compareAndSet", err, buf, bufCap, out)
		}
		if rec.Key != r.Key {
			return h.durableFail(m, "compareAndSet", &durable.ValidationError{Key: r.Key, Field: "key", Reason: "the next record names another key"}, buf, bufCap, out)
		}
		next = &rec
	}
	dctx := dc.ctx
	ok, err := b.CompareAndSet(dctx, r.Key, r.Expected, next)
	if err != nil {
		return h.durableFail(m, "compareAndSet", err, buf, bufCap, out)
	}
	answer := "false"
	if ok {
		answer = "true"
	}
	return h.reply(m, statusOK, []byte(answer), buf, bufCap, out)
}

// hostDurableList answers one keyset page:
//
//	durable_list(req u32, reqLen u32, buf u32, cap u32, out u32) -> status
//
// req is {"cursor","limit","timeoutMs"?}; the answer is {"records":[<record>...],
// "nextCursor":"..."} with each record as durable.EncodeRecord bytes (parked when larger than
// cap; a page over the parking limit fails). Statuses as durable_read.
func hostDurableList(ctx context.Context, m api.Module, reqPtr, reqLen, buf, bufCap, out uint32) int32 {
	dc, st, ok := beginDurable(ctx, m, reqPtr, reqLen, buf, bufCap, out)
	if !ok {
		return st
	}
	defer dc.cancel()
	h, b, r := dc.h, dc.b, dc.r
	dctx := dc.ctx
	recs, next, err := b.ListPage(dctx, r.Cursor, min(max(r.Limit, 1), durable.MaxListLimit))
	if err != nil {
		return h.durableFail(m, "listPage", err, buf, bufCap, out)
	}
	page := append(make([]byte, 0, 256), `{"records":[`...)
	for i, rec := range recs {
		raw, err := durable.EncodeRecord(rec)
		if err != nil {
			return h.durableFail(m, "listPage", err, buf, bufCap, out)
		}
		if i > 0 {
			page = append(page, ',')
		}
		page = append(page, raw...)
		if len(page) > maxParkedBytes {
			return h.reply(m, statusFailed, []byte(fmt.Sprintf("durable_list: a page of %d records exceeds %d bytes; ask for a smaller limit", len(recs), maxParkedBytes)), buf, bufCap, out)
		}
	}
	page = append(page, `],"nextCursor":`...)
	c, _ := json.Marshal(next)
	page = append(page, c...)
	page = append(page, '}')
	return h.reply(m, statusOK, page, buf, bufCap, out)
}
