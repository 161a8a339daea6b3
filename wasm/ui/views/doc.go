// Package views turns the studio UI's state into HTML (issue 15): every function here is a
// pure function of its arguments — no JavaScript, no registry calls, no clocks except the
// time values passed in — so the UI's look and its rules test natively in milliseconds
// (golden files under testdata/, `go test ./wasm/ui/views -update` rewrites them).
//
// # What it owns
//
//   - the HTML of every region the page draws from Go (status, storage, notice, recipes,
//     transcript, console, diagnostics, preview error, approval cards with their diff, editor
//     tabs, explorer tree, tool catalog, execution trace, version history, palette, folder
//     header, model picker), built with wasm/ui/markup, which escapes by construction;
//   - the stable element ids those regions use (FileID, TabID, FolderID, CatalogToolID,
//     TraceRowID): the page's morph (site/js/morph.js) keeps an element's identity by id, so a
//     redraw never replaces a button under the pointer;
//   - UI rules that need no JavaScript (tree nesting, quick-open matching, recovery rules,
//     denial text).
//
// # What it must never do
//
// Import syscall/js or any adapter, perform I/O, or keep package-level mutable state: the
// glue in wasm/cmd/browser reads the DOM, calls the core and feeds these functions.
package views
