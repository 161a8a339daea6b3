// Package memstore is the in-memory reference implementation of durable.Backend
// (REFERENCE §6.2): the backend of tests and of headless runs without --durable.
//
// Records are kept as their encoded JSON bytes and decoded strictly on every read
// (durable.DecodeRecord), exactly like the server backends, so the contract suite
// (durabletest.Run) exercises the same decoding path everywhere. Keys are kept sorted for
// keyset ListPage. All methods are safe for concurrent use; CompareAndSet is atomic under one
// mutex.
//
// This package is core: standard library and wasm/durable only.
//
// Owns: the in-memory durable.Backend.
//
// Must never: import anything of this module but wasm/durable (layer order: wasm/doc.go, enforced
// by wasm/layout_test.go).
package memstore
