package views

import (
	"runtime/debug"
	"time"
)

// RenderLoop calls render once per value received from dirty until dirty is closed, pausing
// pause after each render (coalescing bursts: a sender that finds the one-slot channel full
// drops its signal). A panic inside render is recovered per iteration and reported through
// onPanic (value and stack): the next change renders again, so one bad render never freezes
// the UI (issue 15). onPanic may be nil.
func RenderLoop(dirty <-chan struct{}, render func(), onPanic func(v any, stack []byte), pause time.Duration) {
	for range dirty {
		renderOnce(render, onPanic)
		if pause > 0 {
			time.Sleep(pause)
		}
	}
}

func renderOnce(render func(), onPanic func(v any, stack []byte)) {
	defer func() {
		if v := recover(); v != nil && onPanic != nil {
			onPanic(v, debug.Stack())
		}
	}()
	render()
}
