package toolcatalog

import (
	"encoding/json"
	"errors"
	"path"
	"strings"
	"unicode/utf8"
)

// SampleOptions are the workspace facts a sample uses.
type SampleOptions struct {
	ActivePath  string // the active file ("index.html" when empty)
	Revision    int64  // the current workspace revision (expectedRevision samples)
	HasRevision bool   // Revision is known; without it expectedRevision is left out
}

// Bounds of Sample.
const (
	MaxSchemaBytes = 64 << 10 // larger input schemas are refused
	maxSampleDepth = 4        // nested objects below the root
	maxSampleChars = 200      // code points of a generated string
)

// ErrSchema is wrapped by every error of Sample.
var ErrSchema = errors.New("toolcatalog: input schema")

// schemaNode is the part of a JSON Schema Sample reads.
type schemaNode struct {
	Type       json.RawMessage            `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
	Enum       []json.RawMessage          `json:"enum"`
	Const      json.RawMessage            `json:"const"`
	Default    json.RawMessage            `json:"default"`
	Minimum    *float64                   `json:"minimum"`
	MinLength  *int                       `json:"minLength"`
	MaxLength  *int                       `json:"maxLength"`
	MinItems   *int                       `json:"minItems"`
	Items      json.RawMessage            `json:"items"`
}

// Sample returns sample arguments for a tool's input schema as indented JSON: every required
// property, plus expectedRevision when the schema has it and o.HasRevision. Values:
// const, default or the first enum value when the schema gives one; otherwise by name —
// path/fromPath the active file, toPath "copy-of-<active file>", source/search/replace, title,
// subtitle, description short sample texts, selector "h1" — and by type (strings padded to
// minLength and cut to maxLength, integers at their minimum or 0, booleans false, arrays with
// minItems elements, nested objects up to 4 levels). Selecting a tool only generates text; nothing runs.
//
// A schema that is not a JSON object, or larger than MaxSchemaBytes, is an error wrapping
// ErrSchema; an empty schema gives {}.
func Sample(schema json.RawMessage, o SampleOptions) (string, error) {
	if len(schema) > MaxSchemaBytes {
		return "", errors.Join(ErrSchema, errors.New("larger than 64 KiB"))
	}
	if strings.TrimSpace(string(schema)) == "" {
		return "{}", nil
	}
	if o.ActivePath == "" {
		o.ActivePath = "index.html"
	}
	var root schemaNode
	if err := json.Unmarshal(schema, &root); err != nil {
		return "", errors.Join(ErrSchema, err)
	}
	v := object(root, o, 0, true)
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", errors.Join(ErrSchema, err)
	}
	return string(b), nil
}

func object(n schemaNode, o SampleOptions, depth int, root bool) map[string]any {
	out := map[string]any{}
	if depth > maxSampleDepth {
		return out
	}
	want := map[string]bool{}
	for _, r := range n.Required {
		want[r] = true
	}
	if root && o.HasRevision {
		if _, ok := n.Properties["expectedRevision"]; ok {
			want["expectedRevision"] = true
		}
	}
	for name := range want {
		raw, ok := n.Properties[name]
		var p schemaNode
		if ok {
			_ = json.Unmarshal(raw, &p)
		}
		out[name] = value(name, p, o, depth+1)
	}
	return out
}

func value(name string, n schemaNode, o SampleOptions, depth int) any {
	for _, raw := range []json.RawMessage{n.Const, n.Default} {
		if len(raw) > 0 {
			var v any
			if json.Unmarshal(raw, &v) == nil {
				return v
			}
		}
	}
	if len(n.Enum) > 0 {
		var v any
		if json.Unmarshal(n.Enum[0], &v) == nil {
			return v
		}
	}
	switch typeOf(n) {
	case "integer", "number":
		if name == "expectedRevision" {
			return o.Revision
		}
		if n.Minimum != nil && *n.Minimum > 0 && *n.Minimum < 1<<53 {
			return int64(*n.Minimum + 0.999999)
		}
		return 0
	case "boolean":
		return false
	case "null":
		return nil
	case "array":
		items := []any{}
		var it schemaNode
		_ = json.Unmarshal(n.Items, &it)
		if n.MinItems != nil {
			for i := 0; i < *n.MinItems && i < 4 && depth <= maxSampleDepth; i++ {
				items = append(items, value("", it, o, depth+1))
			}
		}
		return items
	case "object":
		return object(n, o, depth, false)
	}
	return sampleString(name, n, o)
}

// typeOf returns the schema's type (the first non-null one of a list), "string" by default.
func typeOf(n schemaNode) string {
	var s string
	if json.Unmarshal(n.Type, &s) == nil && s != "" {
		return s
	}
	var list []string
	if json.Unmarshal(n.Type, &list) == nil {
		for _, t := range list {
			if t != "null" {
				return t
			}
		}
		if len(list) > 0 {
			return "null"
		}
	}
	if len(n.Properties) > 0 {
		return "object"
	}
	return "string"
}

func sampleString(name string, n schemaNode, o SampleOptions) string {
	var s string
	switch strings.ToLower(name) {
	case "path", "frompath":
		s = o.ActivePath
	case "topath":
		dir, file := path.Split(o.ActivePath)
		s = dir + "copy-of-" + file
	case "source":
		s = "Sample text"
	case "search":
		s = "Sample"
	case "replace":
		s = "Sample"
	case "title":
		s = "Sample title"
	case "subtitle":
		s = "Sample subtitle"
	case "description":
		s = "Sample description"
	case "selector":
		s = "h1"
	default:
		s = "sample"
	}
	if n.MinLength != nil {
		min := *n.MinLength
		if min > maxSampleChars {
			min = maxSampleChars
		}
		for utf8.RuneCountInString(s) < min {
			s += "x"
		}
	}
	if n.MaxLength != nil && *n.MaxLength >= 0 && utf8.RuneCountInString(s) > *n.MaxLength {
		s = string([]rune(s)[:*n.MaxLength])
	}
	return s
}

// Editor is the sample-arguments editor's state: the generated sample and the user's edits,
// per tool. Refresh replaces the text with a newly generated sample unless the user edited
// this tool's sample; Edit records an edit; Reset drops it.
type Editor struct {
	Tool      string            // the selected tool
	Generated string            // the generated sample of the selected tool
	edits     map[string]string // tool → edited text
}

// Text is what the editor shows for the selected tool.
func (e *Editor) Text() string {
	if t, ok := e.edits[e.Tool]; ok {
		return t
	}
	return e.Generated
}

// Edited reports whether the selected tool's sample was edited.
func (e *Editor) Edited() bool { _, ok := e.edits[e.Tool]; return ok }

// Refresh selects tool with its newly generated sample (on a selection or revision change)
// and reports whether the shown text changed. The user's edits of tool are kept.
func (e *Editor) Refresh(tool, generated string) bool {
	before := e.Text()
	e.Tool, e.Generated = tool, generated
	return e.Text() != before
}

// Edit records the user's text for the selected tool (typing the generated text back counts
// as no edit).
func (e *Editor) Edit(text string) {
	if e.edits == nil {
		e.edits = map[string]string{}
	}
	if text == e.Generated {
		delete(e.edits, e.Tool)
		return
	}
	e.edits[e.Tool] = text
}

// Reset drops the selected tool's edit.
func (e *Editor) Reset() { delete(e.edits, e.Tool) }
