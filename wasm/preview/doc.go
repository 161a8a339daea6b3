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
// rewrites the entry's markup in a single pass over its tokens. Tokens come from
// golang.org/x/net/html's tokenizer; whether a raw-text element (style, script, title, …) is
// raw text depends on tree construction (not inside <svg>/<math>), so tokenize guesses with a
// model of foreign content and checks the guess against x/net/html's tree builder (see
// tokenize). docs/preview.md describes the model for users.
//
//  1. Stylesheet links become <style data-workspace-source="path"> carrying the link's other
//     attributes (href too, in the preview), with @imports inlined recursively (conditions kept
//     as @layer/@supports/@media blocks; cycle, limit and unresolved imports become comments;
//     MaxCSSImports per sheet; external imports kept and hoisted) and url() references
//     rewritten; alternate, disabled and non-stylesheet links to CSS stay links with a data:
//     href; a link to another site is kept as written. Inline <style> and style attributes are
//     processed the same way. A <base href> naming a workspace location is what the entry's
//     references resolve against (and becomes its virtual URL in the preview).
//  2. Classic scripts with a src naming a workspace JavaScript file are inlined, or, with defer
//     or async, get a data: src; unresolved ones are removed; inline classic scripts keep their
//     text, put on the HTML line it starts on (after that many newlines). Every script ends
//     with "//# sourceURL=<path>" (an inline one with its HTML file's), so a stack frame names
//     the workspace file and its own line.
//  3. Module scripts become inline module scripts importing the root's virtual URL (VirtualURL);
//     every reached module is rewritten once (specifiers → virtual URLs, import.meta.url → the
//     module's virtual URL) and mapped by ONE static import map (virtual URL → data: URL) that
//     follows the bridge. The page's own import map is merged into it.
//  4. data/href/poster/src/background of audio, embed, iframe, image, img, input, link, object,
//     source, track, video and the legacy background elements, href of SVG image/use/feImage,
//     and srcset of img/source, naming a workspace asset get the asset's URL: in the preview
//     (Bridge, no AssetURL) its virtual URL — the asset is in the file table once and the
//     runtime serves it as a blob: URL made in the frame (design.md §5.26) — otherwise
//     Options.AssetURL or DataURL (the export); other local references get their virtual URL
//     in the preview.
//  5. The bridge script (BridgeScript) goes at byte 0, or right after a doctype preceded only by
//     a BOM, whitespace and comments: it is the first script of the document, always.
//
// Paths follow one rule (REFERENCE §5.2): trim, ignore empty/"#…"/"data:"/"blob:"/
// "javascript:", refuse other schemes and "//", strip "?…"/"#…", URI-decode (failure =
// unresolved), "/" = root, else relative to the referencing file; "." dropped, ".." pops.
//
// # Safety of inlined text
//
// JSON in the import map escapes '<' as \u003c (and module sources are base64 data: URLs), so
// nothing in it can close the element or open an HTML comment. Inline module texts are the
// page's own (only string literals with safe replacements change). Inlined classic scripts go through
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
// (bridge runtime, rewritten modules, escaped classic scripts) run under Node.js when it is
// installed and are skipped otherwise.
//
// # Rationale
//
//   - The bridge is never placed after page markup: a script hidden from a tokenizer (e.g. in
//     <svg><style>) could otherwise run first and impersonate it (issue 13 item 8).
//   - Modules are static (one import map, inline module scripts) rather than imported from a
//     bootstrap after load, so DOMContentLoaded and load wait for them as in a browser.
//   - A stylesheet link's attributes are carried over to its <style>, so ids, media and titles
//     behave as on the link.
//   - The @import limit counts imports that are actually inlined (not cyclic or unresolved
//     ones); the module limit counts distinct modules added by one module script, so modules
//     already in the document's graph never hit it (33 distinct imports ⇒ exactly one limit).
//   - Module specifiers keep "data:"/"blob:" references untouched (they are ignored by the
//     diagnostics too and reach no network).
//
// This package is core: standard library, golang.org/x/net/html and its subpackages jsscan and
// cssscan only; no syscall/js, no file or network access. It does not import the workspace package: callers
// convert their files to File.
//
// Owns: the preview compiler: a workspace snapshot in, one HTML document plus diagnostics out.
//
// Must never: import the registry, the workspace manager or any adapter, or touch a DOM (layer
// order: wasm/doc.go, enforced by wasm/layout_test.go).
package preview
