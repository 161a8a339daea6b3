//go:build js && wasm && conformance

package main

import (
	"context"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/livesurface"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/websurface"
)

// In builds with the conformance tag (never shipped, SPEC §2.17) the page also exposes
// globalThis.webcodingConformanceHandle(requestJSON) → Promise<responseJSON>: a second core
// assembled exactly like the native reference host (studio.Assemble(ctx, studio.Ports{}): memory
// workspace, headless preview), so the conformance vectors run inside the page's GOOS=js
// build as the third host (e2e/browser TestConformanceVectorsInPage). Like the native host it
// installs the realtime and Live Code Editor catalogs (wasm/websurface, wasm/livesurface), so
// the web/* and live/* vectors run in the page too; only this test build carries them — the
// shipped page module does not (docs/design.md §5.24, §5.27, TestPageModuleOmitsSurfaces).
func init() {
	conformanceHook = func() {
		websurface.Install()
		livesurface.Install()
		h := studio.Assemble(context.Background(), studio.Ports{})
		f := jsbridge.Func("webcodingConformanceHandle", func(_ js.Value, args []js.Value) any {
			if len(args) == 0 || args[0].Type() != js.TypeString {
				return js.Global().Get("Promise").Call("reject", js.Global().Get("TypeError").New("a request string is required"))
			}
			req := []byte(args[0].String())
			return jsbridge.Promise(context.Background(), "webcodingConformanceHandle", func(ctx context.Context) ([]byte, error) {
				return h.Handle(ctx, req), nil
			})
		})
		js.Global().Set("webcodingConformanceHandle", f)
	}
}

// conformancePanicFeature panics on request so the browser suite can prove that a panic in one
// render, one delegated click or one keydown is recovered and logged, and that the page keeps
// working afterwards (e2e/browser TestPanicRecoveredPerIteration; docs/design.md §5.28). It is
// in conformance builds only, never in the shipped page. Requests: <body data-conformance-panic
// ="render"> (the next render panics once and clears it), data-conformance-panic="always"
// (every render panics while it is set), a click on an element with
// data-action="conformance-panic", and the key F20.
func init() {
	registerFeature(&feature{name: "conformance-panic",
		render: func(*app) {
			ds := js.Global().Get("document").Get("body").Get("dataset")
			v := ds.Get("conformancePanic")
			if v.Type() != js.TypeString {
				return
			}
			switch v.String() {
			case "render":
				ds.Delete("conformancePanic")
				panic("conformance: render panic on request")
			case "always":
				panic("conformance: render panic on request (always)")
			}
		},
		action: func(_ *app, act uiAction) bool {
			if act.Name != "conformance-panic" {
				return false
			}
			panic("conformance: action panic on request")
		},
		key: func(_ *app, k keyInfo) bool {
			if k.Key != "F20" {
				return false
			}
			panic("conformance: keydown panic on request")
		},
	})
}
