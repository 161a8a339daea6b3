//go:build js && wasm

// Command browser is the studio's GOOS=js entry (SPEC §1): it assembles the same core as the
// headless reactor (studio.Assemble) over the browser adapters — IndexedDB workspace
// repository (wasm/adapters/idb), the sandboxed-iframe preview port (wasm/adapters/iframe),
// downloads through a Blob link — with interactive approvals as the default (a configuration
// without an approval mode gets approval.mode "queue", including the first session, so a page
// load hydrates the workspace once), and renders the studio UI from Go into the region containers of
// site/index.html.
//
// # JavaScript surface (one coarse entry, STYLE §10.5)
//
//   - globalThis.webcodingHandle(requestJSON) → Promise<responseJSON>: one JSON-RPC 2.0
//     request or batch into rpcsession.Handler.Handle; a notification resolves with "".
//   - globalThis.webcodingSubscribe(callback) → unsubscribe(): callback(eventJSON) receives
//     state events, one JSON object each:
//     {"kind":"tool", "type":"started"|"completed"|"failed"|…, "name", "toolCallId", "source",
//     "mode", "isError"?, "errorCode"?} (lifecycle events from Ports.Observer, without
//     arguments or results), {"kind":"approvals", "approvals":[…]} (the dispatcher's
//     rpcsession.Event: the page follows Handler.Subscribe, never a session's queue, and
//     never inspects request bytes),
//     {"kind":"preview", "status":{…}} (iframe.Status) and {"kind":"ready", "tools": 26}.
//   - globalThis.webcodingTimings: {coreReady, firstAck} in ms since navigation start.
//
// # Event loop (PLATFORM rules 1–2)
//
// Every js.FuncOf callback (the two globals, the delegated DOM listeners, the preview shim's
// message callback) is made with jsbridge.Func: it copies the strings it needs out of the
// event, calls preventDefault where needed, and hands the rest to a goroutine (jsbridge.Go or
// jsbridge.Promise). Nothing that may wait — the registry, IndexedDB, the preview ack — ever
// runs inside a callback, and every goroutine recovers from panics (wasm TestBrowserCallbacksRecover;
// the render loop recovers per render and per feature, docs/design.md §5.28). main itself blocks only
// on the first IndexedDB load (not a callback), then parks in select{}.
//
// # UI
//
// UI actions go through the same JSON-RPC entry as everything else: buttons call tools/call
// with _meta {source:"local", mode:"direct"}; prompts and the 14 recipe chips call agent/run
// (agent mode, so writes wait for Approve/Deny cards; the first card's Approve button gets
// focus); Escape calls approvals/denyAll and cancels the run (notifications/cancelled).
// The editor is CodeMirror 6 (SPEC §2.7), mounted by site/js/editor.js as
// globalThis.webcodingEditor; Go only sets its document (a changed text is a fresh state, so a
// workspace undo/redo or an agent write clears CodeMirror's keystroke history), locks it
// read-only while an agent chain runs, and listens to its change/cursor/blur events (editor.go)
// to render the header: "Ln L, Col C · N lines" and the "N / 80,000 chars" budget in code
// points, marked over budget without ever truncating.
// Editor typing keeps a local draft and flushes it through workspace.writeFile (direct mode,
// expectedRevision) after 650 ms idle, on blur, Ctrl/Cmd+S, and before any other action (a
// rejected write keeps the typed text);
// Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z (or Ctrl+Y) outside text fields call workspace.undo/redo;
// Export calls preview/export and downloads <rootName>.html; "Download as ZIP" calls
// workspace/archive and downloads <rootName>.zip, "Upload files" (a hidden multiple file
// input, or files dropped on the explorer) sends the files to workspace/upload and reports
// "Uploaded N file(s)" and each refused file in the chat (transfer.go). The explorer's New file, Rename,
// Delete and Revert open an in-app modal <dialog> (focus trap, Escape, focus return; never
// window.confirm) and then call workspace.createFile/renameFile/deleteFile/revertFile;
// Download calls workspace.downloadFile (a Blob link). The inspector (inspector.go) has the
// execution trace (trace.go: wasm/trace fed by the observe hook, agent.request brackets from
// studio.WithAgentRequests) and the tool catalog (catalog.go: wasm/toolcatalog; Run sample is a
// direct tools/call). A second tab that cannot take the
// workspace Web Lock loads the workspace read-only (writes stay in memory, with a notice); a
// lock request the browser refuses (site data blocked: SecurityError) is memory mode with
// this tab writable, never "open in another tab" (lock.go lockBlocked); a
// new deployment taking over shows "Reload studio". At start the studio asks for
// persistent storage (navigator.storage.persist) and shows the answer in the header.
// With an OpenRouter key in the provider settings (settings.go: #settings-dialog, localStorage
// context-action.openrouter.*), prompts and recipes call agent/openrouter instead of agent/run
// (provider.go): the fetch transport (wasm/adapters/fetch) contacts only the configured
// endpoint, the key reaches the loop through studio.OpenRouterOptions.APIKey (never in params),
// retry notices appear in the chat, and provider failures offer "Open provider settings" /
// "Use local agent & retry" (recovery.go rules). A loopback endpoint (a local server: the
// Ollama, LM Studio, llama.cpp presets) runs without a key; keys are kept per endpoint origin.
// Replies stream by default: streaming.go appends each turn's text into one keyed entry, at
// most one render per animation frame, and adds the usage entry (docs/design.md §5.16). A failed call or run in the chat carries its
// details and the recovery actions of its code (recovery.go: Retry for retryable errors,
// Re-read & retry for revision conflicts, Refresh preview for preview sync codes; features add
// rules with registerRecovery). The conversation is kept per workspace in IndexedDB and restored
// after a reload (chats.go over wasm/chats and adapters/idb.Chats; docs/design.md §5.20); the
// reasoning setting lives in the settings dialog (reasoning_setting.go). Ctrl/Cmd+P quick open and Ctrl/Cmd+Shift+F workspace search are
// modal combobox dialogs (palette.go); ?prompt= fills the composer only (deeplink.go); approval
// cards show the diff the core computes (workspace/diffCall) and "Approve all for this run"
// (approval.go, approvals/approveRun); the inspector's History panel lists checkpoints, diffs
// one against the current files and restores it through workspace/restoreCheckpoint
// (history.go; the core computes the diff: workspace/diffCheckpoint). The explorer is an ARIA tree with roving focus (tree.go), the
// opened files are an ARIA tablist (tabs.go), and the draft's flushes of one typing burst share
// a _meta.coalesceKey so they fold into one checkpoint (editor.go). Regions are built by
// wasm/ui/views (pure functions on wasm/ui/markup, which escapes by construction) and patched
// by the shim's keyed morph (site/js/morph.js, idiomorph): elements keep their identity by id,
// so focus, selection and a click in flight survive every redraw; unchanged regions are not
// touched (tree, tabs, transcript, console memoize their input). See docs/ui.md.
//
// Owns: the page: DOM views, events, settings and the wiring of the js adapters into studio.Assemble.
//
// Must never: hold a rule a core package owns (views show what the core computes) or be imported (layer order: wasm/doc.go).
package main
