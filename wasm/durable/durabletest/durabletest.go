package durabletest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
)

// RawPutter is implemented by backends that let the suite plant raw record bytes under a key,
// bypassing validation (tampered records, records from another version). Backends that do not
// implement it fail the tampering subtests.
type RawPutter interface {
	PutRaw(ctx context.Context, key string, raw []byte) error
}

// Clock is a manual clock for tests: Now returns the set time; Advance moves it. Safe for
// concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock set to t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// Epoch is the suite's start time: 2026-11-30T00:00:00Z.
var Epoch = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

type env struct {
	t     *testing.T
	b     durable.Backend
	clock *Clock
	s     *durable.Store
	ctx   context.Context
}

func newEnv(t *testing.T, newBackend func(t *testing.T) durable.Backend, opts durable.Options) *env {
	t.Helper()
	b := newBackend(t)
	if b == nil {
		t.Fatal("newBackend returned nil")
	}
	clock := NewClock(Epoch)
	opts.Clock = clock.Now
	s, err := durable.New(b, opts)
	if err != nil {
		t.Fatalf("durable.New: %v", err)
	}
	return &env{t: t, b: b, clock: clock, s: s, ctx: context.Background()}
}

func (e *env) claim(key, fp, owner string, lease time.Duration) durable.Claim {
	e.t.Helper()
	c, err := e.s.Claim(e.ctx, key, fp, owner, lease)
	if err != nil {
		e.t.Fatalf("Claim(%q, %q, %q): %v", key, fp, owner, err)
	}
	return c
}

func (e *env) mustOutcome(c durable.Claim, want durable.ClaimOutcome) {
	e.t.Helper()
	if c.Outcome != want {
		e.t.Fatalf("claim outcome = %q, want %q (record %+v)", c.Outcome, want, c.Record)
	}
}

func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
}

func wantField(t *testing.T, err error, field string) {
	t.Helper()
	var ve *durable.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error = %v, want a *durable.ValidationError on %q", err, field)
	}
	if ve.Field != field {
		t.Fatalf("validation field = %q (%v), want %q", ve.Field, err, field)
	}
	if !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("validation error does not match ErrInvalid")
	}
}

func record(key string, rev int64, state durable.State) durable.Record {
	r := durable.Record{
		Key: key, Fingerprint: "fp", OwnerID: "owner-a", Incarnation: "inc-" + key, Revision: rev,
		State: state, CreatedAt: Epoch.UnixMilli(), UpdatedAt: Epoch.UnixMilli() + rev,
	}
	switch state {
	case durable.StatePending:
		r.LeaseExpiresAt = Epoch.UnixMilli() + 60_000
	case durable.StateFailed, durable.StateUnknown:
		r.Reason = "because"
	case durable.StateCompleted:
		r.Result = json.RawMessage(`{"ok":true}`)
	}
	return r
}

func sameRecord(t *testing.T, got, want durable.Record) {
	t.Helper()
	g, err := durable.EncodeRecord(got)
	if err != nil {
		t.Fatalf("got record invalid: %v", err)
	}
	w, err := durable.EncodeRecord(want)
	if err != nil {
		t.Fatalf("want record invalid: %v", err)
	}
	if string(g) != string(w) {
		t.Fatalf("record mismatch\n got %s\nwant %s", g, w)
	}
}

// Run runs the backend contract (REFERENCE §6.2–§6.3, SPEC §2.5) against fresh backends from
// newBackend, one or more per subtest. newBackend must return an empty backend isolated from
// every other one it returned (its own key prefix, schema or database), register its own
// cleanup with t.Cleanup, and implement RawPutter. Subtests:
//   - CAS: insert-if-absent, fence match on incarnation and revision, delete, absent+delete,
//     refusal to store an invalid record;
//   - ListPage: byte-wise key order for limits 1..1000, next cursor = last key, deleting every
//     listed record before the next page;
//   - ClaimOutcomes, Fences, ResolveUnknown, Prune (page size 3, page cap), Validation;
//   - Tampered: unknown/case-folded/duplicate members, wrong types, overflow, missing members,
//     another key's record — each a *durable.ValidationError naming the field, never rewritten;
//   - BackendFailure: every backend error surfaces as retryable durable.ErrBackend (driver
//     errors do not leak through errors.Is), cancelled contexts included;
//   - ConcurrentClaimers: 12 goroutines claim one key: exactly one owner, the rest pending, and
//     after completion only replay or pending;
//   - ConcurrentTakeover: 12 goroutines race to take over one expired lease: exactly one owner;
//   - ConcurrentTransitions: 12 goroutines complete one claim with the same fence: exactly one
//     succeeds, every other gets ErrFenceChanged, ErrStaleFence or ErrNotPending.
func Run(t *testing.T, newBackend func(t *testing.T) durable.Backend) {
	t.Run("CAS", func(t *testing.T) { testCAS(t, newBackend) })
	t.Run("ListPage", func(t *testing.T) { testListPage(t, newBackend) })
	t.Run("ClaimOutcomes", func(t *testing.T) { testClaimOutcomes(t, newBackend) })
	t.Run("Fences", func(t *testing.T) { testFences(t, newBackend) })
	t.Run("ResolveUnknown", func(t *testing.T) { testResolveUnknown(t, newBackend) })
	t.Run("Prune", func(t *testing.T) { testPrune(t, newBackend) })
	t.Run("Validation", func(t *testing.T) { testValidation(t, newBackend) })
	t.Run("Tampered", func(t *testing.T) { testTampered(t, newBackend) })
	t.Run("BackendFailure", func(t *testing.T) { testBackendFailure(t, newBackend) })
	t.Run("ConcurrentClaimers", func(t *testing.T) { testConcurrent(t, newBackend) })
	t.Run("ConcurrentTakeover", func(t *testing.T) { testConcurrentTakeover(t, newBackend) })
	t.Run("ConcurrentTransitions", func(t *testing.T) { testConcurrentTransitions(t, newBackend) })
}

func testCAS(t *testing.T, nb func(t *testing.T) durable.Backend) {
	ctx := context.Background()
	b := nb(t)
	const key = "cas/key"
	if _, found, err := b.Read(ctx, key); err != nil || found {
		t.Fatalf("Read(absent) = found %v, err %v", found, err)
	}
	if ok, err := b.CompareAndSet(ctx, key, nil, nil); err != nil || !ok {
		t.Fatalf("CAS(absent, delete) on absent key = %v, %v; want true", ok, err)
	}
	r1 := record(key, 1, durable.StatePending)
	if ok, err := b.CompareAndSet(ctx, key, nil, &r1); err != nil || !ok {
		t.Fatalf("insert = %v, %v", ok, err)
	}
	if ok, err := b.CompareAndSet(ctx, key, nil, &r1); err != nil || ok {
		t.Fatalf("second insert-if-absent = %v, %v; want false", ok, err)
	}
	if ok, err := b.CompareAndSet(ctx, key, nil, nil); err != nil || ok {
		t.Fatalf("CAS(absent, delete) on present key = %v, %v; want false", ok, err)
	}
	got, found, err := b.Read(ctx, key)
	if err != nil || !found {
		t.Fatalf("Read = found %v, err %v", found, err)
	}
	sameRecord(t, got, r1)

	r2 := r1
	r2.Revision, r2.State, r2.LeaseExpiresAt, r2.Result = 2, durable.StateCompleted, 0, json.RawMessage(`{"n":[1,2,"ü"]}`)
	for _, bad := range []durable.Fence{{Incarnation: r1.Incarnation, Revision: 2}, {Incarnation: "other", Revision: 1}} {
		if ok, err := b.CompareAndSet(ctx, key, &bad, &r2); err != nil || ok {
			t.Fatalf("CAS with wrong fence %+v = %v, %v; want false", bad, ok, err)
		}
	}
	f1 := r1.Fence()
	if ok, err := b.CompareAndSet(ctx, key, &f1, &r2); err != nil || !ok {
		t.Fatalf("CAS with current fence = %v, %v", ok, err)
	}
	if got, _, _ = b.Read(ctx, key); true {
		sameRecord(t, got, r2)
	}
	if ok, err := b.CompareAndSet(ctx, key, &f1, nil); err != nil || ok {
		t.Fatalf("delete with stale fence = %v, %v; want false", ok, err)
	}
	f2 := r2.Fence()
	if ok, err := b.CompareAndSet(ctx, key, &f2, nil); err != nil || !ok {
		t.Fatalf("delete with current fence = %v, %v", ok, err)
	}
	if _, found, err := b.Read(ctx, key); err != nil || found {
		t.Fatalf("Read after delete = found %v, err %v", found, err)
	}
	if ok, err := b.CompareAndSet(ctx, key, &f2, nil); err != nil || ok {
		t.Fatalf("delete of absent key with a fence = %v, %v; want false", ok, err)
	}
	if ok, err := b.CompareAndSet(ctx, key, &f2, &r2); err != nil || ok {
		t.Fatalf("update of absent key = %v, %v; want false", ok, err)
	}
	// A backend refuses to store an invalid record.
	bad := record(key, 1, durable.StatePending)
	bad.Revision = 0
	if ok, err := b.CompareAndSet(ctx, key, nil, &bad); ok || !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("insert of revision 0 = %v, %v; want ErrInvalid", ok, err)
	}
	if _, found, _ := b.Read(ctx, key); found {
		t.Fatal("invalid record was stored")
	}
}

func listAll(t *testing.T, b durable.Backend, limit int, onPage func(page []durable.Record)) []string {
	t.Helper()
	var keys []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("ListPage did not terminate")
		}
		recs, next, err := b.ListPage(context.Background(), cursor, limit)
		if err != nil {
			t.Fatalf("ListPage(%q, %d): %v", cursor, limit, err)
		}
		if len(recs) > limit {
			t.Fatalf("ListPage returned %d records for limit %d", len(recs), limit)
		}
		for _, r := range recs {
			keys = append(keys, r.Key)
		}
		if onPage != nil {
			onPage(recs)
		}
		if next == "" {
			return keys
		}
		if len(recs) == 0 || next != recs[len(recs)-1].Key {
			t.Fatalf("next cursor %q is not the last key of a non-empty page (%d records)", next, len(recs))
		}
		cursor = next
	}
}

func testListPage(t *testing.T, nb func(t *testing.T) durable.Backend) {
	ctx := context.Background()
	b := nb(t)
	if recs, next, err := b.ListPage(ctx, "", 10); err != nil || len(recs) != 0 || next != "" {
		t.Fatalf("ListPage on empty backend = %d records, %q, %v", len(recs), next, err)
	}
	keys := []string{"b", "a", "a/b", "a/a", "ab", "Z", "z", "é", "日本", `["default","workspace.writeFile","k"]`,
		"a ", "0", "~", "a\x01", "b/1", "b/10", "b/2", "c", "d", "e", "f", "g", "h", "i", "j"}
	for i, k := range keys {
		r := record(k, 1, []durable.State{durable.StatePending, durable.StateCompleted, durable.StateFailed, durable.StateUnknown}[i%4])
		if ok, err := b.CompareAndSet(ctx, k, nil, &r); err != nil || !ok {
			t.Fatalf("insert %q = %v, %v", k, ok, err)
		}
	}
	want := append([]string(nil), keys...)
	sort.Strings(want) // byte-wise
	for _, limit := range []int{1, 7, 25, 1000} {
		got := listAll(t, b, limit, nil)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("limit %d: keys\n%q\nwant\n%q", limit, got, want)
		}
	}
	// Deleting every record of each page before asking for the next must not break the cursor.
	var deleted []string
	got := listAll(t, b, 4, func(page []durable.Record) {
		for _, r := range page {
			f := r.Fence()
			if ok, err := b.CompareAndSet(ctx, r.Key, &f, nil); err != nil || !ok {
				t.Fatalf("delete %q = %v, %v", r.Key, ok, err)
			}
			deleted = append(deleted, r.Key)
		}
	})
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("listing while deleting: keys\n%q\nwant\n%q", got, want)
	}
	if recs, _, err := b.ListPage(ctx, "", 10); err != nil || len(recs) != 0 {
		t.Fatalf("after deleting everything ListPage = %d records, %v", len(recs), err)
	}
}

func testClaimOutcomes(t *testing.T, nb func(t *testing.T) durable.Backend) {
	e := newEnv(t, nb, durable.Options{})
	const key = "claim/k"
	c := e.claim(key, "fp1", "alice", 10*time.Second)
	e.mustOutcome(c, durable.ClaimOwner)
	if c.Record.Revision != 1 || c.Record.State != durable.StatePending || c.Fence != c.Record.Fence() || c.Fence.Incarnation == "" {
		t.Fatalf("owner claim record %+v fence %+v", c.Record, c.Fence)
	}
	if c.Record.LeaseExpiresAt != Epoch.Add(10*time.Second).UnixMilli() || c.Record.CreatedAt != Epoch.UnixMilli() {
		t.Fatalf("lease/createdAt = %d/%d", c.Record.LeaseExpiresAt, c.Record.CreatedAt)
	}
	// Live lease: the same or another owner sees pending.
	e.mustOutcome(e.claim(key, "fp1", "bob", time.Second), durable.ClaimPending)
	e.mustOutcome(e.claim(key, "fp1", "alice", time.Second), durable.ClaimPending)
	// Different fingerprint: conflict, whatever the state.
	e.mustOutcome(e.claim(key, "fp2", "bob", time.Second), durable.ClaimConflict)
	// Lease expiry (exactly at leaseExpiresAt counts as expired): takeover.
	e.clock.Advance(10 * time.Second)
	tk := e.claim(key, "fp1", "bob", 5*time.Second)
	e.mustOutcome(tk, durable.ClaimOwner)
	if !tk.TookOver || tk.Record.OwnerID != "bob" || tk.Fence.Revision != 2 || tk.Fence.Incarnation != c.Fence.Incarnation {
		t.Fatalf("takeover = %+v", tk)
	}
	// The former owner's fence is stale now.
	_, err := e.s.Complete(e.ctx, key, "alice", c.Fence, json.RawMessage(`1`))
	wantErr(t, err, durable.ErrStaleFence)
	done, err := e.s.Complete(e.ctx, key, "bob", tk.Fence, json.RawMessage(` {"charge": "ch_1"} `))
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if done.State != durable.StateCompleted || done.Revision != 3 || done.LeaseExpiresAt != 0 || string(done.Result) != `{"charge":"ch_1"}` {
		t.Fatalf("completed record %+v (%s)", done, done.Result)
	}
	rp := e.claim(key, "fp1", "carol", time.Second)
	e.mustOutcome(rp, durable.ClaimReplay)
	if string(rp.Record.Result) != `{"charge":"ch_1"}` || rp.Fence != done.Fence() {
		t.Fatalf("replay = %+v", rp)
	}
	e.mustOutcome(e.claim(key, "fp2", "carol", time.Second), durable.ClaimConflict)

	// failed → replay; unknown → unknown.
	f := e.claim("claim/failed", "fp", "alice", time.Second)
	if _, err := e.s.Fail(e.ctx, "claim/failed", "alice", f.Fence, "card declined", nil); err != nil {
		t.Fatalf("Fail: %v", err)
	}
	rf := e.claim("claim/failed", "fp", "bob", time.Second)
	e.mustOutcome(rf, durable.ClaimReplay)
	if rf.Record.State != durable.StateFailed || rf.Record.Reason != "card declined" {
		t.Fatalf("failed replay %+v", rf.Record)
	}
	u := e.claim("claim/unknown", "fp", "alice", time.Second)
	if _, err := e.s.MarkUnknown(e.ctx, "claim/unknown", "alice", u.Fence, "ack lost", json.RawMessage(`{"diagnostic":"x"}`)); err != nil {
		t.Fatalf("MarkUnknown: %v", err)
	}
	e.clock.Advance(time.Hour)
	ru := e.claim("claim/unknown", "fp", "bob", time.Second)
	e.mustOutcome(ru, durable.ClaimUnknown)
	if ru.Record.Reason != "ack lost" {
		t.Fatalf("unknown claim record %+v", ru.Record)
	}
	e.mustOutcome(e.claim("claim/unknown", "other", "bob", time.Second), durable.ClaimConflict)

	got, found, err := e.s.Get(e.ctx, key)
	if err != nil || !found || got.Revision != 3 {
		t.Fatalf("Get = %+v, %v, %v", got, found, err)
	}
	if _, found, err := e.s.Get(e.ctx, "claim/none"); err != nil || found {
		t.Fatalf("Get(absent) = %v, %v", found, err)
	}
}

// racingBackend lets a test run a write just before a chosen CompareAndSet, as a concurrent
// writer would.
type racingBackend struct {
	durable.Backend
	mu     sync.Mutex
	before func()
}

func (r *racingBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	r.mu.Lock()
	hook := r.before
	r.before = nil
	r.mu.Unlock()
	if hook != nil {
		hook()
	}
	return r.Backend.CompareAndSet(ctx, key, expected, next)
}

func testFences(t *testing.T, nb func(t *testing.T) durable.Backend) {
	var rb *racingBackend
	e := newEnv(t, func(t *testing.T) durable.Backend { rb = &racingBackend{Backend: nb(t)}; return rb }, durable.Options{})
	const key = "fence/k"
	c := e.claim(key, "fp", "alice", 10*time.Second)

	stale := c.Fence
	stale.Revision++
	_, err := e.s.Complete(e.ctx, key, "alice", stale, nil)
	wantErr(t, err, durable.ErrStaleFence)
	_, err = e.s.Fail(e.ctx, key, "alice", durable.Fence{Incarnation: "someone-else", Revision: 1}, "x", nil)
	wantErr(t, err, durable.ErrStaleFence)
	_, err = e.s.Complete(e.ctx, key, "mallory", c.Fence, nil)
	wantErr(t, err, durable.ErrNotOwner)
	_, err = e.s.Complete(e.ctx, "fence/missing", "alice", c.Fence, nil)
	wantErr(t, err, durable.ErrNotFound)

	// Lost compare-and-set: a concurrent writer bumps the record between read and write.
	rb.before = func() {
		cur, _, err := rb.Backend.Read(e.ctx, key)
		if err != nil {
			t.Errorf("racer read: %v", err)
			return
		}
		next := cur
		next.Revision++
		next.UpdatedAt++
		f := cur.Fence()
		if ok, err := rb.Backend.CompareAndSet(e.ctx, key, &f, &next); !ok || err != nil {
			t.Errorf("racer write = %v, %v", ok, err)
		}
	}
	_, err = e.s.MarkUnknown(e.ctx, key, "alice", c.Fence, "lost", nil)
	wantErr(t, err, durable.ErrFenceChanged)
	if errors.Is(err, durable.ErrStaleFence) {
		t.Fatal("a lost CAS must not also match ErrStaleFence")
	}
	cur, _, _ := e.s.Get(e.ctx, key)
	if cur.State != durable.StatePending || cur.Revision != 2 {
		t.Fatalf("after lost CAS record = %+v", cur)
	}

	// Lease expiry: the owner's transition is refused at leaseExpiresAt.
	c2 := e.claim("fence/lease", "fp", "alice", time.Second)
	e.clock.Advance(time.Second)
	_, err = e.s.Complete(e.ctx, "fence/lease", "alice", c2.Fence, nil)
	wantErr(t, err, durable.ErrLeaseExpired)

	// Not pending: completing twice with the new fence.
	c3 := e.claim("fence/twice", "fp", "alice", time.Minute)
	done, err := e.s.Complete(e.ctx, "fence/twice", "alice", c3.Fence, json.RawMessage(`"ok"`))
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	_, err = e.s.Complete(e.ctx, "fence/twice", "alice", done.Fence(), nil)
	wantErr(t, err, durable.ErrNotPending)

	// Prune then recreate: a new incarnation, and the old fence stays stale even at revision 1.
	e.clock.Advance(time.Hour)
	if _, err := e.s.Prune(e.ctx, e.clock.Now()); err != nil {
		t.Fatalf("Prune: %v", err)
	}
	c4 := e.claim("fence/twice", "fp", "bob", time.Minute)
	e.mustOutcome(c4, durable.ClaimOwner)
	if c4.Fence.Revision != 1 || c4.Fence.Incarnation == c3.Fence.Incarnation {
		t.Fatalf("recreated fence %+v, old %+v", c4.Fence, c3.Fence)
	}
	_, err = e.s.Complete(e.ctx, "fence/twice", "bob", c3.Fence, nil)
	wantErr(t, err, durable.ErrStaleFence)
}

func testResolveUnknown(t *testing.T, nb func(t *testing.T) durable.Backend) {
	e := newEnv(t, nb, durable.Options{})
	const key = "resolve/k"
	c := e.claim(key, "fp", "alice", time.Minute)
	_, err := e.s.ResolveUnknown(e.ctx, key, "rec", c.Fence, durable.Resolution{State: durable.StateCompleted, Result: json.RawMessage(`1`)})
	wantErr(t, err, durable.ErrNotUnknown)
	u, err := e.s.MarkUnknown(e.ctx, key, "alice", c.Fence, "timeout", json.RawMessage(`{"diagnostic":{"code":"TOOL_TIMEOUT"}}`))
	if err != nil {
		t.Fatalf("MarkUnknown: %v", err)
	}
	_, err = e.s.ResolveUnknown(e.ctx, key, "rec", c.Fence, durable.Resolution{State: durable.StateCompleted, Result: json.RawMessage(`1`)})
	wantErr(t, err, durable.ErrStaleFence)
	_, err = e.s.ResolveUnknown(e.ctx, key, "rec", u.Fence(), durable.Resolution{State: durable.StateCompleted})
	wantField(t, err, "resolution.result")
	_, err = e.s.ResolveUnknown(e.ctx, key, "rec", u.Fence(), durable.Resolution{State: durable.StateFailed, Reason: "  "})
	wantField(t, err, "reason")
	_, err = e.s.ResolveUnknown(e.ctx, key, "rec", u.Fence(), durable.Resolution{State: durable.StatePending})
	wantField(t, err, "resolution.state")
	_, err = e.s.ResolveUnknown(e.ctx, key, " ", u.Fence(), durable.Resolution{State: durable.StateFailed, Reason: "x"})
	wantField(t, err, "reconcilerId")
	_, err = e.s.ResolveUnknown(e.ctx, "resolve/none", "rec", u.Fence(), durable.Resolution{State: durable.StateFailed, Reason: "x"})
	wantErr(t, err, durable.ErrNotFound)

	e.clock.Advance(5 * time.Minute)
	r, err := e.s.ResolveUnknown(e.ctx, key, "reconciler-1", u.Fence(), durable.Resolution{State: durable.StateCompleted, Result: json.RawMessage(`{"found":true}`)})
	if err != nil {
		t.Fatalf("ResolveUnknown: %v", err)
	}
	if r.State != durable.StateCompleted || r.Revision != u.Revision+1 || r.ReconciledBy != "reconciler-1" ||
		r.ReconciledAt != e.clock.Now().UnixMilli() || r.UpdatedAt != r.ReconciledAt || string(r.Result) != `{"found":true}` {
		t.Fatalf("resolved record %+v", r)
	}
	got, _, err := e.s.Get(e.ctx, key)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	sameRecord(t, got, r)
	e.mustOutcome(e.claim(key, "fp", "bob", time.Second), durable.ClaimReplay)
	_, err = e.s.ResolveUnknown(e.ctx, key, "reconciler-1", r.Fence(), durable.Resolution{State: durable.StateFailed, Reason: "x"})
	wantErr(t, err, durable.ErrNotUnknown)

	// Resolve as failed.
	c2 := e.claim("resolve/f", "fp", "alice", time.Minute)
	u2, err := e.s.MarkUnknown(e.ctx, "resolve/f", "alice", c2.Fence, "ambiguous", nil)
	if err != nil {
		t.Fatalf("MarkUnknown: %v", err)
	}
	r2, err := e.s.ResolveUnknown(e.ctx, "resolve/f", "reconciler-2", u2.Fence(), durable.Resolution{State: durable.StateFailed, Reason: "provider has no such charge"})
	if err != nil || r2.State != durable.StateFailed || r2.Reason != "provider has no such charge" {
		t.Fatalf("resolve failed = %+v, %v", r2, err)
	}
}

func testPrune(t *testing.T, nb func(t *testing.T) durable.Backend) {
	e := newEnv(t, nb, durable.Options{PrunePageSize: 3})
	ctx := e.ctx
	var oldTerminal, kept []string
	mk := func(key string, state durable.State) {
		c := e.claim(key, "fp", "alice", time.Hour)
		var err error
		switch state {
		case durable.StateCompleted:
			_, err = e.s.Complete(ctx, key, "alice", c.Fence, json.RawMessage(`true`))
		case durable.StateFailed:
			_, err = e.s.Fail(ctx, key, "alice", c.Fence, "no", nil)
		case durable.StateUnknown:
			_, err = e.s.MarkUnknown(ctx, key, "alice", c.Fence, "maybe", nil)
		}
		if err != nil {
			t.Fatalf("finish %q: %v", key, err)
		}
	}
	for i := 0; i < 10; i++ {
		k := fmt.Sprintf("prune/old/%02d", i)
		mk(k, []durable.State{durable.StateCompleted, durable.StateFailed}[i%2])
		oldTerminal = append(oldTerminal, k)
	}
	for i := 0; i < 2; i++ {
		k := fmt.Sprintf("prune/pending/%d", i)
		mk(k, durable.StatePending)
		kept = append(kept, k)
		k = fmt.Sprintf("prune/unknown/%d", i)
		mk(k, durable.StateUnknown)
		kept = append(kept, k)
	}
	e.clock.Advance(2 * time.Hour)
	cut := e.clock.Now()
	for i := 0; i < 3; i++ {
		k := fmt.Sprintf("prune/new/%d", i)
		mk(k, durable.StateCompleted)
		kept = append(kept, k)
	}
	// Exactly at the cut is not "before" it.
	e.clock.Advance(time.Minute)
	rep, err := e.s.Prune(ctx, cut)
	if err != nil {
		t.Fatalf("Prune: %v", err)
	}
	if rep.Deleted != 10 || rep.Scanned != 17 || rep.Skipped != 0 || rep.Pages < 6 {
		t.Fatalf("prune report %+v; want 10 deleted of 17 scanned over ≥ 6 pages", rep)
	}
	left := listAll(t, e.b, 100, nil)
	sort.Strings(kept)
	if strings.Join(left, ",") != strings.Join(kept, ",") {
		t.Fatalf("left %q, want %q", left, kept)
	}
	for _, k := range oldTerminal {
		if _, found, _ := e.s.Get(ctx, k); found {
			t.Fatalf("%q survived prune", k)
		}
	}
	// Page cap.
	capped, err := durable.New(e.b, durable.Options{Clock: e.clock.Now, PrunePageSize: 2, PrunePageCap: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep, err = capped.Prune(ctx, e.clock.Now().Add(time.Hour))
	wantErr(t, err, durable.ErrPageCap)
	if rep.Pages != 2 {
		t.Fatalf("capped prune pages = %d", rep.Pages)
	}
	// A zero cut is refused.
	_, err = e.s.Prune(ctx, time.Time{})
	wantField(t, err, "before")
}

func testValidation(t *testing.T, nb func(t *testing.T) durable.Backend) {
	e := newEnv(t, nb, durable.Options{})
	ctx := e.ctx
	cases := []struct {
		field string
		err   error
	}{
		{"key", func() error { _, err := e.s.Claim(ctx, "  ", "fp", "o", 0); return err }()},
		{"key", func() error { _, err := e.s.Claim(ctx, "", "fp", "o", 0); return err }()},
		{"key", func() error { _, err := e.s.Claim(ctx, "a\x00b", "fp", "o", 0); return err }()},
		{"key", func() error { _, err := e.s.Claim(ctx, "\xff", "fp", "o", 0); return err }()},
		{"key", func() error {
			_, err := e.s.Claim(ctx, strings.Repeat("k", durable.MaxKeyBytes+1), "fp", "o", 0)
			return err
		}()},
		{"fingerprint", func() error { _, err := e.s.Claim(ctx, "k", "\t", "o", 0); return err }()},
		{"ownerId", func() error { _, err := e.s.Claim(ctx, "k", "fp", "", 0); return err }()},
		{"lease", func() error { _, err := e.s.Claim(ctx, "k", "fp", "o", -time.Second); return err }()},
		{"fence.revision", func() error {
			_, err := e.s.Complete(ctx, "k", "o", durable.Fence{Incarnation: "i", Revision: 0}, nil)
			return err
		}()},
		{"fence.revision", func() error {
			_, err := e.s.Complete(ctx, "k", "o", durable.Fence{Incarnation: "i", Revision: -3}, nil)
			return err
		}()},
		{"fence.incarnation", func() error { _, err := e.s.Complete(ctx, "k", "o", durable.Fence{Revision: 1}, nil); return err }()},
		{"reason", func() error {
			_, err := e.s.Fail(ctx, "k", "o", durable.Fence{Incarnation: "i", Revision: 1}, " ", nil)
			return err
		}()},
		{"reason", func() error {
			_, err := e.s.MarkUnknown(ctx, "k", "o", durable.Fence{Incarnation: "i", Revision: 1}, "", nil)
			return err
		}()},
		{"reason", func() error {
			_, err := e.s.Fail(ctx, "k", "o", durable.Fence{Incarnation: "i", Revision: 1}, strings.Repeat("é", durable.MaxReasonRunes+1), nil)
			return err
		}()},
		{"result", func() error {
			_, err := e.s.Complete(ctx, "k", "o", durable.Fence{Incarnation: "i", Revision: 1}, json.RawMessage(`{"a":1,"a":2}`))
			return err
		}()},
		{"key", func() error { _, _, err := e.s.Get(ctx, ""); return err }()},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, "_", c.field), func(t *testing.T) { wantField(t, c.err, c.field) })
	}
	// A clock that returns the zero time is refused, not written.
	zero, err := durable.New(e.b, durable.Options{Clock: func() time.Time { return time.Time{} }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = zero.Claim(ctx, "k", "fp", "o", 0)
	wantField(t, err, "clock")
	if _, found, _ := e.s.Get(ctx, "k"); found {
		t.Fatal("a refused claim stored a record")
	}
	if _, err := durable.New(nil, durable.Options{}); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("New(nil) = %v", err)
	}
}

func testTampered(t *testing.T, nb func(t *testing.T) durable.Backend) {
	e := newEnv(t, nb, durable.Options{})
	rp, ok := e.b.(RawPutter)
	if !ok {
		t.Fatalf("backend %T does not implement durabletest.RawPutter", e.b)
	}
	ctx := e.ctx
	base := `"fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":1764460800000,"updatedAt":1764460800000,"leaseExpiresAt":1764460860000`
	cases := []struct{ name, raw, field string }{
		{"unknown member", `{"key":"K",` + base + `,"extra":1}`, "extra"},
		{"case-folded member", `{"key":"K",` + base + `,"Revision":1}`, "Revision"},
		{"revision as string", `{"key":"K","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":"1","state":"pending","createdAt":1,"updatedAt":1}`, "revision"},
		{"revision zero", `{"key":"K","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":0,"state":"pending","createdAt":1,"updatedAt":1}`, "revision"},
		{"revision fractional", `{"key":"K","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1.5,"state":"pending","createdAt":1,"updatedAt":1}`, "revision"},
		{"time overflow", `{"key":"K","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":1e999,"updatedAt":1}`, "createdAt"},
		{"unknown state", `{"key":"K","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"done","createdAt":1,"updatedAt":1}`, "state"},
		{"missing fingerprint", `{"key":"K","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":1,"updatedAt":1}`, "fingerprint"},
		{"null owner", `{"key":"K","fingerprint":"fp","ownerId":null,"incarnation":"i","revision":1,"state":"pending","createdAt":1,"updatedAt":1}`, "ownerId"},
		{"blank owner", `{"key":"K","fingerprint":"fp","ownerId":" ","incarnation":"i","revision":1,"state":"pending","createdAt":1,"updatedAt":1}`, "ownerId"},
		{"zero time", `{"key":"K","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":0,"updatedAt":1}`, "createdAt"},
		{"failed without reason", `{"key":"K","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":2,"state":"failed","createdAt":1,"updatedAt":1}`, "reason"},
		{"array", `[1,2]`, "record"},
		{"not json", `{"key":`, "record"},
		{"duplicate member", `{"key":"K","key":"K",` + base + `}`, "record"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := fmt.Sprintf("tampered/%02d", i)
			raw := strings.ReplaceAll(c.raw, `"K"`, fmt.Sprintf("%q", key))
			if err := rp.PutRaw(ctx, key, []byte(raw)); err != nil {
				t.Fatalf("PutRaw: %v", err)
			}
			_, _, err := e.s.Get(ctx, key)
			wantField(t, err, c.field)
			_, err = e.s.Claim(ctx, key, "fp", "o2", time.Second)
			wantField(t, err, c.field)
			_, err = e.s.Complete(ctx, key, "o", durable.Fence{Incarnation: "i", Revision: 1}, nil)
			wantField(t, err, c.field)
			_, err = e.s.ResolveUnknown(ctx, key, "r", durable.Fence{Incarnation: "i", Revision: 1}, durable.Resolution{State: durable.StateFailed, Reason: "x"})
			wantField(t, err, c.field)
			// Nothing rewrote it: it still fails the same way.
			_, _, err = e.s.Get(ctx, key)
			wantField(t, err, c.field)
		})
	}
	// A record stored under another key's name is refused too.
	other := `{"key":"elsewhere",` + base + `}`
	if err := rp.PutRaw(ctx, "tampered/moved", []byte(other)); err != nil {
		t.Fatal(err)
	}
	_, _, err := e.s.Get(ctx, "tampered/moved")
	wantField(t, err, "key")
	// Prune stops at a tampered record with the validation error rather than skipping it.
	_, err = e.s.Prune(ctx, e.clock.Now().Add(time.Hour))
	if !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("Prune over tampered records = %v, want ErrInvalid", err)
	}
}

// failingBackend fails the chosen operation with a driver-style error.
type failingBackend struct {
	durable.Backend
	op string
}

var errOutage = errors.New("connection refused")

func (f *failingBackend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	if f.op == "read" {
		return durable.Record{}, false, errOutage
	}
	return f.Backend.Read(ctx, key)
}

func (f *failingBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	if f.op == "compareAndSet" {
		return false, errOutage
	}
	return f.Backend.CompareAndSet(ctx, key, expected, next)
}

func (f *failingBackend) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	if f.op == "listPage" {
		return nil, "", errOutage
	}
	return f.Backend.ListPage(ctx, cursor, limit)
}

func testBackendFailure(t *testing.T, nb func(t *testing.T) durable.Backend) {
	b := nb(t)
	clock := NewClock(Epoch)
	good, _ := durable.New(b, durable.Options{Clock: clock.Now})
	ctx := context.Background()
	c, err := good.Claim(ctx, "fail/k", "fp", "alice", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"read", "compareAndSet", "listPage"} {
		t.Run(op, func(t *testing.T) {
			s, _ := durable.New(&failingBackend{Backend: b, op: op}, durable.Options{Clock: clock.Now})
			var errs []error
			if op != "listPage" {
				_, err := s.Claim(ctx, "fail/new", "fp", "bob", time.Minute)
				errs = append(errs, err)
				_, err = s.Complete(ctx, "fail/k", "alice", c.Fence, nil)
				errs = append(errs, err)
			} else {
				_, err := s.Prune(ctx, clock.Now())
				errs = append(errs, err)
			}
			if op == "read" {
				_, _, err := s.Get(ctx, "fail/k")
				errs = append(errs, err)
			}
			for i, err := range errs {
				if !errors.Is(err, durable.ErrBackend) || !durable.Retryable(err) {
					t.Fatalf("call %d: error = %v, want retryable ErrBackend", i, err)
				}
				if errors.Is(err, errOutage) {
					t.Fatalf("call %d: driver error leaked through errors.Is", i)
				}
			}
		})
	}
	// A cancelled context reaches the real backend and comes back as ErrBackend too.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = good.Claim(cctx, "fail/cancelled", "fp", "bob", time.Minute)
	if !errors.Is(err, durable.ErrBackend) || !errors.Is(err, context.Canceled) {
		t.Fatalf("claim with cancelled context = %v, want ErrBackend and context.Canceled", err)
	}
	if _, found, _ := good.Get(ctx, "fail/cancelled"); found {
		t.Fatal("cancelled claim stored a record")
	}
	// The record the failures touched is intact.
	cur, found, err := good.Get(ctx, "fail/k")
	if err != nil || !found || cur.Fence() != c.Fence || cur.State != durable.StatePending {
		t.Fatalf("record after failures = %+v, %v, %v", cur, found, err)
	}
}

func testConcurrent(t *testing.T, nb func(t *testing.T) durable.Backend) {
	e := newEnv(t, nb, durable.Options{})
	const workers = 12
	for round := 0; round < 3; round++ {
		key := fmt.Sprintf("concurrent/%d", round)
		results := make([]durable.Claim, workers)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < workers; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				results[i], errs[i] = e.s.Claim(e.ctx, key, "fp", fmt.Sprintf("owner-%d", i), time.Minute)
			}(i)
		}
		close(start)
		wg.Wait()
		owners := 0
		var fence durable.Fence
		var owner string
		for i := range results {
			if errs[i] != nil {
				t.Fatalf("round %d worker %d: %v", round, i, errs[i])
			}
			switch results[i].Outcome {
			case durable.ClaimOwner:
				owners++
				fence, owner = results[i].Fence, results[i].Record.OwnerID
			case durable.ClaimPending:
			default:
				t.Fatalf("round %d worker %d: outcome %q", round, i, results[i].Outcome)
			}
		}
		if owners != 1 {
			t.Fatalf("round %d: %d owners, want exactly 1", round, owners)
		}
		// Half complete concurrently with a second wave of claimers: replay or pending only.
		var wg2 sync.WaitGroup
		second := make([]durable.Claim, workers)
		errs2 := make([]error, workers)
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			if _, err := e.s.Complete(e.ctx, key, owner, fence, json.RawMessage(`"done"`)); err != nil {
				t.Errorf("Complete: %v", err)
			}
		}()
		for i := 0; i < workers; i++ {
			wg2.Add(1)
			go func(i int) {
				defer wg2.Done()
				second[i], errs2[i] = e.s.Claim(e.ctx, key, "fp", fmt.Sprintf("late-%d", i), time.Minute)
			}(i)
		}
		wg2.Wait()
		for i := range second {
			if errs2[i] != nil {
				t.Fatalf("late worker %d: %v", i, errs2[i])
			}
			if o := second[i].Outcome; o != durable.ClaimReplay && o != durable.ClaimPending {
				t.Fatalf("late worker %d: outcome %q", i, o)
			}
		}
		if c := e.claim(key, "fp", "after", time.Minute); c.Outcome != durable.ClaimReplay || string(c.Record.Result) != `"done"` {
			t.Fatalf("after completion: %+v", c)
		}
	}
}

func testConcurrentTakeover(t *testing.T, nb func(t *testing.T) durable.Backend) {
	e := newEnv(t, nb, durable.Options{})
	const workers = 12
	for round := 0; round < 3; round++ {
		key := fmt.Sprintf("takeover/%d", round)
		first := e.claim(key, "fp", "first", time.Second)
		e.clock.Advance(time.Second)
		results := make([]durable.Claim, workers)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < workers; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				results[i], errs[i] = e.s.Claim(e.ctx, key, "fp", fmt.Sprintf("taker-%d", i), time.Minute)
			}(i)
		}
		close(start)
		wg.Wait()
		owners := 0
		for i, c := range results {
			if errs[i] != nil {
				t.Fatalf("round %d taker %d: %v", round, i, errs[i])
			}
			switch c.Outcome {
			case durable.ClaimOwner:
				owners++
				if !c.TookOver || c.Fence.Revision != 2 || c.Fence.Incarnation != first.Fence.Incarnation {
					t.Fatalf("round %d: takeover claim %+v", round, c)
				}
			case durable.ClaimPending:
			default:
				t.Fatalf("round %d taker %d: outcome %q", round, i, c.Outcome)
			}
		}
		if owners != 1 {
			t.Fatalf("round %d: %d owners after racing takeovers, want 1", round, owners)
		}
	}
}

func testConcurrentTransitions(t *testing.T, nb func(t *testing.T) durable.Backend) {
	e := newEnv(t, nb, durable.Options{})
	const workers = 12
	for round := 0; round < 3; round++ {
		key := fmt.Sprintf("transitions/%d", round)
		c := e.claim(key, "fp", "owner", time.Minute)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < workers; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				if i%2 == 0 {
					_, errs[i] = e.s.Complete(e.ctx, key, "owner", c.Fence, json.RawMessage(fmt.Sprint(i)))
				} else {
					_, errs[i] = e.s.MarkUnknown(e.ctx, key, "owner", c.Fence, fmt.Sprint("worker ", i), nil)
				}
			}(i)
		}
		close(start)
		wg.Wait()
		wins := 0
		for i, err := range errs {
			switch {
			case err == nil:
				wins++
			case errors.Is(err, durable.ErrFenceChanged), errors.Is(err, durable.ErrStaleFence), errors.Is(err, durable.ErrNotPending):
			default:
				t.Fatalf("round %d worker %d: %v", round, i, err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d transitions succeeded with one fence, want 1", round, wins)
		}
		got, _, err := e.s.Get(e.ctx, key)
		if err != nil || got.Revision != 2 || got.State == durable.StatePending {
			t.Fatalf("round %d: record after the race %+v, %v", round, got, err)
		}
	}
}
