//go:build js && wasm

package durableidb

// Throwaway A/B variants of one claim+complete pair for issue 20 (docs/performance.md
// "IndexedDB A/B (2026-12-06)"): the same four transactions written directly with syscall/js
// (rawBackend, through durable.Store exactly like idb.Durable), and the pair as two readwrite
// read-modify-write transactions (claim = get+put, complete = get+put) over go-indexeddb and
// over syscall/js. Used only by TestMeasure's durableMeasure(run, n, mode).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	goidb "github.com/hack-pad/go-indexeddb/idb"
	"github.com/webcoding/studio/wasm/durable"
)

var (
	abUint8Array = js.Global().Get("Uint8Array")
	abObject     = js.Global().Get("Object")
)

func abKey(key string) js.Value {
	a := abUint8Array.New(len(key))
	js.CopyBytesToJS(a, []byte(key))
	return a
}

func abStored(key string, raw []byte) js.Value {
	o := abObject.New()
	o.Set("key", abKey(key))
	o.Set("record", string(raw))
	return o
}

func abRaw(v js.Value) ([]byte, bool) {
	if v.Type() != js.TypeObject {
		return nil, false
	}
	r := v.Get("record")
	if r.Type() != js.TypeString {
		return nil, false
	}
	return []byte(r.String()), true
}

// rawAwait waits for one event of target among names (success/error, or complete/error/abort),
// with one js.Func set as the on<name> handler of each.
func rawAwait(target js.Value, names ...string) (string, error) {
	ch := make(chan string, 1)
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		select {
		case ch <- args[0].Get("type").String():
		default:
		}
		return nil
	})
	for _, n := range names {
		target.Set("on"+n, f)
	}
	ev := <-ch
	for _, n := range names {
		target.Set("on"+n, js.Null())
	}
	f.Release()
	if ev == "success" || ev == "complete" {
		return ev, nil
	}
	e := target.Get("error")
	if e.IsNull() || e.IsUndefined() {
		return ev, fmt.Errorf("%s event", ev)
	}
	return ev, js.Error{Value: e}
}

// rawBackend is durable.Backend over syscall/js with the same transactions as idb.Durable.
type rawBackend struct{ db js.Value }

func openRaw(name string) (*rawBackend, error) {
	req := js.Global().Get("indexedDB").Call("open", name, 1)
	up := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		if !db.Get("objectStoreNames").Call("contains", "operations").Bool() {
			opts := abObject.New()
			opts.Set("keyPath", "key")
			db.Call("createObjectStore", "operations", opts)
		}
		return nil
	})
	req.Set("onupgradeneeded", up)
	defer up.Release()
	if _, err := rawAwait(req, "success", "error"); err != nil {
		return nil, err
	}
	return &rawBackend{db: req.Get("result")}, nil
}

func (r *rawBackend) store(mode string) (js.Value, js.Value) {
	tx := r.db.Call("transaction", "operations", mode)
	return tx, tx.Call("objectStore", "operations")
}

func (r *rawBackend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	_, st := r.store("readonly")
	req := st.Call("get", abKey(key))
	if _, err := rawAwait(req, "success", "error"); err != nil {
		return durable.Record{}, false, durable.BackendFailure("read", err)
	}
	v := req.Get("result")
	if v.IsUndefined() || v.IsNull() {
		return durable.Record{}, false, nil
	}
	raw, ok := abRaw(v)
	if !ok {
		return durable.Record{}, false, &durable.ValidationError{Field: "record", Reason: "bad stored value"}
	}
	rec, err := durable.DecodeRecord(raw)
	return rec, err == nil, err
}

func (r *rawBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	var raw []byte
	if next != nil {
		var err error
		if raw, err = durable.EncodeRecord(*next); err != nil {
			return false, err
		}
	}
	tx, st := r.store("readwrite")
	k := abKey(key)
	req := st.Call("get", k)
	if _, err := rawAwait(req, "success", "error"); err != nil {
		return false, durable.BackendFailure("compareAndSet", err)
	}
	cur := req.Get("result")
	exists := !cur.IsUndefined() && !cur.IsNull()
	if expected == nil {
		if exists {
			return false, nil
		}
	} else {
		s, ok := abRaw(cur)
		if !exists || !ok || durable.LooseFence(s) != *expected {
			return false, nil
		}
	}
	if next == nil {
		st.Call("delete", k)
	} else {
		st.Call("put", abStored(key, raw))
	}
	tx.Call("commit")
	if _, err := rawAwait(tx, "complete", "error", "abort"); err != nil {
		return false, durable.BackendFailure("compareAndSet", err)
	}
	return true, nil
}

func (r *rawBackend) ListPage(context.Context, string, int) ([]durable.Record, string, error) {
	return nil, "", errors.New("rawBackend: ListPage not implemented")
}

// decideFunc gets the stored record JSON (found false when absent) and returns the JSON to put.
type decideFunc func(raw []byte, found bool) ([]byte, error)

// rmwRaw is one readwrite transaction over syscall/js: get, decide, put, commit, complete.
func rmwRaw(db js.Value, key string, decide decideFunc) error {
	tx := db.Call("transaction", "operations", "readwrite")
	st := tx.Call("objectStore", "operations")
	req := st.Call("get", abKey(key))
	if _, err := rawAwait(req, "success", "error"); err != nil {
		return err
	}
	cur := req.Get("result")
	raw, found := abRaw(cur)
	next, err := decide(raw, found)
	if err != nil {
		tx.Call("abort")
		return err
	}
	st.Call("put", abStored(key, next))
	tx.Call("commit")
	_, err = rawAwait(tx, "complete", "error", "abort")
	return err
}

// rmwGoIDB is the same transaction over go-indexeddb, written like idb.Durable.CompareAndSet.
func rmwGoIDB(ctx context.Context, db *goidb.Database, key string, decide decideFunc) error {
	t, err := db.Transaction(goidb.TransactionReadWrite, "operations")
	if err != nil {
		return err
	}
	st, err := t.ObjectStore("operations")
	if err != nil {
		return err
	}
	req, err := st.Get(abKey(key))
	if err != nil {
		return err
	}
	cur, err := req.Await(ctx)
	if err != nil {
		return err
	}
	raw, found := abRaw(cur)
	next, err := decide(raw, found)
	if err != nil {
		_ = t.Abort()
		return err
	}
	if _, err := st.Put(abStored(key, next)); err != nil {
		return err
	}
	_ = t.Commit()
	return t.Await(ctx)
}

func openGoIDB(ctx context.Context, name string) (*goidb.Database, error) {
	req, err := goidb.Global().Open(ctx, name, 1, func(*goidb.Database, uint, uint) error { return nil })
	if err != nil {
		return nil, err
	}
	return req.Await(ctx)
}

// onePair is claim+complete of a new key as two read-modify-write transactions carrying the
// same decisions and record checks as durable.Store (absent → pending revision 1; pending,
// same owner and fence, live lease → completed revision 2).
func onePair(key string, rmw func(key string, decide decideFunc) error) error {
	now := time.Now().UnixMilli()
	var fence durable.Fence
	err := rmw(key, func(raw []byte, found bool) ([]byte, error) {
		if found {
			return nil, fmt.Errorf("claim %s: exists", key)
		}
		rec := durable.Record{Key: key, Fingerprint: "fp", OwnerID: "owner", Incarnation: fmt.Sprint("inc-", now, "-", key),
			Revision: 1, State: durable.StatePending, CreatedAt: now, UpdatedAt: now, LeaseExpiresAt: now + 60000}
		fence = rec.Fence()
		return durable.EncodeRecord(rec)
	})
	if err != nil {
		return err
	}
	return rmw(key, func(raw []byte, found bool) ([]byte, error) {
		if !found {
			return nil, fmt.Errorf("complete %s: not found", key)
		}
		cur, err := durable.DecodeRecord(raw)
		if err != nil {
			return nil, err
		}
		if err := cur.Validate(); err != nil {
			return nil, err
		}
		if cur.Fence() != fence || cur.OwnerID != "owner" || cur.State != durable.StatePending || cur.LeaseExpiresAt <= now {
			return nil, fmt.Errorf("complete %s: not the owner's pending record", key)
		}
		next := cur.Clone()
		next.Revision++
		next.State = durable.StateCompleted
		next.Result = json.RawMessage(`{"ok":true}`)
		next.LeaseExpiresAt = 0
		next.UpdatedAt = max(now, cur.CreatedAt)
		return durable.EncodeRecord(next)
	})
}

// memRMW is onePair's transaction over a Go map: the Go work of a pair without IndexedDB.
func memRMW(m map[string][]byte) func(string, decideFunc) error {
	return func(key string, decide decideFunc) error {
		raw, found := m[key]
		next, err := decide(raw, found)
		if err != nil {
			return err
		}
		m[key] = next
		return nil
	}
}

// jsEvents waits for n JavaScript → Go event deliveries (a resolved Promise's then callback,
// one js.Func each, like rawAwait): the cost of the events of a pair without IndexedDB.
func jsEvents(n int) {
	p := js.Global().Get("Promise").Call("resolve", 1)
	for i := 0; i < n; i++ {
		ch := make(chan struct{}, 1)
		f := js.FuncOf(func(js.Value, []js.Value) any { ch <- struct{}{}; return nil })
		p.Call("then", f)
		<-ch
		f.Release()
	}
}

// rmwRawTimed is rmwRaw with the time from issuing the get to its success event (get) and from
// the commit to the complete event (commit) added to acc[0] and acc[1] (milliseconds, from
// performance.now, the clock the JavaScript floor uses).
func rmwRawTimed(db js.Value, key string, decide decideFunc, acc *[3]float64) error {
	perf := js.Global().Get("performance")
	t0 := perf.Call("now").Float()
	tx := db.Call("transaction", "operations", "readwrite")
	st := tx.Call("objectStore", "operations")
	req := st.Call("get", abKey(key))
	if _, err := rawAwait(req, "success", "error"); err != nil {
		return err
	}
	t1 := perf.Call("now").Float()
	raw, found := abRaw(req.Get("result"))
	next, err := decide(raw, found)
	if err != nil {
		tx.Call("abort")
		return err
	}
	st.Call("put", abStored(key, next))
	tx.Call("commit")
	t2 := perf.Call("now").Float()
	_, err = rawAwait(tx, "complete", "error", "abort")
	t3 := perf.Call("now").Float()
	acc[0] += t1 - t0
	acc[1] += t3 - t2
	acc[2] += t2 - t1
	return err
}
