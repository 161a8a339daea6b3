// Package workspacetest holds the contract suites for the ports of package workspace:
// RunRepository for a workspace.Repository and RunFolder for a workspace.FolderAdapter
// (STYLE §9 "port contract suites"). An adapter counts as done when it passes its suite; the
// in-memory implementations, host/folder's DirFolder and (later) the browser adapters run them.
//
// This package is a test kit: it imports testing, never os or syscall/js.
//
// Owns: the Repository and FolderAdapter contract test kits.
//
// Must never: be imported by non-test code (layer order: wasm/doc.go, enforced by
// wasm/layout_test.go).
package workspacetest
