//go:build js && wasm

package weblock

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

// State is the outcome of Acquire.
type State = string

// Lock states (the strings are shown in the page's data attributes and tests).
const (
	Held        State = "held"        // this tab writes the workspace
	Busy        State = "busy"        // another tab holds it: this tab is read-only
	Unsupported State = "unsupported" // no navigator.locks: every tab writes (last write wins)
	// Blocked: navigator.locks refused the request (SecurityError: site data blocked for this
	// origin, which blocks IndexedDB too). No tab of this origin can hold the lock or store
	// anything, so this tab is the only writer it can know of: it edits in memory
	// (docs/design.md §5.20), never "read-only because of another tab".
	Blocked State = "blocked"
)

// Acquire requests the lock called name (a queued request, not ifAvailable) and waits at
// most wait for it. A granted lock is held for the life of the page (released when the page
// enters the back/forward cache). It returns Held when the lock came in time; Busy when it
// did not, with later closed if and when the still queued request is granted afterwards;
// Unsupported without navigator.locks; Blocked when the request is rejected before it is
// granted. A page that replaces the tab's previous page finds the lock still held for a
// moment while the old document unloads, so wait should cover that (the studio uses 1.5 s).
// It must be called from a goroutine.
func Acquire(ctx context.Context, name string, wait time.Duration) (state State, later <-chan struct{}) {
	locks := NavigatorProp("locks")
	if locks.Type() != js.TypeObject || locks.Get("request").Type() != js.TypeFunction {
		return Unsupported, nil
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
	p, err := safeRequest(locks, name, options, cb)
	if err != nil { // a synchronous throw: the same refusal
		return Blocked, nil
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
		return Held, nil
	case <-refused:
		return Blocked, nil
	case <-t.C:
		return Busy, granted
	case <-ctx.Done():
		return Busy, granted
	}
}

// releaseOnPageHide gives up the lock when the page enters the back/forward cache (pagehide
// with persisted): a cached page keeps its locks while its scripts are frozen, so a user who
// navigated away from the writing tab left every other tab read-only, saying "another tab
// saves it" while none could (issue 14 tester finding). drop releases a held lock or aborts a
// queued request. A page restored from the cache (pageshow with persisted) reloads: it starts
// again and takes the lock or opens read-only, as any new page does.
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

// safeRequest calls locks.request(name, options, cb), returning a synchronous throw as an
// error instead of unwinding through the Go runtime.
func safeRequest(locks js.Value, name string, options js.Value, cb js.Func) (js.Value, error) {
	v, err := safejs.Safe(locks).Call("request", name, safejs.Safe(options), safejs.Safe(cb.Value))
	if err != nil {
		return js.Undefined(), err
	}
	return safejs.Unsafe(v), nil
}

// NavigatorProp returns navigator[name] (e.g. "locks", "storage") read with Reflect.get
// through safejs, or undefined when it is missing or its getter throws: a throwing getter
// read with a plain js.Value.Get unwinds through the Go runtime and ends the program
// (issue 14).
func NavigatorProp(name string) js.Value {
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

// ErrReadOnly is the storage error of a tab that does not hold the workspace lock.
var ErrReadOnly = errors.New("this workspace is open in another tab of this browser, which saves it; close that tab to edit here")

// ReadOnly loads the stored workspace but refuses every write while the page does not hold
// the workspace lock, so a second tab shows the workspace without overwriting the first
// tab's edits; the manager then runs in memory mode with ErrReadOnly as its storage error.
// Once the lock is granted later (Grant), writes pass through: the page then rebuilds its
// session, which hydrates from IndexedDB again (nothing stored is overwritten). The zero
// value is not usable; use NewReadOnly. Safe for concurrent use.
type ReadOnly struct {
	inner    workspace.Repository
	writable atomic.Bool
}

// NewReadOnly wraps inner, refusing writes until Grant.
func NewReadOnly(inner workspace.Repository) *ReadOnly { return &ReadOnly{inner: inner} }

// Grant lets writes through (the page now holds the workspace lock).
func (r *ReadOnly) Grant() { r.writable.Store(true) }

// Writable implements workspace.WriteGate: while the page does not hold the lock, the core
// refuses every edit (WORKSPACE_READ_ONLY), so nothing typed, approved, run or uploaded here
// can later be written over the other tab's work (issue 14).
func (r *ReadOnly) Writable() error {
	if !r.writable.Load() {
		return ErrReadOnly
	}
	return nil
}

// Load reads the stored workspace (reads are never refused).
func (r *ReadOnly) Load(ctx context.Context) (workspace.Snapshot, error) {
	return r.inner.Load(ctx)
}

// SaveSnapshot writes through once granted; before that it fails with ErrReadOnly.
func (r *ReadOnly) SaveSnapshot(ctx context.Context, s workspace.Snapshot) error {
	if !r.writable.Load() {
		return ErrReadOnly
	}
	return r.inner.SaveSnapshot(ctx, s)
}

// SaveChanges writes through once granted; before that it fails with ErrReadOnly.
func (r *ReadOnly) SaveChanges(ctx context.Context, m workspace.Metadata, put []*workspace.File, del []string) error {
	if !r.writable.Load() {
		return ErrReadOnly
	}
	return r.inner.SaveChanges(ctx, m, put, del)
}
