package schema

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// AdmitsType reports whether every value of the Go type t, as encoding/json marshals it, is
// valid against s, decided from t and the schema document alone. A tool whose handler returns
// such a type needs no per-call output validation: the registry skips it for that type only
// (docs/performance.md, "Native tools/call A/B (2026-12-06)").
//
// The proof is conservative: false means "not proven", never "invalid". It holds only for a
// struct type (not a pointer: a nil pointer marshals to null) whose schema is a closed-world
// subset of JSON Schema that t fixes by construction:
//   - every schema node has only the keys type, properties, required, additionalProperties,
//     minimum, title, description (and $schema at the root); any other keyword ($ref, enum,
//     const, format, lengths, maximum, patterns, composition, …) means not proven;
//   - a struct is "type": "object"; every exported field is a plain named member (no embedded
//     field, no ",string" option, a tag name of ASCII letters, digits and '_' only, no two
//     fields with one name) that has a property schema admitting its type;
//     additionalProperties is absent, true or false; every required name is a field without
//     omitempty or omitzero;
//   - a string field is "type": "string" with no other assertion; bool "boolean";
//     an unsigned integer "integer" or "number", with minimum absent or at most 0; a signed
//     integer "integer" or "number" with no minimum; float32/float64 "number" with no minimum
//     (a NaN or infinity fails to marshal, which the registry reports as it does today);
//     a nested struct by the same rules;
//   - neither t nor any field type implements json.Marshaler or encoding.TextMarshaler
//     (on the value or the pointer); pointers, interfaces, maps, slices and arrays are never
//     proven.
//
// Results are cached per schema and type. Safe for concurrent use.
func (s *Schema) AdmitsType(t reflect.Type) bool {
	if t == nil {
		return false
	}
	if v, ok := s.admits.Load(t); ok {
		return v.(bool)
	}
	var doc any
	ok := json.Unmarshal(s.raw, &doc) == nil && t.Kind() == reflect.Struct && admits(doc, t, true, 0)
	s.admits.Store(t, ok)
	return ok
}

// admitsCache is the per-schema memo of AdmitsType (reflect.Type → bool).
type admitsCache = sync.Map

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// admits is the proof for one schema node and one Go type (see AdmitsType).
func admits(node any, t reflect.Type, root bool, depth int) bool {
	if depth > 32 {
		return false
	}
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return false
	}
	if b, ok := node.(bool); ok {
		return b // true admits everything; false nothing
	}
	m, ok := node.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		switch k {
		case "type", "properties", "required", "additionalProperties", "minimum", "title", "description":
		case "$schema":
			if !root {
				return false
			}
		default:
			return false
		}
	}
	typ, hasType := m["type"].(string)
	if _, present := m["type"]; present && !hasType {
		return false // a list of types: not proven (rare, and simple to add when needed)
	}
	_, hasMin := m["minimum"]
	switch t.Kind() {
	case reflect.String:
		return hasType && typ == "string" && !hasMin && onlyAnnotations(m)
	case reflect.Bool:
		return hasType && typ == "boolean" && !hasMin && onlyAnnotations(m)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if !hasType || (typ != "integer" && typ != "number") {
			return false
		}
		if hasMin {
			f, ok := m["minimum"].(float64)
			if !ok || f > 0 {
				return false
			}
		}
		return onlyAnnotationsAnd(m, "minimum")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return hasType && (typ == "integer" || typ == "number") && !hasMin && onlyAnnotations(m)
	case reflect.Float32, reflect.Float64:
		return hasType && typ == "number" && !hasMin && onlyAnnotations(m)
	case reflect.Struct:
		return hasType && typ == "object" && !hasMin && admitsStruct(m, t, depth)
	}
	return false
}

// onlyAnnotations reports whether m asserts nothing but its type.
func onlyAnnotations(m map[string]any) bool { return onlyAnnotationsAnd(m) }

func onlyAnnotationsAnd(m map[string]any, also ...string) bool {
	for k := range m {
		switch k {
		case "type", "title", "description", "$schema":
			continue
		}
		found := false
		for _, a := range also {
			found = found || k == a
		}
		if !found {
			return false
		}
	}
	return true
}

func admitsStruct(m map[string]any, t reflect.Type, depth int) bool {
	props, _ := m["properties"].(map[string]any)
	if _, present := m["properties"]; present && props == nil {
		return false
	}
	switch ap := m["additionalProperties"].(type) {
	case nil:
		if _, present := m["additionalProperties"]; present {
			return false
		}
	case bool:
		_ = ap // true or false: every field must have a property schema anyway
	default:
		return false
	}
	optional := map[string]bool{} // field name → may be left out
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			return false
		}
		if !f.IsExported() {
			continue
		}
		name, opts, skip, ok := fieldName(f)
		if !ok {
			return false
		}
		if skip {
			continue
		}
		if _, dup := optional[name]; dup {
			return false
		}
		omit := false
		for _, o := range opts {
			switch o {
			case "omitempty", "omitzero":
				omit = true
			default:
				return false // ",string" and unknown options change or may change the encoding
			}
		}
		optional[name] = omit
		ps, ok := props[name]
		if !ok || !admits(ps, f.Type, false, depth+1) {
			return false
		}
	}
	if req, present := m["required"]; present {
		list, ok := req.([]any)
		if !ok {
			return false
		}
		for _, r := range list {
			name, ok := r.(string)
			omit, isField := optional[name]
			if !ok || !isField || omit {
				return false
			}
		}
	}
	return true
}

// fieldName returns the JSON member name encoding/json uses for f and its tag options; skip
// when the tag is "-"; ok false for a tag this proof does not reason about.
func fieldName(f reflect.StructField) (name string, opts []string, skip, ok bool) {
	tag, hasTag := f.Tag.Lookup("json")
	if hasTag && tag == "-" {
		return "", nil, true, true
	}
	name = f.Name
	if hasTag {
		parts := splitComma(tag)
		if parts[0] != "" {
			name = parts[0]
		}
		opts = parts[1:]
	}
	for _, c := range name {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "", nil, false, false
		}
	}
	return name, opts, false, name != ""
}

func splitComma(s string) []string {
	var out []string
	for {
		i := 0
		for i < len(s) && s[i] != ',' {
			i++
		}
		out = append(out, s[:i])
		if i == len(s) {
			return out
		}
		s = s[i+1:]
	}
}
