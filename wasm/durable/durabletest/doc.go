// Package durabletest is the contract test kit for durable.Backend implementations
// (REFERENCE §6.2–§6.3, SPEC §2.5): Run(t, newBackend) runs the same subtests against any
// backend — compare-and-set semantics, keyset list paging, claim outcomes, fences, prune with
// paging, ResolveUnknown, tampered records and concurrent claimers.
//
// A backend is done when it passes Run. memstore runs it natively; host/redisstore and
// host/pgstore run it against real servers; the IndexedDB adapter runs it in Chromium.
//
// It imports testing and is meant for _test.go files only.
//
// Owns: the durable.Backend contract test kit every backend runs.
//
// Must never: be imported by non-test code (layer order: wasm/doc.go, enforced by
// wasm/layout_test.go).
package durabletest
