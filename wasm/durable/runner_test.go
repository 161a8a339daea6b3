package durable_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/durabletest"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

type fixture struct {
	clock *durabletest.Clock
	store *durable.Store
	run   *durable.Runner
	calls atomic.Int32
}

func newFixture(t *testing.T, b durable.Backend) *fixture {
	t.Helper()
	if b == nil {
		b = memstore.New()
	}
	f := &fixture{clock: durabletest.NewClock(durabletest.Epoch)}
	s, err := durable.New(b, durable.Options{Clock: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	f.store = s
	if f.run, err = durable.NewRunner(s, "runner-a"); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) exec(o durable.Outcome, err error) func(context.Context) (durable.Outcome, error) {
	return func(context.Context) (durable.Outcome, error) { f.calls.Add(1); return o, err }
}

func mustRun(t *testing.T, r *durable.Runner, req durable.RunRequest, want durable.Status) durable.RunResult {
	t.Helper()
	res, err := r.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run(%q): %v", req.Key, err)
	}
	if res.Status != want {
		t.Fatalf("Run(%q) status = %q (reason %q), want %q", req.Key, res.Status, res.Reason, want)
	}
	return res
}

func TestRunCompletedThenReplayed(t *testing.T) {
	f := newFixture(t, nil)
	req := durable.RunRequest{Key: "k", Fingerprint: "fp", Execute: f.exec(durable.Completed(json.RawMessage(`{"id": 7}`)), nil)}
	res := mustRun(t, f.run, req, durable.StatusCompleted)
	if res.Record.State != durable.StateCompleted || string(res.Record.Result) != `{"result":{"id":7}}` {
		t.Fatalf("record %+v result %s", res.Record, res.Record.Result)
	}
	again := mustRun(t, f.run, req, durable.StatusReplayed)
	if string(again.Result) != `{"id":7}` {
		t.Fatalf("replayed result %s", again.Result)
	}
	// Another runner (another owner) replays too.
	other, _ := durable.NewRunner(f.store, "runner-b")
	mustRun(t, other, req, durable.StatusReplayed)
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("Execute ran %d times, want 1", n)
	}
	// Same key, different arguments: conflict, no execution.
	req.Fingerprint = "fp2"
	mustRun(t, f.run, req, durable.StatusConflict)
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("Execute ran %d times after conflict", n)
	}
}

func TestRunFailedReplaysReason(t *testing.T) {
	f := newFixture(t, nil)
	req := durable.RunRequest{Key: "k", Fingerprint: "fp", Execute: f.exec(durable.Failed("card declined", json.RawMessage(`{"code":"declined"}`)), nil)}
	res := mustRun(t, f.run, req, durable.StatusFailed)
	if res.Reason != "card declined" || res.Record.State != durable.StateFailed {
		t.Fatalf("failed result %+v", res)
	}
	rp := mustRun(t, f.run, req, durable.StatusReplayed)
	if rp.Reason != "card declined" || string(rp.Result) != `{"code":"declined"}` || rp.Record.State != durable.StateFailed {
		t.Fatalf("replay %+v", rp)
	}
}

func TestRunErrorsAreClassifiedNeverRetried(t *testing.T) {
	long := strings.Repeat("é", 3000)
	cases := []struct {
		name     string
		exec     func(context.Context) (durable.Outcome, error)
		classify func(error) durable.Outcome
		status   durable.Status
		reason   string // prefix
	}{
		{"default unknown", func(context.Context) (durable.Outcome, error) { return durable.Outcome{}, errors.New("socket closed") }, nil, durable.StatusUnknown, "socket closed"},
		{"empty message", func(context.Context) (durable.Outcome, error) { return durable.Outcome{}, errors.New("") }, nil, durable.StatusUnknown, durable.ReasonGenericError},
		{"long message bounded", func(context.Context) (durable.Outcome, error) { return durable.Outcome{}, errors.New(long) }, nil, durable.StatusUnknown, "ééé"},
		{"nul and bad utf8", func(context.Context) (durable.Outcome, error) { return durable.Outcome{}, errors.New("a\x00b\xff") }, nil, durable.StatusUnknown, "a\uFFFDb\uFFFD"},
		{"classified failed", func(context.Context) (durable.Outcome, error) { return durable.Outcome{}, errors.New("400 rejected") },
			func(err error) durable.Outcome { return durable.Failed("rejected before send: "+err.Error(), nil) }, durable.StatusFailed, "rejected before send: 400 rejected"},
		{"classifier panics", func(context.Context) (durable.Outcome, error) { return durable.Outcome{}, errors.New("x") },
			func(error) durable.Outcome { panic("boom") }, durable.StatusUnknown, durable.ReasonClassificationFailed + "boom"},
		{"classifier malformed", func(context.Context) (durable.Outcome, error) { return durable.Outcome{}, errors.New("x") },
			func(error) durable.Outcome { return durable.Outcome{Status: "weird"} }, durable.StatusUnknown, durable.ReasonMalformedOutcome},
		{"panic default", func(context.Context) (durable.Outcome, error) { panic("adapter bug") }, nil, durable.StatusUnknown, "side-effect execution panicked: adapter bug"},
		{"panic classified", func(context.Context) (durable.Outcome, error) { panic("adapter bug") }, func(err error) durable.Outcome {
			var pe *durable.PanicError
			if errors.As(err, &pe) {
				return durable.Failed("panicked before sending", nil)
			}
			return durable.Unknown("?", nil)
		}, durable.StatusFailed, "panicked before sending"},
		{"malformed outcome", func(context.Context) (durable.Outcome, error) { return durable.Outcome{}, nil }, nil, durable.StatusUnknown, durable.ReasonMalformedOutcome},
		{"failed without reason", func(context.Context) (durable.Outcome, error) { return durable.Failed(" ", nil), nil }, nil, durable.StatusUnknown, durable.ReasonMalformedOutcome},
		{"completed with bad JSON", func(context.Context) (durable.Outcome, error) { return durable.Completed(json.RawMessage(`{`)), nil }, nil, durable.StatusUnknown, durable.ReasonMalformedOutcome},
		{"unknown without reason", func(context.Context) (durable.Outcome, error) { return durable.Unknown("", nil), nil }, nil, durable.StatusUnknown, durable.ReasonUnknownDefault},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, nil)
			var calls atomic.Int32
			req := durable.RunRequest{Key: "k", Fingerprint: "fp", Classify: c.classify, Execute: func(ctx context.Context) (durable.Outcome, error) {
				calls.Add(1)
				return c.exec(ctx)
			}}
			res := mustRun(t, f.run, req, c.status)
			if !strings.HasPrefix(res.Reason, c.reason) {
				t.Fatalf("reason %q, want prefix %q", res.Reason, c.reason)
			}
			if n := utf8.RuneCountInString(res.Reason); n > durable.MaxReasonRunes {
				t.Fatalf("reason is %d code points", n)
			}
			if string(res.Record.State) != string(c.status) || res.Record.Reason != res.Reason {
				t.Fatalf("stored record %+v", res.Record)
			}
			// Never retried: a second run replays or stays unknown without executing.
			second, err := f.run.Run(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			want := durable.StatusReplayed
			if c.status == durable.StatusUnknown {
				want = durable.StatusUnknown
			}
			if second.Status != want || calls.Load() != 1 {
				t.Fatalf("second run %q after %d calls", second.Status, calls.Load())
			}
		})
	}
}

func TestRunCancelledBeforeClaimStoresNothing(t *testing.T) {
	f := newFixture(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := f.run.Run(ctx, durable.RunRequest{Key: "k", Fingerprint: "fp", Execute: f.exec(durable.Completed(nil), nil)})
	if err != nil || res.Status != durable.StatusCancelled || f.calls.Load() != 0 {
		t.Fatalf("Run = %+v, %v, calls %d", res, err, f.calls.Load())
	}
	if _, found, _ := f.store.Get(context.Background(), "k"); found {
		t.Fatal("cancelled run stored a record")
	}
}

func TestRunCancelledInFlightMarksUnknownWithoutWaiting(t *testing.T) {
	f := newFixture(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	go func() { <-started; cancel() }()
	res, err := f.run.Run(ctx, durable.RunRequest{
		Key: "k", Fingerprint: "fp", AbortDiagnostic: json.RawMessage(`{"code":"TOOL_CANCELLED"}`),
		Execute: func(context.Context) (durable.Outcome, error) {
			close(started)
			<-release // an adapter that ignores cancellation: Run must not wait for it
			return durable.Completed(nil), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != durable.StatusUnknown || res.Reason != durable.ReasonCancelledInFlight || string(res.Diagnostic) != `{"code":"TOOL_CANCELLED"}` {
		t.Fatalf("result %+v", res)
	}
	rec, _, _ := f.store.Get(context.Background(), "k")
	if rec.State != durable.StateUnknown || string(rec.Result) != `{"diagnostic":{"code":"TOOL_CANCELLED"}}` {
		t.Fatalf("record %+v %s", rec, rec.Result)
	}
}

func TestRunDoesNotExecuteWhenPendingOrUnknown(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	if _, err := f.store.Claim(ctx, "held", "fp", "someone-else", time.Minute); err != nil {
		t.Fatal(err)
	}
	req := durable.RunRequest{Key: "held", Fingerprint: "fp", Execute: f.exec(durable.Completed(nil), nil)}
	res := mustRun(t, f.run, req, durable.StatusPending)
	if res.Record.OwnerID != "someone-else" {
		t.Fatalf("pending record %+v", res.Record)
	}
	// Once the other lease expires, this runner takes over and executes.
	f.clock.Advance(time.Minute)
	mustRun(t, f.run, req, durable.StatusCompleted)
	if f.calls.Load() != 1 {
		t.Fatalf("calls %d", f.calls.Load())
	}
}

func TestRunLeaseExpiredWhileExecuting(t *testing.T) {
	f := newFixture(t, nil)
	res, err := f.run.Run(context.Background(), durable.RunRequest{Key: "k", Fingerprint: "fp", Lease: time.Second,
		Execute: func(context.Context) (durable.Outcome, error) {
			f.clock.Advance(2 * time.Second)
			return durable.Completed(json.RawMessage(`1`)), nil
		}})
	if !errors.Is(err, durable.ErrLeaseExpired) || res.Status != durable.StatusCompleted {
		t.Fatalf("Run = %+v, %v; want the executed status and ErrLeaseExpired", res, err)
	}
}

func TestRunStoreFailureNeverExecutes(t *testing.T) {
	f := newFixture(t, failing{memstore.New()})
	_, err := f.run.Run(context.Background(), durable.RunRequest{Key: "k", Fingerprint: "fp", Execute: f.exec(durable.Completed(nil), nil)})
	if !errors.Is(err, durable.ErrBackend) || !durable.Retryable(err) || f.calls.Load() != 0 {
		t.Fatalf("Run over a failing backend = %v after %d calls", err, f.calls.Load())
	}
}

type failing struct{ durable.Backend }

func (failing) Read(context.Context, string) (durable.Record, bool, error) {
	return durable.Record{}, false, errors.New("i/o timeout")
}

func TestRunValidation(t *testing.T) {
	f := newFixture(t, nil)
	if _, err := f.run.Run(context.Background(), durable.RunRequest{Key: "k", Fingerprint: "fp"}); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("nil Execute = %v", err)
	}
	if _, err := f.run.Run(context.Background(), durable.RunRequest{Key: " ", Fingerprint: "fp", Execute: f.exec(durable.Completed(nil), nil)}); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("blank key = %v", err)
	}
	if _, err := durable.NewRunner(f.store, " "); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("blank owner = %v", err)
	}
	if _, err := durable.NewRunner(nil, "o"); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("nil store = %v", err)
	}
	if f.calls.Load() != 0 {
		t.Fatal("executed despite invalid request")
	}
}

func TestRecover(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	var resolverCalls atomic.Int32
	resolver := func(_ context.Context, rc durable.RecoverContext) (durable.Resolution, error) {
		resolverCalls.Add(1)
		if string(rc.Diagnostic) != `{"attempt":1}` || rc.Record.State != durable.StateUnknown {
			t.Errorf("resolver context %+v", rc)
		}
		return durable.Resolution{State: durable.StateCompleted, Result: json.RawMessage(`{"found":"ch_1"}`)}, nil
	}
	if res, err := f.run.Recover(ctx, "none", resolver, durable.RecoverOptions{}); err != nil || res.Status != durable.StatusMissing {
		t.Fatalf("Recover(missing) = %+v, %v", res, err)
	}
	req := durable.RunRequest{Key: "k", Fingerprint: "fp", Execute: f.exec(durable.Unknown("ack lost", json.RawMessage(`{"attempt":1}`)), nil)}
	u := mustRun(t, f.run, req, durable.StatusUnknown)
	stale := u.Record.Fence()
	stale.Revision--
	if _, err := f.run.Recover(ctx, "k", resolver, durable.RecoverOptions{Expected: &stale}); !errors.Is(err, durable.ErrStaleFence) {
		t.Fatalf("Recover with stale fence = %v", err)
	}
	if _, err := f.run.Recover(ctx, "k", func(context.Context, durable.RecoverContext) (durable.Resolution, error) {
		return durable.Resolution{}, errors.New("provider unreachable")
	}, durable.RecoverOptions{}); err == nil || !strings.Contains(err.Error(), "provider unreachable") {
		t.Fatalf("resolver error = %v", err)
	}
	if _, err := f.run.Recover(ctx, "k", func(context.Context, durable.RecoverContext) (durable.Resolution, error) { panic("x") }, durable.RecoverOptions{}); err == nil {
		t.Fatal("resolver panic not reported")
	}
	fence := u.Record.Fence()
	res, err := f.run.Recover(ctx, "k", resolver, durable.RecoverOptions{Expected: &fence, ReconcilerID: "ops"})
	if err != nil || res.Status != durable.StatusResolved || res.Record.ReconciledBy != "ops" {
		t.Fatalf("Recover = %+v, %v", res, err)
	}
	rp := mustRun(t, f.run, req, durable.StatusReplayed)
	if string(rp.Result) != `{"found":"ch_1"}` {
		t.Fatalf("replay after resolve %s", rp.Result)
	}
	// Not unknown any more: the resolver is not called again.
	res, err = f.run.Recover(ctx, "k", resolver, durable.RecoverOptions{})
	if err != nil || res.Status != durable.StatusCompleted || resolverCalls.Load() != 1 {
		t.Fatalf("Recover(completed) = %+v, %v, resolver calls %d", res, err, resolverCalls.Load())
	}
	if f.calls.Load() != 1 {
		t.Fatalf("Execute ran %d times", f.calls.Load())
	}
}
