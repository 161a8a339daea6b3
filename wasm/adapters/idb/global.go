//go:build js && wasm

package idb

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/hack-pad/safejs"
)

// errNoIndexedDB is the error of a page without IndexedDB.
var errNoIndexedDB = errors.New("IndexedDB is not available in this page")

// indexedDBFactory returns globalThis.indexedDB, or an error when it is missing or when reading
// it throws (storage blocked by browser policy throws a SecurityError from the getter itself).
//
// The property is read with Reflect.get through safejs's Call: a plain js.Value.Get of a
// throwing getter lets the JavaScript exception unwind through the Go runtime, which recover
// cannot catch and which leaves the program broken (issue 14: "fatal error: concurrent map
// writes" and "null function" afterwards). A Call that throws is turned into an error.
func indexedDBFactory() (js.Value, error) {
	reflect, err := safejs.Global().Get("Reflect")
	if err != nil {
		return js.Undefined(), fmt.Errorf("IndexedDB could not be reached: %w", err)
	}
	v, err := reflect.Call("get", safejs.Global(), "indexedDB")
	if err != nil {
		return js.Undefined(), fmt.Errorf("IndexedDB is blocked in this page: %w", err)
	}
	if v.IsUndefined() || v.IsNull() {
		return js.Undefined(), errNoIndexedDB
	}
	return safejs.Unsafe(v), nil
}
