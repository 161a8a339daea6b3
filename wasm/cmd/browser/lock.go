//go:build js && wasm

package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/hack-pad/safejs"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/workspace"
)

// workspaceLock is the Web Lock that makes one tab the writer of the IndexedDB workspace.
const workspaceLock = "web-coding-studio/workspace"

// Lock states reported by acquireWorkspaceLock.
const (
	lockHeld        = "held"        // this tab writes the workspace
	lockBusy        = "busy"        // another tab holds it: this tab is read-only
	lockUnsupported = "unsupported" // no navigator.locks: every tab writes (last write wins)
	// lockBlocked: navigator.locks refused the request (SecurityError: site data blocked for
	// this origin, which blocks IndexedDB too). No tab of this origin can hold the lock or
	// store anything, so this tab is the only writer it can know of: it edits in memory
	// (docs/design.md §5.20; nu16 item 1), never "read-only because of another tab".
	lockBlocked = "blocked"
)

// lockWait bounds how long a starting page waits for the workspace lock before it shows the
// workspace read-only. A page that replaces this tab's previous page (navigation, a retyped
// URL) finds the lock still held for a moment while the old document unloads; a true second
// tab holds it for as long as it stays open.
const lockWait = 1500 * time.Millisecond

// acquireWorkspaceLock requests the workspace lock (a queued request, not ifAvailable) and
// waits at most wait for it. A granted lock is held for the life of the page: the lock
// callback returns a Promise that settles only when the page enters the back/forward cache
// (releaseOnPageHide). It returns lockHeld when the lock came in time; lockBusy when it did
// not, with later closed if and when the still queued request is granted afterwards (the other
// page went away: this page may switch to writable); lockUnsupported without
// navigator.locks; and lockBlocked when the request is rejected before it is granted (a
// SecurityError where the browser blocks site data: the request is refused, not queued). It
// must be called from a goroutine.
func acquireWorkspaceLock(ctx context.Context, wait time.Duration) (state string, later <-chan struct{}) {
	locks := navigatorProp("locks") // navigatorProp: a throwing getter is "unsupported", not the end of the program
	if locks.Type() != js.TypeObject || locks.Get("request").Type() != js.TypeFunction {
		return lockUnsupported, nil
	}
	granted := make(chan struct{})
	var release js.Value // resolves the held lock's Promise (set once granted)
	cb := jsbridge.Func("locks.request", func(_ js.Value, args []js.Value) any {
		close(granted)
		// Hold the lock until the page goes away (or enters the back/forward cache).
		return js.Global().Get("Promise").New(jsbridge.Func("locks.hold", func(_ js.Value, args []js.Value) any {
			release = args[0]
			return nil
		}))
	})
	options := js.Global().Get("Object").New()
	abort := js.Null()
	if ac := js.Global().Get("AbortController"); ac.Type() == js.TypeFunction {
		abort = ac.New()
		options.Set("signal", abort.Get("signal"))
	}
	refused := make(chan struct{})
	var refusedOnce sync.Once
	refuse := func() { refusedOnce.Do(func() { close(refused) }) }
	p, err := safeRequest(locks, options, cb)
	if err != nil { // a synchronous throw: the same refusal
		return lockBlocked, nil
	}
	// An aborted queued request rejects its Promise: that is expected, not an error to log.
	// Any other rejection before the grant (SecurityError: site data blocked) is a refusal.
	p.Call("catch", jsbridge.Func("locks.refused", func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeObject && args[0].Get("name").String() == "AbortError" {
			return nil
		}
		refuse()
		return nil
	}))
	releaseOnPageHide(func() {
		select {
		case <-granted:
			if release.Type() == js.TypeFunction {
				release.Invoke()
			}
		default:
			if !abort.IsNull() {
				abort.Call("abort")
			}
		}
	})
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-granted:
		return lockHeld, nil
	case <-refused:
		return lockBlocked, nil
	case <-t.C:
		return lockBusy, granted
	case <-ctx.Done():
		return lockBusy, granted
	}
}

// releaseOnPageHide gives up the workspace lock when the page enters the back/forward cache
// (pagehide with persisted): a cached page keeps its locks while its scripts are frozen, so a
// user who navigated away from the writing tab left every other tab read-only, saying "another
// tab saves it" while none could (issue 14 tester finding). drop releases a held lock or
// aborts a queued request. A page restored from the cache (pageshow with persisted) reloads:
// it starts again and takes the lock or opens read-only, as any new page does.
func releaseOnPageHide(drop func()) {
	w := js.Global()
	w.Call("addEventListener", "pagehide", jsbridge.Func("dom.pagehide", func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Get("persisted").Truthy() {
			drop()
		}
		return nil
	}))
	w.Call("addEventListener", "pageshow", jsbridge.Func("dom.pageshow", func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Get("persisted").Truthy() {
			w.Get("location").Call("reload")
		}
		return nil
	}))
}

// errReadOnly is the storage error of a tab that does not hold the workspace lock.
var errReadOnly = errors.New("this workspace is open in another tab of this browser, which saves it; close that tab to edit here")

// readOnlyRepository loads the stored workspace but refuses every write while the page does
// not hold the workspace lock, so a second tab shows the workspace without overwriting the
// first tab's edits; the manager then runs in memory mode with errReadOnly as its
// storageError. Once the lock is granted later (grant), writes pass through: the page then
// rebuilds its session, which hydrates from IndexedDB again (nothing stored is overwritten).
type readOnlyRepository struct {
	inner    workspace.Repository
	writable *atomic.Bool
}

func newReadOnlyRepository(inner workspace.Repository) readOnlyRepository {
	return readOnlyRepository{inner: inner, writable: new(atomic.Bool)}
}

// Writable implements workspace.WriteGate: while the page does not hold the lock, the core
// refuses every edit (WORKSPACE_READ_ONLY), so nothing typed, approved, run or uploaded here
// can later be written over the other tab's work (issue 14).
func (r readOnlyRepository) Writable() error {
	if !r.writable.Load() {
		return errReadOnly
	}
	return nil
}

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

// grant lets writes through (the page now holds the workspace lock).
func (r readOnlyRepository) grant() { r.writable.Store(true) }

func (r readOnlyRepository) Load(ctx context.Context) (workspace.Snapshot, error) {
	return r.inner.Load(ctx)
}

func (r readOnlyRepository) SaveSnapshot(ctx context.Context, s workspace.Snapshot) error {
	if !r.writable.Load() {
		return errReadOnly
	}
	return r.inner.SaveSnapshot(ctx, s)
}

func (r readOnlyRepository) SaveChanges(ctx context.Context, m workspace.Metadata, put []*workspace.File, del []string) error {
	if !r.writable.Load() {
		return errReadOnly
	}
	return r.inner.SaveChanges(ctx, m, put, del)
}

// takeOverWorkspace runs when the lock of a page that started read-only is granted later:
// the repository becomes writable, session/configure {} builds a fresh session hydrated from
// IndexedDB (the stored workspace wins over this page's unsaved in-memory view), the notice
// is cleared and the preview remounted. Folder links and durable operations still need a
// reload (their ports are assembled at start). It runs on its own goroutine.
func (a *app) takeOverWorkspace(ctx context.Context, repo readOnlyRepository, later <-chan struct{}) {
	<-later
	repo.grant()
	// The rebuilt session hydrates from IndexedDB (the other tab's last saved state), at a
	// revision above this page's (the preview port outlives the session). Nothing of this
	// page's read-only view is written: it accepted no edit, and any editor text is dropped.
	if err := a.rpc(ctx, "", "session/configure", map[string]any{}, nil); err != nil {
		a.log(2, "workspace lock granted, but the session could not be rebuilt: "+err.Error())
		return
	}
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

// safeRequest calls locks.request(workspaceLock, options, cb), returning a synchronous throw
// as an error instead of unwinding through the Go runtime.
func safeRequest(locks, options js.Value, cb js.Func) (js.Value, error) {
	v, err := safejs.Safe(locks).Call("request", workspaceLock, safejs.Safe(options), safejs.Safe(cb.Value))
	if err != nil {
		return js.Undefined(), err
	}
	return safejs.Unsafe(v), nil
}

// navigatorProp returns navigator[name] (e.g. "locks", "storage") read with Reflect.get
// through safejs (settings.go's webStorage does the same for Web Storage), or undefined when
// it is missing or its getter throws: a throwing getter read with a plain js.Value.Get
// unwinds through the Go runtime and ends the program (issue 14).
func navigatorProp(name string) js.Value {
	reflect, err := safejs.Global().Get("Reflect")
	if err != nil {
		return js.Undefined()
	}
	nav, err := reflect.Call("get", safejs.Global(), "navigator")
	if err != nil || nav.IsUndefined() || nav.IsNull() {
		return js.Undefined()
	}
	v, err := reflect.Call("get", nav, name)
	if err != nil {
		return js.Undefined()
	}
	return safejs.Unsafe(v)
}
