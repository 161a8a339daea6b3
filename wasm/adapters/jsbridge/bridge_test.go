//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"syscall/js"
	"testing"
	"time"
)

func TestPromiseResolves(t *testing.T) {
	p := Promise(context.Background(), "test", func(context.Context) ([]byte, error) { return []byte(`{"ok":true}`), nil })
	v, err := Await(context.Background(), p)
	if err != nil || v.String() != `{"ok":true}` {
		t.Fatalf("Await = %v, %v", v, err)
	}
}

func TestPromiseRejects(t *testing.T) {
	p := Promise(context.Background(), "test", func(context.Context) ([]byte, error) { return nil, errors.New("boom") })
	_, err := Await(context.Background(), p)
	var re *RejectedError
	if !errors.As(err, &re) || re.Message != "boom" {
		t.Fatalf("Await = %v", err)
	}
}

func TestPromisePanicRejects(t *testing.T) {
	var reported string
	OnPanic = func(where string, v any, _ []byte) { reported = where }
	defer func() { OnPanic = nil }()
	p := Promise(context.Background(), "panicky", func(context.Context) ([]byte, error) { panic("bad") })
	_, err := Await(context.Background(), p)
	var re *RejectedError
	if !errors.As(err, &re) || re.Message != "internal error: bad" || reported != "panicky" {
		t.Fatalf("Await = %v, reported %q", err, reported)
	}
}

func TestAwaitNonPromise(t *testing.T) {
	if _, err := Await(context.Background(), js.ValueOf(3)); !errors.Is(err, ErrNotThenable) {
		t.Fatalf("Await(3) = %v", err)
	}
}

func TestAwaitContext(t *testing.T) {
	never := js.Global().Get("Promise").New(js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := Await(ctx, never); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Await(never) = %v", err)
	}
}

func TestAwaitRejectedString(t *testing.T) {
	p := js.Global().Get("Promise").Call("reject", "plain")
	_, err := Await(context.Background(), p)
	var re *RejectedError
	if !errors.As(err, &re) || re.Message != "plain" {
		t.Fatalf("Await = %v", err)
	}
}

func TestFuncRecovers(t *testing.T) {
	var reported bool
	OnPanic = func(string, any, []byte) { reported = true }
	defer func() { OnPanic = nil }()
	f := Func("test", func(js.Value, []js.Value) any { panic("in callback") })
	defer f.Release()
	if v := f.Invoke(); !v.IsUndefined() || !reported {
		t.Fatalf("Invoke = %v, reported %v", v, reported)
	}
	g := Func("test", func(_ js.Value, args []js.Value) any { return args[0].Int() + 1 })
	defer g.Release()
	if v := g.Invoke(41); v.Int() != 42 {
		t.Fatalf("Invoke(41) = %v", v)
	}
}

func TestGoRecovers(t *testing.T) {
	done := make(chan string, 1)
	OnPanic = func(where string, _ any, _ []byte) { done <- where }
	defer func() { OnPanic = nil }()
	Go("worker", func() { panic("x") })
	select {
	case w := <-done:
		if w != "worker" {
			t.Fatalf("reported %q", w)
		}
	case <-time.After(time.Second):
		t.Fatal("panic not reported")
	}
}

// TestAwaitContextLeavesNothing: when ctx ends first, Await keeps no waiting entry, whether
// the Promise never settles or settles afterwards (the late outcome is dropped, and no
// released js.Func is ever called).
func TestAwaitContextLeavesNothing(t *testing.T) {
	before := awaits.pending()
	never := js.Global().Get("Promise").New(js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	var resolveLate js.Value
	late := js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolveLate = args[0]
		return nil
	}))
	for _, p := range []js.Value{never, late, never} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Await(ctx, p); !errors.Is(err, context.Canceled) {
			t.Fatalf("Await(cancelled) = %v", err)
		}
	}
	if n := awaits.pending(); n != before {
		t.Fatalf("%d Await calls still waiting after their contexts ended, want %d", n, before)
	}
	resolveLate.Invoke("late")
	// The same Promise awaited again still resolves: the late settlement reached no stale id.
	v, err := Await(context.Background(), late)
	if err != nil || v.String() != "late" {
		t.Fatalf("Await(late) = %v, %v", v, err)
	}
	if n := awaits.pending(); n != before {
		t.Fatalf("%d Await calls still waiting, want %d", n, before)
	}
}

// TestPromiseHeldByThePage: an unsettled Promise is in globalThis.__webcodingPending with its
// resolve and reject (so the page keeps it reachable and the shim can reject it when the core
// stops), and the entry is gone once it settles.
func TestPromiseHeldByThePage(t *testing.T) {
	release := make(chan struct{})
	p := Promise(context.Background(), "held", func(context.Context) ([]byte, error) {
		<-release
		return []byte("done"), nil
	})
	pending := js.Global().Get("__webcodingPending")
	if !pending.Truthy() || !pending.Call("has", p).Bool() {
		t.Fatal("the unsettled Promise is not in globalThis.__webcodingPending")
	}
	pair := pending.Call("get", p)
	if pair.Length() != 2 || pair.Index(0).Type() != js.TypeFunction || pair.Index(1).Type() != js.TypeFunction {
		t.Fatalf("entry %v is not [resolve, reject]", pair)
	}
	close(release)
	if v, err := Await(context.Background(), p); err != nil || v.String() != "done" {
		t.Fatalf("Await = %v, %v", v, err)
	}
	if pending.Call("has", p).Bool() {
		t.Fatal("the settled Promise is still held")
	}
}
