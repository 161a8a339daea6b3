//go:build js && wasm

// Package iframe is the browser's studio.PreviewPort: the sandboxed preview iframe driven
// through the page's preview shim (site/js/preview-bridge.js), SPEC §2.3, §2.15, §2.16,
// REFERENCE §5.5.
//
// # Flow
//
// Mount compiles the snapshot in Go with preview.Compile (bridge script included, a fresh
// random 128-bit nonce per mount, assets as data: URLs) and hands the shim exactly three
// values: the revision, the nonce and the compiled document, which the shim sets as the
// iframe's srcdoc. Nothing else — no file sources outside the compiled document, no keys —
// is ever posted into the frame.
//
// The shim accepts a message only when event.source is the preview iframe's contentWindow
// and its nonce and revision equal the current mount's; it forwards it to Go as one JSON
// string. Deliver checks nonce and revision again (a mount may have happened between the
// shim's check and Go's), then:
//
//   - webcoding.preview.ready → studio.Ack{Status: synced} published on the AckBoard, so the
//     tool call waiting in Await completes;
//   - webcoding.preview.error → studio.Ack{Status: error, Message} (≤ 240 code points);
//   - webcoding.preview.console → appended to the console list (bounded: the newest
//     MaxConsole lines are kept, each ≤ preview.MaxConsoleTextChars code points).
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
