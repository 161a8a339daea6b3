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

// durableCall is what every durable_* host function works with (withDurable): the calling
// host, its backend, the guest's request, a context bounded by the request's deadline, and
// where the reply goes.
type durableCall struct {
	h                *Host
	b                durable.Backend
	r                durableRequest
	ctx              context.Context
	m                api.Module
	buf, bufCap, out uint32
}

// withDurable is the one prologue of the durable_* host functions: no backend → statusNone;
// a request that cannot be read → statusFailed with the reason; else fn answers, under a
// context bounded by the request's deadline.
func withDurable(ctx context.Context, m api.Module, reqPtr, reqLen, buf, bufCap, out uint32, fn func(dc *durableCall) int32) int32 {
	h, b := durableOf(ctx)
	if b == nil {
		return none(m, "the host has no durable backend (--durable)", buf, bufCap, out)
	}
	r, err := readDurableRequest(m, reqPtr, reqLen)
	if err != nil {
		return h.reply(m, statusFailed, []byte(err.Error()), buf, bufCap, out)
	}
	dctx, cancel := durableContext(ctx, r)
	defer cancel()
	return fn(&durableCall{h: h, b: b, r: r, ctx: dctx, m: m, buf: buf, bufCap: bufCap, out: out})
}

// reply answers the guest with status and b.
func (dc *durableCall) reply(status int32, b []byte) int32 {
	return dc.h.reply(dc.m, status, b, dc.buf, dc.bufCap, dc.out)
}

// fail answers the guest with the status of err (durableFail).
func (dc *durableCall) fail(op string, err error) int32 {
	return dc.h.durableFail(dc.m, op, err, dc.buf, dc.bufCap, dc.out)
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
	return withDurable(ctx, m, reqPtr, reqLen, buf, bufCap, out, func(dc *durableCall) int32 {
		rec, found, err := dc.b.Read(dc.ctx, dc.r.Key)
		if err != nil {
			return dc.fail("read", err)
		}
		if !found {
			return dc.reply(statusMissing, nil)
		}
		raw, err := durable.EncodeRecord(rec)
		if err != nil {
			return dc.fail("read", err)
		}
		return dc.reply(statusOK, raw)
	})
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
	return withDurable(ctx, m, reqPtr, reqLen, buf, bufCap, out, func(dc *durableCall) int32 {
		r := dc.r
		var next *durable.Record
		switch {
		case r.Delete && recLen != 0:
			return dc.reply(statusFailed, []byte("durable_cas: a delete carries no record"))
		case !r.Delete:
			if recLen > durable.MaxRecordBytes {
				return dc.fail("compareAndSet", &durable.ValidationError{Key: r.Key, Field: "record", Reason: "encodes to more than MaxRecordBytes"})
			}
			raw, ok := m.Memory().Read(recPtr, recLen)
			if !ok {
				return dc.reply(statusFailed, []byte("durable_cas: record out of guest memory"))
			}
			rec, err := durable.DecodeRecord(raw) // copies every member out of guest memory
			if err != nil {
				return dc.fail("compareAndSet", err)
			}
			if rec.Key != r.Key {
				return dc.fail("compareAndSet", &durable.ValidationError{Key: r.Key, Field: "key", Reason: "the next record names another key"})
			}
			next = &rec
		}
		ok, err := dc.b.CompareAndSet(dc.ctx, r.Key, r.Expected, next)
		if err != nil {
			return dc.fail("compareAndSet", err)
		}
		answer := "false"
		if ok {
			answer = "true"
		}
		return dc.reply(statusOK, []byte(answer))
	})
}

// hostDurableList answers one keyset page:
//
//	durable_list(req u32, reqLen u32, buf u32, cap u32, out u32) -> status
//
// req is {"cursor","limit","timeoutMs"?}; the answer is {"records":[<record>...],
// "nextCursor":"..."} with each record as durable.EncodeRecord bytes (parked when larger than
// cap; a page over the parking limit fails). Statuses as durable_read.
func hostDurableList(ctx context.Context, m api.Module, reqPtr, reqLen, buf, bufCap, out uint32) int32 {
	return withDurable(ctx, m, reqPtr, reqLen, buf, bufCap, out, func(dc *durableCall) int32 {
		recs, next, err := dc.b.ListPage(dc.ctx, dc.r.Cursor, min(max(dc.r.Limit, 1), durable.MaxListLimit))
		if err != nil {
			return dc.fail("listPage", err)
		}
		page := append(make([]byte, 0, 256), `{"records":[`...)
		for i, rec := range recs {
			raw, err := durable.EncodeRecord(rec)
			if err != nil {
				return dc.fail("listPage", err)
			}
			if i > 0 {
				page = append(page, ',')
			}
			page = append(page, raw...)
			if len(page) > maxParkedBytes {
				return dc.reply(statusFailed, []byte(fmt.Sprintf("durable_list: a page of %d records exceeds %d bytes; ask for a smaller limit", len(recs), maxParkedBytes)))
			}
		}
		page = append(page, `],"nextCursor":`...)
		c, _ := json.Marshal(next)
		page = append(page, c...)
		page = append(page, '}')
		return dc.reply(statusOK, page)
	})
}
