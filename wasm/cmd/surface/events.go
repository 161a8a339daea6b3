//go:build js && wasm

package main

import (
	"context"
	"strings"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
)

// action is one delegated click: data-action, data-path and the element's other data-*.
type action struct {
	name string
	path string
	id   string
	data map[string]string
}

func (a *app) on(target js.Value, event string, fn func(this js.Value, args []js.Value) any) {
	f := jsbridge.Func("dom."+event, fn)
	a.listeners = append(a.listeners, f)
	target.Call("addEventListener", event, f)
}

// bindDOM installs the delegated listeners: clicks on [data-action], and input/change of the
// generated fields ([data-tool][data-field]) and the prompt ([data-input=prompt]), whose values
// the page keeps so a redraw never loses them. Each listener reads what it needs
// synchronously and hands the work to a goroutine.
func (a *app) bindDOM() {
	doc := js.Global().Get("document")
	a.on(doc, "click", func(_ js.Value, args []js.Value) any {
		el := args[0].Get("target")
		if el.Get("closest").Type() != js.TypeFunction {
			return nil
		}
		btn := el.Call("closest", "[data-action]")
		if btn.IsNull() || btn.Get("disabled").Truthy() {
			return nil
		}
		act := action{name: attr(btn, "data-action"), path: attr(btn, "data-path"), id: attr(btn, "data-id"), data: dataset(btn)}
		if act.name == "set-key" {
			// Read the provider fields now, and the key from its field, which is cleared at once:
			// the key lives only in this page's memory.
			act.data = map[string]string{}
			for name, id := range map[string]string{"kind": "provider-kind", "endpoint": "provider-endpoint", "model": "provider-model", "key": "openrouter-key"} {
				if f := doc.Call("getElementById", id); !f.IsNull() {
					act.data[name] = strings.TrimSpace(f.Get("value").String())
				}
			}
			if f := doc.Call("getElementById", "openrouter-key"); !f.IsNull() {
				f.Set("value", "")
			}
		}
		args[0].Call("preventDefault")
		jsbridge.Go("action."+act.name, func() { a.dispatch(context.Background(), act) })
		return nil
	})
	field := func(_ js.Value, args []js.Value) any {
		el := args[0].Get("target")
		if el.Type() != js.TypeObject || el.Get("getAttribute").Type() != js.TypeFunction {
			return nil
		}
		switch attr(el, "data-input") {
		case "prompt":
			a.mu.Lock()
			a.st.prompt = el.Get("value").String()
			a.mu.Unlock()
			return nil
		case "provider-kind", "provider-endpoint", "provider-model":
			a.setProviderField(attr(el, "data-input"), el.Get("value").String())
			return nil
		}
		tool, name := attr(el, "data-tool"), attr(el, "data-field")
		if tool == "" || name == "" {
			return nil
		}
		v := el.Get("value").String()
		if el.Get("type").String() == "checkbox" {
			v = map[bool]string{true: "true", false: "false"}[el.Get("checked").Truthy()]
		}
		a.setField(tool, name, v)
		return nil
	}
	a.on(doc, "input", field)
	a.on(doc, "change", field)
	a.on(doc, "keydown", func(_ js.Value, args []js.Value) any {
		ev := args[0]
		// Ctrl/Cmd+Enter in the prompt sends it.
		if ev.Get("key").String() == "Enter" && (ev.Get("ctrlKey").Truthy() || ev.Get("metaKey").Truthy()) {
			if t := ev.Get("target"); t.Type() == js.TypeObject && attr(t, "data-input") == "prompt" {
				ev.Call("preventDefault")
				jsbridge.Go("action.send", func() { a.dispatch(context.Background(), action{name: "send"}) })
			}
		}
		return nil
	})
	a.bindEditor()
}

// dispatch runs one action; every tool-backed one is a tools/call through the handler.
func (a *app) dispatch(ctx context.Context, act action) {
	switch act.name {
	case "run-tool":
		a.runCard(ctx, act.data["tool"])
	case "approve", "deny":
		decision := map[string]string{"approve": "allow", "deny": "deny"}[act.name]
		if err := a.rpc(ctx, "", "approvals/resolve", map[string]any{"id": act.id, "decision": decision}, nil); err != nil {
			a.addEntry(surfaceview.Entry{Kind: "error", Text: err.Error()})
		}
	case "send":
		a.send(ctx)
	case "cancel-run":
		a.cancelRun(ctx)
	case "set-key":
		a.useProvider(act.data["kind"], act.data["endpoint"], act.data["model"], act.data["key"])
	case "forget-key":
		a.forgetProvider()
	case "local-retry":
		a.localRetry(ctx, act.id)
	case "keep-mine":
		a.keepMine(ctx)
	case "take-current":
		a.takeCurrent(ctx)
	default:
		if a.surface == surfaceview.Live && a.liveAction(ctx, act) {
			return
		}
		if a.surface == surfaceview.Realtime && a.realtimeAction(ctx, act) {
			return
		}
		a.log(1, "unknown action "+act.name)
	}
}

func attr(el js.Value, name string) string {
	v := el.Call("getAttribute", name)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// dataset copies el's data-* attributes (dataset keys: data-tool → "tool").
func dataset(el js.Value) map[string]string {
	out := map[string]string{}
	ds := el.Get("dataset")
	keys := js.Global().Get("Object").Call("keys", ds)
	for i := 0; i < keys.Length(); i++ {
		k := keys.Index(i).String()
		out[k] = ds.Get(k).String()
	}
	return out
}
