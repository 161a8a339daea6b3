package durable_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

// hangBackend never answers (it ignores the context, like a driver stuck on a dead socket)
// while hang is set; otherwise it forwards to b.
type hangBackend struct {
	durable.Backend
	hang  atomic.Bool
	calls atomic.Int64
}

func (h *hangBackend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	h.calls.Add(1)
	if h.hang.Load() {
		select {}
	}
	return h.Backend.Read(ctx, key)
}

// A hanging backend: each operation fails within OpTimeout, then the circuit is open and
// operations fail at once (the backend is not called) until OpenInterval has passed; a trial
// then succeeds and closes it.
func TestGuardBoundsAHangingBackendAndFailsFast(t *testing.T) {
	hb := &hangBackend{Backend: memstore.New()}
	hb.hang.Store(true)
	now := time.Unix(1000, 0)
	var mu atomic.Int64
	clock := func() time.Time { return now.Add(time.Duration(mu.Load())) }
	g, err := durable.Guard(hb, durable.GuardOptions{OpTimeout: 50 * time.Millisecond, OpenInterval: 5 * time.Second, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := time.Now()
	_, _, err = g.Read(ctx, "k")
	if !errors.Is(err, durable.ErrBackend) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hanging read: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("the hanging read took %v", d)
	}
	for i := 0; i < 5; i++ {
		if _, _, err := g.Read(ctx, "k"); !errors.Is(err, durable.ErrBackend) {
			t.Fatalf("open circuit read %d: %v", i, err)
		}
	}
	if c := hb.calls.Load(); c != 1 {
		t.Fatalf("the open circuit still called the backend: %d calls", c)
	}
	hb.hang.Store(false)
	mu.Store(int64(6 * time.Second)) // past OpenInterval: one trial goes through
	if _, found, err := g.Read(ctx, "k"); err != nil || found {
		t.Fatalf("trial read: %v %v", found, err)
	}
	if _, _, err := g.Read(ctx, "k"); err != nil {
		t.Fatalf("closed circuit: %v", err)
	}
}

// Bad options are refused with a clear error, never silently replaced by defaults.
func TestGuardRefusesBadOptions(t *testing.T) {
	for _, o := range []durable.GuardOptions{{OpTimeout: -1}, {OpTimeout: time.Millisecond}, {OpenInterval: -time.Second}, {OpenInterval: time.Nanosecond}} {
		if _, err := durable.Guard(memstore.New(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
