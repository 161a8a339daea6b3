// Package cssscan finds the references of a CSS source that the preview compiler rewrites:
// `@import` rules and `url(…)` functions (REFERENCE §5.2 step 1).
//
// Scan is a single linear pass that skips comments and string literals, so look-alikes
// inside them are ignored. It also reports what text would close an unterminated comment
// and unclosed blocks, so that a stylesheet inlined into another cannot swallow the rules
// that follow it.
//
// This package is core: standard library only, no syscall/js, no I/O.
//
// Owns: the CSS tokenizer the preview compiler uses to find url() and @import.
//
// Must never: import another package of this module or resolve paths (layer order: wasm/doc.go,
// enforced by wasm/layout_test.go).
package cssscan
