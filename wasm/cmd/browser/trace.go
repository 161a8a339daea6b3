//go:build js && wasm

package main

import (
	"context"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/trace"
	"github.com/webcoding/studio/wasm/ui/views"
)

// The execution trace panel (#trace-panel, issue 9, REFERENCE §8). The rows come from one
// place: the lifecycle events of Ports.Observer (this feature's observe hook) — tool calls,
// core operations and the agent.request brackets of wasm/studio.WithAgentRequests — plus the
// catalog's tools/list discovery row. The model (wasm/trace) bounds, correlates and redacts;
// this file renders it and handles the panel's buttons:
//
//   - a row is a button with aria-expanded (data-action trace-toggle): Enter or a click
//     shows its bounded, redacted arguments and result;
//   - "Show all (N)" / "Recent" (the newest 8 rows and the latest prompt run; aria-label Show all / Show recent execution trace);
//   - a session selector (#trace-session) when the rows span two sessions or more;
//   - Clear (disabled while a call runs; only the trace is cleared);
//   - Copy / Download: the metadata-only export (wasm/trace Export, ≤ 8 KiB) of the rows
//     shown (the selected session, Recent or all).

// tracePanelState (app.tracePanel) is the trace panel's state (guarded by mu).
type tracePanelState struct {
	mu       sync.Mutex
	model    *trace.Trace
	expanded map[string]bool
	showAll  bool
	session  string // selector value ("" all sessions)
	status   string // the last Copy/Download/Clear message
	lastKey  string
}

func init() {
	registerFeature(&feature{name: "trace", bind: traceBind, render: traceRender, action: traceAction, observe: traceObserve})
}

// traceObserve records every lifecycle event (never blocks beyond the model's mutex).
func traceObserve(a *app, e audit.ToolCallEvent) {
	a.tracePanel.model.Observe(e)
	a.markDirty()
}

// traceDiscovery records a tools/list (all pages) of n tools that took d.
func traceDiscovery(a *app, n int, at time.Time, d time.Duration) {
	a.tracePanel.model.Discovery(n, at, d)
	a.markDirty()
}

func traceBind(a *app) {
	doc := js.Global().Get("document")
	p := doc.Call("getElementById", "trace-panel")
	if p.IsNull() {
		return
	}
	p.Set("innerHTML", `<div id="trace-toolbar"></div><p id="trace-status" class="trace-status-line" role="status" aria-live="polite"></p><ol id="trace-list" class="trace-list" aria-label="Execution trace rows"></ol>`)
	a.on(doc, "change", func(_ js.Value, args []js.Value) any {
		t := args[0].Get("target")
		if t.Get("id").String() != "trace-session" {
			return nil
		}
		v := t.Get("value").String()
		a.tracePanel.mu.Lock()
		a.tracePanel.session = v
		a.tracePanel.mu.Unlock()
		a.markDirty()
		return nil
	})
}

// traceFilter is the selection the panel shows and exports.
func (a *app) traceFilter() (trace.Filter, bool) {
	a.tracePanel.mu.Lock()
	defer a.tracePanel.mu.Unlock()
	f := trace.SelectorFilter(a.tracePanel.session)
	if !a.tracePanel.showAll {
		f.Recent = trace.RecentRows
	}
	return f, a.tracePanel.showAll
}

func traceRender(a *app) {
	m := a.tracePanel.model
	a.tracePanel.mu.Lock()
	key := strconv.FormatUint(m.Version(), 10) + "|" + strconv.FormatBool(a.tracePanel.showAll) + "|" + a.tracePanel.session +
		"|" + strconv.Itoa(len(a.tracePanel.expanded)) + "|" + a.tracePanel.status
	same := key == a.tracePanel.lastKey
	a.tracePanel.lastKey = key
	session, showAll, status := a.tracePanel.session, a.tracePanel.showAll, a.tracePanel.status
	expanded := make(map[string]bool, len(a.tracePanel.expanded))
	for k, v := range a.tracePanel.expanded {
		expanded[k] = v
	}
	a.tracePanel.mu.Unlock()
	if same {
		return
	}
	all := m.Rows(trace.SelectorFilter(session))
	rows := all
	if !showAll {
		rows = trace.Recent(rows, trace.RecentRows) // the newest rows and the latest prompt run
	}
	sessions := m.Sessions()
	if len(sessions) < 2 && session != "" { // the selected session is gone (Clear): show everything
		a.tracePanel.mu.Lock()
		a.tracePanel.session = ""
		a.tracePanel.mu.Unlock()
		session = ""
	}
	v := views.TraceView{Rows: rows, Expanded: expanded, ShowAll: showAll, Total: len(all), Sessions: sessions,
		Session: session, Running: m.Running() > 0}
	a.setRegion("trace-toolbar", views.TraceToolbarHTML(v))
	// The list is chronological: keep following the newest row unless the user scrolled up.
	list := js.Global().Get("document").Call("getElementById", "trace-list")
	follow := !list.IsNull() && list.Get("scrollTop").Float()+list.Get("clientHeight").Float() >= list.Get("scrollHeight").Float()-8
	if a.setRegion("trace-list", views.TraceListHTML(v)) && follow {
		list.Set("scrollTop", list.Get("scrollHeight"))
	}
	setText("trace-status", status)
	if t := js.Global().Get("document").Call("getElementById", "trace-panel"); !t.IsNull() {
		t.Get("dataset").Set("rows", strconv.Itoa(m.Len()))
	}
}

func traceSetStatus(a *app, s string) {
	a.tracePanel.mu.Lock()
	a.tracePanel.status = s
	a.tracePanel.mu.Unlock()
	a.markDirty()
}

func traceAction(a *app, act uiAction) bool {
	switch act.Name {
	case "trace-toggle":
		id := act.Get("traceId")
		a.tracePanel.mu.Lock()
		if a.tracePanel.expanded[id] {
			delete(a.tracePanel.expanded, id)
		} else {
			a.tracePanel.expanded[id] = true
		}
		if len(a.tracePanel.expanded) > trace.MaxRows { // ids of dropped rows
			for k := range a.tracePanel.expanded {
				if _, ok := a.tracePanel.model.Row(k); !ok {
					delete(a.tracePanel.expanded, k)
				}
			}
		}
		a.tracePanel.lastKey = ""
		a.tracePanel.mu.Unlock()
		a.markDirty()
	case "trace-all", "trace-recent":
		a.tracePanel.mu.Lock()
		a.tracePanel.showAll = act.Name == "trace-all"
		a.tracePanel.mu.Unlock()
		a.markDirty()
	case "trace-clear":
		if a.tracePanel.model.Clear() {
			a.tracePanel.mu.Lock()
			clear(a.tracePanel.expanded)
			a.tracePanel.session = ""
			a.tracePanel.mu.Unlock()
			traceSetStatus(a, "Execution trace cleared.")
		} else {
			traceSetStatus(a, "A call is running: the trace cannot be cleared now.")
		}
	case "trace-copy":
		f, _ := a.traceFilter()
		data := a.tracePanel.model.Export(f, time.Now())
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := copyText(ctx, string(data)); err != nil {
			traceSetStatus(a, "Copy failed: "+err.Error())
		} else {
			traceSetStatus(a, "Copied the trace export ("+strconv.Itoa(len(data))+" bytes).")
		}
	case "trace-download":
		f, _ := a.traceFilter()
		data := a.tracePanel.model.Export(f, time.Now())
		if err := download("webcoding-trace.json", "application/json", data); err != nil {
			traceSetStatus(a, "Download failed: "+err.Error())
		} else {
			traceSetStatus(a, "Downloaded webcoding-trace.json ("+strconv.Itoa(len(data))+" bytes).")
		}
	default:
		return false
	}
	return true
}

// copyText writes s to the clipboard (navigator.clipboard.writeText), waiting for the answer.
func copyText(ctx context.Context, s string) error {
	cb := js.Global().Get("navigator").Get("clipboard")
	if cb.Type() != js.TypeObject || cb.Get("writeText").Type() != js.TypeFunction {
		return errClipboard
	}
	_, err := jsbridge.Await(ctx, cb.Call("writeText", s))
	return err
}

type clipboardError struct{}

func (clipboardError) Error() string { return "the clipboard is not available" }

var errClipboard error = clipboardError{}
