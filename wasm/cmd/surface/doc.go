//go:build js && wasm

// Command surface is the GOOS=js entry of the two surface pages of the static site (issue 18):
// the Live Code Editor (site/live/, catalog "live", wasm/livesurface) and realtime web coding
// (site/realtime/, catalog "realtime", wasm/websurface). One module serves both; the page's
// <meta name="webcoding-surface" content="live|realtime"> picks the catalog. The studio's page
// module (wasm/cmd/browser) never carries either surface (docs/design.md §5.15).
//
// # Assembly (main.go, app.go)
//
// The core is the studio's session assembly (studio.Builder) over one surface:
//
//   - Repository: weblock.NewReadOnly(idb.New(<surface>.WorkspaceDatabase)), granted when this
//     tab holds the Web Lock "web-coding-<surface>/workspace" (weblock.Acquire, 1.5 s). A tab
//     without it shows the workspace read-only and says so; when the lock is granted later the
//     repository is granted and the session rebuilt (takeOver).
//   - Durable: IndexedDB <surface>.DurableDatabase, opened on first use (never the studio's
//     names); only in a tab that may write.
//   - Preview: a fresh iframe.Port per session build (builder): the Live Code Editor's
//     document clock restarts at 1 in every build, so a port shared across builds would take
//     revision 1 of the new session for the already acknowledged revision 1 of the old one
//     (iframe.Port.Mount skips a revision it already shows). The shim has one listener
//     (attach replaces it), so the previous port hears nothing more; its late status changes
//     are dropped by generation.
//   - Folder (Live only): the folder picked with "Connect folder" (fsa.Pick), set before a
//     rebuild so the session imports it; a failed import rebuilds without it.
//   - studio.WithOpenRouter over the fetch transport, inside studio.WithAgentRequests (the
//     agent.request bracket of the trace). The provider is chosen in the chat (chat.go):
//     OpenRouter with its key, or an OpenAI-compatible server (endpoint and model; no key for a
//     loopback one), checked by studio.CheckProviderChoice and kept in this page's memory only;
//     the transport reaches only the chosen endpoint's origin (ProviderChoice.Allows), the key
//     is read when a run starts (OpenRouterOptions.APIKey) and never enters params, markup,
//     logs or storage.
//   - Config {catalog, approval.mode "queue"}: model- and local-agent calls that the policy
//     puts to approval (editor.saveFile/saveAll, the mutations) wait for Approve/Deny.
//
// # Page contract
//
// The shim (site/js/surface.js) installs webcodingPreview, webcodingEditor, webcodingMorph
// and webcodingFolder before the module starts. Go fills #surface-status, #surface-palette,
// #surface-doc, #surface-chat and #surface-trace with wasm/ui/surfaceview through the morph (at
// most one render per change, coalesced), drives the CodeMirror widget in #editor-host and the
// iframe in #preview-host, and sets body[data-state] to "ready" once the first preview
// acknowledgement arrived and the UI is drawn ("failed" on a fatal error). Every button and
// palette card is one tools/call through the same handler (direct mode as the UI); chat
// prompts run agent/run (local agent) or agent/openrouter (a provider set; a failed run offers
// "Use local agent & retry", the same prompt through agent/run).
//
// # Globals
//
//   - webcodingHandle(requestJSON) → Promise<responseJSON>: one JSON-RPC 2.0 message, as in
//     the studio (jsbridge.Promise).
//   - webcodingSubscribe(callback(eventJSON)) → unsubscribe: {kind: "ready"|"tool"|"preview"|
//     "approvals"|"session", …}.
//
// Owns: the surface pages' wiring: assembly over one catalog, the lock, the per-build preview
// port, the page's state and its events.
//
// Must never: hold a rule a core package owns (revisions, schemas, approval), render markup
// outside wasm/ui/surfaceview, or be imported (layer order: wasm/doc.go).
package main
