//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/idb"
	"github.com/webcoding/studio/wasm/adapters/iframe"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/adapters/weblock"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/livesurface"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
	"github.com/webcoding/studio/wasm/websurface"
)

// lockWait bounds how long a starting page waits for the workspace lock before it shows the
// workspace read-only (the studio's rule: a page replacing this tab's previous page finds the
// lock still held for a moment).
const lockWait = 1500 * time.Millisecond

// surfaceOf reads <meta name="webcoding-surface" content="live|realtime">; anything else is
// "" (the page cannot start).
func surfaceOf() string {
	doc := js.Global().Get("document")
	m := doc.Call("querySelector", `meta[name="webcoding-surface"]`)
	if m.IsNull() {
		return ""
	}
	switch s := m.Get("content").String(); s {
	case surfaceview.Live, surfaceview.Realtime:
		return s
	}
	return ""
}

// names are the per-surface IndexedDB databases and the lock name.
type names struct {
	catalog, workspaceDB, durableDB, lock string
}

func namesOf(surface string) names {
	if surface == surfaceview.Live {
		return names{livesurface.Catalog, livesurface.WorkspaceDatabase, livesurface.DurableDatabase, "web-coding-live/workspace"}
	}
	return names{websurface.Catalog, websurface.WorkspaceDatabase, websurface.DurableDatabase, "web-coding-realtime/workspace"}
}

func main() {
	jsbridge.OnPanic = func(where string, v any, stack []byte) {
		js.Global().Get("console").Call("error", "webcoding: recovered panic in "+where+": "+fmt.Sprint(v)+"\n"+string(stack))
	}
	surface := surfaceOf()
	a := newApp(surface)
	if surface == "" {
		a.fatal("this page names no surface (meta webcoding-surface must be live or realtime)")
		select {}
	}
	livesurface.Install()
	websurface.Install()
	n := namesOf(surface)
	a.names = n
	a.bindDOM()
	go a.renderLoop()
	a.markDirty()

	ctx := context.Background()
	repo := weblock.NewReadOnly(idb.New(n.workspaceDB))
	state, later := weblock.Acquire(ctx, n.lock, lockWait)
	a.setLock(state)
	if state != weblock.Busy {
		repo.Grant()
	}
	a.base = studio.Ports{
		Log:        a.log,
		Observer:   func(e audit.ToolCallEvent) { a.observe(e) },
		Repository: repo,
	}
	if state != weblock.Busy {
		a.base.Durable = &idb.LazyDurable{Name: n.durableDB} // opened on first use
		a.base.DurableSoleOwner = state == weblock.Held
	}
	// WithAgentRequests is outermost: it brackets agent/run and agent/openrouter (the trace's
	// agent.request rows).
	a.h = rpcsession.New(ctx, studio.WithAgentRequests(studio.WithOpenRouter(a.builder(), a.openRouterOptions()), a.base))
	if err := a.h.Err(); err != nil {
		a.fatal("the " + surface + " session could not be built: " + err.Error())
	}
	a.h.Subscribe(a.handlerEvent)
	a.exposeGlobals()
	jsbridge.Go("boot", func() { a.boot(ctx) })
	if state == weblock.Busy && later != nil {
		jsbridge.Go("workspaceLock", func() { a.takeOver(ctx, repo, later) })
	}
	select {}
}

// builder is the session builder over the current ports: the catalog and queue approvals by
// default, and a fresh preview port per build (see the package doc).
func (a *app) builder() rpcsession.Builder {
	return func(ctx context.Context, cfg rpcsession.Config) (*rpcsession.Session, error) {
		if cfg.Catalog == "" {
			cfg.Catalog = a.names.catalog
		}
		if cfg.Approval.Mode == "" {
			cfg.Approval.Mode = "queue"
		}
		// The new port's first acknowledgement makes the page ready again (its OnChange may
		// fire before this build returns).
		a.mu.Lock()
		a.st.acked = false
		a.mu.Unlock()
		a.portMu.Lock()
		p := a.base
		p.Folder = a.folder
		a.portGen++
		gen := a.portGen
		a.portMu.Unlock()
		port, err := iframe.New(iframe.Options{Shim: js.Global().Get("webcodingPreview"),
			OnChange: func(s iframe.Status) { a.previewChanged(gen, s) }})
		if err != nil {
			a.log(2, err.Error())
		} else {
			p.Preview = port
			a.portMu.Lock()
			a.port = port
			a.portMu.Unlock()
		}
		return studio.Builder(p)(ctx, cfg)
	}
}
