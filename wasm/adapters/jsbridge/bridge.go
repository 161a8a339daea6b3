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
	}()
	return safejs.Unsafe(p)
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
func Await(ctx context.Context, p js.Value) (js.Value, error) {
	sp := safejs.Safe(p)
	then, err := sp.Get("then")
	if err != nil || then.Type() != safejs.TypeFunction {
		return js.Undefined(), ErrNotThenable
	}
	type outcome struct {
		v   js.Value
		err error
	}
	ch := make(chan outcome, 1)
	var once sync.Once
	var onOK, onErr safejs.Func
	release := func() {
		// Releasing from inside the callback is fine: the func is not called again.
		onOK.Release()
		onErr.Release()
	}
	onOK, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		once.Do(func() {
			v := js.Undefined()
			if len(args) > 0 {
				v = safejs.Unsafe(args[0])
			}
			ch <- outcome{v: v}
		})
		return nil
	})
	if err != nil {
		return js.Undefined(), err
	}
	onErr, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		once.Do(func() {
			reason := js.Undefined()
			if len(args) > 0 {
				reason = safejs.Unsafe(args[0])
			}
			ch <- outcome{err: &RejectedError{Message: reasonText(reason), Reason: reason}}
		})
		return nil
	})
	if err != nil {
		onOK.Release()
		return js.Undefined(), err
	}
	if _, err := sp.Call("then", onOK.Value(), onErr.Value()); err != nil {
		release()
		return js.Undefined(), err
	}
	select {
	case o := <-ch:
		release()
		return o.v, o.err
	case <-ctx.Done():
		// The callbacks stay alive until the Promise settles (they only write to the
		// buffered channel once), then leak one small js.Func pair; rare by design.
		return js.Undefined(), ctx.Err()
	}
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
