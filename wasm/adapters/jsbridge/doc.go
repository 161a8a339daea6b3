//go:build js && wasm

// Package jsbridge is the glue between Go and the page's JavaScript event loop (PLATFORM
// "Rules for the browser build", STYLE §10.6). It is the only place where the browser build
// turns Go work into Promises and awaits JS Promises.
//
// The rules it enforces:
//
//   - A js.FuncOf callback never blocks. Callbacks made with Func run fn with recover and
//     must only copy their arguments into Go values and hand the work to a goroutine
//     (Go, or Promise, which returns a Promise at once and settles it from a goroutine).
//     Blocking inside a callback (on IndexedDB, a timer, a Promise) would end the Go
//     program with "all goroutines are asleep - deadlock!".
//   - Every goroutine started here recovers: a panic in Go under js/wasm ends the program
//     for good ("Go program has already exited"), so a panic is turned into a rejected
//     Promise or a report to OnPanic instead.
//   - Await waits for a JS Promise on a channel from a goroutine (never from a callback),
//     and stops waiting when ctx ends.
//
// Values cross as JSON strings (one coarse call per request, PLATFORM rule 2).
//
// Owns: the Promise ↔ Go glue of the js build.
//
// Must never: import a core package or an entry (layer order: wasm/doc.go, enforced by
// wasm/layout_test.go).
package jsbridge
