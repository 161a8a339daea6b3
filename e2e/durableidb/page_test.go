//go:build js && wasm

package durableidb

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"

	goidb "github.com/hack-pad/go-indexeddb/idb"
	"github.com/webcoding/studio/wasm/adapters/idb"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/durabletest"
)

var (
	ownerFlag = flag.String("owner", "", "TestOwnerPage: the owner id of this page")
	dbFlag    = flag.String("db", "", "TestOwnerPage, TestMeasure: the database name")
	updFlag   = flag.Bool("updater", false, "TestOwnerPage: claim through durable.Updater (the backend as is) instead of Read + CompareAndSet")
)

var dbSeq atomic.Int64

// freshName returns a database name no other backend of this run uses.
func freshName() string {
	return fmt.Sprintf("%s-test-%d-%d", idb.DurableName, time.Now().UnixNano(), dbSeq.Add(1))
}

func deleteDatabase(t testing.TB, name string) {
	f, err := goidb.WrapFactory(js.Global().Get("indexedDB"))
	if err != nil {
		t.Errorf("factory: %v", err)
		return
	}
	req, err := f.DeleteDatabase(name)
	if err == nil {
		err = req.Await(context.Background())
	}
	if err != nil {
		t.Errorf("deleteDatabase(%s): %v", name, err)
	}
}

func openFresh(t *testing.T) *idb.Durable {
	t.Helper()
	name := freshName()
	d, err := idb.OpenDurable(context.Background(), name)
	if err != nil {
		t.Fatalf("OpenDurable(%s): %v", name, err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		deleteDatabase(t, name)
	})
	return d
}

// TestContract runs the backend contract, unchanged, against a fresh database per backend.
func TestContract(t *testing.T) {
	durabletest.Run(t, func(t *testing.T) durable.Backend { return openFresh(t) })
}

// TestByteOrderBeyondBMP: keys beyond U+FFFF sort after U+FFFF byte-wise (UTF-16 string keys
// would put them before it).
func TestByteOrderBeyondBMP(t *testing.T) {
	d := openFresh(t)
	ctx := context.Background()
	keys := []string{"\uffff", "😀", "\ue000", "a", "𝄞/x", "~"}
	for _, k := range keys {
		r := durable.Record{Key: k, Fingerprint: "fp", OwnerID: "o", Incarnation: "i", Revision: 1,
			State: durable.StatePending, CreatedAt: 1, UpdatedAt: 1, LeaseExpiresAt: 2}
		if ok, err := d.CompareAndSet(ctx, k, nil, &r); err != nil || !ok {
			t.Fatalf("insert %q = %v, %v", k, ok, err)
		}
	}
	want := append([]string(nil), keys...)
	sort.Strings(want)
	var got []string
	cursor := ""
	for {
		recs, next, err := d.ListPage(ctx, cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			got = append(got, r.Key)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("order %q, want %q", got, want)
	}
}

// TestManyConnectionsOneKey: 16 claimers over 8 connections (8 Durable values on one database)
// race for one key per round: exactly one owner, the others pending; after completion a
// second wave sees only replay.
func TestManyConnectionsOneKey(t *testing.T) {
	name := freshName()
	ctx := context.Background()
	defer deleteDatabase(t, name) // after every connection below is closed
	var stores []*durable.Store
	for i := 0; i < 8; i++ {
		d, err := idb.OpenDurable(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		s, err := durable.New(d, durable.Options{})
		if err != nil {
			t.Fatal(err)
		}
		stores = append(stores, s)
	}
	for round := 0; round < 5; round++ {
		key := fmt.Sprintf("many/%d", round)
		const workers = 16
		res := make([]durable.Claim, workers)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < workers; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				res[i], errs[i] = stores[i%len(stores)].Claim(ctx, key, "fp", fmt.Sprint("w", i), time.Minute)
			}(i)
		}
		close(start)
		wg.Wait()
		owner := -1
		for i := range res {
			if errs[i] != nil {
				t.Fatalf("round %d worker %d: %v", round, i, errs[i])
			}
			switch res[i].Outcome {
			case durable.ClaimOwner:
				if owner >= 0 {
					t.Fatalf("round %d: workers %d and %d both own %q", round, owner, i, key)
				}
				owner = i
			case durable.ClaimPending:
			default:
				t.Fatalf("round %d worker %d: outcome %q", round, i, res[i].Outcome)
			}
		}
		if owner < 0 {
			t.Fatalf("round %d: no owner", round)
		}
		if _, err := stores[0].Complete(ctx, key, fmt.Sprint("w", owner), res[owner].Fence, json.RawMessage(`1`)); err != nil {
			t.Fatalf("round %d: Complete: %v", round, err)
		}
		for i, s := range stores {
			c, err := s.Claim(ctx, key, "fp", fmt.Sprint("late", i), time.Minute)
			if err != nil || c.Outcome != durable.ClaimReplay || string(c.Record.Result) != "1" {
				t.Fatalf("round %d: late claim on connection %d = %+v, %v", round, i, c, err)
			}
		}
	}
}

// TestBackendErrors: a page without IndexedDB, and a cancelled context, are ErrBackend.
func TestBackendErrors(t *testing.T) {
	ctx := context.Background()
	d := openFresh(t)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	r := durable.Record{Key: "k", Fingerprint: "fp", OwnerID: "o", Incarnation: "i", Revision: 1,
		State: durable.StatePending, CreatedAt: 1, UpdatedAt: 1, LeaseExpiresAt: 2}
	if _, _, err := d.Read(cctx, "k"); !errors.Is(err, durable.ErrBackend) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Read(cancelled) = %v", err)
	}
	if _, err := d.CompareAndSet(cctx, "k", nil, &r); !errors.Is(err, durable.ErrBackend) {
		t.Fatalf("CompareAndSet(cancelled) = %v", err)
	}
	if _, _, err := d.ListPage(cctx, "", 5); !errors.Is(err, durable.ErrBackend) {
		t.Fatalf("ListPage(cancelled) = %v", err)
	}
	if _, found, err := d.Read(ctx, "k"); err != nil || found {
		t.Fatalf("after cancelled CAS: found %v, %v", found, err)
	}
	// A record for another key is refused before anything is written.
	if ok, err := d.CompareAndSet(ctx, "other", nil, &r); ok || !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("CAS of a record under another key = %v, %v", ok, err)
	}
	// Without IndexedDB: opening fails, and a closed backend cannot reopen.
	restore := hideIndexedDB()
	defer restore()
	if _, err := idb.OpenDurable(ctx, freshName()); !errors.Is(err, durable.ErrBackend) || !durable.Retryable(err) {
		t.Fatalf("OpenDurable without IndexedDB = %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Read(ctx, "k"); !errors.Is(err, durable.ErrBackend) {
		t.Fatalf("Read without IndexedDB = %v", err)
	}
	s, _ := durable.New(d, durable.Options{})
	if _, err := s.Claim(ctx, "k", "fp", "o", time.Minute); !errors.Is(err, durable.ErrBackend) || !durable.Retryable(err) {
		t.Fatalf("Claim without IndexedDB = %v", err)
	}
	restore()
	if js.Global().Get("indexedDB").IsUndefined() {
		t.Fatal("indexedDB was not restored")
	}
	if _, found, err := d.Read(ctx, "k"); err != nil || found {
		t.Fatalf("Read after IndexedDB is back = %v, %v", found, err)
	}
}

// TestReopenAfterDeletion: another connection deletes the database (its versionchange closes
// ours); the next call reopens a fresh, empty database instead of failing.
func TestReopenAfterDeletion(t *testing.T) {
	ctx := context.Background()
	d := openFresh(t)
	r := durable.Record{Key: "k", Fingerprint: "fp", OwnerID: "o", Incarnation: "i", Revision: 1,
		State: durable.StatePending, CreatedAt: 1, UpdatedAt: 1, LeaseExpiresAt: 2}
	if ok, err := d.CompareAndSet(ctx, "k", nil, &r); err != nil || !ok {
		t.Fatalf("insert = %v, %v", ok, err)
	}
	deleteDatabase(t, d.Name())
	if _, found, err := d.Read(ctx, "k"); err != nil || found {
		t.Fatalf("Read after deletion = found %v, %v; want a fresh empty database", found, err)
	}
	if ok, err := d.CompareAndSet(ctx, "k", nil, &r); err != nil || !ok {
		t.Fatalf("insert after deletion = %v, %v", ok, err)
	}
}

// hideIndexedDB shadows globalThis.indexedDB with undefined and returns the function that puts
// the original property back (on the global object it is an own accessor, so deleting the
// shadow would delete IndexedDB for the rest of the page). Restoring twice is harmless.
func hideIndexedDB() (restore func()) {
	g := js.Global()
	object := g.Get("Object")
	orig := object.Call("getOwnPropertyDescriptor", g, "indexedDB")
	desc := object.New()
	desc.Set("value", js.Undefined())
	desc.Set("configurable", true)
	object.Call("defineProperty", g, "indexedDB", desc)
	return func() {
		if orig.IsUndefined() {
			g.Get("Reflect").Call("deleteProperty", g, "indexedDB")
		} else {
			object.Call("defineProperty", g, "indexedDB", orig)
		}
	}
}

// countingBackend counts compare-and-sets that lost (returned false).
type countingBackend struct {
	durable.Backend
	lost atomic.Int64
}

func (c *countingBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	ok, err := c.Backend.CompareAndSet(ctx, key, expected, next)
	if err == nil && !ok {
		c.lost.Add(1)
	}
	return ok, err
}

// promise runs fn on a goroutine and returns a Promise of its string result (PLATFORM rule 1:
// never block in a js.FuncOf callback).
func promise(fn func() (string, error)) js.Value {
	var exec js.Func
	exec = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer exec.Release()
			defer func() {
				if v := recover(); v != nil {
					reject.Invoke(fmt.Sprint("panic: ", v))
				}
			}()
			s, err := fn()
			if err != nil {
				reject.Invoke(err.Error())
				return
			}
			resolve.Invoke(s)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(exec)
}

// TestOwnerPage is one of the two pages of the driver's TestTwoPagesContend: it exposes
// durableClaim(key) → Promise<JSON {outcome, owner, lostCAS}> (claim as -owner; complete when it
// owns) and durableStop(), and runs until stopped.
func TestOwnerPage(t *testing.T) {
	if *ownerFlag == "" || *dbFlag == "" {
		t.Skip("driven by TestTwoPagesContend (-owner, -db)")
	}
	ctx := context.Background()
	d, err := idb.OpenDurable(ctx, *dbFlag)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cb := &countingBackend{Backend: d}
	var b durable.Backend = cb // hides the Updater: Read + CompareAndSet, lost CASes counted
	if *updFlag {
		b = d
	}
	s, err := durable.New(b, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	claim := js.FuncOf(func(_ js.Value, args []js.Value) any {
		key := args[0].String()
		return promise(func() (string, error) {
			before := cb.lost.Load()
			c, err := s.Claim(ctx, key, "fp", *ownerFlag, time.Minute)
			if err != nil {
				return "", err
			}
			if c.Outcome == durable.ClaimOwner {
				if _, err := s.Complete(ctx, key, *ownerFlag, c.Fence, json.RawMessage(`"`+*ownerFlag+`"`)); err != nil {
					return "", err
				}
			}
			b, err := json.Marshal(map[string]any{"outcome": c.Outcome, "owner": c.Record.OwnerID, "lostCAS": cb.lost.Load() - before})
			return string(b), err
		})
	})
	defer claim.Release()
	done := make(chan struct{})
	var once sync.Once
	stop := js.FuncOf(func(js.Value, []js.Value) any { once.Do(func() { close(done) }); return nil })
	defer stop.Release()
	js.Global().Set("durableClaim", claim)
	js.Global().Set("durableStop", stop)
	js.Global().Set("durableReady", true)
	<-done
}

// TestMeasure is the page of the driver's BenchmarkClaimCompleteIndexedDB: it exposes
// durableMeasure(run, n) → Promise<string> (the milliseconds n claim+complete pairs took, each
// on a new key "bench/<run>/<i>" of database -db) and durableStop(), and runs until stopped.
func TestMeasure(t *testing.T) {
	if *dbFlag == "" {
		t.Skip("driven by BenchmarkClaimCompleteIndexedDB (-db)")
	}
	ctx := context.Background()
	d, err := idb.OpenDurable(ctx, *dbFlag)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := durable.New(d, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	result := json.RawMessage(`{"ok":true}`)
	// The A/B variants of ab_test.go (mode "" = the backend as is).
	raw, err := openRaw(*dbFlag)
	if err != nil {
		t.Fatal(err)
	}
	rawStore, err := durable.New(raw, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// casStore: the same idb.Durable with its Updater hidden (Store's Read + CompareAndSet path).
	casStore, err := durable.New(struct{ durable.Backend }{d}, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gdb, err := openGoIDB(ctx, *dbFlag)
	if err != nil {
		t.Fatal(err)
	}
	mem := map[string][]byte{}
	measure := js.FuncOf(func(_ js.Value, args []js.Value) any {
		run, n := args[0].String(), args[1].Int()
		mode := ""
		if len(args) > 2 {
			mode = args[2].String()
		}
		return promise(func() (string, error) {
			var acc [3]float64
			start := time.Now()
			for i := 0; i < n; i++ {
				key := fmt.Sprint("bench/", mode, "/", run, "/", i)
				switch mode {
				case "":
				case "sysjs":
					c, err := rawStore.Claim(ctx, key, "fp", "owner", time.Minute)
					if err != nil {
						return "", err
					}
					if _, err := rawStore.Complete(ctx, key, "owner", c.Fence, result); err != nil {
						return "", err
					}
					continue
				case "cas":
					c, err := casStore.Claim(ctx, key, "fp", "owner", time.Minute)
					if err != nil {
						return "", err
					}
					if _, err := casStore.Complete(ctx, key, "owner", c.Fence, result); err != nil {
						return "", err
					}
					continue
				case "rmw-goidb":
					if err := onePair(key, func(k string, d decideFunc) error { return rmwGoIDB(ctx, gdb, k, d) }); err != nil {
						return "", err
					}
					continue
				case "rmw-sysjs":
					if err := onePair(key, func(k string, d decideFunc) error { return rmwRaw(raw.db, k, d) }); err != nil {
						return "", err
					}
					continue
				case "rmw-sysjs-t":
					if err := onePair(key, func(k string, d decideFunc) error { return rmwRawTimed(raw.db, k, d, &acc) }); err != nil {
						return "", err
					}
					if i == n-1 {
						return fmt.Sprintf("%.3f,%.3f,%.3f", acc[0]/float64(2*n), acc[1]/float64(2*n), acc[2]/float64(2*n)), nil
					}
					continue
				case "rmw-mem":
					if err := onePair(key, memRMW(mem)); err != nil {
						return "", err
					}
					continue
				case "events4":
					jsEvents(4)
					continue
				default:
					return "", fmt.Errorf("unknown mode %q", mode)
				}
				c, err := s.Claim(ctx, key, "fp", "owner", time.Minute)
				if err != nil {
					return "", err
				}
				if c.Outcome != durable.ClaimOwner {
					return "", fmt.Errorf("claim %s: outcome %s", key, c.Outcome)
				}
				if _, err := s.Complete(ctx, key, "owner", c.Fence, result); err != nil {
					return "", err
				}
			}
			return fmt.Sprintf("%.3f", float64(time.Since(start).Microseconds())/1000), nil
		})
	})
	defer measure.Release()
	defer raw.db.Call("close")
	defer gdb.Close()
	done := make(chan struct{})
	var once sync.Once
	stop := js.FuncOf(func(js.Value, []js.Value) any { once.Do(func() { close(done) }); return nil })
	defer stop.Release()
	js.Global().Set("durableMeasure", measure)
	js.Global().Set("durableStop", stop)
	js.Global().Set("durableReady", true)
	<-done
}
