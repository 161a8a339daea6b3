//go:build js && wasm

// Package fsa is the browser's workspace.FolderAdapter over the File System Access API
// (SPEC §1 "FolderAdapter", REFERENCE §2.1 saveAll/reloadFolder, §3.2 folder codes), through
// the small JavaScript shim site/js/folder.js (globalThis.webcodingFolder).
//
// A Folder holds one root FileSystemDirectoryHandle as a js.Value. The handle stays in the
// parent page: it is passed only to the shim and to IndexedDB (structured clone, see
// wasm/adapters/idb FolderLink); it never appears in a tool payload, a JSON-RPC message or an
// iframe message.
//
// # Errors
//
// The shim rejects with an Error carrying a kind; Folder maps it to the workspace sentinels:
// "stale" → workspace.ErrFolderStale (the root directory is gone), "missing" →
// workspace.ErrFolderFileMissing, "permission" → workspace.ErrFolderPermission, "not-a-file"
// → workspace.ErrFolderNotAFile, "escapes" → workspace.ErrFolderPathEscapes; anything else
// is a plain error (for a write: an unknown outcome). Deleting an absent file succeeds, but
// only after the root itself was found (a vanished root is stale, never a successful delete).
//
// Every method blocks its goroutine until the shim's Promise settles (PLATFORM rule 1: call
// from a goroutine, never from a js.FuncOf callback). A Folder is safe for concurrent use.
//
// Owns: the File System Access FolderAdapter of the js build.
//
// Must never: import an entry (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package fsa
