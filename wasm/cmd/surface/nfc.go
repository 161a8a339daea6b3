//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/webcoding/studio/wasm/workspace"
)

// File names are compared under Unicode NFC (workspace.NameKey). On GOOS=js the workspace
// asks the page for it (workspace.SetNFC): here it is the browser's
// String.prototype.normalize("NFC"), as in the studio's module (docs/design.md §5.19). Without
// it a folder import panics.
func init() {
	normalize := js.Global().Get("String").Get("prototype").Get("normalize")
	workspace.SetNFC(func(s string) string { return normalize.Call("call", s, "NFC").String() })
}
