// Package schematest holds wasm/schema to a general JSON Schema validator: it checks schemas
// against the 2020-12 meta-schema and compares wasm/schema's issues with those of
// github.com/santhosh-tekuri/jsonschema/v5 on the same instances (docs/design.md §5.45).
//
// Only tests import it, so the reference validator stays out of every shipped module (the
// page's size budget in e2e/buildcheck notices if it does not).
package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/schema"
)

// CheckTools runs Compare over Instances for every input and output schema of tools, and
// returns every disagreement (nil when wasm/schema and the reference agree on all of them).
func CheckTools(tools []mcp.Tool) error {
	var errs []error
	for _, t := range tools {
		for _, s := range []struct {
			kind string
			raw  json.RawMessage
		}{{"input", t.InputSchema}, {"output", t.OutputSchema}} {
			if len(s.raw) == 0 {
				continue
			}
			if err := Compare(t.Name+"."+s.kind, s.raw, Instances(s.raw)); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Reference compiles raw with the reference validator (which checks it against the 2020-12
// meta-schema first) and returns a function that validates a decoded instance, with its
// issues in wasm/schema's form and order (messages bounded by schema.BoundMessage). Numbers
// must be decoded as json.Number or float64.
func Reference(name string, raw []byte) (func(v any) []schema.Issue, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(s string) (io.ReadCloser, error) { return nil, fmt.Errorf("no loading: %s", s) }
	url := "mem:///" + strings.ReplaceAll(name, " ", "_") + ".json"
	if err := c.AddResource(url, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	return func(v any) []schema.Issue {
		err := s.Validate(v)
		if err == nil {
			return nil
		}
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return []schema.Issue{{Keyword: "error", Message: err.Error()}}
		}
		var issues []schema.Issue
		var walk func(e *jsonschema.ValidationError)
		walk = func(e *jsonschema.ValidationError) {
			if len(e.Causes) == 0 {
				kw := e.KeywordLocation
				if i := strings.IndexByte(kw, '#'); i >= 0 {
					kw = kw[i+1:]
				}
				issues = append(issues, schema.Issue{Path: e.InstanceLocation, Keyword: kw, Message: schema.BoundMessage(sortNames(e.Message))})
				return
			}
			for _, c := range e.Causes {
				walk(c)
			}
		}
		walk(ve)
		sortIssues(issues)
		return issues
	}, nil
}

func sortIssues(issues []schema.Issue) {
	sort.Slice(issues, func(i, j int) bool {
		a, b := issues[i], issues[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Keyword != b.Keyword {
			return a.Keyword < b.Keyword
		}
		return a.Message < b.Message
	})
}

// dropEmptyTokens writes an instance path the way the reference does: it loses the empty
// reference tokens of properties named "" (wasm/schema writes "/" for such a property, as
// RFC 6901 §5 specifies; the reference writes ""), which is the one known difference in paths.
func dropEmptyTokens(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	return strings.TrimSuffix(p, "/")
}

// sortNames puts the names of an "additionalProperties 'b', 'a' not allowed" message in the
// order of their quoted forms, as wasm/schema lists them (the reference uses map order).
func sortNames(msg string) string {
	const pre, suf = "additionalProperties ", " not allowed"
	if !strings.HasPrefix(msg, pre) || !strings.HasSuffix(msg, suf) {
		return msg
	}
	names := strings.Split(strings.TrimSuffix(strings.TrimPrefix(msg, pre), suf), ", ")
	sort.Strings(names)
	return pre + strings.Join(names, ", ") + suf
}

// Pair is one schema compiled by both validators.
type Pair struct {
	name string
	ref  func(any) []schema.Issue
	ours *schema.Schema
}

// NewPair compiles raw with wasm/schema and with the reference; it fails when either refuses.
func NewPair(name string, raw []byte) (*Pair, error) {
	ref, err := Reference(name, raw)
	if err != nil {
		return nil, fmt.Errorf("%s: the reference refuses the schema: %v", name, err)
	}
	ours, err := schema.Compile(name, raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &Pair{name: name, ref: ref, ours: ours}, nil
}

// Check validates the instance (JSON text; anything schema.Decode refuses is skipped) with
// both and returns an error describing the difference when their issues differ. Lists longer
// than schema.MaxIssues are compared on their first MaxIssues-1 issues, which is what
// wasm/schema reports before "truncated".
func (p *Pair) Check(in []byte) error {
	v, err := schema.Decode(in)
	if err != nil {
		return nil
	}
	want, got := p.ref(v), p.ours.ValidateValue(v)
	for i := range got {
		got[i].Path = dropEmptyTokens(got[i].Path)
	}
	sortIssues(got)
	if len(want) > schema.MaxIssues-1 && len(got) == schema.MaxIssues {
		want, got = want[:schema.MaxIssues-1], got[:schema.MaxIssues-1]
	}
	if !slices.Equal(want, got) {
		return fmt.Errorf("%s: instance %s:\n reference %+v\n wasm/schema %+v", p.name, in, want, got)
	}
	return nil
}

// Compare runs Pair.Check on every instance and returns the first difference.
func Compare(name string, raw []byte, instances [][]byte) error {
	p, err := NewPair(name, raw)
	if err != nil {
		return err
	}
	for _, in := range instances {
		if err := p.Check(in); err != nil {
			return err
		}
	}
	return nil
}

// Instances returns instances probing every assertion of raw: one built to be valid, then
// for each property and item position the value removed, replaced by every JSON type, and
// pushed just past each bound (lengths in multi-byte characters, numbers at and beyond their
// limits, integers written as 2.0 and 2.5, a duplicate item, an unknown property). It
// returns nil for a document it cannot decode.
func Instances(raw []byte) [][]byte {
	var doc any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&doc) != nil {
		return nil
	}
	g := &gen{}
	base := g.valid(doc, 0)
	out := [][]byte{mustJSON(base)}
	for _, m := range g.variants(doc, base, 0) {
		out = append(out, mustJSON(m))
	}
	return out
}

type gen struct{}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func num(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// valid builds a value meant to satisfy the schema node (not guaranteed: the comparison,
// not the generator, is what the test checks).
func (g *gen) valid(node any, depth int) any {
	m, ok := node.(map[string]any)
	if !ok || depth > 8 {
		return nil
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	t := firstType(m)
	switch t {
	case "object":
		obj := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		for _, r := range asStrings(m["required"]) {
			obj[r] = g.valid(props[r], depth+1)
		}
		return obj
	case "array":
		n := 0
		if f, ok := num(m["minItems"]); ok {
			n = int(f)
		}
		arr := []any{}
		for i := 0; i < n; i++ {
			arr = append(arr, g.valid(m["items"], depth+1))
		}
		return arr
	case "string":
		n := 1
		if f, ok := num(m["minLength"]); ok && int(f) > n {
			n = int(f)
		}
		return strings.Repeat("a", n)
	case "integer", "number":
		if f, ok := num(m["minimum"]); ok {
			return json.Number(fmt.Sprint(f))
		}
		return json.Number("1")
	case "boolean":
		return true
	}
	return nil
}

func firstType(m map[string]any) string {
	switch t := m["type"].(type) {
	case string:
		return t
	case []any:
		if len(t) > 0 {
			s, _ := t[0].(string)
			return s
		}
	}
	return ""
}

func asStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// probes are the values of every JSON type that replace a value under test.
var probes = []any{nil, true, json.Number("0"), json.Number("-1"), json.Number("2.0"), json.Number("2.5"), json.Number("1e400"), "", "x", []any{}, map[string]any{}}

// variants returns copies of base (valid for node) with one change each, recursing into
// properties and items.
func (g *gen) variants(node any, base any, depth int) []any {
	m, ok := node.(map[string]any)
	if !ok || depth > 8 {
		return nil
	}
	out := append([]any(nil), probes...)
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if f, ok := num(m[k]); ok {
			for _, d := range []float64{-1, -0.5, 0, 0.5, 1} {
				out = append(out, json.Number(fmt.Sprint(f+d)))
			}
		}
	}
	for _, k := range []string{"minLength", "maxLength"} {
		if f, ok := num(m[k]); ok {
			for _, d := range []int{-1, 0, 1} {
				if n := int(f) + d; n >= 0 && n < 1<<20 {
					out = append(out, strings.Repeat("한", n), strings.Repeat("b", n))
				}
			}
		}
	}
	if e, ok := m["enum"].([]any); ok {
		out = append(out, e...)
		for _, v := range e {
			if s, ok := v.(string); ok {
				out = append(out, strings.ToUpper(s)+"?")
			}
		}
	}
	switch b := base.(type) {
	case map[string]any:
		props, _ := m["properties"].(map[string]any)
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, name := range names {
			without := clone(b)
			delete(without, name)
			out = append(out, without)
			val, ok := b[name]
			if !ok {
				val = g.valid(props[name], depth+1)
			}
			for _, sub := range append([]any{val}, g.variants(props[name], val, depth+1)...) {
				c := clone(b)
				c[name] = sub
				out = append(out, c)
			}
		}
		extra := clone(b)
		extra["zzUnknown"] = json.Number("1")
		extra["aUnknown/~x"] = "y"
		out = append(out, extra)
		if ap, ok := m["additionalProperties"]; ok {
			for _, sub := range g.variants(ap, g.valid(ap, depth+1), depth+1) {
				c := clone(b)
				c["extra"] = sub
				out = append(out, c)
			}
		}
	case []any:
		item := g.valid(m["items"], depth+1)
		out = append(out, append(append([]any(nil), b...), item), append(append([]any(nil), b...), item, item))
		if f, ok := num(m["maxItems"]); ok && f < 64 {
			long := make([]any, int(f)+1)
			for i := range long {
				long[i] = item
			}
			out = append(out, long)
		}
		for _, sub := range g.variants(m["items"], item, depth+1) {
			out = append(out, append(append([]any(nil), b...), sub))
		}
	}
	return out
}

func clone(m map[string]any) map[string]any {
	c := make(map[string]any, len(m)+2)
	for k, v := range m {
		c[k] = v
	}
	return c
}
