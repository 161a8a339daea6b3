package durable_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

// pagedBackend serves scripted ListPage answers over a real memstore.
type pagedBackend struct {
	*memstore.Backend
	list func(cursor string, limit int) ([]durable.Record, string, error)
}

func (p *pagedBackend) ListPage(_ context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	return p.list(cursor, limit)
}

func rec(key string) durable.Record {
	return durable.Record{Key: key, Fingerprint: "f", OwnerID: "o", Incarnation: "i", Revision: 1, State: durable.StateCompleted, CreatedAt: 1, UpdatedAt: 1}
}

func TestPruneRefusesCursorsThatDoNotAdvance(t *testing.T) {
	cases := map[string]func(cursor string, limit int) ([]durable.Record, string, error){
		"repeated cursor": func(string, int) ([]durable.Record, string, error) {
			return []durable.Record{rec("a")}, "a", nil
		},
		"empty page with a cursor": func(string, int) ([]durable.Record, string, error) {
			return nil, "z", nil
		},
		"cursor is not the last key": func(string, int) ([]durable.Record, string, error) {
			return []durable.Record{rec("a")}, "m", nil
		},
		"keys out of order": func(string, int) ([]durable.Record, string, error) {
			return []durable.Record{rec("b"), rec("a")}, "", nil
		},
		"oversized page": func(_ string, limit int) ([]durable.Record, string, error) {
			var out []durable.Record
			for i := 0; i <= limit; i++ {
				out = append(out, rec(fmt.Sprintf("k%03d", i)))
			}
			return out, "", nil
		},
	}
	for name, list := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := durable.New(&pagedBackend{Backend: memstore.New(), list: list}, durable.Options{PrunePageSize: 5})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Prune(context.Background(), time.Now())
			if !errors.Is(err, durable.ErrCursorStalled) {
				t.Fatalf("Prune = %v, want ErrCursorStalled", err)
			}
		})
	}
}

func TestPruneListFailureIsBackendError(t *testing.T) {
	s, _ := durable.New(&pagedBackend{Backend: memstore.New(), list: func(string, int) ([]durable.Record, string, error) {
		return nil, "", errors.New("EOF")
	}}, durable.Options{})
	_, err := s.Prune(context.Background(), time.Now())
	if !errors.Is(err, durable.ErrBackend) || !durable.Retryable(err) {
		t.Fatalf("Prune = %v", err)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	for _, o := range []durable.Options{{PrunePageSize: -1}, {PrunePageSize: durable.MaxListLimit + 1}, {PrunePageCap: -1}} {
		if _, err := durable.New(memstore.New(), o); !errors.Is(err, durable.ErrInvalid) {
			t.Fatalf("New(%+v) = %v", o, err)
		}
	}
}

func TestIncarnationFailureIsNotStored(t *testing.T) {
	s, _ := durable.New(memstore.New(), durable.Options{NewIncarnation: func() (string, error) { return "", errors.New("entropy exhausted") }})
	_, err := s.Claim(context.Background(), "k", "f", "o", 0)
	if !durable.Retryable(err) {
		t.Fatalf("Claim = %v", err)
	}
	if _, found, _ := s.Get(context.Background(), "k"); found {
		t.Fatal("stored a record without an incarnation")
	}
}

// TestAbandonSettlesAnotherOwnersLiveClaim: a caller that knows the owner is gone turns its
// pending claim (lease still live) into unknown at once, and the key then waits for
// ResolveUnknown; only a pending record at the observed fence can be abandoned.
func TestAbandonSettlesAnotherOwnersLiveClaim(t *testing.T) {
	ctx := context.Background()
	s, err := durable.New(memstore.New(), durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Claim(ctx, "k", "fp", "dead-tab", time.Hour)
	if err != nil || c.Outcome != durable.ClaimOwner {
		t.Fatalf("claim: %+v %v", c, err)
	}
	if again, _ := s.Claim(ctx, "k", "fp", "next-tab", 0); again.Outcome != durable.ClaimPending {
		t.Fatalf("a live lease must stay pending for another owner, got %s", again.Outcome)
	}
	if _, err := s.Abandon(ctx, "k", "next-tab", c.Fence, ""); !errors.Is(err, durable.ErrInvalid) {
		t.Errorf("a blank reason: %v, want ErrInvalid", err)
	}
	stale := c.Fence
	stale.Revision++
	if _, err := s.Abandon(ctx, "k", "next-tab", stale, "gone"); !errors.Is(err, durable.ErrStaleFence) {
		t.Errorf("a stale fence: %v, want ErrStaleFence", err)
	}
	got, err := s.Abandon(ctx, "k", "next-tab", c.Fence, "the tab that claimed it is gone")
	if err != nil {
		t.Fatal(err)
	}
	if got.State != durable.StateUnknown || got.OwnerID != "dead-tab" || got.LeaseExpiresAt != 0 || got.Revision != c.Record.Revision+1 {
		t.Errorf("abandoned record %+v", got)
	}
	if after, _ := s.Claim(ctx, "k", "fp", "next-tab", 0); after.Outcome != durable.ClaimUnknown {
		t.Errorf("after Abandon a claim answers %s, want unknown", after.Outcome)
	}
	if _, err := s.Abandon(ctx, "k", "next-tab", got.Fence(), "again"); !errors.Is(err, durable.ErrNotPending) {
		t.Errorf("abandoning an unknown record: %v, want ErrNotPending", err)
	}
	if _, err := s.ResolveUnknown(ctx, "k", "next-tab", got.Fence(), durable.Resolution{State: durable.StateFailed, Reason: "not written"}); err != nil {
		t.Errorf("resolve after Abandon: %v", err)
	}
}
