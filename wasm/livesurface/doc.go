// Package livesurface is the Live Code Editor surface (issue 18; live reference, section 2):
// the eleven editor.* tools over one controlled document with two revision clocks, composed as
// its own catalog ("live") in the studio's session assembly, so approval, durable idempotency,
// the trace's lifecycle events and the preview port are the studio's (studio.Builder,
// studio.SyncMount), and its files live in a workspace.Manager.
//
// # Tools (tools/list order)
//
//	editor.getStatus        read-only    {} → {activePath, workspaceRevision, documentRevision, documentPath, documentExampleId, rootName, storageMode, fileCount, dirtyPaths, filesystem, preview}
//	editor.listFiles        read-only    {} → {activePath, workspaceRevision, dirtyPaths, rootName, storageMode, files[{isText, mimeType, path, size}]}
//	editor.openFile                      {path, expectedRevision?} → document + preview
//	editor.saveFile         destructive  {path} → {path, activePath, savedTo, dirtyPaths, workspaceRevision, documentRevision}
//	editor.saveAll          destructive  {} → {savedPaths, activePath, dirtyPaths, workspaceRevision, documentRevision}
//	editor.getDocument      read-only    {} → {exampleId, file, source, scenario, revision, activePath, workspaceRevision, documentRevision}
//	editor.getPreviewStatus read-only    {} → {state, revision, runtime, message?}
//	editor.setDocument      idempotent   {source, scenario?, expectedRevision?} → document + preview
//	editor.applyPatch                    {search, replace, occurrence, expectedRevision?} → document + preview + replacements
//	editor.setScenario      idempotent   {scenario, expectedRevision?} → document + preview
//	editor.resetDocument    destructive  {expectedRevision?} → document + preview
//
// Schemas are closed (SPEC §2.2) and state every bound: path 1..2,000, source 1..80,000
// (workspace.MaxSourceChars, the one budget of every surface; the original allowed 100,000),
// search 1..20,000, replace 0..20,000; handlers guard the same constants.
//
// # Two clocks (live reference, section 2.2)
//
// The workspace revision (workspace.Manager: 1 for the seed, 2 after hydration, +1 for an
// imported folder) moves when a file's text changes: setDocument with new text, applyPatch,
// resetDocument when the baseline differs. The document revision (1 at start) moves by exactly
// one on every document mutation — openFile, setDocument (also with the same text),
// applyPatch, setScenario, resetDocument — and never on reads, saves or acknowledgements.
// Every document mutation takes an optional expectedRevision on the document clock (the
// original guarded only applyPatch); a stale one is WORKSPACE_REVISION_CONFLICT (retryable,
// {expectedRevision, currentRevision, clock: "document", operation}) before anything changes.
// dirtyPaths are the text files whose text differs from their baseline (the text loaded at
// start or last written to the folder).
//
// # Preview
//
// Each document revision is mounted in the preview port and awaited (studio.SyncMount): the
// web starter's files (and any file of a folder with an HTML entry) in execute mode, every
// other document as a generated text projection that never runs it. A result's preview is
// the acknowledgement: rendered in a page, compiled on a headless host (which compiled the
// mount and ran nothing). No acknowledgement, an error or a newer revision fail with
// PREVIEW_ACK_TIMEOUT, PREVIEW_RUNTIME_ERROR or PREVIEW_REVISION_SUPERSEDED with applied
// true; nothing is rolled back. Scenarios are a document field; editor/runScenario is the
// safe runner (SafeRun): a fixed event list, never an execution.
//
// # Saves (live reference, section 2.6)
//
// editor.saveFile and editor.saveAll write through the linked folder (workspace.FolderAdapter:
// the CLI's --dir); without one they fail with WORKSPACE_FOLDER_NOT_CONNECTED. They are
// annotated destructive, so the studio's policy asks for approval unless the call is direct
// (model and MCP origins default to mode agent). With _meta.idempotencyKey the registry keeps
// a durable record per (session, tool, key), and the save first records its manifest
// (path, sha256 digest, byte length per file) under PlanKey. A save interrupted after some
// files fails with TOOL_EXECUTION_UNKNOWN (retryable; the registry records it unknown);
// editor/recoverSave reads the folder back and completes the record only when the bytes
// match, so nothing is written twice.
//
// # Errors (typed, never plain)
//
//   - WORKSPACE_REVISION_CONFLICT (retryable), WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND,
//     WORKSPACE_FILE_TYPE_CONFLICT (an asset), WORKSPACE_PATCH_NOT_FOUND, WORKSPACE_SOURCE_LIMIT
//   - WORKSPACE_FOLDER_NOT_CONNECTED, WORKSPACE_FOLDER_STALE, WORKSPACE_FOLDER_PERMISSION_DENIED,
//     WORKSPACE_FILE_CONFLICT (a directory in the way), TOOL_EXECUTION_UNKNOWN (a save's
//     outcome is unknown), TOOL_IDEMPOTENCY_STORE_FAILED (the plan could not be recorded)
//   - after an applied change: PREVIEW_ACK_TIMEOUT, PREVIEW_REVISION_SUPERSEDED,
//     PREVIEW_RUNTIME_ERROR, and TOOL_CANCELLED / TOOL_TIMEOUT with {applied: true}
//
// # Session methods
//
//   - agent/run {prompt, sessionId?} → planner.Report (planner.RunEditor, source local, mode agent)
//   - editor/runScenario {} → ScenarioRun (the safe runner)
//   - editor/recoverSave {tool, idempotencyKey, sessionId?, expectedSource?} → RecoverResult
//
// The differences from the original are recorded in docs/design.md §5.27.
//
// Owns: the Live Code Editor surface: its examples, its document and two clocks, its eleven
// tools, its save plans and their read-back recovery.
//
// Must never: be imported by the page module (wasm/cmd/browser: the page has a size budget,
// docs/design.md §5.15), import an adapter or an entry, or keep rules that belong to
// workspace, preview or registry (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package livesurface
