// Package studio assembles the studio core — registry, tool catalog, policies, ports — and
// returns its rpcsession.Handler. Both entries (the js build and the wasip1 reactor) call Assemble,
// so the catalog, policies and schemas are identical on every host (SPEC §1).
//
// # Catalogs
//
// rpcsession.Config.Catalog selects what a session serves:
//
//   - "studio" (DefaultCatalog): the 23 tools of REFERENCE §2 in table order, then
//     preview.getConsole and preview.inspect (SPEC §5.13) (ToolNames),
//     over a workspace.Manager built per session and hydrated from Ports.Repository.
//   - "demo": a 4-tool stand-in kept for registry tests.
//   - catalogs other packages register with RegisterCatalog from the entry that serves them:
//     "realtime" (wasm/websurface, the eight web.* tools; the wasip1 entry and the page's
//     conformance build install it, the shipped page does not; SPEC §5.24). They reuse
//     SyncPreview, PreviewPortOf and the schema builders of surface.go.
//   - conformance builds only (build tag conformance, SPEC §2.17): "conformance" (demo + the
//     test.* tools) and studio variants with an in-memory folder ("studio-folder",
//     "-denied", "-stale", "-faulty", "-emptied"), a download sink ("studio-downloads") and
//     scripted previews ("studio-preview-timeout", "-error", "-superseded").
//
// # Tools
//
// Input schemas are JSON Schema 2020-12 and closed (additionalProperties false); their
// limits are the workspace constants (path 1..MaxPathChars, source ≤
// workspace.MaxSourceChars = 80,000 code points, patch search 1..20,000 and replace
// 0..20,000, feature and hero lengths, themes ThemeNames). Output schemas are closed too and
// list every field of REFERENCE §2 plus the persistence meta {storageMode, storageError?}.
// Annotations are those of the REFERENCE table; the policy is rpcsession's registry.DefaultPolicy
// (read-only or direct ⇒ allow; agent-mode mutations ⇒ approver).
//
// Handlers are thin: they decode, call the Manager, and — for tools that "sync" — mount the
// new revision in the preview.Port and wait up to PreviewAckTimeout (2,500 ms) for its ack
// before answering with preview "synced". A preview failure after an applied change keeps the
// change (SPEC §2.13): PREVIEW_ACK_TIMEOUT (retryable; {revision, timeoutMs, applied}),
// PREVIEW_REVISION_SUPERSEDED (retryable; {requestedRevision, actualRevision, revision,
// applied}), PREVIEW_RUNTIME_ERROR ({revision, applied}). workspace.downloadFile without
// Ports.Downloads fails with TOOL_EXECUTION_FAILED {operation:"download", path,
// reason:"no-download-target"}.
//
// # Session methods (SPEC §2.11: operations that are not tools)
//
//   - agent/run {prompt, sessionId?} → agent.Report: the local agent executed through the
//     registry exactly like a model (source local, mode agent, ids
//     local-model-<session>-<index>-<tool>), so approvals apply.
//     WithAgentRequests (agent_request.go) brackets every prompt run — agent/run and
//     agent/openrouter — with agent.request lifecycle events on Ports.Observer (the trace's
//     prompt-run rows: completed, failed with the run's code, or cancelled).
//   - preview/compile {} → {entry, revision, diagnostics, bytes, html}.
//   - preview/export {} → {html} (standalone: CSS/JS inlined, assets as data: URLs).
//   - workspace/archive {} → {name, mimeType, base64, bytes, files, revision}: the current
//     workspace as a deterministic ZIP (Archive; transfer.go).
//   - workspace/upload {files: [{path, base64 | text}…]} → {uploaded, skipped, activePath,
//     revision, changed, preview?, storageMode}: files added or replaced in one undoable
//     revision through the folder-import rules, each refused file listed with its reason
//     (MethodWorkspaceUpload). Both report to the trace through ObserveOperation.
//   - workspace/history {} → {revision, checkpoints: [{revision, tool, callId?, at, files,
//     current}…]}; workspace/checkpoint {revision} → {revision, activePath, files}; and
//     workspace/restoreCheckpoint {revision, expectedRevision?} → a CallToolResult: the
//     checkpoint becomes a new change (undo returns), traced through ObserveOperation
//     (history_ops.go); workspace/files {} → {revision, activePath, rootName, files}: the
//     current files for the page's own diffs and search, a read that is not traced.
//   - workspace/openFolder, workspace/reconnectFolder, workspace/grantFolderAccess,
//     workspace/uploadFolder and workspace/resolveSave: the folder operations of the page
//     over Ports.Folders (a FolderHost; the directory handle never enters a payload), traced
//     through ObserveOperation (folder_ops.go). With Ports.Durable, workspace.saveAll runs
//     each folder write/delete through a durable.Runner and reconciles interrupted ones by
//     SHA-256 (wasm/foldersave: Prepare, Reconcile, Resolve).
//   - agent/run (and agent/openrouter) open a registry run scope (registry.WithRun), so
//     approvals/approveRun ("Approve all for this run") covers exactly that run.
//
// # Ports
//
// Ports carries the host adapters; every one is optional (in-memory workspace, no folder,
// HeadlessPreview, no download target). The preview port (PreviewPort, SPEC §1) is
// preview.Port, with preview.AckBoard as the ack bookkeeping any implementation can reuse.
//
// This package is core: no syscall/js, os or net.
//
// Owns: composition: it assembles the workspace, preview, registry, tools and session methods over
// the host's Ports.
//
// Must never: import an adapter or an entry, or hold rules that belong to a lower package (layer
// order: wasm/doc.go, enforced by wasm/layout_test.go).
package studio
