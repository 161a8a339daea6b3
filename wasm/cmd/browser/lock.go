//go:build js && wasm

package main

import (
	"context"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/weblock"
	"github.com/webcoding/studio/wasm/workspace"
)

// workspaceLock is the Web Lock that makes one tab the writer of the IndexedDB workspace
// (wasm/adapters/weblock; the other surfaces have their own names).
const workspaceLock = "web-coding-studio/workspace"

// Lock states reported by acquireWorkspaceLock (weblock's states).
const (
	lockHeld        = weblock.Held
	lockBusy        = weblock.Busy
	lockUnsupported = weblock.Unsupported
	lockBlocked     = weblock.Blocked
)

// lockWait bounds how long a starting page waits for the workspace lock before it shows the
// workspace read-only. A page that replaces this tab's previous page (navigation, a retyped
// URL) finds the lock still held for a moment while the old document unloads; a true second
// tab holds it for as long as it stays open.
const lockWait = 1500 * time.Millisecond

// acquireWorkspaceLock is weblock.Acquire of workspaceLock. It must be called from a goroutine.
func acquireWorkspaceLock(ctx context.Context, wait time.Duration) (state string, later <-chan struct{}) {
	return weblock.Acquire(ctx, workspaceLock, wait)
}

// newReadOnlyRepository wraps the IndexedDB repository of a tab that does not hold the lock
// (weblock.ReadOnly: reads pass, writes fail until the lock is granted).
func newReadOnlyRepository(inner workspace.Repository) *weblock.ReadOnly {
	return weblock.NewReadOnly(inner)
}

// navigatorProp is weblock.NavigatorProp: navigator[name], or undefined when missing or throwing.
func navigatorProp(name string) js.Value { return weblock.NavigatorProp(name) }

// refuseReadOnly reports whether this tab is read-only and, if so, says in the chat that what
// (e.g. "Agent runs") is not available here. The core refuses edits anyway (Writable); this
// keeps a refused run from starting at all.
func (a *app) refuseReadOnly(what string) bool {
	a.mu.Lock()
	ro := a.lock == lockBusy
	a.mu.Unlock()
	if ro {
		a.addEntry(entry{Kind: "error", Text: what + " not available: this tab is read-only because the workspace is open in another tab. Close that tab to edit here."})
	}
	return ro
}

// takeOverWorkspace runs when the lock of a page that started read-only is granted later:
// the repository becomes writable, session/configure {} builds a fresh session hydrated from
// IndexedDB (the stored workspace wins over this page's unsaved in-memory view), the notice
// is cleared and the preview remounted. Folder links and durable operations still need a
// reload (their ports are assembled at start). It runs on its own goroutine.
func (a *app) takeOverWorkspace(ctx context.Context, repo *weblock.ReadOnly, later <-chan struct{}) {
	<-later
	// The rebuilt session hydrates from IndexedDB (the other tab's last saved state), at a
	// revision above this page's (the preview port outlives the session). Nothing of this
	// page's read-only view is written: it accepted no edit, and any editor text is dropped.
	// The repository is granted only after the rebuild: granted first, the old session —
	// hydrated before the other tab's last edits — would accept a write during the rebuild,
	// report it applied, and the rebuild would then drop it (found by the surface pages' test
	// TestSurfaceSecondTabReadOnly; the same order as wasm/cmd/surface takeOver). During the
	// rebuild a write is refused WORKSPACE_READ_ONLY.
	if err := a.rpc(ctx, "", "session/configure", map[string]any{}, nil); err != nil {
		a.log(2, "workspace lock granted, but the session could not be rebuilt: "+err.Error())
		return
	}
	repo.Grant()
	a.mu.Lock()
	a.lock = lockHeld
	a.st.notice = ""
	a.draftPath, a.draftText = "", ""
	a.flushedGen = a.draftGen
	a.shownPath, a.shownText = "", "" // the editor takes the reloaded text
	a.mu.Unlock()
	a.addEntry(entry{Kind: "info", Text: "The other tab closed: this tab now saves the workspace in this browser (reloaded from IndexedDB)."})
	a.reload(ctx)
	if err := a.tool(ctx, "preview.refresh", nil, nil); err != nil {
		a.addEntry(entry{Kind: "error", Text: "Preview: " + err.Error()})
	}
	a.requestRefresh()
	a.markDirty()
}
