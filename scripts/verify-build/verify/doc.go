// Package verify checks a built static site (the output of `webcoding build`, e.g.
// dist/web-coding) before it is served or deployed (issue 4, "Build and serve"):
//
//   - every resource a page references — HTML src, href, srcset, poster, data, the
//     webcoding-wasm and webcoding-axe metas, CSS url() and @import (stylesheets and inline
//     style), static JS import specifiers, and the service worker's precache list (sw.js
//     ASSETS) — resolves to a path under the base and to a regular file inside the directory;
//   - no page resource points to another origin (absolute http(s) URLs and protocol-relative
//     "//host/…" references are problems; data:, blob: and about:blank are allowed inline
//     resources). Navigation links (<a>, <area>, <form action>) may point anywhere, but a
//     same-origin link must still exist;
//   - every precompressed .gz/.br sibling decompresses to exactly its original.
//
// Runtime requests the scanner cannot see (fetch() with computed URLs) are covered by the
// request audit of the browser tests (e2e/browser).
//
// The HTML and CSS scanners are small hand-written tokenizers (the module has no HTML parser
// dependency): comments, raw-text elements (script, style, textarea, title), quoted and
// unquoted attributes, and entity-decoded attribute values via html.UnescapeString.
package verify
