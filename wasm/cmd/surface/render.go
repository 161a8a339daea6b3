//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/iframe"
	"github.com/webcoding/studio/wasm/adapters/weblock"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/ui/markup"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
	"github.com/webcoding/studio/wasm/ui/views"
)

// morph is globalThis.webcodingMorph (idiomorph), looked up once.
var morph = sync.OnceValue(func() js.Value { return js.Global().Get("webcodingMorph") })

// setRegion morphs the element with id into html when it changed. Without the morph (the
// shim failed to load) the region's innerHTML is replaced.
func (a *app) setRegion(id string, html markup.HTML) {
	s := string(html)
	if a.lastHTML[id] == s {
		return
	}
	el := js.Global().Get("document").Call("getElementById", id)
	if el.IsNull() {
		return
	}
	if m := morph(); m.Type() == js.TypeFunction {
		m.Invoke(el, s)
	} else {
		el.Set("innerHTML", s)
	}
	a.lastHTML[id] = s
}

// renderLoop renders after every state change, coalesced, at most one render per 16 ms (one
// animation frame); a panic in one render is recovered and logged (views.RenderLoop).
func (a *app) renderLoop() {
	views.RenderLoop(a.dirty, a.render, func(v any, stack []byte) {
		a.log(2, fmt.Sprintf("render failed: %v\n%s", v, stack))
	}, 16*time.Millisecond)
}

// snapshot copies the state for one render.
func (a *app) snapshot() state {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.st
	st.files = append([]string(nil), a.st.files...)
	st.dirty = append([]string(nil), a.st.dirty...)
	st.entries = append([]surfaceview.Entry(nil), a.st.entries...)
	st.approvals = append([]registry.Approval(nil), a.st.approvals...)
	st.trace = append([]surfaceview.TraceRow(nil), a.st.trace...)
	return st
}

// render draws every region from the current state (render loop only).
func (a *app) render() {
	st := a.snapshot()
	a.mu.Lock()
	cards := paletteView(a.st.cards)
	a.mu.Unlock()
	body := js.Global().Get("document").Get("body")
	state := "loading"
	switch {
	case st.failed:
		state = "failed"
	case st.booted && st.acked:
		state = "ready"
	}
	provider := "local agent"
	if c, key := a.provider(); c.Provider != "" {
		provider = c.Label() + " · " + c.ModelLabel()
		if key != "" {
			provider += " (key in this page's memory)"
		}
	}
	a.setRegion("surface-status", surfaceview.StatusHTML(surfaceview.Status{Surface: a.surface, Text: st.statusText,
		Ready: state == "ready", Failed: st.failed, Tools: len(cards), Lock: st.lock, Provider: provider}))
	if a.surface == surfaceview.Live {
		a.setRegion("surface-doc", surfaceview.LiveDocHTML(a.liveDocView(st)))
	} else {
		a.setRegion("surface-doc", surfaceview.RealtimeDocHTML(a.realtimeDocView(st)))
	}
	a.setRegion("surface-palette", surfaceview.PaletteHTML(cards))
	a.setRegion("surface-chat", surfaceview.ChatHTML(a.chatView(st)))
	a.setRegion("surface-trace", surfaceview.TraceHTML(st.trace))
	a.renderEditor(st)
	// data-state last: a test that waits for "ready" finds the regions drawn.
	if body.Get("dataset").Get("state").String() != state {
		body.Get("dataset").Set("state", state)
	}
}

// previewLine is the preview state the document region shows.
func previewLine(st state) surfaceview.PreviewLine {
	p := surfaceview.PreviewLine{State: st.preview.State, Revision: st.preview.Revision}
	if st.preview.State == iframe.StateError {
		p.Message = st.preview.Message
	}
	return p
}

// takeOver runs when the lock of a page that started read-only is granted later: the session
// is rebuilt over the stored workspace (the studio's takeOverWorkspace), and only then is the
// repository granted and the lock shown held. Granting first would let the old session —
// hydrated before the other tab's last edits — accept a write during the rebuild and report
// it applied, and the rebuild would then drop it (e2e/browser TestSurfaceSecondTabReadOnly);
// in this order a write during the rebuild is refused WORKSPACE_READ_ONLY. Durable saves
// still need a reload (their port is assembled at start).
func (a *app) takeOver(ctx context.Context, repo *weblock.ReadOnly, later <-chan struct{}) {
	<-later
	if err := a.rpc(ctx, "", "session/configure", map[string]any{}, nil); err != nil {
		a.log(2, "workspace lock granted, but the session could not be rebuilt: "+err.Error())
		return
	}
	repo.Grant()
	a.mu.Lock()
	a.st.lock = weblock.Held
	a.st.notice = ""
	a.mu.Unlock()
	a.addEntry(surfaceview.Entry{Kind: "info", Text: "The other tab closed: this tab now saves the workspace in this browser (reloaded from IndexedDB)."})
}
