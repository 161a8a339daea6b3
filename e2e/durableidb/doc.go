// Package durableidb runs the IndexedDB durable.Backend (wasm/adapters/idb.Durable, issue 5) in
// headless Chromium through the shared harness e2e/chromium.
//
// The package has two halves selected by build tags:
//   - page_test.go (GOOS=js): the tests that run inside a page — durabletest.Run unchanged
//     (TestContract), byte order beyond U+FFFF, 16 claimers over 8 connections on one key,
//     ErrBackend wrapping, reopening after another connection deleted the database;
//     TestOwnerPage (one owner of the two-page race, driven from outside) and TestMeasure (the
//     benchmark page: durableMeasure(run, n) times n claim+complete pairs).
//   - driver_test.go (native): builds the GOOS=js test binary of this package once, serves it
//     with wasm_exec.js from one 127.0.0.1 origin (so every tab shares the same IndexedDB) and
//     runs it in tabs: TestInPage (the in-page tests), TestTwoPagesContend and
//     TestTwoPagesContendUpdater (two pages, two owners, one key per round: exactly one owner,
//     the other pending or replay; through Read + CompareAndSet, and through durable.Updater),
//     BenchmarkClaimCompleteIndexedDB (claim+complete pairs/s beside a raw JavaScript
//     read-modify-write readwrite-transaction loop and the pair-shaped raw floor in the same
//     page; reported, not asserted; IDB_BENCH_MODE picks a variant of ab_test.go) and
//     BenchmarkIndexedDBAB (issue 20's interleaved A/B of the backend, its Read + CompareAndSet
//     path, the same transactions in syscall/js, and the 4- and 2-transaction floors).
//   - ab_test.go (GOOS=js): the A/B variants (a syscall/js backend, the two-transaction pair
//     over syscall/js, diagnostics without IndexedDB).
//
// `go test ./e2e/...` runs it; `go test -run '^$' -bench . ./e2e/durableidb` prints the
// benchmark. Requirements: the go command and Chromium (see e2e/chromium).
package durableidb
