package durable

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Store defaults and limits (REFERENCE §6.3).
const (
	// MaxClaimAttempts is how many compare-and-sets Claim tries before ErrContention.
	MaxClaimAttempts = 8
	// DefaultLease is the claim lease used when a caller passes 0.
	DefaultLease = 30 * time.Second
	// DefaultPrunePageSize is Options.PrunePageSize's default (records per ListPage call).
	DefaultPrunePageSize = 500
	// DefaultPrunePageCap is Options.PrunePageCap's default (ListPage calls per Prune).
	DefaultPrunePageCap = 1000
)

// Clock returns the current time. Store reads it once per operation.
type Clock func() time.Time

// Options configure a Store. The zero value is usable.
type Options struct {
	// Clock defaults to time.Now.
	Clock Clock
	// PrunePageSize is the ListPage limit used by Prune: 1..MaxListLimit, default 500.
	PrunePageSize int
	// PrunePageCap is the most ListPage calls one Prune may make; default 1,000. Exceeding it
	// is ErrPageCap.
	PrunePageCap int
	// NewIncarnation returns a fresh incarnation id; defaults to 128 random bits (crypto/rand)
	// in hex. Tests may replace it; it must never repeat for one key.
	NewIncarnation func() (string, error)
}

// Store is the fenced durable-operation store (REFERENCE §6.3, SPEC §2.5) over a Backend.
// Safe for concurrent use; immutable once built.
type Store struct {
	b        Backend
	now      Clock
	pageSize int
	pageCap  int
	newInc   func() (string, error)
}

// New returns a Store over b.
//
// # Errors
//   - *ValidationError: b is nil ("backend"), PrunePageSize outside 0..MaxListLimit or
//     PrunePageCap negative.
func New(b Backend, opts Options) (*Store, error) {
	if b == nil {
		return nil, invalid("backend", "must not be nil")
	}
	s := &Store{b: b, now: opts.Clock, pageSize: opts.PrunePageSize, pageCap: opts.PrunePageCap, newInc: opts.NewIncarnation}
	if s.now == nil {
		s.now = time.Now
	}
	if s.pageSize == 0 {
		s.pageSize = DefaultPrunePageSize
	}
	if s.pageSize < 1 || s.pageSize > MaxListLimit {
		return nil, invalid("prunePageSize", "must be 1..%d, got %d", MaxListLimit, opts.PrunePageSize)
	}
	if s.pageCap == 0 {
		s.pageCap = DefaultPrunePageCap
	}
	if s.pageCap < 1 {
		return nil, invalid("prunePageCap", "must be positive, got %d", opts.PrunePageCap)
	}
	if s.newInc == nil {
		s.newInc = randomIncarnation
	}
	return s, nil
}

func randomIncarnation() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// Backend returns the store's backend.
func (s *Store) Backend() Backend { return s.b }

func (s *Store) nowMs() (int64, error) {
	t := s.now()
	if t.IsZero() || t.UnixMilli() <= 0 {
		return 0, invalid("clock", "returned a time not after 1970-01-01 (%v)", t)
	}
	return t.UnixMilli(), nil
}

func (s *Store) read(ctx context.Context, key string) (Record, bool, error) {
	rec, found, err := s.b.Read(ctx, key)
	if err != nil {
		return Record{}, false, backendErr("read", key, err)
	}
	if !found {
		return Record{}, false, nil
	}
	if err := checkStored(key, rec); err != nil {
		return Record{}, false, err
	}
	return rec, true, nil
}

// checkStored is what every record read from the backend must pass: it is the record of key
// and it validates.
func checkStored(key string, rec Record) error {
	if rec.Key != key {
		return &ValidationError{Key: key, Field: "key", Reason: fmt.Sprintf("backend returned the record of %q", rec.Key)}
	}
	return rec.Validate()
}

// update runs decide in one Updater step (u is s.b's Updater). decide sees only records that
// passed checkStored; next is validated before it is written. A *ValidationError or an error
// decide returned comes back as is; any other failure is ErrBackend for op.
func (s *Store) update(ctx context.Context, u Updater, op, key string, decide func(cur Record, found bool) (*Record, error)) error {
	var decided error
	err := u.Update(ctx, key, func(cur Record, found bool) (*Record, error) {
		if found {
			if err := checkStored(key, cur); err != nil {
				decided = err
				return nil, err
			}
		}
		next, err := decide(cur, found)
		if err == nil && next != nil {
			err = next.Validate()
		}
		decided = err
		return next, err
	})
	if err == nil {
		return nil
	}
	if decided != nil && errors.Is(err, decided) {
		return decided
	}
	return backendErr(op, key, err)
}

func (s *Store) cas(ctx context.Context, key string, expected *Fence, next *Record) (bool, error) {
	if next != nil {
		if err := next.Validate(); err != nil {
			return false, err
		}
	}
	ok, err := s.b.CompareAndSet(ctx, key, expected, next)
	if err != nil {
		return false, backendErr("compareAndSet", key, err)
	}
	return ok, nil
}

// Get returns the record under key, or found == false.
//
// # Errors
//   - *ValidationError: blank key; the stored record does not decode or validate (tampered or
//     from another version), naming the field.
//   - ErrBackend (retryable): the backend failed.
func (s *Store) Get(ctx context.Context, key string) (rec Record, found bool, err error) {
	if err := checkText("key", key, true, MaxKeyBytes); err != nil {
		return Record{}, false, err
	}
	return s.read(ensureCtx(ctx), key)
}

// ClaimOutcome is the result kind of Claim (REFERENCE §6.3).
type ClaimOutcome string

// Claim outcomes.
const (
	// ClaimOwner: the caller owns the pending record (new key, or takeover of an expired lease)
	// and must finish it with Complete, Fail or MarkUnknown presenting Claim.Fence.
	ClaimOwner ClaimOutcome = "owner"
	// ClaimReplay: the record is completed or failed with the same fingerprint; replay it.
	ClaimReplay ClaimOutcome = "replay"
	// ClaimPending: another claim holds a live lease (leaseExpiresAt > now), or the caller's own.
	ClaimPending ClaimOutcome = "pending"
	// ClaimConflict: the key exists with a different fingerprint.
	ClaimConflict ClaimOutcome = "conflict"
	// ClaimUnknown: the record is in state unknown and must be reconciled first.
	ClaimUnknown ClaimOutcome = "unknown"
)

// Claim is what Store.Claim returns: the outcome, the record as observed or written, and its
// fence (present for every outcome, SPEC §2.5). TookOver is true when an owner claim replaced an
// expired lease of another (or the same) owner.
type Claim struct {
	Outcome  ClaimOutcome
	Record   Record
	Fence    Fence
	TookOver bool
}

// Claim claims key for ownerID with the given fingerprint and lease (0 = DefaultLease):
//   - no record → insert pending, revision 1, a new incarnation, lease now+lease → owner;
//   - fingerprint differs → conflict; state unknown → unknown; completed/failed → replay;
//   - pending with leaseExpiresAt > now → pending; pending with an expired lease (≤ now) →
//     takeover: ownerId replaced, revision+1, new lease, same incarnation → owner.
//
// Each step is read + compare-and-set, retried up to MaxClaimAttempts times when a concurrent
// writer wins; over a backend with Updater it is one Update, which cannot lose (no retries, no
// ErrContention).
//
// # Errors
//   - *ValidationError: blank key/fingerprint/ownerId, negative lease, a stored record that
//     fails to decode (field named).
//   - ErrContention (retryable): MaxClaimAttempts compare-and-sets lost in a row.
//   - ErrBackend (retryable): the backend failed; nothing may be assumed about the key.
func (s *Store) Claim(ctx context.Context, key, fingerprint, ownerID string, lease time.Duration) (Claim, error) {
	ctx = ensureCtx(ctx)
	if err := checkText("key", key, true, MaxKeyBytes); err != nil {
		return Claim{}, err
	}
	if err := checkText("fingerprint", fingerprint, true, MaxIDBytes); err != nil {
		return Claim{}, err
	}
	if err := checkText("ownerId", ownerID, true, MaxIDBytes); err != nil {
		return Claim{}, err
	}
	if lease < 0 {
		return Claim{}, invalid("lease", "must not be negative, got %v", lease)
	}
	if lease == 0 {
		lease = DefaultLease
	}
	leaseMs := lease.Milliseconds()
	if leaseMs < 1 {
		leaseMs = 1
	}
	if u, ok := s.b.(Updater); ok {
		now, err := s.nowMs()
		if err != nil {
			return Claim{}, err
		}
		var out Claim
		err = s.update(ctx, u, "claim", key, func(cur Record, found bool) (*Record, error) {
			if !found {
				inc, err := s.newInc()
				if err != nil {
					return nil, BackendFailure("incarnation", err)
				}
				next := Record{
					Key: key, Fingerprint: fingerprint, OwnerID: ownerID, Incarnation: inc, Revision: 1,
					State: StatePending, CreatedAt: now, UpdatedAt: now, LeaseExpiresAt: now + leaseMs,
				}
				out = Claim{Outcome: ClaimOwner, Record: next, Fence: next.Fence()}
				return &next, nil
			}
			var next *Record
			out, next = claimStep(cur, fingerprint, ownerID, now, leaseMs)
			return next, nil
		})
		if err != nil {
			return Claim{}, err
		}
		return out, nil
	}
	for attempt := 0; attempt < MaxClaimAttempts; attempt++ {
		now, err := s.nowMs()
		if err != nil {
			return Claim{}, err
		}
		cur, found, err := s.read(ctx, key)
		if err != nil {
			return Claim{}, err
		}
		if !found {
			inc, err := s.newInc()
			if err != nil {
				return Claim{}, BackendFailure("incarnation", err)
			}
			next := Record{
				Key: key, Fingerprint: fingerprint, OwnerID: ownerID, Incarnation: inc, Revision: 1,
				State: StatePending, CreatedAt: now, UpdatedAt: now, LeaseExpiresAt: now + leaseMs,
			}
			ok, err := s.cas(ctx, key, nil, &next)
			if err != nil {
				return Claim{}, err
			}
			if ok {
				return Claim{Outcome: ClaimOwner, Record: next, Fence: next.Fence()}, nil
			}
			continue
		}
		obs, next := claimStep(cur, fingerprint, ownerID, now, leaseMs)
		if next == nil {
			return obs, nil
		}
		expected := cur.Fence()
		ok, err := s.cas(ctx, key, &expected, next)
		if err != nil {
			return Claim{}, err
		}
		if ok {
			return obs, nil
		}
	}
	return Claim{}, fmt.Errorf("%w: operation %q after %d attempts", ErrContention, key, MaxClaimAttempts)
}

// claimStep decides a Claim on the existing record cur at now: conflict, unknown, replay or
// pending (next == nil, the observed record and its fence), or the takeover of an expired lease
// (next is the record to write; the returned Claim is the owner outcome with next's fence).
func claimStep(cur Record, fingerprint, ownerID string, now, leaseMs int64) (Claim, *Record) {
	obs := Claim{Record: cur, Fence: cur.Fence()}
	switch {
	case cur.Fingerprint != fingerprint:
		obs.Outcome = ClaimConflict
		return obs, nil
	case cur.State == StateUnknown:
		obs.Outcome = ClaimUnknown
		return obs, nil
	case cur.State.Terminal():
		obs.Outcome = ClaimReplay
		return obs, nil
	case cur.LeaseExpiresAt == 0 || cur.LeaseExpiresAt > now:
		obs.Outcome = ClaimPending
		return obs, nil
	}
	next := cur.Clone()
	next.OwnerID = ownerID
	next.Revision = cur.Revision + 1
	next.UpdatedAt = max(now, cur.CreatedAt)
	next.LeaseExpiresAt = now + leaseMs
	return Claim{Outcome: ClaimOwner, Record: next, Fence: next.Fence(), TookOver: true}, &next
}

// transition moves an owned pending record to a final state.
func (s *Store) transition(ctx context.Context, key, ownerID string, fence Fence, state State, result json.RawMessage, reason string) (Record, error) {
	return s.settle(ctx, key, "ownerId", ownerID, "caller", fence, result,
		func() error { return checkReason(reason, state != StateCompleted) },
		func(cur Record, now int64) error {
			if cur.OwnerID != ownerID {
				return fmt.Errorf("%w: operation %q", ErrNotOwner, key)
			}
			if cur.State != StatePending {
				return fmt.Errorf("%w: operation %q is %s", ErrNotPending, key, cur.State)
			}
			if cur.LeaseExpiresAt != 0 && cur.LeaseExpiresAt <= now {
				return fmt.Errorf("%w: operation %q lease ended at %d, now %d", ErrLeaseExpired, key, cur.LeaseExpiresAt, now)
			}
			return nil
		},
		func(next *Record, _ int64) { next.State, next.Reason = state, reason })
}

// settle is the one record transition of Complete, Fail, MarkUnknown and ResolveUnknown:
// validate key, actor (named actorField in errors) and fence, then the arguments (pre);
// compact the result; read the
// record (ErrNotFound), check the presented fence (ErrStaleFence, naming who presented it),
// run check (the transition's own preconditions; its error is returned with the current
// record), then write revision+1 with the result, no lease, updatedAt now and whatever apply
// sets, by compare-and-set on the fence (ErrFenceChanged when lost) — or all of it as one
// Update when the backend has Updater (then nothing can come between the check and the write).
func (s *Store) settle(ctx context.Context, key, actorField, actor, who string, fence Fence, result json.RawMessage,
	pre func() error, check func(cur Record, now int64) error, apply func(next *Record, now int64)) (Record, error) {
	ctx = ensureCtx(ctx)
	if err := checkText("key", key, true, MaxKeyBytes); err != nil {
		return Record{}, err
	}
	if err := checkText(actorField, actor, true, MaxIDBytes); err != nil {
		return Record{}, err
	}
	if err := checkFence(fence); err != nil {
		return Record{}, err
	}
	if err := pre(); err != nil {
		return Record{}, err
	}
	result, err := compactResult(result)
	if err != nil {
		return Record{}, err
	}
	now, err := s.nowMs()
	if err != nil {
		return Record{}, err
	}
	// step checks the record found under key and builds the one to write; on a failed check it
	// returns the record as found with the error.
	step := func(cur Record, found bool) (Record, *Record, error) {
		if !found {
			return Record{}, nil, fmt.Errorf("%w: %q", ErrNotFound, key)
		}
		if cur.Fence() != fence {
			return cur, nil, fmt.Errorf("%w: operation %q is at %s/%d, %s presented %s/%d",
				ErrStaleFence, key, cur.Incarnation, cur.Revision, who, fence.Incarnation, fence.Revision)
		}
		if err := check(cur, now); err != nil {
			return cur, nil, err
		}
		next := cur.Clone()
		next.Revision = cur.Revision + 1
		next.Result = result
		next.LeaseExpiresAt = 0
		next.UpdatedAt = max(now, cur.CreatedAt)
		apply(&next, now)
		return cur, &next, nil
	}
	if u, ok := s.b.(Updater); ok {
		var seen, written Record
		err := s.update(ctx, u, "settle", key, func(cur Record, found bool) (*Record, error) {
			c, next, err := step(cur, found)
			seen = c
			if next != nil {
				written = *next
			}
			return next, err
		})
		if err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) || errors.Is(err, ErrBackend) {
				return Record{}, err
			}
			return seen, err
		}
		return written, nil
	}
	cur, found, err := s.read(ctx, key)
	if err != nil {
		return Record{}, err
	}
	cur, next, err := step(cur, found)
	if err != nil {
		return cur, err
	}
	ok, err := s.cas(ctx, key, &fence, next)
	if err != nil {
		return Record{}, err
	}
	if !ok {
		return Record{}, fmt.Errorf("%w: operation %q", ErrFenceChanged, key)
	}
	return *next, nil
}

func compactResult(raw json.RawMessage) (json.RawMessage, error) {
	if raw == nil {
		return nil, nil
	}
	if err := checkResult(raw); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, invalid("result", "%v", err)
	}
	return buf.Bytes(), nil
}

// Complete records a successful execution: pending → completed with result (any JSON value, or
// nil), lease cleared, revision+1. The caller must own the record, present its current fence and
// still hold a live lease.
//
// # Errors
//   - *ValidationError: blank key/ownerId, bad fence, result not one JSON value.
//   - ErrNotFound; ErrStaleFence (the fence is not current); ErrNotOwner; ErrNotPending;
//     ErrLeaseExpired (leaseExpiresAt ≤ now); ErrFenceChanged (a concurrent writer won the
//     compare-and-set after the fence was checked); ErrBackend (retryable).
func (s *Store) Complete(ctx context.Context, key, ownerID string, fence Fence, result json.RawMessage) (Record, error) {
	return s.transition(ctx, key, ownerID, fence, StateCompleted, result, "")
}

// Fail records a confirmed failure: pending → failed with a non-blank reason (≤ MaxReasonRunes)
// and an optional result. Errors as Complete, plus a *ValidationError for a blank reason.
func (s *Store) Fail(ctx context.Context, key, ownerID string, fence Fence, reason string, result json.RawMessage) (Record, error) {
	return s.transition(ctx, key, ownerID, fence, StateFailed, result, reason)
}

// MarkUnknown records an ambiguous outcome (the side effect may or may not have happened):
// pending → unknown with a non-blank reason and an optional diagnostic result. The key then
// answers ClaimUnknown until ResolveUnknown. Errors as Fail.
func (s *Store) MarkUnknown(ctx context.Context, key, ownerID string, fence Fence, reason string, result json.RawMessage) (Record, error) {
	return s.transition(ctx, key, ownerID, fence, StateUnknown, result, reason)
}

// Abandon records that the owner of a pending claim is gone before it finished: pending →
// unknown with a non-blank reason, whoever owns the claim and whether or not its lease ended,
// revision+1, lease cleared. The side effect may or may not have happened, so the key then
// answers ClaimUnknown until ResolveUnknown, like after MarkUnknown. expected must be the fence
// observed in state pending.
//
// Only a caller that knows the owner cannot still run may abandon its claim: it holds the
// exclusive lock every owner needs to run (the browser's workspace Web Lock is held for a
// page's life and released when the page dies). Anyone else waits for the lease to end and
// takes the claim over with Claim.
//
// # Errors
//   - *ValidationError: blank key/reconcilerId, bad fence, blank reason.
//   - ErrNotFound; ErrStaleFence; ErrNotPending (the record is not pending); ErrFenceChanged
//     (lost the compare-and-set); ErrBackend (retryable).
func (s *Store) Abandon(ctx context.Context, key, reconcilerID string, expected Fence, reason string) (Record, error) {
	return s.settle(ctx, key, "reconcilerId", reconcilerID, "reconciler", expected, nil,
		func() error { return checkReason(reason, true) },
		func(cur Record, _ int64) error {
			if cur.State != StatePending {
				return fmt.Errorf("%w: operation %q is %s", ErrNotPending, key, cur.State)
			}
			return nil
		},
		func(next *Record, _ int64) { next.State, next.Reason = StateUnknown, reason })
}

// Resolution is a reconciler's verdict on an unknown operation: State completed (Result
// required) or failed (Reason required, Result optional).
type Resolution struct {
	State  State
	Result json.RawMessage
	Reason string
}

// ResolveUnknown settles an unknown record after out-of-band reconciliation: unknown →
// completed|failed, revision+1, reconciledBy = reconcilerID, reconciledAt = now. expected must
// be the fence observed in state unknown.
//
// # Errors
//   - *ValidationError: blank key/reconcilerId, bad fence, a resolution state other than
//     completed/failed ("resolution.state"), completed without result ("resolution.result"),
//     failed without reason ("reason").
//   - ErrNotFound; ErrStaleFence; ErrNotUnknown (the record is not in state unknown);
//     ErrFenceChanged (lost the compare-and-set); ErrBackend (retryable).
func (s *Store) ResolveUnknown(ctx context.Context, key, reconcilerID string, expected Fence, res Resolution) (Record, error) {
	pre := func() error {
		switch res.State {
		case StateCompleted:
			if res.Result == nil {
				return invalid("resolution.result", "is required to resolve as completed")
			}
			if res.Reason != "" {
				return checkReason(res.Reason, false)
			}
			return nil
		case StateFailed:
			return checkReason(res.Reason, true)
		}
		return invalid("resolution.state", "must be completed or failed, got %q", string(res.State))
	}
	return s.settle(ctx, key, "reconcilerId", reconcilerID, "reconciler", expected, res.Result, pre,
		func(cur Record, _ int64) error {
			if cur.State != StateUnknown {
				return fmt.Errorf("%w: operation %q is %s", ErrNotUnknown, key, cur.State)
			}
			return nil
		},
		func(next *Record, now int64) {
			next.State, next.Reason = res.State, res.Reason
			next.ReconciledBy, next.ReconciledAt = reconcilerID, now
		})
}

// PruneReport counts what one Prune did.
type PruneReport struct {
	Pages   int // ListPage calls
	Scanned int // records seen
	Deleted int // terminal records deleted
	Skipped int // eligible records changed concurrently (their delete lost the compare-and-set)
}

// Prune deletes terminal (completed or failed) records whose updatedAt is before `before`
// (typically now − retention), walking the backend with keyset ListPage pages of
// Options.PrunePageSize, at most Options.PrunePageCap pages. Each delete is a compare-and-set on
// the record's fence, so a record that changes meanwhile is skipped, not deleted. Pending and
// unknown records are never pruned.
//
// # Errors
//   - *ValidationError: a zero `before`; a listed record that does not decode (field named;
//     Prune stops there rather than skip or rewrite it).
//   - ErrCursorStalled: the backend returned a next cursor that is not after the previous one,
//     an empty page with a next cursor, keys out of order, or more records than asked for.
//   - ErrPageCap: more than PrunePageCap pages. ErrBackend (retryable): the backend failed.
//
// The report counts the work done up to the error.
func (s *Store) Prune(ctx context.Context, before time.Time) (PruneReport, error) {
	ctx = ensureCtx(ctx)
	var rep PruneReport
	if before.IsZero() {
		return rep, invalid("before", "must not be the zero time")
	}
	cut := before.UnixMilli()
	cursor := ""
	for {
		if rep.Pages >= s.pageCap {
			return rep, fmt.Errorf("%w: %d pages", ErrPageCap, s.pageCap)
		}
		recs, next, err := s.b.ListPage(ctx, cursor, s.pageSize)
		rep.Pages++
		if err != nil {
			return rep, backendErr("listPage", "", err)
		}
		if len(recs) > s.pageSize {
			return rep, fmt.Errorf("%w: backend returned %d records for a page of %d", ErrCursorStalled, len(recs), s.pageSize)
		}
		prev := cursor
		for i := range recs {
			r := recs[i]
			if err := r.Validate(); err != nil {
				return rep, err
			}
			if r.Key <= prev {
				return rep, fmt.Errorf("%w: key %q listed after %q", ErrCursorStalled, r.Key, prev)
			}
			prev = r.Key
			rep.Scanned++
			if !r.State.Terminal() || r.UpdatedAt >= cut {
				continue
			}
			f := r.Fence()
			ok, err := s.cas(ctx, r.Key, &f, nil)
			if err != nil {
				return rep, err
			}
			if ok {
				rep.Deleted++
			} else {
				rep.Skipped++
			}
		}
		if next == "" {
			return rep, nil
		}
		if len(recs) == 0 || next != prev {
			return rep, fmt.Errorf("%w: next cursor %q after cursor %q (last key %q)", ErrCursorStalled, next, cursor, prev)
		}
		cursor = next
	}
}
