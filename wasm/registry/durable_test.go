package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/mcp"
)

const counterSchema = `{"type":"object","properties":{"label":{"type":"string"},"blockMs":{"type":"integer","minimum":0},"fail":{"type":"string"}},"additionalProperties":false}`

// fixture is a registry with durable idempotency over store and a counting tool "t.count":
// every handler run increments runs; blockMs blocks without watching the context; fail makes
// the handler return a *mcp.ToolError with that code.
type fixture struct {
	r    *Registry
	runs *atomic.Int64
}

func allowAll() Policy {
	return PolicyFunc(func(context.Context, PolicyRequest) (Decision, error) { return Allow, nil })
}

func newDurableFixture(t testing.TB, store *durable.Store, owner string, runs *atomic.Int64) fixture {
	t.Helper()
	r := New(Options{Policy: allowAll(), Durable: store, DurableOwnerID: owner})
	r.MustRegister(Tool{Name: "t.count", Description: "count", InputSchema: json.RawMessage(counterSchema),
		Handler: func(ctx context.Context, c *Call) (any, error) {
			var in struct {
				Label   string
				BlockMs int64
				Fail    string
			}
			_ = c.Decode(&in)
			n := runs.Add(1)
			time.Sleep(time.Duration(in.BlockMs) * time.Millisecond)
			if in.Fail != "" {
				return nil, &mcp.ToolError{Code: mcp.Code(in.Fail), Message: "secret detail /home/alice", Details: map[string]any{"path": "a.txt"}}
			}
			return map[string]any{"count": n, "label": in.Label}, nil
		}})
	return fixture{r: r, runs: runs}
}

func newStore(t testing.TB, b durable.Backend) *durable.Store {
	t.Helper()
	s, err := durable.New(b, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (f fixture) call(id, args, key string, timeoutMs float64) *mcp.CallToolResult {
	meta := &mcp.CallMeta{ToolCallID: id, IdempotencyKey: &key}
	if timeoutMs > 0 {
		meta.TimeoutMs = &timeoutMs
	}
	return f.r.Call(context.Background(), call("t.count", args, meta))
}

func errCode(res *mcp.CallToolResult) mcp.Code {
	if res.Error == nil {
		return ""
	}
	return res.Error.Code
}

func TestOperationKeyScoping(t *testing.T) {
	if got := OperationKey("", "t.count", "k"); got != `["default","t.count","k"]` {
		t.Fatalf("OperationKey = %s", got)
	}
	if got := OperationKey("s\"1", "t", "k"); got != `["s\"1","t","k"]` {
		t.Fatalf("OperationKey = %s", got)
	}
}

func TestDurableReplayAcrossRegistries(t *testing.T) {
	store := newStore(t, memstore.New())
	var runs atomic.Int64
	a := newDurableFixture(t, store, "owner-a", &runs)
	b := newDurableFixture(t, store, "owner-b", &runs)
	first := a.call("c-1", `{"label":"x"}`, "k1", 0)
	if first.IsError || string(first.StructuredContent) != `{"count":1,"label":"x"}` {
		t.Fatalf("first call: %+v", first)
	}
	// Another owner (another process) replays the stored result; the handler does not run.
	second := b.call("c-2", `{"label":"x"}`, "k1", 0)
	if second.IsError || string(second.StructuredContent) != `{"count":1,"label":"x"}` || second.ToolCallID != "c-2" {
		t.Fatalf("replay: %+v", second)
	}
	if runs.Load() != 1 {
		t.Fatalf("handler ran %d times", runs.Load())
	}
	if second.Content[0].Text != first.Content[0].Text {
		t.Fatalf("replayed content %q differs from %q", second.Content[0].Text, first.Content[0].Text)
	}
	rec, found, err := a.r.GetOperationStatus(context.Background(), "", "t.count", "k1")
	if err != nil || !found || rec.State != durable.StateCompleted || rec.OwnerID != "owner-a" {
		t.Fatalf("status: %+v %v %v", rec, found, err)
	}
	var stored map[string]json.RawMessage
	if err := json.Unmarshal(rec.Result, &stored); err != nil {
		t.Fatal(err)
	}
	if _, has := stored["toolCallId"]; has {
		t.Fatalf("stored result keeps toolCallId: %s", rec.Result)
	}
	// Different arguments under the same key: conflict, from the store (other registry).
	conflict := b.call("c-3", `{"label":"y"}`, "k1", 0)
	if errCode(conflict) != mcp.CodeToolIdempotencyConflict || conflict.Error.Retryable {
		t.Fatalf("conflict: %+v", conflict.Error)
	}
	if runs.Load() != 1 {
		t.Fatalf("handler ran %d times", runs.Load())
	}
}

func TestDurablePendingUnderAnotherOwner(t *testing.T) {
	store := newStore(t, memstore.New())
	var runs atomic.Int64
	a := newDurableFixture(t, store, "owner-a", &runs)
	b := newDurableFixture(t, store, "owner-b", &runs)
	done := make(chan *mcp.CallToolResult)
	go func() { done <- a.call("c-1", `{"blockMs":300}`, "k", 0) }()
	deadline := time.Now().Add(5 * time.Second)
	for runs.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	res := b.call("c-2", `{"blockMs":300}`, "k", 0)
	if errCode(res) != mcp.CodeToolIdempotencyPending || !res.Error.Retryable {
		t.Fatalf("pending: %+v", res.Error)
	}
	d, ok := res.Error.Details.(durable.PendingDetails)
	if !ok || d.OwnerID != "owner-a" || d.State != durable.StatePending || d.LeaseExpiresAt <= time.Now().UnixMilli() {
		t.Fatalf("pending details: %#v", res.Error.Details)
	}
	if first := <-done; first.IsError {
		t.Fatalf("owner call: %+v", first.Error)
	}
	// Pending is not cached in memory: once the owner completed, b replays.
	if res := b.call("c-3", `{"blockMs":300}`, "k", 0); res.IsError || runs.Load() != 1 {
		t.Fatalf("after completion: %+v, runs %d", res.Error, runs.Load())
	}
}

func TestDurableTimeoutMarksUnknownThenReconcile(t *testing.T) {
	store := newStore(t, memstore.New())
	var runs atomic.Int64
	f := newDurableFixture(t, store, "owner-a", &runs)
	res := f.call("c-1", `{"blockMs":200}`, "k", 20)
	if errCode(res) != mcp.CodeToolTimeout {
		t.Fatalf("timeout: %+v", res.Error)
	}
	rec, found, err := f.r.GetOperationStatus(context.Background(), "", "t.count", "k")
	if err != nil || !found || rec.State != durable.StateUnknown {
		t.Fatalf("status after timeout: %+v %v %v", rec, found, err)
	}
	if rec.Reason != "Tool execution ended with TOOL_TIMEOUT; reconcile before retrying." {
		t.Fatalf("reason %q", rec.Reason)
	}
	// The retry re-reads the durable record (the in-memory entry was dropped): unknown.
	retry := f.call("c-2", `{"blockMs":200}`, "k", 0)
	if errCode(retry) != mcp.CodeToolIdempotencyUnknown || retry.Error.Retryable {
		t.Fatalf("retry: %+v", retry.Error)
	}
	// The detached handler finishing later must not complete the record.
	time.Sleep(300 * time.Millisecond)
	if rec2, _, _ := f.r.GetOperationStatus(context.Background(), "", "t.count", "k"); rec2.State != durable.StateUnknown || rec2.Revision != rec.Revision {
		t.Fatalf("late handler changed the record: %+v", rec2)
	}
	// A stale fence is refused.
	stale := rec.Fence()
	stale.Revision--
	if _, err := f.r.ReconcileOperation(context.Background(), "", "t.count", "k", stale, Reconciliation{State: durable.StateCompleted, StructuredContent: json.RawMessage(`{"count":1}`)}); !errors.Is(err, durable.ErrStaleFence) {
		t.Fatalf("stale fence: %v", err)
	}
	if _, err := f.r.ReconcileOperation(context.Background(), "", "t.count", "k", rec.Fence(), Reconciliation{State: durable.StateCompleted, StructuredContent: json.RawMessage(`[1]`)}); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("non-object result: %v", err)
	}
	got, err := f.r.ReconcileOperation(context.Background(), "", "t.count", "k", rec.Fence(), Reconciliation{State: durable.StateCompleted, StructuredContent: json.RawMessage(`{ "count": 1 }`), ReconcilerID: "alice"})
	if err != nil || got.State != durable.StateCompleted || got.ReconciledBy != "alice" {
		t.Fatalf("reconcile: %+v %v", got, err)
	}
	replay := f.call("c-3", `{"blockMs":200}`, "k", 0)
	if replay.IsError || string(replay.StructuredContent) != `{"count":1}` || replay.ToolCallID != "c-3" {
		t.Fatalf("replay after reconcile: %+v", replay)
	}
	if runs.Load() != 1 {
		t.Fatalf("handler ran %d times", runs.Load())
	}
}

func TestDurableOutcomeClassification(t *testing.T) {
	for _, tc := range []struct {
		code  mcp.Code
		state durable.State
	}{
		{mcp.CodeToolExecutionUnknown, durable.StateUnknown},
		{mcp.CodeToolExecutionAborted, durable.StateUnknown},
		{mcp.CodeToolCancelled, durable.StateUnknown},
		{"WORKSPACE_FILE_NOT_FOUND", durable.StateFailed},
		{mcp.CodeToolExecutionFailed, durable.StateFailed},
	} {
		t.Run(string(tc.code), func(t *testing.T) {
			store := newStore(t, memstore.New())
			var runs atomic.Int64
			f := newDurableFixture(t, store, "owner-a", &runs)
			res := f.call("c-1", fmt.Sprintf(`{"fail":%q}`, tc.code), "k", 0)
			if errCode(res) != tc.code {
				t.Fatalf("result: %+v", res.Error)
			}
			rec, _, err := f.r.GetOperationStatus(context.Background(), "", "t.count", "k")
			if err != nil || rec.State != tc.state {
				t.Fatalf("record %+v %v", rec, err)
			}
			var sr storedResult
			if err := json.Unmarshal(rec.Result, &sr); err != nil || sr.Error == nil || sr.Error.Code != tc.code ||
				sr.Error.Message != "Tool execution diagnostic retained in redacted form." || sr.StructuredContent != nil {
				t.Fatalf("stored diagnostic %s (%v)", rec.Result, err)
			}
			// A new registry over the same store (a restart) sees the durable state.
			g := newDurableFixture(t, store, "owner-b", &runs)
			again := g.call("c-2", fmt.Sprintf(`{"fail":%q}`, tc.code), "k", 0)
			want := tc.code
			if tc.state == durable.StateUnknown {
				want = mcp.CodeToolIdempotencyUnknown
			}
			if errCode(again) != want || runs.Load() != 1 {
				t.Fatalf("after restart: %+v, runs %d", again.Error, runs.Load())
			}
		})
	}
}

// flakyBackend wraps a memstore; failRead / failCAS make the next operations fail.
type flakyBackend struct {
	*memstore.Backend
	failRead, failCAS atomic.Bool
	casCalls          atomic.Int64
	failCASAfter      int64 // when > 0, every CAS after this many fails
}

func (b *flakyBackend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	if b.failRead.Load() {
		return durable.Record{}, false, errors.New("connection refused")
	}
	return b.Backend.Read(ctx, key)
}

func (b *flakyBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	n := b.casCalls.Add(1)
	if b.failCAS.Load() || (b.failCASAfter > 0 && n > b.failCASAfter) {
		return false, errors.New("connection reset")
	}
	return b.Backend.CompareAndSet(ctx, key, expected, next)
}

func TestDurableStoreFailureNeverRunsHandler(t *testing.T) {
	fb := &flakyBackend{Backend: memstore.New()}
	fb.failRead.Store(true)
	var runs atomic.Int64
	f := newDurableFixture(t, newStore(t, fb), "owner-a", &runs)
	res := f.call("c-1", `{}`, "k", 0)
	if errCode(res) != mcp.CodeToolIdempotencyStoreFailed || !res.Error.Retryable || runs.Load() != 0 {
		t.Fatalf("store failure: %+v, runs %d", res.Error, runs.Load())
	}
	if d, ok := res.Error.Details.(durable.KeyDetails); !ok || d.OperationKey != `["default","t.count","k"]` {
		t.Fatalf("details %#v", res.Error.Details)
	}
	// Not cached: once the store is back, the call runs.
	fb.failRead.Store(false)
	if res := f.call("c-2", `{}`, "k", 0); res.IsError || runs.Load() != 1 {
		t.Fatalf("after recovery: %+v, runs %d", res.Error, runs.Load())
	}
	// Calls without an idempotency key never touch the store.
	fb.failRead.Store(true)
	if res := f.r.Call(context.Background(), call("t.count", `{}`, nil)); res.IsError {
		t.Fatalf("keyless call: %+v", res.Error)
	}
}

func TestDurableTransitionFailureDropsMemoryEntry(t *testing.T) {
	fb := &flakyBackend{Backend: memstore.New(), failCASAfter: 1} // the claim's insert succeeds, Complete fails
	var runs atomic.Int64
	f := newDurableFixture(t, newStore(t, fb), "owner-a", &runs)
	res := f.call("c-1", `{}`, "k", 0)
	if errCode(res) != mcp.CodeToolIdempotencyStoreFailed || runs.Load() != 1 {
		t.Fatalf("transition failure: %+v, runs %d", res.Error, runs.Load())
	}
	// The handler ran: the change is applied, so the error says so and is not retryable.
	if d, ok := res.Error.Details.(durable.AppliedKeyDetails); !ok || d.OperationKey != `["default","t.count","k"]` || !d.Applied || res.Error.Retryable {
		t.Fatalf("details %#v retryable %v", res.Error.Details, res.Error.Retryable)
	}
	// The retry must not replay the unrecorded success from memory: it re-reads the durable
	// record, still pending under our own live lease.
	retry := f.call("c-2", `{}`, "k", 0)
	if errCode(retry) != mcp.CodeToolIdempotencyPending || runs.Load() != 1 {
		t.Fatalf("retry: %+v, runs %d", retry.Error, runs.Load())
	}
}

func TestDurableConcurrentClaimersOneRegistry(t *testing.T) {
	store := newStore(t, memstore.New())
	var runs atomic.Int64
	f := newDurableFixture(t, store, "owner-a", &runs)
	const n = 12
	results := make([]*mcp.CallToolResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = f.call(fmt.Sprintf("c-%d", i), `{"blockMs":20}`, "k", 0)
		}()
	}
	wg.Wait()
	if runs.Load() != 1 {
		t.Fatalf("handler ran %d times", runs.Load())
	}
	for i, res := range results {
		// Same-process callers share the one execution (in-memory layer) or get the durable
		// answer: the result, or pending while the owner still runs.
		if res.IsError && errCode(res) != mcp.CodeToolIdempotencyPending {
			t.Fatalf("call %d: %+v", i, res.Error)
		}
		if !res.IsError && string(res.StructuredContent) != `{"count":1,"label":""}` {
			t.Fatalf("call %d: %s", i, res.StructuredContent)
		}
	}
}

func TestDurableConcurrentClaimersManyOwners(t *testing.T) {
	store := newStore(t, memstore.New())
	var runs atomic.Int64
	const n = 10
	fixtures := make([]fixture, n)
	for i := range fixtures {
		fixtures[i] = newDurableFixture(t, store, fmt.Sprintf("owner-%d", i), &runs)
	}
	results := make([]*mcp.CallToolResult, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i] = fixtures[i].call(fmt.Sprintf("c-%d", i), `{"blockMs":30}`, "k", 0)
		}()
	}
	close(start)
	wg.Wait()
	if runs.Load() != 1 {
		t.Fatalf("handler ran %d times", runs.Load())
	}
	successes := 0
	for i, res := range results {
		switch {
		case !res.IsError:
			successes++
			if string(res.StructuredContent) != `{"count":1,"label":""}` {
				t.Fatalf("call %d: %s", i, res.StructuredContent)
			}
		case errCode(res) == mcp.CodeToolIdempotencyPending:
		case errCode(res) == mcp.CodeToolIdempotencyStoreFailed && res.Error.Retryable:
			// lost MaxClaimAttempts compare-and-sets in a row: retryable, handler not run
		default:
			t.Fatalf("call %d: %+v", i, res.Error)
		}
	}
	if successes < 1 {
		t.Fatal("no caller got the result")
	}
}

func TestRecoverOperation(t *testing.T) {
	store := newStore(t, memstore.New())
	var runs atomic.Int64
	f := newDurableFixture(t, store, "owner-a", &runs)
	ctx := context.Background()
	called := 0
	resolver := func(ctx context.Context, rec durable.Record) (Reconciliation, error) {
		called++
		return Reconciliation{State: durable.StateFailed, Reason: "not applied"}, nil
	}
	if rr, err := f.r.RecoverOperation(ctx, "", "t.count", "k", resolver); err != nil || rr.Status != durable.StatusMissing || called != 0 {
		t.Fatalf("missing: %+v %v", rr, err)
	}
	f.call("c-1", `{}`, "k", 0)
	if rr, err := f.r.RecoverOperation(ctx, "", "t.count", "k", resolver); err != nil || rr.Status != durable.StatusCompleted || called != 0 {
		t.Fatalf("completed: %+v %v (resolver called %d)", rr, err, called)
	}
	f.call("c-2", `{"fail":"TOOL_EXECUTION_UNKNOWN"}`, "u", 0)
	failing := func(ctx context.Context, rec durable.Record) (Reconciliation, error) {
		return Reconciliation{}, errors.New("provider unreachable")
	}
	if _, err := f.r.RecoverOperation(ctx, "", "t.count", "u", failing); err == nil {
		t.Fatal("resolver error swallowed")
	}
	rr, err := f.r.RecoverOperation(ctx, "", "t.count", "u", resolver)
	if err != nil || rr.Status != durable.StatusResolved || called != 1 || rr.Record.State != durable.StateFailed {
		t.Fatalf("unknown: %+v %v", rr, err)
	}
	replay := f.call("c-3", `{"fail":"TOOL_EXECUTION_UNKNOWN"}`, "u", 0)
	if errCode(replay) != mcp.CodeToolExecutionFailed || replay.Error.Retryable || runs.Load() != 2 {
		t.Fatalf("replay of a reconciled failure: %+v, runs %d", replay.Error, runs.Load())
	}
	if _, err := f.r.RecoverOperation(ctx, "", "t.count", "u", nil); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("nil resolver: %v", err)
	}
	plain := New(Options{})
	if _, _, err := plain.GetOperationStatus(ctx, "", "t", "k"); !errors.Is(err, ErrDurableDisabled) {
		t.Fatalf("disabled: %v", err)
	}
}

func TestDecodeStoredRefusesForeignShapes(t *testing.T) {
	for _, raw := range []string{``, `{}`, `{"content":[]}`, `{"content":[{"type":"text","text":"x"}],"isError":false}`,
		`{"content":[{"type":"text","text":"x"}],"isError":true}`, `{"content":[{"type":"text","text":"x"}],"structuredContent":{},"isError":false,"extra":1}`, `[1]`,
		`{"content":[{"type":"text","text":"x"}],"structuredContent":"x","isError":false}`,
		`{"content":[{"type":"text","text":"x"}],"isError":true,"error":{"code":"bad code!","message":"m","retryable":false}}`} {
		if _, ok := decodeStored(json.RawMessage(raw)); ok {
			t.Errorf("decodeStored(%s) accepted", raw)
		}
	}
	if _, ok := decodeStored(encodeStored(successStored(json.RawMessage(`{"a":1}`)))); !ok {
		t.Error("round trip refused")
	}
	rec := durable.Record{Key: "k", State: durable.StateCompleted, Result: json.RawMessage(`{"x":1}`)}
	if out := replayOutcome(rec); out.err == nil || out.err.Code != mcp.CodeToolIdempotencyUnknown {
		t.Fatalf("foreign result replayed: %+v", out)
	}
}

// FuzzReplayStored: whatever a backend hands back as a record's result (another version,
// tampering), replaying it never panics, and it is either a well-formed replay (a JSON-object
// success or an error with a valid code) or TOOL_IDEMPOTENCY_UNKNOWN.
func FuzzReplayStored(f *testing.F) {
	f.Add([]byte(encodeStored(successStored(json.RawMessage(`{"count":1}`)))), "completed")
	f.Add([]byte(`{"content":[{"type":"text","text":"x"}],"isError":true,"error":{"code":"TOOL_TIMEOUT","message":"m","retryable":true}}`), "failed")
	f.Add([]byte(`{"content":[],"isError":false}`), "completed")
	f.Add([]byte(`null`), "failed")
	f.Add([]byte(`{"content":[{"type":"text","text":"x"}],"structuredContent":"x","isError":false}`), "completed")
	f.Fuzz(func(t *testing.T, raw []byte, state string) {
		rec := durable.Record{Key: "k", State: durable.State(state), Result: raw}
		out := replayOutcome(rec)
		switch {
		case out.err == nil:
			if len(out.sc) == 0 || out.sc[0] != '{' || !json.Valid(out.sc) {
				t.Fatalf("success replay with structuredContent %q", out.sc)
			}
		case out.err.Code == mcp.CodeToolIdempotencyUnknown:
		default:
			if _, err := json.Marshal(mcp.ErrorResult("c", out.err)); err != nil {
				t.Fatalf("replayed error does not serialize: %v", err)
			}
		}
	})
}

func TestDurableCancelledBeforeClaimStoresNothing(t *testing.T) {
	store := newStore(t, memstore.New())
	var runs atomic.Int64
	f := newDurableFixture(t, store, "owner-a", &runs)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	key := "k"
	res := f.r.Call(ctx, call("t.count", `{}`, &mcp.CallMeta{IdempotencyKey: &key}))
	if errCode(res) != mcp.CodeToolCancelled || runs.Load() != 0 {
		t.Fatalf("cancelled: %+v, runs %d", res.Error, runs.Load())
	}
	if _, found, err := f.r.GetOperationStatus(context.Background(), "", "t.count", "k"); found || err != nil {
		t.Fatalf("a record was stored: %v %v", found, err)
	}
	// Not cached: the next call runs.
	if res := f.call("c-2", `{}`, "k", 0); res.IsError || runs.Load() != 1 {
		t.Fatalf("next call: %+v", res.Error)
	}
}

func TestDurableCancelledWhileRunningMarksUnknown(t *testing.T) {
	store := newStore(t, memstore.New())
	var runs atomic.Int64
	f := newDurableFixture(t, store, "owner-a", &runs)
	ctx, cancel := context.WithCancel(context.Background())
	key := "k"
	go func() {
		for runs.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	res := f.r.Call(ctx, call("t.count", `{"blockMs":200}`, &mcp.CallMeta{IdempotencyKey: &key}))
	if errCode(res) != mcp.CodeToolCancelled {
		t.Fatalf("cancelled: %+v", res.Error)
	}
	rec, found, err := f.r.GetOperationStatus(context.Background(), "", "t.count", "k")
	if err != nil || !found || rec.State != durable.StateUnknown || rec.Reason != "Tool execution ended with TOOL_CANCELLED; reconcile before retrying." {
		t.Fatalf("record after cancellation: %+v %v %v", rec, found, err)
	}
}
