//go:build js && wasm

package idb

import "syscall/js"

// hideIndexedDB shadows globalThis.indexedDB with undefined (an own, configurable property
// over the Window.prototype accessor) and returns the function that removes the shadow.
func hideIndexedDB() (restore func()) {
	g := js.Global()
	desc := js.Global().Get("Object").New()
	desc.Set("value", js.Undefined())
	desc.Set("configurable", true)
	js.Global().Get("Object").Call("defineProperty", g, "indexedDB", desc)
	return func() { js.Global().Get("Reflect").Call("deleteProperty", g, "indexedDB") }
}
