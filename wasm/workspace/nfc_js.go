//go:build js

package workspace

import "sync/atomic"

// pageNFC is the page module's Unicode NFC normalizer (UAX #15), set once at start by
// SetNFC: the browser's String.prototype.normalize("NFC"), so x/text's normalization tables
// (about 30 KB of the page's brotli budget) stay out of the page (docs/design.md §5.19).
var pageNFC atomic.Pointer[func(string) string]

// SetNFC installs the page's NFC normalizer. wasm/cmd/browser calls it from an init
// function, before any workspace exists; a page module that never calls it panics on the
// first name comparison instead of comparing unnormalized names.
func SetNFC(f func(string) string) { pageNFC.Store(&f) }

func nfc(s string) string {
	f := pageNFC.Load()
	if f == nil {
		panic("workspace: no NFC normalizer: the page module must call workspace.SetNFC at start")
	}
	return (*f)(s)
}
