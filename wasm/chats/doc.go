// Package chats keeps the studio's conversations across reloads (issue 16; docs/design.md
// §5.20): one Record per conversation — the transcript's presentation projection (Entry:
// messages, run outcomes done/failed/cancelled, tool-call summaries, reasoning), the provider
// history a follow-up prompt continues (openrouter.Message) and the trace's metadata rows
// (trace.ExportRow) — bounded, encoded as JSON and decoded strictly.
//
// The package is core: storage goes through the Backend port (bytes under string keys), so
// the rules run natively under test; the browser's IndexedDB backend is
// wasm/adapters/idb.Chats (database "web-coding-chats"). Store applies every rule in one
// place:
//
//   - the limits (Limits; README "Chats" line): conversations per workspace, entries,
//     provider messages, trace rows, bytes of one entry and of one encoded record;
//   - the API key never reaches the backend: Store.Save scrubs every secret it is given from
//     the encoded bytes and refuses to write if one is still there;
//   - Decode refuses anything but what Encode writes (unknown members, wrong kinds, a history
//     that openrouter.ValidateHistory refuses, values over the limits);
//   - Restore projects a stored record for display after a reload: only actions that still
//     make sense are kept (KeepAction), a run that was running when the page went away is
//     shown as interrupted, a cancelled run says what it had applied.
//
// Owns: the chat record format, its limits, its projection after a reload.
//
// Must never: import syscall/js, hold the API key, write a record over the limits.
package chats
