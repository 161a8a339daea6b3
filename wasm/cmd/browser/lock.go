//go:build js && wasm

package main

import (
	"context"
	"errors"
	"syscall/js"
	"time"

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
)

// acquireWorkspaceLock asks for the workspace lock without waiting (ifAvailable). A granted
// lock is held for the life of the page: the lock callback returns a Promise that never
// settles. It must be called from a goroutine (it waits for the lock manager's answer).
func acquireWorkspaceLock(ctx context.Context) string {
	locks := js.Global().Get("navigator").Get("locks")
	if locks.Type() != js.TypeObject || locks.Get("request").Type() != js.TypeFunction {
		return lockUnsupported
	}
	answer := make(chan bool, 1)
	var cb js.Func
	cb = jsbridge.Func("locks.request", func(_ js.Value, args []js.Value) any {
		granted := len(args) > 0 && !args[0].IsNull() && !args[0].IsUndefined()
		select {
		case answer <- granted:
		default:
		}
		if !granted {
			return nil
		}
		// Hold the lock until the page goes away.
		return js.Global().Get("Promise").New(js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	})
	opts := js.Global().Get("Object").New()
	opts.Set("ifAvailable", true)
	p := locks.Call("request", workspaceLock, opts, cb)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	select {
	case granted := <-answer:
		if granted {
			return lockHeld
		}
		go func() { _, _ = jsbridge.Await(context.Background(), p); cb.Release() }()
		return lockBusy
	case <-ctx.Done():
		return lockUnsupported
	}
}

// errReadOnly is the storage error of a tab that does not hold the workspace lock.
var errReadOnly = errors.New("read-only: this workspace is open in another tab; changes here are not saved")

// readOnlyRepository loads the stored workspace but refuses every write, so a second tab
// shows the workspace without overwriting the first tab's edits; the manager then runs in
// memory mode with errReadOnly as its storageError.
type readOnlyRepository struct{ inner workspace.Repository }

func (r readOnlyRepository) Load(ctx context.Context) (workspace.Snapshot, error) {
	return r.inner.Load(ctx)
}

func (r readOnlyRepository) SaveSnapshot(context.Context, workspace.Snapshot) error {
	return errReadOnly
}

func (r readOnlyRepository) SaveChanges(context.Context, workspace.Metadata, []*workspace.File, []string) error {
	return errReadOnly
}
