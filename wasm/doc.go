// Package wasm documents the tree of Go code that compiles to WebAssembly.
//
// Core packages (everything under wasm/ except adapters/ and cmd/) are pure Go: they build
// for the native host, GOOS=js and GOOS=wasip1, never import syscall/js or host-only libraries,
// and never touch the file system or the network directly. Ports (interfaces) live in the core;
// adapters live in wasm/adapters (js or wasip1, build-tagged) and in host/ (native).
// layout_test.go enforces these rules (STYLE §10).
//
// # Layers
//
// Every package has a layer, and a package imports only packages of a lower layer, so no
// import arrow runs back up and the core never imports wasm/adapters or wasm/cmd
// (layout_test.go, TestLayers, holds the same table and fails on a package without a layer):
//
//	0  jsonstring, preview/cssscan, preview/jsscan, conformance, filediff, ui/markup (leaves)
//	1  mcp, jsonrpc, schema (wire types, schema validation), preview/pagerefs (the page
//	   references the preview resolves and the import follows)
//	2  audit, durable, workspace, preview, planner, provider, toolcatalog (domain),
//	   mcp/mcptest (the tools/call result assertions of the catalogs' tests),
//	   schema/schematest (wasm/schema held to the reference validator; tests only)
//	3  registry, trace, transfer (zip/upload codec), foldersave (durable folder save and reconcile),
//	   durable/memstore, durable/durabletest, workspace/workspacetest
//	4  rpcsession (JSON-RPC session dispatcher), openrouter (provider loop over the registry)
//	5  studio (composition), ui/views (the UI's pure views: state → HTML), chats (kept conversations),
//	   ui/surfaceview (the surface pages' pure views)
//	6  adapters/jsbridge, websurface (the realtime surface, a catalog composed over studio),
//	   livesurface (the Live Code Editor surface, likewise)
//	7  adapters/fetch, adapters/fsa, adapters/idb, adapters/iframe, adapters/hostcall,
//	   adapters/weblock (the single-writer Web Lock)
//	8  cmd/browser (GOOS=js entry), cmd/reactor (GOOS=wasip1 entry, the byte ABI),
//	   cmd/surface (GOOS=js entry of the Live and realtime pages)
//
// Each package's doc says what it owns and what it must never do.
//
// Owns: the layer table and the repository's rules tests (layout_test.go, docrefs_test.go).
//
// Must never: hold code that a build uses (package wasm is documentation and tests only).
package wasm
