package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// The vocabulary this package compiles (docs/design.md §5.45). Every tool schema of the studio,
// the Live Code Editor and realtime web coding is written in it; a schema that uses anything
// else fails to compile, naming the keyword and where it is, so a limit is never silently not
// enforced (a misspelt "maxLenght" is an error, not an ignored annotation).
//
// Assertions, with JSON Schema 2020-12's meaning (JSON Schema Validation 2020-12, section 6):
//
//	type (a name or a list of names), enum, const,
//	minimum, maximum, exclusiveMinimum, exclusiveMaximum (exact decimal comparison),
//	minLength, maxLength (Unicode code points), minItems, maxItems, uniqueItems,
//	minProperties, maxProperties, required,
//	properties, additionalProperties, items (applicators; boolean schemas anywhere).
//
// Annotations, checked for shape and otherwise ignored: $schema (only Dialect), $comment,
// title, description, default, examples, deprecated, readOnly, writeOnly, and format (an
// annotation in 2020-12 unless the format-assertion vocabulary is in use, which it is not).
//
// Not supported (a compile error): $ref, $defs, $id, $anchor, $dynamicRef, allOf, anyOf,
// oneOf, not, if/then/else, pattern, patternProperties, propertyNames, dependentRequired,
// dependentSchemas, prefixItems, contains, unevaluated*, multipleOf, content*, and any
// keyword JSON Schema does not define. No schema of ours needs them; supporting one means
// adding it here with a differential test against the reference validator (wasm/schema/
// schematest).

// node is one compiled schema. A boolean schema is a node with only always set.
type node struct {
	always *bool // true / false schema

	types []string // allowed JSON types ("integer" admits a number without fraction)

	hasConst bool
	constant any
	enum     []any
	enumMsg  string

	minimum, maximum, exclusiveMinimum, exclusiveMaximum *limit

	minLength, maxLength, minItems, maxItems, minProperties, maxProperties int // -1 = absent
	uniqueItems                                                            bool

	required   []string
	properties map[string]*node
	additional *node // additionalProperties; nil = absent
	items      *node // nil = absent
}

// limit is a numeric bound: its exact value and the float64 that messages print.
type limit struct {
	d decimal
	f float64
}

// maxDepth bounds how deeply schemas may nest (ours nest at most 5 levels).
const maxDepth = 64

var jsonTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

var annotations = map[string]string{
	"$comment": "string", "title": "string", "description": "string", "format": "string",
	"deprecated": "boolean", "readOnly": "boolean", "writeOnly": "boolean",
	"default": "", "examples": "array",
}

// compileNode compiles the decoded schema v found at the JSON Pointer at.
func compileNode(v any, at string, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("schema nests deeper than %d levels at %s", maxDepth, pointerOrRoot(at))
	}
	if b, ok := v.(bool); ok {
		return &node{always: &b}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a schema must be an object or a boolean, got %s", pointerOrRoot(at), jsonType(v))
	}
	n := &node{minLength: -1, maxLength: -1, minItems: -1, maxItems: -1, minProperties: -1, maxProperties: -1}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the first error is the same on every run
	for _, k := range keys {
		if err := n.keyword(k, m[k], at, depth); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// keyword compiles one keyword of a schema object into n.
func (n *node) keyword(k string, v any, at string, depth int) error {
	loc := at + "/" + escapeToken(k)
	bad := func(want string) error {
		return fmt.Errorf("%s: %q must be %s, got %s", loc, k, want, jsonType(v))
	}
	switch k {
	case "$schema":
		if s, ok := v.(string); !ok || s != Dialect || at != "" {
			return fmt.Errorf("%s: only the root may name a dialect, and only %s", loc, Dialect)
		}
	case "type":
		switch t := v.(type) {
		case string:
			if !jsonTypes[t] {
				return fmt.Errorf("%s: %q is not a JSON Schema type", loc, t)
			}
			n.types = []string{t}
		case []any:
			if len(t) == 0 {
				return bad("a type name or a non-empty list of them")
			}
			seen := map[string]bool{}
			for _, e := range t {
				s, ok := e.(string)
				if !ok || !jsonTypes[s] || seen[s] {
					return fmt.Errorf("%s: the list must hold distinct JSON Schema type names", loc)
				}
				seen[s] = true
				n.types = append(n.types, s)
			}
		default:
			return bad("a type name or a list of them")
		}
	case "enum":
		list, ok := v.([]any)
		if !ok {
			return bad("an array")
		}
		n.enum = list
		n.enumMsg = enumMessage(list)
	case "const":
		n.hasConst, n.constant = true, v
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		num, ok := v.(json.Number)
		if !ok {
			return bad("a number")
		}
		d, okd := parseDecimal(string(num))
		f, _ := num.Float64()
		if !okd {
			return bad("a number")
		}
		*map[string]**limit{"minimum": &n.minimum, "maximum": &n.maximum,
			"exclusiveMinimum": &n.exclusiveMinimum, "exclusiveMaximum": &n.exclusiveMaximum}[k] = &limit{d: d, f: f}
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		c, ok := count(v)
		if !ok {
			return bad("a non-negative integer")
		}
		*map[string]*int{"minLength": &n.minLength, "maxLength": &n.maxLength, "minItems": &n.minItems,
			"maxItems": &n.maxItems, "minProperties": &n.minProperties, "maxProperties": &n.maxProperties}[k] = c
	case "uniqueItems":
		b, ok := v.(bool)
		if !ok {
			return bad("a boolean")
		}
		n.uniqueItems = b
	case "required":
		list, ok := v.([]any)
		if !ok {
			return bad("an array of distinct strings")
		}
		seen := map[string]bool{}
		for _, e := range list {
			s, ok := e.(string)
			if !ok || seen[s] {
				return bad("an array of distinct strings")
			}
			seen[s] = true
			n.required = append(n.required, s)
		}
	case "properties":
		props, ok := v.(map[string]any)
		if !ok {
			return bad("an object of schemas")
		}
		n.properties = make(map[string]*node, len(props))
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names) // the first error is the same on every run
		for _, name := range names {
			sv := props[name]
			c, err := compileNode(sv, loc+"/"+escapeToken(name), depth+1)
			if err != nil {
				return err
			}
			n.properties[name] = c
		}
	case "additionalProperties", "items":
		c, err := compileNode(v, loc, depth+1)
		if err != nil {
			return err
		}
		if k == "items" {
			n.items = c
		} else {
			n.additional = c
		}
	default:
		want, ok := annotations[k]
		if !ok {
			return fmt.Errorf("%s: keyword %q is not supported by the studio's schema vocabulary (docs/design.md §5.45)", loc, k)
		}
		if want != "" && jsonType(v) != want {
			return bad("a " + want)
		}
	}
	return nil
}

// count reads a non-negative integer keyword value ("3" or "3.0"). A bound beyond
// math.MaxInt is math.MaxInt, which no input can reach.
func count(v any) (int, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	d, ok := parseDecimal(string(num))
	if !ok || d.neg || !d.isInteger() {
		return 0, false
	}
	if d.digits == "" {
		return 0, true
	}
	if d.bigExp != "" || d.exp > 18 {
		return math.MaxInt, true
	}
	n, err := strconv.ParseInt(d.digits+strings.Repeat("0", int(d.exp)-len(d.digits)), 10, 64)
	if err != nil || n > math.MaxInt {
		return math.MaxInt, true
	}
	return int(n), true
}

// enumMessage is the enum failure text: "value must be one of "a", "b"" for primitive
// values, "value must be "a"" for one, "enum failed" when a value is an object or array.
func enumMessage(list []any) string {
	parts := make([]string, len(list))
	for i, e := range list {
		switch e.(type) {
		case map[string]any, []any:
			return "enum failed"
		}
		parts[i] = fmt.Sprintf("%#v", e)
	}
	if len(parts) == 1 {
		return "value must be " + parts[0]
	}
	return "value must be one of " + strings.Join(parts, ", ")
}

func pointerOrRoot(at string) string {
	if at == "" {
		return "(root)"
	}
	return at
}
