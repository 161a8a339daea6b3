package memstore_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/durabletest"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

// updating is memstore with the durable.Updater extension: one mutex over every write, so an
// Update's read, decide and compare-and-set are one atomic step (the IndexedDB backend gets the
// same from its readwrite transaction). It counts Update calls.
type updating struct {
	*memstore.Backend
	mu      sync.Mutex
	updates atomic.Int64
}

func (u *updating) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.Backend.CompareAndSet(ctx, key, expected, next)
}

func (u *updating) Update(ctx context.Context, key string, decide func(durable.Record, bool) (*durable.Record, error)) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.updates.Add(1)
	cur, found, err := u.Backend.Read(ctx, key)
	if err != nil {
		return err
	}
	next, err := decide(cur, found)
	if err != nil || next == nil {
		return err
	}
	var expected *durable.Fence
	if found {
		f := cur.Fence()
		expected = &f
	}
	ok, err := u.Backend.CompareAndSet(ctx, key, expected, next)
	if err == nil && !ok {
		err = fmt.Errorf("update of %q lost its compare-and-set under the lock", key)
	}
	return err
}

// TestContractWithUpdater runs the unchanged contract through Store's Updater path.
func TestContractWithUpdater(t *testing.T) {
	durabletest.Run(t, func(t *testing.T) durable.Backend { return &updating{Backend: memstore.New()} })
}

// TestUpdaterUsed: with an Updater, a claim+complete pair is two Update calls and nothing else
// writes; 16 concurrent claimers of one key give one owner and 15 pending.
func TestUpdaterUsed(t *testing.T) {
	ctx := context.Background()
	u := &updating{Backend: memstore.New()}
	s, err := durable.New(u, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Claim(ctx, "k", "fp", "o", time.Minute)
	if err != nil || c.Outcome != durable.ClaimOwner {
		t.Fatalf("Claim = %+v, %v", c, err)
	}
	rec, err := s.Complete(ctx, "k", "o", c.Fence, []byte(`1`))
	if err != nil || rec.State != durable.StateCompleted || rec.Revision != 2 {
		t.Fatalf("Complete = %+v, %v", rec, err)
	}
	if n := u.updates.Load(); n != 2 {
		t.Fatalf("%d Update calls for one pair, want 2", n)
	}
	if _, err := s.Complete(ctx, "k", "o", c.Fence, []byte(`1`)); err == nil {
		t.Fatal("second Complete with the old fence succeeded")
	}
	var owners, pending atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c, err := s.Claim(ctx, "race", "fp", fmt.Sprint("w", i), time.Minute)
			switch {
			case err != nil:
				t.Errorf("claimer %d: %v", i, err)
			case c.Outcome == durable.ClaimOwner:
				owners.Add(1)
			case c.Outcome == durable.ClaimPending:
				pending.Add(1)
			}
		}(i)
	}
	wg.Wait()
	if owners.Load() != 1 || pending.Load() != 15 {
		t.Fatalf("owners %d, pending %d; want 1 and 15", owners.Load(), pending.Load())
	}
}
