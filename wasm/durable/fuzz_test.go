package durable_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
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
