//go:build js && wasm

// Command hello is the hello-world Go wasm page the cold-start benchmark compares the studio
// with (issue 4 performance goals): it records performance.now() when main runs.
package main

import "syscall/js"

func main() {
	js.Global().Set("helloReady", js.Global().Get("performance").Call("now"))
}
