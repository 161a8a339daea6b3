// Package studio assembles the studio core — registry, tool catalog, policies, ports — and
// returns its abi.Handler. Both entries (the js build and the wasip1 reactor) call Assemble,
// so the catalog, policies and schemas are identical on every host (SPEC §1).
package studio

import (
	"fmt"
	"time"

	"github.com/webcoding/studio/wasm/abi"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/registry"
)

// Ports are the host adapters. The zero value uses in-memory implementations.
type Ports struct {
	// Log receives diagnostic lines (never protocol bytes). Nil discards them.
	Log func(level int, msg string)
	// Observer receives every tool-call lifecycle event. Nil discards them.
	Observer func(audit.ToolCallEvent)
	// Clock returns the current time (nil: time.Now).
	Clock func() time.Time
}

// Catalog names accepted in abi.Config.Catalog.
const (
	CatalogDemo        = "demo"
	CatalogConformance = "conformance"
)

// catalogs maps a catalog name to the function that registers its tools. Build-tagged files
// add entries (the conformance catalog exists only in builds with the conformance tag,
// SPEC §2.17).
var catalogs = map[string]func(r *registry.Registry, p Ports) error{
	CatalogDemo: registerDemo,
}

// DefaultCatalog is the catalog of a session configured without one.
var DefaultCatalog = CatalogDemo

// Assemble builds the core over the given ports and returns its ABI handler. Each
// session/configure rebuilds the registry with the same ports.
func Assemble(p Ports) *abi.Handler {
	return abi.New(Builder(p))
}

// Builder returns the abi.Builder of the studio over p.
func Builder(p Ports) abi.Builder {
	return func(cfg abi.Config) (*abi.Session, error) {
		name := cfg.Catalog
		if name == "" {
			name = DefaultCatalog
		}
		register, ok := catalogs[name]
		if !ok {
			return nil, fmt.Errorf("studio: catalog %q is not in this build", name)
		}
		opts, queue := abi.RegistryOptions(cfg)
		opts.Observer = p.Observer
		opts.Clock = p.Clock
		if p.Log != nil && opts.Validation == registry.ValidationWarn {
			opts.Warn = func(name string, issues []schemaIssue) {
				p.Log(1, fmt.Sprintf("arguments for %s do not match its schema: %v", name, issues))
			}
		}
		r := registry.New(opts)
		if err := register(r, p); err != nil {
			return nil, err
		}
		return &abi.Session{Registry: r, Approvals: queue}, nil
	}
}
