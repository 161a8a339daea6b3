// Package conformance runs the core's conformance vectors (wasm/conformance) against the
// wasip1 module hosted in wazero, and holds the cross-host tools/call benchmark. It has no
// API of its own: everything is in its tests.
//
// Owns: the run of the conformance vectors on the wazero host and the cross-host benchmark.
//
// Must never: hold vectors of its own (wasm/conformance owns them) or adjust an answer of the
// module so that it matches.
package conformance
