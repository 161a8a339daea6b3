// Package wasm documents the tree of Go code that compiles to WebAssembly.
//
// Core packages (everything under wasm/ except adapters/ and cmd/) are pure Go: they build
// for the native host, GOOS=js and GOOS=wasip1, never import syscall/js or host-only libraries,
// and never touch the file system or the network directly. Ports (interfaces) live in the core;
// adapters live in wasm/adapters (js or wasip1, build-tagged) and in host/ (native).
// layout_test.go enforces these rules (STYLE.md §10).
package wasm
