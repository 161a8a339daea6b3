// Package studio assembles the studio core: registry, catalog, ports. Both entries (js and
// wasip1) call Assemble so that the tool catalog, policies and schemas are identical.
package studio

import "github.com/webcoding/studio/wasm/abi"

// Ports are the host adapters. The zero value uses in-memory implementations.
type Ports struct {
	// Log receives diagnostic lines (never protocol bytes). Nil discards them.
	Log func(level int, msg string)
}

// Assemble builds the core and returns its ABI handler. (Placeholder: the real assembly is
// being written.)
func Assemble(p Ports) *abi.Handler { return &abi.Handler{} }
