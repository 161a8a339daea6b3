// Package workspace is the studio's document manager: the state engine behind the 23
// workspace.* and preview.* tools (REFERENCE §2, §2.1, §2.2; SPEC §2.4, §2.11, §2.12, §2.14).
//
// It owns the files of one small HTML/CSS/JS workspace, the active path, the monotonic
// revision (persisted, SPEC §2.12), the preview status per revision, the edit history
// (MaxHistory checkpoints that share unchanged file bodies and record the tool and call id
// that made them), the saved baseline with per-file dirty state, pending folder deletions,
// the storage mode and the linked folder. Every operation is a Manager method that returns a
// *mcp.ToolError with the code, retryability and details of REFERENCE §3.2; tool schemas, the
// registry and the preview ack wait belong to other packages (mutations return the new
// revision; the tool layer waits for the ack).
//
// # Ports
//
//   - Repository: durable storage (IndexedDB in the browser). MemoryRepository is the
//     reference implementation. Every mutation is persisted before its method returns; a
//     failure switches to memory mode with a bounded storageError and never fails the call.
//   - FolderAdapter: a linked local folder (File System Access in the browser; host/folder
//     natively; host functions under wasip1). MemFolder is the in-memory fake.
//
// # Units
//
// File.Size of a text file is in UTF-16 code units, as the original reports it (REFERENCE
// §2.1); every text limit (MaxSourceChars, patch and preview-edit lengths) counts Unicode code
// points (SPEC §2.14). Import limits are bytes.
//
// # Rationale
//
//   - Files are immutable values shared by reference: a checkpoint costs one slice of
//     pointers, not a copy of every body (SPEC §2.12).
//   - The revision survives reloads: Hydrate continues at stored+1 (SPEC §2.12).
//   - A folder write that fails after it may have started is WORKSPACE_SIDE_EFFECT_UNKNOWN and
//     blocks further saves until the path is re-read and compared (SPEC §2.4).
//   - A save never overwrites or deletes folder bytes it did not load: before each item it
//     reads the path once and compares it with what the folder is known to hold (from the
//     import, then from its own writes); a file it never loaded, or one changed on disk since,
//     is WORKSPACE_FILE_CONFLICT ("exists-in-folder" / "changed-in-folder"). Paths the importer
//     skips (dot segments, node_modules) can never be created or renamed to, and non-UTF-8
//     "text" is not imported, so nothing is rewritten with replacement characters.
//   - The saved baseline is not persisted (as in the original): after a reload the stored
//     files are the baseline; pending deletions do survive.
//
// This package is core: standard library, wasm/mcp and the preview's leaf scanners
// (wasm/preview/cssscan, wasm/preview/jsscan: the import's reference order) only; no os, net
// or syscall/js.
//
// Owns: the workspace model: files, revisions, history, checkpoints, folder import/save rules and
// the Repository and FolderAdapter ports.
//
// Must never: import the registry, the preview compiler or any adapter; it never does I/O except
// through its ports (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package workspace
