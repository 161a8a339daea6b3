//go:build js && wasm

package idb

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"
	"github.com/webcoding/studio/wasm/durable"
)

// DurableName is the database of the browser's durable operation records (issue 5,
// REFERENCE §6.2): "web-coding-operations", version 1.
const DurableName = "web-coding-operations"

// Layout of the operations database (see Durable).
const (
	durableStore   = "operations"
	durableVersion = 1
	durableKeyPath = "key"
	durableRecord  = "record"
)

// Durable is the durable.Backend over IndexedDB (REFERENCE §6.2, SPEC §2.5): the browser's
// store of fenced operation records.
//
// # Layout (database DurableName unless another name is given, version 1)
//
// One object store "operations" with keyPath "key". Each value is
// {key: Uint8Array, record: string}: key holds the UTF-8 bytes of the operation key, so that
// IndexedDB's byte-wise order of binary keys is exactly the contract's byte-wise key order
// (string keys would compare by UTF-16 code units, which differs from byte order beyond
// U+FFFF); record is the JSON text of durable.EncodeRecord and is read back with the strict
// durable.DecodeRecord (a value that is not such a string is a *durable.ValidationError on
// field "record").
//
// # Transactions
//
// Read is one readonly transaction. Update (durable.Updater, what durable.Store uses for Claim
// and every transition) is ONE readwrite transaction: get, decode, the store's decision, then
// put, completed before it returns. CompareAndSet is ONE readwrite transaction: get, compare
// the stored fence (read from the stored JSON with durable.LooseFence), then put or delete,
// awaiting nothing but its own IndexedDB requests in between (PLATFORM rule 3); a success is
// reported only after the transaction's complete event. IndexedDB serializes readwrite
// transactions over the same store across goroutines, pages and workers of the origin, which
// is what makes the compare-and-set atomic. ListPage is one readonly cursor over
// IDBKeyRange.lowerBound(cursor, open) that stops after limit+1 records.
//
// # Errors
//
// Every IndexedDB failure (no indexedDB in the page, open blocked or failed, a transaction
// that aborts, a quota error, a panic from a JS call, a cancelled or expired context) is a
// *durable.BackendError, which matches durable.ErrBackend. A stored record that does not
// decode is the *durable.ValidationError from durable.DecodeRecord.
//
// Calls block their goroutine until IndexedDB answers: call them from a goroutine, never from
// a js.FuncOf callback (PLATFORM rule 1). Durable is safe for concurrent use; calls are not
// serialized (IndexedDB orders the transactions).
type Durable struct {
	name string

	mu sync.Mutex
	db *idb.Database
}

var (
	_ durable.Backend = (*Durable)(nil)
	_ durable.Updater = (*Durable)(nil)
)

// OpenDurable opens (creating or upgrading when needed) the operations database name
// ("" → DurableName) and returns its backend.
//
// Errors: a *durable.BackendError (ErrBackend) when IndexedDB is missing, the open is blocked
// or fails, or ctx ends first.
func OpenDurable(ctx context.Context, name string) (*Durable, error) {
	if name == "" {
		name = DurableName
	}
	d := &Durable{name: name}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.openLocked(ctx); err != nil {
		return nil, durable.BackendFailure("open", err)
	}
	return d, nil
}

// Name returns the database name.
func (d *Durable) Name() string { return d.name }

// Close closes the connection. A later call reopens it.
func (d *Durable) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.db == nil {
		return nil
	}
	db := d.db
	d.db = nil
	if err := db.Close(); err != nil {
		return durable.BackendFailure("close", err)
	}
	return nil
}

// openLocked returns the connection, opening it when needed. Callers hold d.mu.
func (d *Durable) openLocked(ctx context.Context) (db *idb.Database, err error) {
	if d.db != nil {
		return d.db, nil
	}
	defer recoverBackend(&err, "open")
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, err := indexedDBFactory()
	if err != nil {
		return nil, err
	}
	f, err := idb.WrapFactory(g)
	if err != nil {
		return nil, err
	}
	req, err := f.Open(ctx, d.name, durableVersion, func(db *idb.Database, oldVersion, newVersion uint) error {
		names, err := db.ObjectStoreNames()
		if err != nil {
			return err
		}
		for _, n := range names {
			if n == durableStore {
				return nil
			}
		}
		_, err = db.CreateObjectStore(durableStore, idb.ObjectStoreOptions{KeyPath: js.ValueOf(durableKeyPath)})
		return err
	})
	if err != nil {
		return nil, err
	}
	db, err = req.Await(ctx)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	d.db = db
	return db, nil
}

// txn starts a transaction over the operations store.
func (d *Durable) txn(ctx context.Context, mode idb.TransactionMode) (*idb.Transaction, *idb.ObjectStore, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	db, err := d.openLocked(ctx)
	if err != nil {
		return nil, nil, err
	}
	t, err := db.Transaction(mode, durableStore)
	if err != nil {
		// The connection was closed under us (go-indexeddb closes it on a versionchange, e.g.
		// another page deleting or upgrading the database): reopen once and retry.
		d.db = nil
		if db, err = d.openLocked(ctx); err != nil {
			return nil, nil, err
		}
		if t, err = db.Transaction(mode, durableStore); err != nil {
			d.db = nil
			return nil, nil, err
		}
	}
	st, err := t.ObjectStore(durableStore)
	if err != nil {
		return nil, nil, err
	}
	return t, st, nil
}

// await waits for req and turns a context that ended meanwhile into an error (go-indexeddb's
// Await returns a zero value and no error when its context ends first).
func await(ctx context.Context, req *idb.Request) (js.Value, error) {
	v, err := req.Await(ctx)
	if err == nil {
		err = ctx.Err()
	}
	return v, err
}

// JavaScript constructors, looked up once.
var (
	jsUint8Array = js.Global().Get("Uint8Array")
	jsObject     = js.Global().Get("Object")
)

// keyValue is the IndexedDB key of an operation key: its UTF-8 bytes.
func keyValue(key string) js.Value {
	a := jsUint8Array.New(len(key))
	js.CopyBytesToJS(a, []byte(key))
	return a
}

// storedValue builds the stored object {key, record}.
func storedValue(key string, raw []byte) js.Value {
	o := jsObject.New()
	o.Set(durableKeyPath, keyValue(key))
	o.Set(durableRecord, string(raw))
	return o
}

// storedRaw returns the record JSON of a stored value, or a *durable.ValidationError on
// "record" when the value is not {record: string}.
func storedRaw(v js.Value) ([]byte, error) {
	if v.Type() != js.TypeObject {
		return nil, &durable.ValidationError{Field: durableRecord, Reason: "stored value is not an object"}
	}
	r := v.Get(durableRecord)
	if r.Type() != js.TypeString {
		return nil, &durable.ValidationError{Field: durableRecord, Reason: "stored value has no JSON text"}
	}
	return []byte(r.String()), nil
}

func present(v js.Value) bool { return !v.IsUndefined() && !v.IsNull() }

// Read implements durable.Backend with one readonly transaction.
func (d *Durable) Read(ctx context.Context, key string) (rec durable.Record, found bool, err error) {
	defer recoverBackend(&err, "read")
	if err := ctx.Err(); err != nil {
		return rec, false, durable.BackendFailure("read", err)
	}
	_, st, err := d.txn(ctx, idb.TransactionReadOnly)
	if err != nil {
		return rec, false, durable.BackendFailure("read", err)
	}
	req, err := st.Get(keyValue(key))
	if err != nil {
		return rec, false, durable.BackendFailure("read", err)
	}
	v, err := await(ctx, req)
	if err != nil {
		return rec, false, durable.BackendFailure("read", err)
	}
	if !present(v) {
		return rec, false, nil
	}
	raw, err := storedRaw(v)
	if err != nil {
		return rec, false, err
	}
	rec, err = durable.DecodeRecord(raw)
	if err != nil {
		return durable.Record{}, false, err
	}
	return rec, true, nil
}

// CompareAndSet implements durable.Backend as one readwrite transaction (get, compare, put or
// delete). It returns true only after the transaction committed. next must be valid and carry
// key (a *durable.ValidationError otherwise, before anything is touched).
func (d *Durable) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (ok bool, err error) {
	defer recoverBackend(&err, "compareAndSet")
	var raw []byte
	if next != nil {
		if next.Key != key {
			return false, &durable.ValidationError{Key: key, Field: "key", Reason: fmt.Sprintf("next record is for %q", next.Key)}
		}
		if raw, err = durable.EncodeRecord(*next); err != nil {
			return false, err
		}
	}
	if err := ctx.Err(); err != nil {
		return false, durable.BackendFailure("compareAndSet", err)
	}
	t, st, err := d.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return false, durable.BackendFailure("compareAndSet", err)
	}
	fail := func(err error) (bool, error) {
		_ = t.Abort()
		return false, durable.BackendFailure("compareAndSet", err)
	}
	k := keyValue(key)
	req, err := st.Get(k)
	if err != nil {
		return fail(err)
	}
	cur, err := await(ctx, req)
	if err != nil {
		return fail(err)
	}
	exists := present(cur)
	if expected == nil {
		if exists {
			return false, nil // nothing written; the transaction commits empty
		}
		if next == nil {
			return true, nil // delete of an absent key: already true
		}
	} else {
		if !exists {
			return false, nil
		}
		stored, err := storedRaw(cur)
		if err != nil || durable.LooseFence(stored) != *expected {
			return false, nil // a value without a readable fence matches no fence
		}
	}
	if next == nil {
		if _, err := st.Delete(k); err != nil {
			return fail(err)
		}
	} else if _, err := st.Put(storedValue(key, raw)); err != nil {
		return fail(err)
	}
	_ = t.Commit()
	if err := t.Await(ctx); err != nil {
		return false, durable.BackendFailure("compareAndSet", err)
	}
	return true, nil
}

// Update implements durable.Updater as ONE readwrite transaction: get, decode, decide, then put
// what decide returned (or nothing), commit, and return after the transaction's complete event.
// decide runs between the get's success event and the put, inside the transaction (PLATFORM
// rule 3), so no other readwrite transaction on the store — of this page, another page or a
// worker — can come between the read and the write. A stored value that does not decode is
// DecodeRecord's *durable.ValidationError (the transaction is aborted, nothing written); decide's
// error is returned unchanged after aborting; every IndexedDB failure is a *durable.BackendError.
// next.Key must be key (a *durable.ValidationError otherwise, nothing written).
func (d *Durable) Update(ctx context.Context, key string, decide func(cur durable.Record, found bool) (*durable.Record, error)) (err error) {
	defer recoverBackend(&err, "update")
	if err := ctx.Err(); err != nil {
		return durable.BackendFailure("update", err)
	}
	t, st, err := d.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return durable.BackendFailure("update", err)
	}
	k := keyValue(key)
	req, err := st.Get(k)
	if err != nil {
		_ = t.Abort()
		return durable.BackendFailure("update", err)
	}
	v, err := await(ctx, req)
	if err != nil {
		_ = t.Abort()
		return durable.BackendFailure("update", err)
	}
	var cur durable.Record
	found := present(v)
	if found {
		raw, err := storedRaw(v)
		if err == nil {
			cur, err = durable.DecodeRecord(raw)
		}
		if err != nil {
			_ = t.Abort()
			return err
		}
	}
	next, err := decide(cur, found)
	if err == nil && next != nil && next.Key != key {
		err = &durable.ValidationError{Key: key, Field: "key", Reason: fmt.Sprintf("next record is for %q", next.Key)}
	}
	var raw []byte
	if err == nil && next != nil {
		raw, err = durable.EncodeRecord(*next)
	}
	if err != nil {
		_ = t.Abort()
		return err
	}
	if next == nil {
		_ = t.Commit()
		return nil // nothing written: the read-only outcome needs no complete event
	}
	if _, err := st.Put(storedValue(key, raw)); err != nil {
		_ = t.Abort()
		return durable.BackendFailure("update", err)
	}
	_ = t.Commit()
	if err := t.Await(ctx); err != nil {
		return durable.BackendFailure("update", err)
	}
	return nil
}

// ListPage implements durable.Backend: one readonly cursor over the keys strictly after
// cursor (IDBKeyRange.lowerBound(cursor, true); from the first key when cursor is ""), in
// byte-wise order, reading at most limit+1 records. limit is clamped to
// 1..durable.MaxListLimit.
func (d *Durable) ListPage(ctx context.Context, cursor string, limit int) (records []durable.Record, nextCursor string, err error) {
	defer recoverBackend(&err, "listPage")
	limit = min(max(limit, 1), durable.MaxListLimit)
	if err := ctx.Err(); err != nil {
		return nil, "", durable.BackendFailure("listPage", err)
	}
	_, st, err := d.txn(ctx, idb.TransactionReadOnly)
	if err != nil {
		return nil, "", durable.BackendFailure("listPage", err)
	}
	var req *idb.CursorWithValueRequest
	if cursor == "" {
		req, err = st.OpenCursor(idb.CursorNext)
	} else {
		var kr *idb.KeyRange
		if kr, err = idb.NewKeyRangeLowerBound(keyValue(cursor), true); err == nil {
			req, err = st.OpenCursorRange(kr, idb.CursorNext)
		}
	}
	if err != nil {
		return nil, "", durable.BackendFailure("listPage", err)
	}
	raws := make([][]byte, 0, min(limit+1, 64))
	var bad error
	more := false
	err = req.Iter(ctx, func(c *idb.CursorWithValue) error {
		if len(raws) == limit {
			more = true
			return idb.ErrCursorStopIter
		}
		v, err := c.Value()
		if err != nil {
			return err
		}
		raw, err := storedRaw(v)
		if err != nil {
			bad = err
			return idb.ErrCursorStopIter
		}
		raws = append(raws, raw)
		return nil
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, "", durable.BackendFailure("listPage", err)
	}
	if bad != nil {
		return nil, "", bad
	}
	return durable.DecodePage(raws, more, durable.DecodeRecord)
}

// PutRaw stores raw as the record JSON under key without validation or compare-and-set, in
// one readwrite transaction. It exists so that the contract suite (durabletest.RawPutter) can
// plant tampered records; production code never calls it.
func (d *Durable) PutRaw(ctx context.Context, key string, raw []byte) (err error) {
	defer recoverBackend(&err, "putRaw")
	t, st, err := d.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return durable.BackendFailure("putRaw", err)
	}
	if _, err := st.Put(storedValue(key, raw)); err != nil {
		_ = t.Abort()
		return durable.BackendFailure("putRaw", err)
	}
	if err := t.Await(ctx); err != nil {
		return durable.BackendFailure("putRaw", err)
	}
	return nil
}

// recoverBackend turns a panic from a JS call into a *durable.BackendError for op.
func recoverBackend(err *error, op string) {
	if v := recover(); v != nil {
		*err = durable.BackendFailure(op, fmt.Errorf("panic: %v", v))
	}
}
