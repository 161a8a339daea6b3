//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/webcoding/studio/wasm/workspace"
)

// The workspace compares file names under Unicode NFC (workspace.NameKey). In the page the
// browser's String.prototype.normalize("NFC") does it, which keeps x/text's normalization
// tables out of the page module (docs/design.md §5.19); TestNFCMatchesXText (e2e/browser)
// checks that the two agree.
func init() {
	normalize := js.Global().Get("String").Get("prototype").Get("normalize")
	workspace.SetNFC(func(s string) string {
		return normalize.Call("call", s, "NFC").String()
	})
}
