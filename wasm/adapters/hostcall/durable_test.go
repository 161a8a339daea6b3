//go:build wasip1 && hosttest

package hostcall

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/durabletest"
)

// This test runs only inside host/wasmhost's TestDurableContractInWazero, which compiles this
// package's tests for wasip1 (go test -c -tags hosttest) and runs the binary in wazero with
// the real durable_* host functions over memstore, Redis and PostgreSQL, plus the two
// test-only imports below. Run on its own it fails to instantiate (the imports are missing).

// webcoding.durabletest_fresh() → status: the host replaces its backend by a fresh, empty one
// (own key prefix or schema). 0 = done.
//
//go:wasmimport webcoding durabletest_fresh
func hostDurableFresh() int32

// webcoding.durabletest_put_raw(key, keyLen, raw, rawLen) → status: the host plants raw bytes
// under key in its backend (durabletest.RawPutter), bypassing validation. 0 = done.
//
//go:wasmimport webcoding durabletest_put_raw
func hostDurablePutRaw(key unsafe.Pointer, keyLen uint32, raw unsafe.Pointer, rawLen uint32) int32

// testBackend is Durable plus durabletest.RawPutter through the test-only import.
type testBackend struct{ Durable }

func (testBackend) PutRaw(ctx context.Context, key string, raw []byte) error {
	if hostDurablePutRaw(strPtr(key), uint32(len(key)), bytesPtr(raw), uint32(len(raw))) != StatusOK {
		return errors.New("durabletest_put_raw failed in the host")
	}
	return nil
}

// TestDurableContract runs the backend contract, unchanged, against Durable: every call crosses
// the durable_* host functions to the host's backend.
func TestDurableContract(t *testing.T) {
	durabletest.Run(t, func(t *testing.T) durable.Backend {
		if hostDurableFresh() != StatusOK {
			t.Fatal("durabletest_fresh failed in the host")
		}
		return testBackend{}
	})
}

// TestDurableHostFailures runs against host/wasmhost's faultBackend (TestDurableGuestErrorMapping).
func TestDurableHostFailures(t *testing.T) {
	if hostDurableFresh() != StatusOK {
		t.Fatal("durabletest_fresh failed in the host")
	}
	var b testBackend
	ctx := context.Background()
	wantBackend := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, durable.ErrBackend) || !durable.Retryable(err) {
			t.Fatalf("%s: error %v, want retryable durable.ErrBackend", what, err)
		}
	}
	_, _, err := b.Read(ctx, "outage/k")
	wantBackend("read", err)
	if !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("read: the host's message is lost: %v", err)
	}
	_, err = b.CompareAndSet(ctx, "outage/k", nil, nil)
	wantBackend("compareAndSet", err)
	_, _, err = b.ListPage(ctx, "outage", 10)
	wantBackend("listPage", err)

	// The guest's deadline travels as timeoutMs and the host enforces it.
	dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = b.Read(dctx, "slow/k")
	wantBackend("slow read", err)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Fatalf("slow read: %v after %v, want DeadlineExceeded near 200ms", err, time.Since(start))
	}
	cctx, cancel2 := context.WithCancel(ctx)
	cancel2()
	_, _, err = b.Read(cctx, "k")
	if !errors.Is(err, durable.ErrBackend) || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled read: %v", err)
	}

	// A tampered record reaches the guest as a validation error naming the field.
	if err := b.PutRaw(ctx, "bad/k", []byte(`{"key":"bad/k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":0,"state":"pending","createdAt":1,"updatedAt":1}`)); err != nil {
		t.Fatal(err)
	}
	_, _, err = b.Read(ctx, "bad/k")
	var ve *durable.ValidationError
	if !errors.As(err, &ve) || ve.Field != "revision" {
		t.Fatalf("tampered read: %v, want a validation error on revision", err)
	}
	_, _, err = b.ListPage(ctx, "", 10)
	if !errors.As(err, &ve) || ve.Field != "revision" {
		t.Fatalf("tampered list: %v, want a validation error on revision", err)
	}

	// Records round-trip exactly, result included.
	rec := durable.Record{Key: "ok/k", Fingerprint: "fp", OwnerID: "o", Incarnation: "i", Revision: 1,
		State: durable.StateCompleted, Result: []byte(`{"a":[1,"é",null]}`), CreatedAt: 1, UpdatedAt: 2}
	if ok, err := b.CompareAndSet(ctx, "ok/k", nil, &rec); !ok || err != nil {
		t.Fatalf("insert: %v, %v", ok, err)
	}
	got, found, err := b.Read(ctx, "ok/k")
	want, _ := durable.EncodeRecord(rec)
	have, _ := durable.EncodeRecord(got)
	if err != nil || !found || string(have) != string(want) {
		t.Fatalf("read back %s, %v, %v; want %s", have, found, err, want)
	}
	if ok, err := b.CompareAndSet(ctx, "other/k", nil, &rec); ok || !errors.As(err, &ve) || ve.Field != "key" {
		t.Fatalf("record under another key: %v, %v", ok, err)
	}
}

// TestDurableNoBackend runs against a host without Options.Durable (TestDurableGuestWithoutBackend).
func TestDurableNoBackend(t *testing.T) {
	var b Durable
	ctx := context.Background()
	_, _, err := b.Read(ctx, "k")
	if !errors.Is(err, durable.ErrBackend) || !strings.Contains(err.Error(), "no durable backend") {
		t.Fatalf("read without a backend: %v", err)
	}
	if _, err := b.CompareAndSet(ctx, "k", nil, nil); !errors.Is(err, durable.ErrBackend) {
		t.Fatalf("compareAndSet without a backend: %v", err)
	}
	if _, _, err := b.ListPage(ctx, "", 5); !errors.Is(err, durable.ErrBackend) {
		t.Fatalf("listPage without a backend: %v", err)
	}
}
