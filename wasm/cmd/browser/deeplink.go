//go:build js && wasm

package main

import (
	"syscall/js"
	"unicode/utf8"
)

// The ?prompt= deep link (issue 9): a link such as /web-coding/?prompt=Make%20it%20emerald
// fills the composer (#prompt) and nothing else — it never runs by itself; the person still
// presses Send. The parameter is removed from the address (history.replaceState) whether it
// was used or not, so a reload or a shared address does not bring it back. A prompt longer
// than maxDeepLinkChars code points is refused with a visible notice in the transcript.

// maxDeepLinkChars bounds the deep-linked prompt, in Unicode code points.
const maxDeepLinkChars = 4000

func init() {
	registerFeature(&feature{name: "deeplink", bind: bindDeepLink})
}

// bindDeepLink reads, applies and removes ?prompt= (runs once in bindDOM, before start).
func bindDeepLink(a *app) {
	loc := js.Global().Get("location")
	if loc.Type() != js.TypeObject {
		return
	}
	url := js.Global().Get("URL").New(loc.Get("href"))
	params := url.Get("searchParams")
	if !params.Call("has", "prompt").Bool() {
		return
	}
	prompt := params.Call("get", "prompt").String()
	params.Call("delete", "prompt")
	if h := js.Global().Get("history"); h.Type() == js.TypeObject {
		h.Call("replaceState", h.Get("state"), "", url.Call("toString"))
	}
	switch n := utf8.RuneCountInString(prompt); {
	case n == 0:
		return
	case n > maxDeepLinkChars:
		a.addEntry(entry{Kind: "info", Text: "The ?prompt= link was not used: it has " + groupThousands(n) +
			" characters, more than the " + groupThousands(maxDeepLinkChars) + " allowed."})
		return
	}
	box := js.Global().Get("document").Call("getElementById", "prompt")
	if box.IsNull() {
		return
	}
	box.Set("value", prompt)
	a.addEntry(entry{Kind: "info", Text: "The prompt from the link is in the composer: press Send to run it."})
}
