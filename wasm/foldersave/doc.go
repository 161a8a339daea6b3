// Package foldersave is the durable folder save: it runs every write and delete of
// workspace.saveAll through a durable.Runner, so a save interrupted by a crash or a reload is
// finished, replayed or reported — never written twice and never silently lost — and it
// reconciles the records such a save left behind by reading the folder back (REFERENCE §2.1
// saveAll "durable variant", SPEC §2.4).
//
// A Saver belongs to one studio session (wasm/studio builds it from Ports.Durable, Ports.Clock,
// Ports.DurableOwnerID and Ports.DurableSoleOwner). The session calls Prepare before every workspace.saveAll,
// Reconcile whenever a folder is (re)linked, and Resolve for workspace/resolveSave.
//
// # Records
//
// Every item claims the key "workspace.saveAll:<scopeId>:<revision>:<write|delete>:<path>" with
// the fingerprint "workspace.saveAll:<op>:<path>:<sha256:hex|delete>" (workspace.SaveItem), as
// the Saver's owner id:
//
//   - a completed record replays (the file is never written twice, e.g. on the retry after a
//     crash);
//   - a failure confirmed before anything was written (stale root, permission, a directory in
//     the way, a path escaping the root) is recorded failed and keeps its class; a failed record
//     is a definite non-execution, so a retry removes it (compare-and-set on its fence) and
//     claims again;
//   - anything else is unknown: WORKSPACE_SIDE_EFFECT_UNKNOWN, and saves stay blocked until
//     Reconcile settled it by hash or the user chose (Resolve).
//
// Before a save's first item, one completed record "workspace.saveAll.plan:<scopeId>:<revision>"
// keeps the hashes the folder held before the save (PlanKey), so reconciliation can tell "the
// folder still holds the bytes from before the save" (failed, safe to retry) from "the folder
// holds other bytes" (unknown).
//
// # Reconciliation
//
// Reconcile lists the scope's records and settles each unknown one — and each pending one this
// owner left behind (a page reload in the middle of a save: the browser keeps the owner id in
// sessionStorage, so the reloaded tab finishes its own claims instead of waiting for their
// lease) — by reading the folder back: bytes equal to the planned sha256 → completed; the file
// absent, or still the bytes from before the save → failed (safe to retry); anything else stays
// unknown until the user chooses. Another owner's live claim is left alone — unless the Saver
// is the sole owner (Options.SoleOwner: the browser tab that holds the workspace Web Lock), in
// which case the claim belongs to a tab closed or killed mid-save and is settled the same way
// (durable.Store.Abandon turns it into unknown first).
//
// This package is core: no syscall/js, os or net; the folder is a workspace.FolderAdapter and
// the store a durable.Backend.
//
// Owns: the save records' keys, fingerprints and plan records, the durable Perform of
// workspace.SaveOptions, and the reconcile and resolve rules for interrupted saves.
//
// Must never: decode session params, emit lifecycle events, touch the preview or the registry,
// or talk to a concrete store or folder (wasm/studio composes it; layer order: wasm/doc.go,
// enforced by wasm/layout_test.go).
package foldersave
