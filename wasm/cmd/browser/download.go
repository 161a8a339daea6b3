//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"syscall/js"
)

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
