// Package surfaceview holds the pure views of the two surface pages (issue 18): the Live Code
// Editor (/live/, catalog "live") and realtime web coding (/realtime/, catalog "realtime").
// Each view is a function state → markup.HTML; the page's entry (wasm/cmd/surface) fills its
// regions with them through the keyed morph (globalThis.webcodingMorph), never innerHTML.
//
// # Regions and stable hooks (browser tests drive the page through them)
//
//   - #surface-status (StatusHTML): #status-text (data-ready), #lock-state (data-lock),
//     #provider-state, #studio-link (href "./": the page's <base> is the site root).
//   - #surface-doc (LiveDocHTML / RealtimeDocHTML): #workspace-revision, #document-revision
//     (live), #preview-state (data-state), buttons [data-action=open-file|open-tab][data-path],
//     [data-action=set-scenario][data-scenario], #run-scenario, #reset-document, #save-file,
//     #save-all, #connect-folder, #doc-conflict (with #conflict-keep [data-action=keep-mine] and
//     #conflict-take [data-action=take-current] while the editor holds the refused text),
//     #doc-notice, #dirty-paths, #folder-name, #scenario-run.
//   - #surface-palette (PaletteHTML): one #tool-<id> card per tool (ToolID), fields
//     [data-tool][data-field], #run-<id> [data-action=run-tool][data-tool], #result-<id>
//     (data-state ok|error).
//   - #surface-chat (ChatHTML): #chat-transcript, #approval-<id>, #approve-<i> / #deny-<i>
//     [data-action=approve|deny][data-id], #chat-prompt [data-input=prompt], #chat-send
//     [data-action=send], #chat-cancel, #agent-mode (data-provider local|openrouter|
//     openai-compatible), the provider area: #provider-kind [data-input=provider-kind],
//     #provider-endpoint, #provider-model, #openrouter-key (the key: never a value attribute),
//     #set-key ("Use provider"), #forget-key ("Use the local agent"), #provider-error; a failed
//     provider run's #local-retry-<key> [data-action=local-retry][data-id].
//   - #surface-trace (TraceHTML): #trace-list, rows #trace-<key> (data-state).
//
// Forms are generated from a tool's inputSchema (FieldsFromSchema): string → input (textarea
// for source-like fields), integer → number, enum → select, boolean → checkbox; defaults come
// from the caller's example table so every card runs as is.
//
// Owns: the markup of the surface pages' regions and the schema → form mapping.
//
// Must never: touch the DOM or syscall/js, call the core, or import a surface package (the
// views show what the entry read through tools/call; layer order: wasm/doc.go, enforced by
// wasm/layout_test.go).
package surfaceview
