//go:build wasip1

// Package hostcall is the guest side of the host functions that the wasip1 reactor imports
// from the wazero host (host/wasmhost). Every import lives in the host module named
// "webcoding"; clock and randomness are not here because they come from WASI
// (wasi_snapshot_preview1), which the host backs with the real wall clock, monotonic clock and
// crypto/rand.
//
// Adding a host function: declare the //go:wasmimport webcoding <name> stub and a Go wrapper
// in a file of this package, and register the same name with the same signature in
// host/wasmhost/hostfuncs.go. A guest that imports a function the host lacks fails to
// instantiate, so both sides land together.
//
// ABI conventions (all functions): strings and byte slices cross as (ptr, len uint32) pairs
// pointing into guest linear memory; the host only reads them during the call and never keeps
// the pointer. Integers are passed as i32/i64.
//
// Functions: log (log.go); info, folder_permission, folder_tree, folder_read, folder_write,
// folder_delete, download and result_take (folder.go): the host's linked folder as a
// workspace.FolderAdapter (Folder) and its download directory (Download). Those answer into a
// guest buffer and return a status code (StatusOK … StatusTooLarge) that Folder maps back to
// the workspace sentinel errors; results larger than the buffer are fetched with result_take,
// so the host never calls back into the guest. http_do (http.go): HTTP for the provider loop
// (HTTP implements openrouter.Transport; the host adds the Authorization header and refuses
// other origins; info's "http" says whether it is offered; statuses 8 refused, 9 timeout).
//
// Built only for GOOS=wasip1 (SPEC §1, "Ports ... Adapters live at the edge").
//
// Owns: the wasip1 host-function adapters (log, folder, durable, HTTP, downloads).
//
// Must never: import an entry (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package hostcall
