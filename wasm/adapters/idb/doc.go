//go:build js && wasm

// Package idb is the browser's workspace.Repository over IndexedDB (REFERENCE §1, SPEC §2.9,
// §2.12), built on github.com/hack-pad/go-indexeddb.
//
// # Layout (database "web-coding-studio", version 1)
//
//   - object store "workspaces", one record under the key "current":
//     {rootName, activePath, revision, deletedPaths: [path…], order: [path…]}; order is the
//     workspace file order (IndexedDB keys sort, workspaces do not).
//   - object store "files", keyed by path: {path, kind: "text"|"asset", language, mimeType,
//     source (text), data (Uint8Array, assets), renamedFrom}.
//
// Beside it: "web-coding-operations" (Durable, durable.go), "web-coding-drafts" (Drafts,
// drafts.go) and "web-coding-chats" (Chats, chats.go: the kept conversations of wasm/chats).
//
// # Transactions
//
// Every Repository call is ONE IndexedDB transaction over both stores: SaveSnapshot clears
// and rewrites everything; SaveChanges reads the current order, then deletes, upserts and
// writes the metadata before the transaction commits (PLATFORM rule 3: the transaction
// survives awaiting its own requests; nothing else is awaited in between). The call returns
// after the transaction's complete event, so a tool result is never reported before its
// mutation is durable.
//
// # Errors
//
// IndexedDB missing (no globalThis.indexedDB, e.g. a blocked or sandboxed context), an open
// that fails or is blocked, a quota error or an aborted transaction are returned as errors
// prefixed "idb: "; the workspace manager then continues in memory mode with a bounded
// storageError (REFERENCE §2.2). Nothing here panics into the caller.
//
// All calls block their goroutine until IndexedDB answers: call them from a goroutine, never
// from a js.FuncOf callback (PLATFORM rule 1). Tests: idb_test.go runs the
// workspacetest.RunRepository contract inside Chromium (e2e/browser TestIndexedDBRepository
// builds this package's test binary for GOOS=js and runs it in a page).
//
// Owns: the IndexedDB workspace Repository and durable Backend of the js build.
//
// Must never: import an entry (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package idb
