package durable

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Guard bounds (issue 14 item 5): a durable store that hangs or is down must fail each call
// within a bounded time and fail fast while it stays down.
const (
	// DefaultOpTimeout bounds one backend operation (Read, CompareAndSet, ListPage): 2 s.
	DefaultOpTimeout = 2 * time.Second
	// DefaultOpenInterval is how long the circuit stays open after a backend failure: 10 s.
	// While open every operation fails at once (ErrBackend, "circuit open"); after it, one
	// operation is let through as a trial: success closes the circuit, failure opens it again.
	DefaultOpenInterval = 10 * time.Second
	// MinOpTimeout and MinOpenInterval are the smallest accepted values: 10 ms each.
	MinOpTimeout    = 10 * time.Millisecond
	MinOpenInterval = 10 * time.Millisecond
)

// GuardOptions configure Guard. Zero fields take the defaults above.
type GuardOptions struct {
	OpTimeout    time.Duration
	OpenInterval time.Duration
	Clock        func() time.Time
}

// GuardedBackend is a Backend with a deadline per operation and a circuit breaker (Guard).
type GuardedBackend struct {
	b    Backend
	opts GuardOptions

	mu        sync.Mutex
	openUntil time.Time
	lastErr   error
	trial     bool // a half-open trial is in flight
}

var _ Backend = (*GuardedBackend)(nil)

// Guard wraps b so that every operation returns within opts.OpTimeout (the operation runs on
// its own goroutine with a context of that deadline; a backend that ignores the context is
// abandoned, its late answer dropped) and, after a backend failure (ErrBackend or the
// deadline), every operation fails at once for opts.OpenInterval (circuit open), then one
// trial operation decides. Validation errors and "expectation did not hold" answers are not
// failures. Failures are *BackendError (errors.Is(err, ErrBackend)); a deadline also matches
// context.DeadlineExceeded.
//
// Errors: a negative or too small (< MinOpTimeout / MinOpenInterval) option.
func Guard(b Backend, opts GuardOptions) (*GuardedBackend, error) {
	if b == nil {
		return nil, errors.New("durable: Guard: nil backend")
	}
	if opts.OpTimeout == 0 {
		opts.OpTimeout = DefaultOpTimeout
	}
	if opts.OpenInterval == 0 {
		opts.OpenInterval = DefaultOpenInterval
	}
	if opts.OpTimeout < MinOpTimeout {
		return nil, fmt.Errorf("durable: Guard: OpTimeout %v is below the minimum %v", opts.OpTimeout, MinOpTimeout)
	}
	if opts.OpenInterval < MinOpenInterval {
		return nil, fmt.Errorf("durable: Guard: OpenInterval %v is below the minimum %v", opts.OpenInterval, MinOpenInterval)
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	return &GuardedBackend{b: b, opts: opts}, nil
}

// admit reports whether an operation may run now; trial is true when it is the half-open
// trial.
func (g *GuardedBackend) admit(op string) (trial bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.openUntil.IsZero() {
		return false, nil
	}
	now := g.opts.Clock()
	if now.Before(g.openUntil) || g.trial {
		return false, BackendFailure(op, fmt.Errorf("circuit open: the durable store failed (%v); operations fail at once until %s, then one is tried",
			g.lastErr, g.openUntil.UTC().Format(time.RFC3339)))
	}
	g.trial = true
	return true, nil
}

func (g *GuardedBackend) settle(trial bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if trial {
		g.trial = false
	}
	if err != nil && (errors.Is(err, ErrBackend) || errors.Is(err, context.DeadlineExceeded)) {
		g.lastErr = err
		g.openUntil = g.opts.Clock().Add(g.opts.OpenInterval)
		return
	}
	if err == nil || trial {
		g.openUntil, g.lastErr = time.Time{}, nil
	}
}

// run runs f under the guard.
func guarded[T any](g *GuardedBackend, ctx context.Context, op string, f func(context.Context) (T, error)) (T, error) {
	var zero T
	trial, err := g.admit(op)
	if err != nil {
		return zero, err
	}
	octx, cancel := context.WithTimeout(ctx, g.opts.OpTimeout)
	defer cancel()
	type res struct {
		v   T
		err error
	}
	ch := make(chan res, 1)
	go func() {
		v, err := f(octx)
		ch <- res{v, err}
	}()
	var r res
	select {
	case r = <-ch:
	case <-octx.Done():
		r = res{err: octx.Err()}
	}
	if r.err != nil && ctx.Err() == nil && errors.Is(r.err, context.DeadlineExceeded) && !errors.Is(r.err, ErrBackend) {
		r.err = BackendFailure(op, fmt.Errorf("no answer within %v: %w", g.opts.OpTimeout, context.DeadlineExceeded))
	}
	if ctx.Err() != nil && r.err != nil { // the caller's own cancellation says nothing about the store
		g.mu.Lock()
		if trial {
			g.trial = false
		}
		g.mu.Unlock()
		return r.v, r.err
	}
	g.settle(trial, r.err)
	return r.v, r.err
}

// Read implements Backend.
func (g *GuardedBackend) Read(ctx context.Context, key string) (Record, bool, error) {
	type rf struct {
		rec   Record
		found bool
	}
	v, err := guarded(g, ctx, "read", func(c context.Context) (rf, error) {
		rec, found, err := g.b.Read(c, key)
		return rf{rec, found}, err
	})
	return v.rec, v.found, err
}

// CompareAndSet implements Backend.
func (g *GuardedBackend) CompareAndSet(ctx context.Context, key string, expected *Fence, next *Record) (bool, error) {
	return guarded(g, ctx, "compareAndSet", func(c context.Context) (bool, error) {
		return g.b.CompareAndSet(c, key, expected, next)
	})
}

// ListPage implements Backend.
func (g *GuardedBackend) ListPage(ctx context.Context, cursor string, limit int) ([]Record, string, error) {
	type lp struct {
		recs []Record
		next string
	}
	v, err := guarded(g, ctx, "listPage", func(c context.Context) (lp, error) {
		recs, next, err := g.b.ListPage(c, cursor, limit)
		return lp{recs, next}, err
	})
	return v.recs, v.next, err
}
