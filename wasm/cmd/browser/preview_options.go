//go:build js && wasm

package main

import (
	"context"
	"syscall/js"
)

// Preview options (issue 13): the per-workspace "Allow internet in preview" switch (off by
// default; stored in the studio's localStorage under previewInternetKey + the workspace's root
// name, with the other studio settings), "Clear preview storage", and Back/Forward through
// the workspace pages visited in the preview. They live in #preview-options, under the
// preview status; a change of the switch remounts the preview through preview.refresh (the
// same path as the Refresh button).

const previewInternetKey = "webcoding.preview.allowInternet:"

func init() {
	registerFeature(&feature{
		name: "preview-options",
		start: func(a *app, ctx context.Context) {
			a.mu.Lock()
			root := a.st.rootName
			a.mu.Unlock()
			on := false
			if v, ok := storeGet(previewInternetKey + root); ok && v == "on" {
				on = true
			}
			if a.port != nil && on {
				a.port.SetAllowInternet(true)
				_ = a.tool(ctx, "preview.refresh", nil, nil)
			}
			a.markDirty()
		},
		render: func(a *app) {
			if a.port == nil {
				return
			}
			st := a.port.Status()
			doc := js.Global().Get("document")
			if box := doc.Call("getElementById", "preview-internet"); !box.IsNull() {
				box.Set("checked", a.port.AllowInternet())
			}
			for id, off := range map[string]bool{"preview-back": !st.CanBack, "preview-forward": !st.CanForward} {
				if b := doc.Call("getElementById", id); !b.IsNull() {
					b.Set("disabled", off)
				}
			}
		},
		action: func(a *app, act uiAction) bool {
			if a.port == nil {
				return false
			}
			ctx := context.Background()
			switch act.Name {
			case "preview-internet":
				on := !a.port.AllowInternet()
				a.port.SetAllowInternet(on)
				a.mu.Lock()
				root := a.st.rootName
				a.mu.Unlock()
				v := "off"
				if on {
					v = "on"
				}
				storeSet(previewInternetKey+root, v)
				if err := a.tool(ctx, "preview.refresh", nil, nil); err != nil {
					a.addEntry(a.failureEntry(err))
				}
			case "clear-preview-storage":
				a.port.ClearStorage()
				if err := a.tool(ctx, "preview.refresh", nil, nil); err != nil {
					a.addEntry(a.failureEntry(err))
				}
				a.addEntry(entry{Kind: "info", Text: "Preview storage cleared (localStorage and sessionStorage of the preview)."})
			case "preview-back":
				a.port.Back()
			case "preview-forward":
				a.port.Forward()
			default:
				return false
			}
			a.markDirty()
			return true
		},
	})
}
