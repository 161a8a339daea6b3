// Package toolcatalog is the pure logic of the studio's tool catalog panel (issue 9): scope
// filters and search over a canonical tools/list, counts per scope from annotations and
// namespaces, a one-line policy summary, sample arguments generated from a tool's input
// schema (Sample), the sample editor's keep-user-edits rule (Editor), and the tools/call
// request a direct run sends (CallRequest).
//
// Scopes: "all"; "read-only" (annotations.readOnlyHint); "workspace" and "preview" (the name's
// namespace before the first "."). Search is a case-insensitive substring match over name,
// title and description.
//
// Everything here is pure Go with no state shared between calls; an Editor is not safe for
// concurrent use (the UI owns one under its lock).
//
// Owns: the studio's tool catalogue: names, schemas and annotations of the tools.
//
// Must never: import the registry or any package above it (layer order: wasm/doc.go, enforced by
// wasm/layout_test.go).
package toolcatalog
