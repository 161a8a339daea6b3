//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/hack-pad/safejs"
)

func fmtAny(v any) string { return fmt.Sprint(v) }

// download delivers workspace.downloadFile through a Blob object URL and a temporary <a
// download> element (the browser's download target).
func download(name, mimeType string, data []byte) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("download: %v", v)
		}
	}()
	doc := js.Global().Get("document")
	if doc.IsUndefined() {
		return errors.New("download: no document")
	}
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	opts := js.Global().Get("Object").New()
	opts.Set("type", mimeType)
	blob := js.Global().Get("Blob").New(js.Global().Get("Array").Call("of", arr), opts)
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	link := doc.Call("createElement", "a")
	link.Set("href", url)
	link.Set("download", name)
	link.Set("hidden", true)
	doc.Get("body").Call("appendChild", link)
	link.Call("click")
	link.Call("remove")
	js.Global().Call("setTimeout", js.Global().Get("URL").Get("revokeObjectURL").Call("bind", js.Global().Get("URL"), url), 30000)
	return nil
}

// now is performance.now() in ms.
func now() float64 { return js.Global().Get("performance").Call("now").Float() }

// navigatorProp returns navigator[name] (e.g. "locks", "storage") read with Reflect.get
// through safejs (settings.go's webStorage does the same for Web Storage), or undefined when
// it is missing or its getter throws: a throwing getter read with a plain js.Value.Get
// unwinds through the Go runtime and ends the program (issue 14).
func navigatorProp(name string) js.Value {
	reflect, err := safejs.Global().Get("Reflect")
	if err != nil {
		return js.Undefined()
	}
	nav, err := reflect.Call("get", safejs.Global(), "navigator")
	if err != nil || nav.IsUndefined() || nav.IsNull() {
		return js.Undefined()
	}
	v, err := reflect.Call("get", nav, name)
	if err != nil {
		return js.Undefined()
	}
	return safejs.Unsafe(v)
}
