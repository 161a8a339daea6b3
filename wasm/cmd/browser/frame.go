//go:build js && wasm

package main

import (
	"math"
	"sync/atomic"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
)

// A pacer lets a loop goroutine (render, workspace refresh) wait until just after the next
// paint: requestAnimationFrame queues a task, which wakes the goroutine. The Go runtime runs
// every runnable goroutine before it returns from a JavaScript callback, so a render woken by
// a keystroke would otherwise run inside the keystroke's callback and delay the frame that
// shows the character. A hidden page gets no animation frames, so a 100 ms timer wakes the
// loop too.
//
// Renders and re-reads caused by anything else (a click, a tool call, a preview ack) still
// run in the turn of that event, as before: when a tools/call Promise resolves, the page
// already shows its effect (the browser tests and quick successive clicks rely on it).
type pacer struct {
	ch        chan struct{}
	fire, raf js.Func
}

func newPacer(name string) *pacer {
	p := &pacer{ch: make(chan struct{}, 1)}
	p.fire = jsbridge.Func(name+".afterPaint", func(js.Value, []js.Value) any {
		select {
		case p.ch <- struct{}{}:
		default:
		}
		return nil
	})
	p.raf = jsbridge.Func(name+".frame", func(js.Value, []js.Value) any {
		js.Global().Call("setTimeout", p.fire, 0)
		return nil
	})
	return p
}

// wait blocks the calling goroutine (never a JS callback) until after the next paint, or at
// most about 100 ms.
func (p *pacer) wait() {
	select { // a wake-up left over from the previous wait's fallback timer
	case <-p.ch:
	default:
	}
	js.Global().Call("requestAnimationFrame", p.raf)
	js.Global().Call("setTimeout", p.fire, 100)
	<-p.ch
}

// Bounds of the pacing, in ms.
const (
	quietAfter  = 50 // a keystroke this recent defers a render or re-read past the next paint
	minInterval = 8  // passes closer than this wait for the next paint
)

// lastTyped is performance.now() of the editor's last change (editor.go), in ms.
var lastTyped atomic.Uint64

// pace is what the render and refresh loops call before each pass (last = the previous pass,
// performance.now() ms): right after a keystroke, or less than minInterval after the previous
// pass, it waits for the next paint; otherwise it returns at once.
func (a *app) pace(p *pacer, last float64) {
	t := now()
	if t-math.Float64frombits(lastTyped.Load()) < quietAfter || t-last < minInterval {
		p.wait()
	}
}
