// Package preview is the deterministic preview compiler: it turns a workspace snapshot into
// one self-contained HTML document for the sandboxed preview iframe (srcdoc), the standalone
// export, and the diagnostics of preview.getStatus.
//
// It implements REFERENCE §5.1–§5.4 with the decisions of SPEC §2.3 (nonce-carrying bridge
// messages), §2.13 (ready only after load and after the root module import settled), §2.15
// (revision, nonce and asset-URL strategy are inputs; the export has no bridge) and §2.16
// (console forwarding). The bridge message shape of SPEC replaces REFERENCE §5.5.
//
// # Build
//
// Compile picks the entry (index.html, else the first html file, else a waiting page), then
// rewrites the entry's markup in a single pass with a small HTML tokenizer that skips comments
// and raw-text elements:
//
//  1. Stylesheet links (rel contains "stylesheet" or href ends in ".css") become
//     <style data-workspace-source="path"> with @imports inlined recursively (media lists as
//     @media blocks; cycle, limit and unresolved imports become comments; MaxCSSImports per
//     link) and url() references rewritten to asset URLs; other links of that kind are removed.
//  2. Classic scripts with a src naming a workspace JavaScript file are inlined (src removed,
//     other attributes kept) through jsscan.EscapeClassicScript; unresolved ones are removed;
//     inline classic scripts are untouched.
//  3. Module scripts become a bootstrap script holding a JSON map {specifier → rewritten
//     source}; at run time it makes Blob URLs, registers an import map and imports the root
//     (see moduleBootstrap). Module references are found by jsscan.FindRefs and replaced by
//     specifiers (ModuleSpecifierPrefix + URI-encoded path) or data: modules that throw.
//  4. data/href/poster/src of audio, embed, image, img, link, object, source, track and video
//     naming a workspace asset get the asset's URL (Options.AssetURL, or DataURL).
//  5. The bridge script (BridgeScript) goes right after the first <head…>, else right before
//     the first <body…>, else after <html…>, else after a leading doctype, else first — but
//     never after the first <script> element, which it then precedes.
//
// Paths follow one rule (REFERENCE §5.2): trim, ignore empty/"#…"/"data:"/"blob:"/
// "javascript:", refuse other schemes and "//", strip "?…"/"#…", URI-decode (failure =
// unresolved), "/" = root, else relative to the referencing file; "." dropped, ".." pops.
//
// # Safety of inlined text
//
// JSON in bootstrap scripts escapes '<' as \u003c, so module sources can never close their
// element or open an HTML comment. Inlined classic scripts go through
// jsscan.EscapeClassicScript, which removes every "<!--" and "</script" in a way that keeps
// the script's meaning (see there). Inlined CSS has "</style" turned into "<\/style".
//
// # Determinism
//
// Output depends only on the inputs: files are looked up by path but everything is emitted
// in document or discovery order; no map is iterated for output, no clock or randomness is
// used. Invalid UTF-8 in paths, text sources and host asset URLs is replaced by U+FFFD first,
// so the document is valid UTF-8.
//
// # Concurrency
//
// Compile, Diagnose and Export keep no state between calls and may run concurrently;
// Options.AssetURL is called synchronously from the calling goroutine.
//
// # Tests
//
// Golden cases live in testdata/<case>/ (files/ is the input workspace; want.html and
// want.diagnostics.json the expected output); `go test ./wasm/preview -update` rewrites them
// and a directory no case uses fails the run. Tests that execute the generated JavaScript
// (bridge runtime, module bootstrap, escaped classic scripts) run under Node.js when it is
// installed and are skipped otherwise.
//
// # Rationale
//
//   - When the entry has neither <head> nor <body>, the bridge goes after <html…> or a leading
//     doctype instead of first in the file (REFERENCE: "prepended"), because a script before
//     the doctype would switch the document to quirks mode.
//   - The bridge never follows a script element: in a document like
//     `<title>t</title><script>…</script><body>` it goes before the script rather than before
//     <body>, so that script's errors and module import are reported.
//   - A stylesheet link's media attribute is carried over to its <style>.
//   - The @import limit counts imports that are actually inlined (not cyclic or unresolved
//     ones); the module limit counts distinct modules added to the graph, so re-imports of a
//     module already in the graph never hit it (33 distinct imports ⇒ exactly one limit).
//   - Module specifiers keep "data:"/"blob:" references untouched (they are ignored by the
//     diagnostics too and reach no network).
//   - Each module script gets its own bootstrap and import map; with several module scripts
//     the browser merges the maps (first mapping of a specifier wins), so shared modules are
//     evaluated once, as on a real page.
//   - The bridge hands root imports over a non-writable window property
//     (__webcodingPreviewBridge.track), so an import that rejects is reported as an error and
//     ready waits for it; the bootstrap still re-throws the rejection asynchronously.
//
// This package is core: standard library plus its subpackages jsscan and cssscan only; no
// syscall/js, no file or network access. It does not import the workspace package: callers
// convert their files to File.
//
// Owns: the preview compiler: a workspace snapshot in, one HTML document plus diagnostics out.
//
// Must never: import the registry, the workspace manager or any adapter, or touch a DOM (layer
// order: wasm/doc.go, enforced by wasm/layout_test.go).
package preview
