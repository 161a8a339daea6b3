// Package conformance runs the core's conformance vectors (wasm/conformance) against the
// wasip1 module hosted in wazero, and holds the cross-host tools/call benchmark. It has no
// API of its own: everything is in its tests.
package conformance
