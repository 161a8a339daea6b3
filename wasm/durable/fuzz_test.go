package durable_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/mcp"
)

// FuzzDecodeRecord: any bytes either decode to a record that validates and survives an
// encode/decode round trip unchanged, or fail with a *ValidationError naming a field. Never a
// panic.
func FuzzDecodeRecord(f *testing.F) {
	for _, s := range []string{
		`{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":1,"updatedAt":1,"leaseExpiresAt":5}`,
		`{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":3,"state":"completed","result":{"a":[1,"x",null]},"createdAt":1,"updatedAt":2}`,
		`{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":2,"state":"unknown","reason":"r","createdAt":1,"updatedAt":2,"reconciledBy":"x","reconciledAt":3}`,
		`{"key":"k","key":"k"}`, `{"Key":"k"}`, `{"revision":1e400}`, `{"revision":-0}`, `[]`, `null`, `{"result":null}`,
		`{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":1,"updatedAt":1,"reason":""}`,
		"{\"key\":\"\\u0000\"}", "\xff", `{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":9223372036854775808,"state":"pending","createdAt":1,"updatedAt":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		rec, err := durable.DecodeRecord(raw)
		ref, refErr := referenceDecode(raw)
		if (err == nil) != (refErr == nil) {
			t.Fatalf("decoders disagree on %q: %v vs reference %v", raw, err, refErr)
		}
		if err == nil && !reflect.DeepEqual(rec, ref) {
			t.Fatalf("decoders disagree on %q:\n%+v\n%+v", raw, rec, ref)
		}
		if err != nil {
			var ve *durable.ValidationError
			if !errors.As(err, &ve) || ve.Field == "" || !errors.Is(err, durable.ErrInvalid) {
				t.Fatalf("DecodeRecord error %v (%T) is not a field-naming ValidationError", err, err)
			}
			return
		}
		if err := rec.Validate(); err != nil {
			t.Fatalf("decoded record does not validate: %v", err)
		}
		enc, err := durable.EncodeRecord(rec)
		if err != nil {
			t.Fatalf("EncodeRecord of a decoded record: %v", err)
		}
		again, err := durable.DecodeRecord(enc)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", enc, err)
		}
		if !reflect.DeepEqual(rec, again) {
			t.Fatalf("round trip changed the record\n%+v\n%+v", rec, again)
		}
	})
}

// FuzzClaim: arbitrary key, fingerprint, owner and lease either fail validation (ErrInvalid) or
// produce an owner claim whose record reads back identically and completes.
func FuzzClaim(f *testing.F) {
	f.Add("k", "fp", "owner", int64(1000))
	f.Add(" ", "fp", "o", int64(0))
	f.Add("a\x00b", "fp", "o", int64(5))
	f.Add("\xff\xfe", "\t", "", int64(-1))
	f.Add(`["default","workspace.writeFile","idem"]`, "fnv1a64:0123456789abcdef:42", "studio:1", int64(30000))
	f.Add("k", "fp", "o", int64(1)<<62)
	f.Fuzz(func(t *testing.T, key, fp, owner string, leaseMs int64) {
		s, err := durable.New(memstore.New(), durable.Options{Clock: func() time.Time { return time.UnixMilli(1_764_460_800_000) }})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		lease := time.Duration(leaseMs) * time.Millisecond
		if leaseMs > int64(24*time.Hour/time.Millisecond) || leaseMs < -int64(24*time.Hour/time.Millisecond) {
			lease = time.Duration(leaseMs%86_400_000) * time.Millisecond
		}
		c, err := s.Claim(ctx, key, fp, owner, lease)
		if err != nil {
			if !errors.Is(err, durable.ErrInvalid) {
				t.Fatalf("Claim error %v is not a validation error", err)
			}
			return
		}
		if c.Outcome != durable.ClaimOwner {
			t.Fatalf("first claim outcome %q", c.Outcome)
		}
		got, found, err := s.Get(ctx, key)
		if err != nil || !found || !reflect.DeepEqual(got, c.Record) {
			t.Fatalf("Get = %+v, %v, %v; want %+v", got, found, err, c.Record)
		}
		if _, err := s.Complete(ctx, key, owner, c.Fence, nil); err != nil && !errors.Is(err, durable.ErrLeaseExpired) {
			t.Fatalf("Complete: %v", err)
		}
	})
}

// referenceDecode is the first, straightforward DecodeRecord (mcp.DecodeObject, then one
// json.Unmarshal per member), kept as the differential oracle for the single-pass decoder.
func referenceDecode(raw []byte) (durable.Record, error) {
	var r durable.Record
	if len(raw) > durable.MaxRecordBytes {
		return r, refInvalid("record", "is %d bytes, limit %d", len(raw), durable.MaxRecordBytes)
	}
	members, err := mcp.DecodeObject(raw, refFields, nil)
	if err != nil {
		var uf *mcp.UnknownFieldError
		if errors.As(err, &uf) {
			name := uf.Field
			if name == "" {
				name = `""` // an empty member name still gets a visible field name
			}
			return r, refInvalid(name, "is not a record member")
		}
		return r, refInvalid("record", "%v", err)
	}
	str := func(name string, dst *string, required bool) error {
		v, ok := members[name]
		if !ok {
			if required {
				return refInvalid(name, "is missing")
			}
			return nil
		}
		if len(v) == 0 || v[0] != '"' {
			return refInvalid(name, "must be a string")
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return refInvalid(name, "must be a string")
		}
		if *dst == "" && !required {
			return refInvalid(name, "must be omitted rather than empty")
		}
		return nil
	}
	num := func(name string, dst *int64, required bool) error {
		v, ok := members[name]
		if !ok {
			if required {
				return refInvalid(name, "is missing")
			}
			return nil
		}
		if len(v) == 0 || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
			return refInvalid(name, "must be an integer")
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return refInvalid(name, "must be an integer within int64 (got %s)", string(v))
		}
		if *dst == 0 && !required {
			return refInvalid(name, "must be omitted rather than zero")
		}
		return nil
	}
	var state string
	for _, step := range []error{
		str("key", &r.Key, true),
		str("fingerprint", &r.Fingerprint, true),
		str("ownerId", &r.OwnerID, true),
		str("incarnation", &r.Incarnation, true),
		num("revision", &r.Revision, true),
		str("state", &state, true),
		str("reason", &r.Reason, false),
		num("createdAt", &r.CreatedAt, true),
		num("updatedAt", &r.UpdatedAt, true),
		num("leaseExpiresAt", &r.LeaseExpiresAt, false),
		str("reconciledBy", &r.ReconciledBy, false),
		num("reconciledAt", &r.ReconciledAt, false),
	} {
		if step != nil {
			return durable.Record{}, step
		}
	}
	r.State = durable.State(state)
	if v, ok := members["result"]; ok {
		var buf bytes.Buffer
		if err := json.Compact(&buf, v); err != nil {
			return durable.Record{}, refInvalid("result", "%v", err)
		}
		r.Result = buf.Bytes()
	}
	if err := r.Validate(); err != nil {
		return durable.Record{}, err
	}
	return r, nil
}

var refFields = []string{
	"key", "fingerprint", "ownerId", "incarnation", "revision", "state", "result", "reason",
	"createdAt", "updatedAt", "leaseExpiresAt", "reconciledBy", "reconciledAt",
}

func refInvalid(field, format string, args ...any) error {
	return &durable.ValidationError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
