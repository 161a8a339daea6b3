//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"syscall/js"

	"github.com/hack-pad/safejs"
)

// OnPanic is called (from the goroutine that recovered) with a description of the place and
// the recovered value, plus the stack, whenever Go or Func recovers a panic. Nil: the panic
// is printed to the console. Set it once before the first callback runs.
var OnPanic func(where string, value any, stack []byte)

func report(where string, v any) {
	st := debug.Stack()
	if OnPanic != nil {
		func() {
			defer func() { _ = recover() }()
			OnPanic(where, v, st)
		}()
		return
	}
	js.Global().Get("console").Call("error", fmt.Sprintf("webcoding: panic in %s: %v\n%s", where, v, st))
}

// Go runs fn in a new goroutine; a panic in fn is recovered and reported (OnPanic).
func Go(where string, fn func()) {
	go func() {
		defer func() {
			if v := recover(); v != nil {
				report(where, v)
			}
		}()
		fn()
	}()
}

// Func returns a long-lived JS function that calls fn(this, args) with recover. fn runs on the
// JS event loop: it must not block (copy what it needs out of args and use Go or Promise for
// the rest). Its return value is converted with js.ValueOf rules; after a panic the function
// returns undefined. Release the js.Func when it is no longer referenced from JS.
func Func(where string, fn func(this js.Value, args []js.Value) any) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) (out any) {
		defer func() {
			if v := recover(); v != nil {
				report(where, v)
				out = js.Undefined()
			}
		}()
		return fn(this, args)
	})
}

// Promise starts work in a new goroutine and returns a JS Promise at once. The Promise
// resolves with string(result) when work returns a nil error, and rejects with a JS Error
// whose message is err.Error() otherwise. A panic in work rejects the Promise with
// "internal error: <value>" and is reported (OnPanic). The Promise executor runs
// synchronously inside the Promise constructor and only records resolve/reject, so
// nothing blocks the event loop.
//
// While work runs, the Promise and its resolve/reject functions are also held by a JS Map,
// globalThis.__webcodingPending (Promise → [resolve, reject]), so the page itself keeps an
// unsettled call reachable: nothing but the settlement removes it, and the shim rejects every
// entry when the Go program stops (site/js/main.js), so a caller never waits on a call the
// core can no longer answer.
func Promise(ctx context.Context, where string, work func(ctx context.Context) ([]byte, error)) js.Value {
	var resolve, reject safejs.Value
	executor, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) >= 2 {
			resolve, reject = args[0], args[1]
		}
		return nil
	})
	if err != nil {
		return rejected(err.Error())
	}
	defer executor.Release()
	ctor, err := safejs.Global().Get("Promise")
	if err != nil {
		return rejected(err.Error())
	}
	p, err := ctor.New(executor.Value())
	if err != nil {
		return rejected(err.Error())
	}
	pending := pendingTable()
	if pending.Truthy() {
		pair := js.Global().Get("Array").New(safejs.Unsafe(resolve), safejs.Unsafe(reject))
		pending.Call("set", safejs.Unsafe(p), pair)
	}
	go func() {
		var (
			out  []byte
			werr error
		)
		func() {
			defer func() {
				if v := recover(); v != nil {
					report(where, v)
					werr = fmt.Errorf("internal error: %v", v)
				}
			}()
			out, werr = work(ctx)
		}()
		settle(resolve, reject, out, werr)
		if pending.Truthy() {
			pending.Call("delete", safejs.Unsafe(p))
		}
	}()
	return safejs.Unsafe(p)
}

// pendingTable returns globalThis.__webcodingPending, creating the Map on first use;
// undefined when it cannot (the Promise then relies on Go holding resolve/reject alone).
func pendingTable() (m js.Value) {
	defer func() {
		if recover() != nil {
			m = js.Undefined()
		}
	}()
	g := js.Global()
	m = g.Get("__webcodingPending")
	if m.Type() != js.TypeObject {
		m = g.Get("Map").New()
		g.Set("__webcodingPending", m)
	}
	return m
}

func settle(resolve, reject safejs.Value, out []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			report("jsbridge.settle", v)
		}
	}()
	if err != nil {
		e := js.Global().Get("Error").New(err.Error())
		_, _ = reject.Invoke(e)
		return
	}
	_, _ = resolve.Invoke(string(out))
}

// rejected returns Promise.reject(new Error(msg)).
func rejected(msg string) js.Value {
	return js.Global().Get("Promise").Call("reject", js.Global().Get("Error").New(msg))
}

// ErrNotThenable is returned by Await for a value without a callable then method.
var ErrNotThenable = errors.New("jsbridge: value is not a Promise")

// RejectedError is the error of a rejected Promise: Message is the reason's message
// property (or String(reason)); Reason is the reason itself.
type RejectedError struct {
	Message string
	Reason  js.Value
}

func (e *RejectedError) Error() string { return "jsbridge: promise rejected: " + e.Message }

// Await waits for the Promise (or thenable) p to settle and returns its value, a
// *RejectedError, ErrNotThenable, or ctx.Err() when ctx ends first (the Promise keeps
// running; its outcome is dropped). It blocks the calling goroutine, never the event loop:
// call it from a goroutine, never from inside a js.FuncOf callback.
//
// No js.Func is created per call: p.then receives the two package-wide settle callbacks
// bound (Function.prototype.bind) to this call's id, and the waiting channel lives in a map
// under that id. When ctx ends first the id is removed at once, so a Promise that settles
// later (or never) leaves nothing behind on the Go side; a late settlement finds no id and
// is dropped. Released Go funcs are never handed to JavaScript, so a late settlement cannot
// hit a released function either.
func Await(ctx context.Context, p js.Value) (js.Value, error) {
	sp := safejs.Safe(p)
	then, err := sp.Get("then")
	if err != nil || then.Type() != safejs.TypeFunction {
		return js.Undefined(), ErrNotThenable
	}
	onOK, onErr, err := settleFuncs()
	if err != nil {
		return js.Undefined(), err
	}
	id, ch := awaits.add()
	okBound, err := onOK.Call("bind", safejs.Null(), float64(id))
	if err != nil {
		awaits.remove(id)
		return js.Undefined(), err
	}
	errBound, err := onErr.Call("bind", safejs.Null(), float64(id))
	if err != nil {
		awaits.remove(id)
		return js.Undefined(), err
	}
	if _, err := sp.Call("then", okBound, errBound); err != nil {
		awaits.remove(id)
		return js.Undefined(), err
	}
	select {
	case o := <-ch:
		return o.v, o.err
	case <-ctx.Done():
		awaits.remove(id)
		return js.Undefined(), ctx.Err()
	}
}

// awaitOutcome is how a Promise settled.
type awaitOutcome struct {
	v   js.Value
	err error
}

// awaitTable holds the calls of Await that wait for a settlement, by id.
type awaitTable struct {
	mu      sync.Mutex
	next    uint64
	waiting map[uint64]chan awaitOutcome
}

var awaits = awaitTable{waiting: map[uint64]chan awaitOutcome{}}

func (t *awaitTable) add() (uint64, chan awaitOutcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	ch := make(chan awaitOutcome, 1)
	t.waiting[t.next] = ch
	return t.next, ch
}

func (t *awaitTable) remove(id uint64) {
	t.mu.Lock()
	delete(t.waiting, id)
	t.mu.Unlock()
}

// settle delivers the outcome of call id, once; an id that is gone (its context ended) is
// dropped.
func (t *awaitTable) settle(id uint64, o awaitOutcome) {
	t.mu.Lock()
	ch, ok := t.waiting[id]
	delete(t.waiting, id)
	t.mu.Unlock()
	if ok {
		ch <- o // buffered, written once
	}
}

// pending is the number of Await calls still waiting (tests).
func (t *awaitTable) pending() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.waiting)
}

var (
	settleOnce         sync.Once
	settleOK, settleNo safejs.Value
	settleErr          error
)

// settleFuncs returns the two package-wide callbacks, (id, value) and (id, reason), created
// on first use and never released.
func settleFuncs() (ok, rejected safejs.Value, err error) {
	settleOnce.Do(func() {
		id := func(args []safejs.Value) (uint64, bool) {
			if len(args) == 0 || args[0].Type() != safejs.TypeNumber {
				return 0, false
			}
			f, err := args[0].Float()
			return uint64(f), err == nil
		}
		arg := func(args []safejs.Value) js.Value {
			if len(args) > 1 {
				return safejs.Unsafe(args[1])
			}
			return js.Undefined()
		}
		okFn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
			if n, ok := id(args); ok {
				awaits.settle(n, awaitOutcome{v: arg(args)})
			}
			return nil
		})
		if err != nil {
			settleErr = err
			return
		}
		noFn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
			if n, ok := id(args); ok {
				reason := arg(args)
				awaits.settle(n, awaitOutcome{err: &RejectedError{Message: reasonText(reason), Reason: reason}})
			}
			return nil
		})
		if err != nil {
			okFn.Release()
			settleErr = err
			return
		}
		settleOK, settleNo = okFn.Value(), noFn.Value()
	})
	return settleOK, settleNo, settleErr
}

// reasonText is reason.message when reason is an object with a string message, else
// String(reason).
func reasonText(reason js.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = "unknown rejection"
		}
	}()
	if reason.Type() == js.TypeObject {
		if m := reason.Get("message"); m.Type() == js.TypeString {
			return m.String()
		}
	}
	return js.Global().Call("String", reason).String()
}
