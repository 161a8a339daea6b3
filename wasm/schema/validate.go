package schema

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// validator collects the issues of one validation. Messages follow the wording of the
// reference validator the studio used before (github.com/santhosh-tekuri/jsonschema/v5), so
// recorded conformance vectors and users' error texts did not change; the differential test
// in wasm/schema/schematest keeps them equal.
type validator struct {
	issues []Issue
}

func (va *validator) add(instance, keyword, format string, args ...any) {
	va.issues = append(va.issues, Issue{Path: instance, Keyword: keyword, Message: fmt.Sprintf(format, args...)})
}

// validate checks v (decoded JSON) against n; at is the instance's JSON Pointer, kw the
// schema node's.
func (va *validator) validate(n *node, v any, at, kw string) {
	if n.always != nil {
		if !*n.always {
			va.add(at, kw, "not allowed")
		}
		return
	}
	if len(n.types) > 0 && !typeMatches(n.types, v) {
		// As in the reference: a value of the wrong type gets no other assertion's issue.
		va.add(at, kw+"/type", "expected %s, but got %s", strings.Join(n.types, " or "), jsonType(v))
		return
	}
	if n.hasConst && !equal(v, n.constant) {
		switch n.constant.(type) {
		case map[string]any, []any:
			va.add(at, kw+"/const", "const failed")
		default:
			va.add(at, kw+"/const", "value must be %#v", n.constant)
		}
	}
	if len(n.enum) > 0 && !inEnum(n.enum, v) {
		va.add(at, kw+"/enum", "%s", n.enumMsg)
	}
	switch v := v.(type) {
	case map[string]any:
		va.object(n, v, at, kw)
	case []any:
		va.array(n, v, at, kw)
	case string:
		if n.minLength >= 0 || n.maxLength >= 0 {
			l := utf8.RuneCountInString(v)
			if n.minLength >= 0 && l < n.minLength {
				va.add(at, kw+"/minLength", "length must be >= %d, but got %d", n.minLength, l)
			}
			if n.maxLength >= 0 && l > n.maxLength {
				va.add(at, kw+"/maxLength", "length must be <= %d, but got %d", n.maxLength, l)
			}
		}
	default:
		d, ok := numberOf(v)
		if !ok {
			return
		}
		if n.minimum != nil && d.cmp(n.minimum.d) < 0 {
			va.add(at, kw+"/minimum", "must be >= %v but found %v", n.minimum.f, v)
		}
		if n.exclusiveMinimum != nil && d.cmp(n.exclusiveMinimum.d) <= 0 {
			va.add(at, kw+"/exclusiveMinimum", "must be > %v but found %v", n.exclusiveMinimum.f, v)
		}
		if n.maximum != nil && d.cmp(n.maximum.d) > 0 {
			va.add(at, kw+"/maximum", "must be <= %v but found %v", n.maximum.f, v)
		}
		if n.exclusiveMaximum != nil && d.cmp(n.exclusiveMaximum.d) >= 0 {
			va.add(at, kw+"/exclusiveMaximum", "must be < %v but found %v", n.exclusiveMaximum.f, v)
		}
	}
}

func (va *validator) object(n *node, v map[string]any, at, kw string) {
	if n.minProperties >= 0 && len(v) < n.minProperties {
		va.add(at, kw+"/minProperties", "minimum %d properties allowed, but found %d properties", n.minProperties, len(v))
	}
	if n.maxProperties >= 0 && len(v) > n.maxProperties {
		va.add(at, kw+"/maxProperties", "maximum %d properties allowed, but found %d properties", n.maxProperties, len(v))
	}
	var missing []string
	for _, name := range n.required {
		if _, ok := v[name]; !ok {
			missing = append(missing, quote(name))
		}
	}
	if len(missing) > 0 {
		va.add(at, kw+"/required", "missing properties: %s", strings.Join(missing, ", "))
	}
	var extra []string
	for name, pv := range v {
		if ps, ok := n.properties[name]; ok {
			va.validate(ps, pv, at+"/"+escapeToken(name), kw+"/properties/"+escapeToken(name))
		} else if n.additional != nil {
			extra = append(extra, name)
		}
	}
	if len(extra) == 0 {
		return
	}
	sort.Strings(extra) // one message for the same input on every run
	if a := n.additional; a.always != nil {
		if !*a.always {
			quoted := make([]string, len(extra))
			for i, name := range extra {
				quoted[i] = quote(name)
			}
			sort.Strings(quoted) // in the order of what the message shows
			va.add(at, kw+"/additionalProperties", "additionalProperties %s not allowed", strings.Join(quoted, ", "))
		}
		return
	}
	for _, name := range extra {
		va.validate(n.additional, v[name], at+"/"+escapeToken(name), kw+"/additionalProperties")
	}
}

func (va *validator) array(n *node, v []any, at, kw string) {
	if n.minItems >= 0 && len(v) < n.minItems {
		va.add(at, kw+"/minItems", "minimum %d items required, but found %d items", n.minItems, len(v))
	}
	if n.maxItems >= 0 && len(v) > n.maxItems {
		va.add(at, kw+"/maxItems", "maximum %d items required, but found %d items", n.maxItems, len(v))
	}
	if n.uniqueItems {
		if j, i, ok := firstDuplicate(v); ok {
			va.add(at, kw+"/uniqueItems", "items at index %d and %d are equal", j, i)
		}
	}
	if n.items != nil {
		for i, e := range v {
			va.validate(n.items, e, at+"/"+strconv.Itoa(i), kw+"/items")
		}
	}
}

// firstDuplicate returns the first item i equal to an earlier one and the first such earlier
// item j. It keys each item by its canonical form (canonical), so it takes time linear in
// the array's bytes (the key of an object sorts its member names), not quadratic in its
// length: an argument is at most 32 MiB (mcp.MaxRequestBytes).
func firstDuplicate(v []any) (j, i int, ok bool) {
	if len(v) < 2 {
		return 0, 0, false
	}
	first := make(map[string]int, len(v))
	var b strings.Builder
	for i, e := range v {
		b.Reset()
		canonical(&b, e)
		k := b.String()
		if j, dup := first[k]; dup {
			return j, i, true
		}
		first[k] = i
	}
	return 0, 0, false
}

// canonical writes a key for v that two values share exactly when they are equal (equal):
// numbers by exact value, objects with sorted member names.
func canonical(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteByte('n')
	case bool:
		if x {
			b.WriteByte('t')
		} else {
			b.WriteByte('f')
		}
	case string:
		b.WriteString(strconv.Quote(x))
	case []any:
		b.WriteByte('[')
		for _, e := range x {
			canonical(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case map[string]any:
		names := make([]string, 0, len(x))
		for k := range x {
			names = append(names, k)
		}
		sort.Strings(names)
		b.WriteByte('{')
		for _, k := range names {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			canonical(b, x[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		d, ok := numberOf(v)
		if !ok {
			fmt.Fprintf(b, "?%T:%v", v, v)
			return
		}
		d.key(b)
	}
}

// typeMatches reports whether v is one of types; "integer" admits a number without fraction.
func typeMatches(types []string, v any) bool {
	t := jsonType(v)
	for _, want := range types {
		if want == t {
			return true
		}
		if want == "integer" && t == "number" {
			if d, ok := numberOf(v); ok && d.isInteger() {
				return true
			}
		}
	}
	return false
}

func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		if equal(v, e) {
			return true
		}
	}
	return false
}

// jsonType names the JSON type of a decoded value ("number" for every numeric Go type).
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	if _, ok := numberOf(v); ok {
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// equal is JSON equality: numbers by value (1 equals 1.0), objects by members, arrays in order.
func equal(a, b any) bool {
	ta, tb := jsonType(a), jsonType(b)
	if ta != tb {
		return false
	}
	switch ta {
	case "null":
		return true
	case "number":
		da, _ := numberOf(a)
		db, _ := numberOf(b)
		return da.cmp(db) == 0
	case "array":
		x, y := a.([]any), b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case "object":
		x, y := a.(map[string]any), b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return a == b
}

// quote writes a property name as messages show it: Go escapes inside single quotes. It
// unescapes double quotes on the Go-quoted text, outer quotes included, as the reference does,
// so a name ending in a backslash loses its escape: the one-character name \ reads '\'.
func quote(s string) string {
	q := strings.ReplaceAll(strconv.Quote(s), `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

// escapeToken escapes one JSON Pointer reference token (RFC 6901 §3: "~" as "~0", "/" as
// "~1") and then percent-encodes it as a URI fragment part, as issue paths always have.
func escapeToken(s string) string {
	s = strings.ReplaceAll(s, "~", "~0")
	s = strings.ReplaceAll(s, "/", "~1")
	return url.PathEscape(s)
}
