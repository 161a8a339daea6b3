//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/idb"
	"github.com/webcoding/studio/wasm/adapters/iframe"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// browserBuilder makes interactive approvals the browser's default: a configuration without
// an approval mode (the first session, or session/configure {}) gets approval.mode "queue",
// so agent calls wait for Approve/Deny in the page. The first session is built that way
// directly, so a page load hydrates the workspace once (at the stored revision: a reload
// creates no revision, issue 14).
func browserBuilder(build rpcsession.Builder) rpcsession.Builder {
	return func(ctx context.Context, cfg rpcsession.Config) (*rpcsession.Session, error) {
		if cfg.Approval.Mode == "" {
			cfg.Approval.Mode = "queue"
		}
		return build(ctx, cfg)
	}
}

// conformanceHook installs the conformance host (conformance.go, conformance builds only).
var conformanceHook func()

func main() {
	jsbridge.OnPanic = func(where string, v any, stack []byte) {
		js.Global().Get("console").Call("error", "webcoding: recovered panic in "+where+": "+fmt.Sprint(v)+"\n"+string(stack))
	}
	a := newApp()
	wsRepo := idb.New(idb.DefaultName)
	var repo workspace.Repository = wsRepo
	var later <-chan struct{}
	var takeOver func()                                                  // a busy lock granted later: switch to writable (lock.go)
	a.lock, later = acquireWorkspaceLock(context.Background(), lockWait) // lock.go
	if a.lock == lockBusy {
		ro := newReadOnlyRepository(repo)
		repo = ro
		takeOver = func() { a.takeOverWorkspace(context.Background(), ro, later) }
	}
	port, err := iframe.New(iframe.Options{Shim: js.Global().Get("webcodingPreview"), OnChange: a.previewChanged, OnPick: a.onPick}) // pick.go
	ports := studio.Ports{
		Log:        a.log,
		Observer:   func(e audit.ToolCallEvent) { a.observe(e) },
		Repository: repo,
		Downloads:  download,
	}
	if a.lock != lockBusy { // folders and durable saves (folder.go, folder_host.go; issue 8)
		a.folderUIState.host = newFolderHost(wsRepo, a.folderUIState)
		ports.Folders = a.folderUIState.host
		ports.Durable = &idb.LazyDurable{Name: idb.DurableName} // IndexedDB "web-coding-operations", opened on first use
		ports.DurableOwnerID = durableOwnerID()
		// Holding the workspace lock, this tab is the only one that saves: a pending save
		// claim of another tab is one a closed or crashed tab never finished.
		ports.DurableSoleOwner = a.lock == lockHeld
	}
	if err == nil {
		ports.Preview = port
		a.port = port
	} else {
		a.log(2, err.Error())
	}
	// WithAgentRequests is outermost: it brackets agent/run and agent/openrouter (trace.go).
	a.h = rpcsession.New(context.Background(), studio.WithAgentRequests(studio.WithOpenRouter(browserBuilder(studio.Builder(ports)), providerOptions(a)), ports)) // provider.go
	// Approvals and session changes come as the dispatcher's events (app.go handlerEvent).
	a.h.Subscribe(a.handlerEvent)
	a.exposeGlobals()
	if conformanceHook != nil {
		conformanceHook()
	}
	a.start(context.Background())
	if takeOver != nil {
		jsbridge.Go("workspaceLock", takeOver)
	}
	select {}
}
