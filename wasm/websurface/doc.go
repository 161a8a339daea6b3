// Package websurface is the realtime web-coding surface (issue 18; live reference, section 3): the
// eight web.* tools over a three-file site, composed as its own catalog ("realtime") in the
// studio's session assembly, so approval, durable idempotency, the trace's lifecycle events
// and the preview port are the studio's (studio.Builder, studio.SyncPreview).
//
// # Tools (tools/list order)
//
//	web.getWorkspace  read-only   {} → {activePath, rootName, revision, files[{path, isText, size}]}
//	web.readFile      read-only   {path} → {path, source, revision}
//	web.writeFile     idempotent  {path, source, expectedRevision?} → mutation result (creates a new path)
//	web.applyPatch                {path, search, replace, occurrence, expectedRevision?} → + replacements
//	web.setTheme      idempotent  {theme, expectedRevision?} → + theme (style.css tokens)
//	web.addFeature                {title, description, expectedRevision?} → + title (index.html grid)
//	web.updateHero    idempotent  {title, subtitle, expectedRevision?} → + title (index.html hero)
//	web.runPreview    read-only   {} → {workspace, preview, entry, diagnostics, note?}
//
// A mutation result is {path, activePath, revision, preview{state, revision, runtime,
// message?}}. Schemas are closed (SPEC §2.2) and state every bound: path 1..240, source ≤
// 80,000 (workspace.MaxSourceChars, the one budget of every surface), search 1..20,000,
// replace 0..20,000, feature title 1..80 and description 1..180, hero title 1..100 and
// subtitle 1..220; handlers guard the same constants.
//
// # Revision
//
// One monotonic workspace revision: the seed is revision 1, hydration makes it 2, every
// successful mutation adds exactly one (also a theme that was already set), reads add none.
// A stale expectedRevision is WORKSPACE_REVISION_CONFLICT (retryable; {expectedRevision,
// currentRevision}) before anything changes; the check runs under the workspace lock in the
// same step as the change (workspace.Manager.TransformFile, WriteFile, ApplyPatch).
//
// # Errors (typed, never plain)
//
//   - WORKSPACE_REVISION_CONFLICT (retryable), WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND
//     (readFile, applyPatch; the visual tools when style.css or index.html is gone),
//     WORKSPACE_FILE_TYPE_CONFLICT (an asset), WORKSPACE_PATCH_NOT_FOUND, WORKSPACE_SOURCE_LIMIT
//   - PREVIEW_TARGET_NOT_FOUND {target: "theme-tokens" (with missing), "feature-grid",
//     "hero-title", "hero-subtitle"; path}
//   - after an applied change, the preview's typed errors with applied true (SPEC §2.13):
//     PREVIEW_ACK_TIMEOUT (retryable), PREVIEW_REVISION_SUPERSEDED (retryable),
//     PREVIEW_RUNTIME_ERROR; and TOOL_CANCELLED / TOOL_TIMEOUT with {applied: true} when the
//     caller gave up after the change landed
//   - TOOL_VALIDATION_FAILED {field} for a bound the schema states, when a session validates
//     in "warn" or "silent" mode
//
// # Session methods
//
//   - agent/run {prompt, sessionId?} → planner.Report: planner.RunWeb through the registry
//     like a model (source local, mode agent), so approvals apply.
//
// The differences from the original are recorded in docs/design.md §5.24.
//
// Owns: the realtime surface: its seed, its eight tools and their edits of the seed's files.
//
// Must never: be imported by the page module (wasm/cmd/browser: the page has a size budget,
// docs/design.md §5.15), import an adapter or an entry, or keep rules that belong to
// workspace, preview or registry (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package websurface
