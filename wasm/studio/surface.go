package studio

import (
	"encoding/json"
	"fmt"

	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
)

// What other surfaces (registry compositions over the same session assembly, issue 18) reuse
// from the studio: catalog registration, the preview synchronisation (SyncPreview, session.go)
// and the schema builders. A surface package sits above studio (wasm/doc.go) and registers
// its catalog from the entry that includes it, so an entry that does not import it (the
// page module, which has a size budget) does not carry it.

// CatalogFunc registers a catalog's tools on r over the session's ports and returns the
// session's extra JSON-RPC methods (nil for none). Builder gives it the session's registry
// (policy, approval, durable store and observer already set from the Config) and Ports (with
// Ports.Durable the session's backend).
type CatalogFunc = catalogFunc

// RegisterCatalog makes name selectable through rpcsession.Config.Catalog in every Builder of
// this process. Entries call it at start-up, before the first Builder runs (wasm/cmd/reactor);
// it panics on a blank or taken name or a nil f, like RegisterDurableBackend.
func RegisterCatalog(name string, f CatalogFunc) {
	if name == "" || f == nil {
		panic(fmt.Sprintf("studio: RegisterCatalog(%q): blank name or nil function", name))
	}
	if _, taken := catalogs[name]; taken {
		panic(fmt.Sprintf("studio: RegisterCatalog(%q): the name is taken", name))
	}
	catalogs[name] = f
}

// HasCatalog reports whether name is selectable in this build.
func HasCatalog(name string) bool {
	_, ok := catalogs[name]
	return ok
}

// PreviewPortOf returns p.Preview, or a fresh HeadlessPreview when the host gave none (what a
// session build of the studio uses too).
func PreviewPortOf(p Ports) preview.Port {
	if p.Preview != nil {
		return p.Preview
	}
	return NewHeadlessPreview()
}

// PreviewFiles converts workspace files to the preview compiler's input.
func PreviewFiles(files []*workspace.File) []preview.File { return previewFiles(files) }

// PreviewSnapshotFiles is PreviewFiles of s.Files plus a preview.KindNotImported entry per
// file the last import or reload left out (s.NotImported), so diagnostics name why.
func PreviewSnapshotFiles(s workspace.Snapshot) []preview.File { return snapshotPreviewFiles(s) }

// Prop is one named property of a schema built with InputSchema, OutputSchema or
// ObjectSchema; P makes one.
type Prop = prop

// P returns the property name with the given schema text.
func P(name, schema string) Prop { return p(name, schema) }

// InputSchema returns a closed top-level JSON Schema 2020-12 object (SPEC §2.2) with props in
// order and the required names; OutputSchema is the same shape for results (without the
// studio's persistence meta, which surfaces without storage do not report).
func InputSchema(props []Prop, required ...string) json.RawMessage {
	return document(props, required...)
}

// OutputSchema: see InputSchema.
func OutputSchema(props []Prop, required ...string) json.RawMessage {
	return document(props, required...)
}

// ObjectSchema returns a closed nested object schema (no $schema).
func ObjectSchema(props []Prop, required ...string) string { return object(props, required...) }

// StringSchema is a string of minLen..maxLen code points (maxLen 0: unbounded).
func StringSchema(minLen, maxLen int) string { return str(minLen, maxLen) }

// EnumSchema is a string enum; ConstSchema a const; ArraySchema an array of item;
// IntSchema an integer min..max (max 0: unbounded).
func EnumSchema(values ...string) string { return enum(values...) }

// ConstSchema: see EnumSchema.
func ConstSchema(v string) string { return constant(v) }

// ArraySchema: see EnumSchema.
func ArraySchema(item string) string { return arrayOf(item) }

// IntSchema: see EnumSchema.
func IntSchema(min, max int) string { return intRange(min, max) }

// Shared schema texts: any string, boolean, and a revision (integer ≥ 0).
const (
	SchemaString   = sString
	SchemaBool     = sBool
	SchemaRevision = sRev
)

// Thousands formats n with "," separators ("80,000"), as descriptions state limits.
func Thousands(n int) string { return thousands(n) }

// Name returns the property's name.
func (pr prop) Name() string { return pr.name }
