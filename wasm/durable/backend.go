package durable

import "context"

// Backend is the storage port of the durable store (REFERENCE §6.2, fenced generation). The
// contract is durabletest.Run; memstore is the reference implementation.
//
// Concurrency: every method may be called from many goroutines (and, for shared servers, many
// processes) at once; CompareAndSet must be atomic against all of them.
//
// Errors: a record that does not decode is reported as the *ValidationError from DecodeRecord
// (never repaired, never skipped); every other failure should be a *BackendError
// (BackendFailure). Store wraps anything else as ErrBackend itself, so a backend can never make
// a failure look like "absent" or "lost the race".
type Backend interface {
	// Read returns the record stored under key, or found == false when there is none.
	Read(ctx context.Context, key string) (rec Record, found bool, err error)

	// CompareAndSet atomically replaces the record under key when its current state matches
	// expected, and reports whether it did:
	//   - expected == nil: succeed only if no record exists under key;
	//   - expected != nil: succeed only if a record exists and its fence equals *expected;
	//   - next != nil: store *next (next.Key == key; the caller has validated it);
	//   - next == nil: delete the record (and its index entry).
	// A false result with a nil error means "the expectation did not hold", nothing else.
	CompareAndSet(ctx context.Context, key string, expected *Fence, next *Record) (bool, error)

	// ListPage returns up to limit records (1 ≤ limit ≤ MaxListLimit) whose keys sort strictly
	// after cursor (byte-wise; "" = from the start), in ascending key order: a keyset page, so
	// deleting records from earlier pages never shifts later ones. nextCursor is the last
	// returned key when more records may follow, or "" when the listing is complete.
	ListPage(ctx context.Context, cursor string, limit int) (records []Record, nextCursor string, err error)
}

// MaxListLimit is the largest page a Backend must serve from one ListPage call.
const MaxListLimit = 1000

// DecodePage is the tail of a backend's ListPage: it decodes each stored item of one page into
// a Record with decode (DecodeRecord for raw record bytes), stopping at the first error, and
// when more records follow gives the page's last key as the next cursor ("" otherwise).
func DecodePage[T any](items []T, more bool, decode func(T) (Record, error)) ([]Record, string, error) {
	out := make([]Record, 0, len(items))
	for _, it := range items {
		rec, err := decode(it)
		if err != nil {
			return nil, "", err
		}
		out = append(out, rec)
	}
	next := ""
	if more && len(out) > 0 {
		next = out[len(out)-1].Key
	}
	return out, next, nil
}

// Updater is an optional Backend extension: one read-decide-write step on one key that no other
// writer can interleave with, so Store runs a Claim or a transition as ONE backend transaction
// instead of a Read followed by a CompareAndSet (issue 20: the IndexedDB backend then commits
// two readwrite transactions per claim+complete pair instead of two readonly and two readwrite).
// Store uses it when the backend has it; outcomes and errors are those of the Read +
// CompareAndSet path, except that a transition can no longer lose its compare-and-set
// (ErrFenceChanged, ErrContention): the fence check and the write are one atomic step.
//
// Update reads the record under key and calls decide once with it (found == false when there
// is none). A stored value that does not decode is returned as the *ValidationError of
// DecodeRecord without calling decide. When decide returns an error, nothing is written and
// Update returns that error unchanged; when it returns next == nil, nothing is written and
// Update returns nil; otherwise next (next.Key == key, validated by the caller) is stored, and
// Update returns nil only once the write is durable. Every other failure is a *BackendError;
// after one, decide's outcome must not be relied on (the write may not have happened).
//
// decide runs inside the backend's transaction: it must not block, wait or call the backend.
type Updater interface {
	Update(ctx context.Context, key string, decide func(cur Record, found bool) (next *Record, err error)) error
}
