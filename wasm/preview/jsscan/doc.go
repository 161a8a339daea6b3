// Package jsscan is a small, linear-time JavaScript lexer used by the preview compiler.
//
// It does not parse JavaScript. It splits source text into tokens precisely enough to tell
// real code apart from string literals, template-literal text, regular-expression literals
// and comments (REFERENCE §5.3: "only where the match starts in real code"), and offers these
// passes:
//
//   - FindRefs: the module references of a source (`import … from 'x'`, `export … from 'x'`,
//     `import 'x'`, `import('x')`), as spans of the string literal to rewrite;
//   - EscapeClassicScript: neutralises `<!--` and `</script` so a classic script can be
//     inlined between `<script>` and `</script>` without the HTML parser ending the element
//     early or entering the "script data escaped" states (see that function's notes);
//   - FindLocationRefs / RewriteLocation: the references of a script to the page's Location
//     (bare `location`, `window.location`, `document.location`, …), rewritten by the preview
//     compiler to its virtual Location (docs/design.md §5.34);
//   - ScriptDataEnd: where a browser ends a <script> element, following the HTML tokenizer's
//     script-data states (used to read inline scripts and to check EscapeClassicScript).
//
// # Notes
//
// The lexer is iterative (no recursion): nesting depth is bounded only by memory (one int per
// open template `${`). Regex-versus-division is decided from the previous significant token,
// the usual heuristic; a mistake there changes only which region a byte is attributed to,
// never the safety guarantee of EscapeClassicScript. HTML-like comments (`<!--` anywhere, and
// `-->` at the start of a line, ECMAScript Annex B.1.1) are lexed as line comments.
//
// This package is core: standard library only, no syscall/js, no I/O.
//
// Owns: the JavaScript scanner the preview compiler uses to find module specifiers.
//
// Must never: import another package of this module or resolve paths (layer order: wasm/doc.go,
// enforced by wasm/layout_test.go).
package jsscan
