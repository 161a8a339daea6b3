// Package provider turns the canonical tools/list definitions into the shapes model
// providers accept, and maps tool names between the two worlds.
//
// Canonical tool names keep their dots (workspace.getStatus). OpenAI, Anthropic and
// OpenRouter function names must match ^[A-Za-z0-9_-]{1,64}$, so NameMap maps them
// reversibly ('.' → '_', workspace.getStatus ↔ workspace_getStatus), refuses at registration
// any canonical name that cannot be mapped or that would collide with another after mapping,
// and maps a provider's tool call back to the canonical name before dispatch (SPEC §2.1).
//
// The exports (ToMCP, ToOpenAI, ToAnthropic and their Filtered variants) all start from the
// same canonical definitions, the ones the registry's tools/list already allows. A filtered
// export only narrows that list: a name the allowlist of the registry hid can never come back
// through a filtered export. Provider schemas are the canonical input schemas without the
// top-level "$schema" keyword, which providers reject or ignore.
//
// This package is core and a leaf below the registry (the registry keeps a NameMap): it
// imports only the standard library and wasm/mcp, and must never import the registry, the
// provider loops (wasm/openrouter), syscall/js or host code. It holds no state besides the immutable NameMap, which
// may be shared between goroutines.
//
// # Rationale
//
// The TypeScript original sent dotted names straight to providers, which reject them; here
// the mapping is explicit and checked once, when a tool is registered.
//
// Owns: the reversible canonical ↔ provider tool-name map and the provider-shaped tool exports.
//
// Must never: import the registry, a provider loop (wasm/openrouter) or any adapter (layer order:
// wasm/doc.go, enforced by wasm/layout_test.go).
package provider
