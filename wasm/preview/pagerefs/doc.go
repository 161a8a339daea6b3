// Package pagerefs holds the rules for which parts of an HTML page name other files, shared by
// the preview compiler (wasm/preview, which rewrites them) and the folder import
// (wasm/workspace, which follows them to choose what to import first when a folder is over its
// file limit).
//
// The rules (REFERENCE §5.2 step 3, design.md §5.26): RefAttr says which element attributes
// hold one URL; Srcset splits a srcset attribute into its candidates' URLs; Scan lists every
// reference of a page in source order — those attributes, srcset of img/source, url() in a
// style attribute and in an inline <style> (with its @import), and the module references of
// inline and external-script-free <script> text (static imports and import("literal")).
//
// This package is core: standard library plus the layer-0 scanners, no syscall/js, no I/O.
//
// Owns: the list of URL-bearing HTML attributes and the srcset candidate split.
//
// Must never: resolve paths or read files (its callers do; layer order: wasm/doc.go).
package pagerefs
