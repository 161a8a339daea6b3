//go:build js && wasm

// Package iframe is the browser's preview.Port: the sandboxed preview iframe driven
// through the page's preview shim (site/js/preview-bridge.js), SPEC §2.3, §2.15, §2.16,
// REFERENCE §5.5.
//
// # Flow
//
// Mount compiles the snapshot in Go with preview.Compile (the runtime script included, a fresh
// random 128-bit nonce per mount, the page being shown, the preview storage and the "Allow
// internet" switch as preview.Options.Runtime) and hands the shim the revision, the nonce, the
// compiled document and whether it needs a fresh frame. Nothing else — no keys, nothing of the
// studio — is ever posted into the frame, except an accessibility audit request (Audit,
// preview.audit): the limits and, with the first audit of a document, axe-core's public source,
// over the mount's port (docs/design.md §5.17),
// and two requests over the same port (issue 17, inspect.go): preview.MessageInspect {id,
// selector} (InspectLive, for preview.inspect) and preview.MessagePick {on} (SetPicking). Their
// answers (preview.MessageSelection) are decoded strictly and are data: a pick the studio did
// not ask for is dropped.
//
// CSS-only edits (docs/design.md §5.33): when the current mount is acknowledged and the new
// revision's document for the same page differs from it only in stylesheet text
// (preview.StyleOnlyChange), Mount hands the shim a preview.StylePatch instead (shim.patch,
// posted as preview.MessagePatch over the same port) with a fresh nonce; the frame's in-place
// ready for that nonce acknowledges the revision (Ack.InPlace, Status.InPlace). A refusal
// (preview.MessagePatchRefused) mounts the same compiled document in the same frame; no
// answer within preview.PatchAckTimeout mounts it in a fresh frame. preview.refresh
// (Mount.Remount) always mounts.
//
// The runtime's first message (the hello, through window.parent.postMessage, before any page
// code) carries the nonce and a MessagePort; the shim accepts it only from the current frame
// with the current nonce and revision, then reads only that port, caps the mount's messages
// (preview.MaxMountMessages, MaxMountBytes) and forwards them to Go as JSON arrays, at most one
// batch of console lines and reports per animation frame. DeliverBatch checks nonce and
// revision again (a mount may have happened in between), then:
//
//   - webcoding.preview.ready → preview.Ack{Status: synced} published on the AckBoard, so the
//     tool call waiting in Await completes;
//   - webcoding.preview.error → preview.Ack{Status: error, Message} (≤ 240 code points);
//   - webcoding.preview.leaving → StateNavigated ("navigated away (Refresh)"); a mount that
//     leaves before its ready fails with NavigatedAwayMessage (never acknowledged);
//   - webcoding.preview.console / report → the console list (newest MaxConsole entries,
//     numbered, with the workspace file and line when the runtime named a file of the mount;
//     preview.getConsole reads it through ConsoleEntries) and the mount's run-time reports
//     (preview.MaxRuntimeReports), one notification per batch;
//   - webcoding.preview.storage → the preview storage (survives remounts; ClearStorage);
//   - webcoding.preview.navigate → Navigate: the linked workspace page is mounted (Back and
//     Forward move through the pages visited).
//
// docs/preview.md ("Runtime") describes the model and its limits.
//
// # Assets (SPEC §2.15, measured)
//
// Assets use data: URLs (preview.DataURL, the compiler's default). Measured with
// e2e/browser TestBlobURLInOpaqueFrame in Debian's Chromium (headless, site isolation on): in
// a sandboxed srcdoc frame without allow-same-origin (origin "null"), an <img> whose src is a
// blob: URL created by the parent fails to load (error event) and fetch() of it rejects
// ("TypeError: Failed to fetch"), while a data: URL image loads. So parent-made blob: URLs
// are not used; the module bootstrap's blob: URLs are created inside the frame, which works.
//
// # Event loop
//
// The shim's callback only copies the message string and hands it to a goroutine
// (jsbridge.Func + jsbridge.Go); Mount and Await are called from tool-call goroutines.
//
// Owns: the sandboxed-iframe preview port of the js build.
//
// Must never: import an entry (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package iframe
