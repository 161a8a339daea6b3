//go:build js && wasm

// Package weblock is the single-writer rule of a page's workspace across the tabs of one
// browser (issue 14; issue 18 for every surface): a Web Lock (navigator.locks) that one tab
// holds for the life of its page, and a workspace.Repository wrapper that refuses every write
// while the tab does not hold it.
//
// # Lock
//
// Acquire queues a request for a named lock and waits at most a given time. A granted lock is
// held until the page goes away or enters the back/forward cache (a cached page keeps its
// locks while frozen; it reloads when restored). States: Held (this tab writes), Busy (another
// tab holds it: this tab is read-only; the returned channel closes if the queued request is
// granted later), Unsupported (no navigator.locks: every tab writes, last write wins) and
// Blocked (the browser refused the request, e.g. site data blocked: no tab can hold it, so
// this one edits in memory; docs/design.md §5.20).
//
// Each surface has its own lock name ("web-coding-studio/workspace" for the studio,
// "web-coding-live/workspace" and "web-coding-realtime/workspace" for the other two), since
// each keeps its own IndexedDB workspace.
//
// # Read-only repository
//
// ReadOnly loads the stored workspace but refuses SaveSnapshot and SaveChanges with
// ErrReadOnly until Grant, and implements workspace.WriteGate, so the core refuses every edit
// with WORKSPACE_READ_ONLY before it changes anything in memory.
//
// Bindings go through github.com/hack-pad/safejs where a getter or call may throw (a throwing
// call unwinding through the Go runtime would end the program). Acquire must be called from
// a goroutine, never from a js.FuncOf callback (PLATFORM rule 1).
//
// Owns: the workspace Web Lock and the read-only repository of a tab without it.
//
// Must never: import an entry (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package weblock
