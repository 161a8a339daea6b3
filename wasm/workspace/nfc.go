//go:build !js

package workspace

import "golang.org/x/text/unicode/norm"

// nfc is Unicode Normalization Form C (UAX #15), the normalization NameKey compares names
// under. Native and wasip1 builds use golang.org/x/text/unicode/norm; the page module gets
// the browser's own from wasm/cmd/browser (nfc_js.go; docs/design.md §5.19).
func nfc(s string) string { return norm.NFC.String(s) }
