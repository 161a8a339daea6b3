package surfaceview

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	. "github.com/webcoding/studio/wasm/ui/markup"
)

// Field kinds of a generated form.
const (
	FieldText     = "text"
	FieldTextarea = "textarea"
	FieldNumber   = "number"
	FieldSelect   = "select"
	FieldCheckbox = "checkbox"
)

// Field is one input of a tool card, generated from one property of the tool's inputSchema.
type Field struct {
	Name     string
	Kind     string   // FieldText, FieldTextarea, FieldNumber, FieldSelect, FieldCheckbox
	Options  []string // FieldSelect: the enum values in schema order
	Required bool
	Value    string // the current value ("" leaves an optional field out of the call)
	Min, Max string // FieldNumber bounds ("" none); FieldText/FieldTextarea: maxlength in Max
}

// textareaFields are string properties that hold a source text: a textarea, not a line.
var textareaFields = map[string]bool{"source": true, "search": true, "replace": true, "description": true, "subtitle": true}

// schemaProp is the part of a JSON Schema property the form reads.
type schemaProp struct {
	Type      any      `json:"type"`
	Enum      []string `json:"enum"`
	MaxLength *int64   `json:"maxLength"`
	Minimum   *float64 `json:"minimum"`
	Maximum   *float64 `json:"maximum"`
}

// FieldsFromSchema maps a tool's inputSchema (a closed object schema, SPEC §2.2) to form
// fields in the schema's property order (the order of the JSON text): enum → select, integer
// or number → number, boolean → checkbox, string → text (textarea for source-like names),
// anything else → text holding JSON. defaults[name] is the field's initial value.
//
// # Errors
//   - the schema is not a JSON object with an object "properties" member.
func FieldsFromSchema(schema []byte, defaults map[string]string) ([]Field, error) {
	var doc struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, err
	}
	if len(doc.Properties) == 0 {
		return nil, nil
	}
	names, err := objectKeys(doc.Properties)
	if err != nil {
		return nil, err
	}
	var props map[string]schemaProp
	if err := json.Unmarshal(doc.Properties, &props); err != nil {
		return nil, err
	}
	req := map[string]bool{}
	for _, n := range doc.Required {
		req[n] = true
	}
	out := make([]Field, 0, len(names))
	for _, n := range names {
		p := props[n]
		f := Field{Name: n, Required: req[n], Value: defaults[n]}
		typ, _ := p.Type.(string)
		switch {
		case len(p.Enum) > 0:
			f.Kind, f.Options = FieldSelect, p.Enum
			if f.Value == "" && f.Required {
				f.Value = p.Enum[0]
			}
		case typ == "integer" || typ == "number":
			f.Kind = FieldNumber
			if p.Minimum != nil {
				f.Min = strconv.FormatFloat(*p.Minimum, 'f', -1, 64)
			}
			if p.Maximum != nil {
				f.Max = strconv.FormatFloat(*p.Maximum, 'f', -1, 64)
			}
		case typ == "boolean":
			f.Kind = FieldCheckbox
		case textareaFields[n]:
			f.Kind = FieldTextarea
		default:
			f.Kind = FieldText
		}
		if (f.Kind == FieldText || f.Kind == FieldTextarea) && p.MaxLength != nil {
			f.Max = strconv.FormatInt(*p.MaxLength, 10)
		}
		out = append(out, f)
	}
	return out, nil
}

// objectKeys returns the member names of a JSON object in document order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("surfaceview: properties is not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// Arguments builds a tools/call arguments object from fields: an empty optional field is
// left out; a number field must parse as an integer or number; a checkbox is "true"/"false".
//
// # Errors
//   - a number field that is not a number (the message names the field).
func Arguments(fields []Field) (map[string]any, error) {
	out := map[string]any{}
	for _, f := range fields {
		if f.Value == "" && !f.Required && f.Kind != FieldCheckbox {
			continue
		}
		switch f.Kind {
		case FieldNumber:
			if f.Value == "" {
				return nil, errors.New(f.Name + ": a number is required")
			}
			if n, err := strconv.ParseInt(f.Value, 10, 64); err == nil {
				out[f.Name] = n
				continue
			}
			x, err := strconv.ParseFloat(f.Value, 64)
			if err != nil {
				return nil, errors.New(f.Name + ": " + strconv.Quote(f.Value) + " is not a number")
			}
			out[f.Name] = x
		case FieldCheckbox:
			if f.Value == "" && !f.Required {
				continue
			}
			out[f.Name] = f.Value == "true"
		default:
			out[f.Name] = f.Value
		}
	}
	return out, nil
}

// ToolCard is one palette card.
type ToolCard struct {
	Name        string
	Description string
	Hints       []string // read-only, destructive, idempotent
	Fields      []Field
	Running     bool
	Result      *CardResult
}

// CardResult is the last outcome of a card's Run: the structuredContent as indented JSON, or
// the typed error.
type CardResult struct {
	IsError   bool
	Code      string
	Message   string
	Retryable bool
	JSON      string
}

// PaletteHTML is #surface-palette: one card per tool, its generated form, a Run button and
// the last result under it.
func PaletteHTML(cards []ToolCard) HTML {
	var b Builder
	if len(cards) == 0 {
		b.Elem("p", "Loading tools…", A("class", "muted"))
		return b.HTML()
	}
	for _, c := range cards {
		id := ToolID(c.Name)
		b.Open("article", A("id", "tool-"+id), A("class", "tool-card"), A("data-tool", c.Name), A("aria-label", "Tool "+c.Name))
		b.Open("header")
		b.Elem("h3", c.Name)
		hints := append([]string(nil), c.Hints...)
		sort.Strings(hints)
		for _, h := range hints {
			b.Text(" ")
			b.Elem("span", h, A("class", "tool-hint hint-"+IDPart(h)))
		}
		b.Close("header")
		if c.Description != "" {
			b.Open("details", A("class", "tool-description"))
			b.Elem("summary", "About")
			b.Elem("p", c.Description)
			b.Close("details")
		}
		for _, f := range c.Fields {
			fieldHTML(&b, c.Name, id, f)
		}
		b.Elem("button", "Run "+c.Name, A("type", "button"), A("id", "run-"+id), A("class", "tool-run"),
			A("data-action", "run-tool"), A("data-tool", c.Name), Flag("disabled", c.Running))
		resultHTML(&b, id, c.Result, c.Running)
		b.Close("article")
	}
	return b.HTML()
}

func fieldHTML(b *Builder, tool, id string, f Field) {
	fid := "field-" + id + "-" + IDPart(f.Name)
	label := f.Name
	if !f.Required {
		label += " (optional)"
	}
	b.Open("div", A("class", "tool-field"))
	if f.Kind == FieldCheckbox {
		b.Open("label", A("for", fid))
		b.Void("input", A("id", fid), A("type", "checkbox"), A("data-tool", tool), A("data-field", f.Name), Flag("checked", f.Value == "true"))
		b.Text(" " + label)
		b.Close("label")
		b.Close("div")
		return
	}
	b.Elem("label", label, A("for", fid))
	common := []Attr{A("id", fid), A("name", f.Name), A("data-tool", tool), A("data-field", f.Name), Flag("required", f.Required)}
	switch f.Kind {
	case FieldSelect:
		b.Open("select", common...)
		if !f.Required {
			b.Elem("option", "—", A("value", ""), Flag("selected", f.Value == ""))
		}
		for _, o := range f.Options {
			b.Elem("option", o, A("value", o), Flag("selected", o == f.Value))
		}
		b.Close("select")
	case FieldNumber:
		attrs := append(common, A("type", "number"), A("value", f.Value), A("step", "1"))
		if f.Min != "" {
			attrs = append(attrs, A("min", f.Min))
		}
		if f.Max != "" {
			attrs = append(attrs, A("max", f.Max))
		}
		b.Void("input", attrs...)
	case FieldTextarea:
		attrs := append(common, A("rows", "3"), A("spellcheck", "false"))
		if f.Max != "" {
			attrs = append(attrs, A("maxlength", f.Max))
		}
		b.Elem("textarea", f.Value, attrs...)
	default:
		attrs := append(common, A("type", "text"), A("value", f.Value), A("spellcheck", "false"))
		if f.Max != "" {
			attrs = append(attrs, A("maxlength", f.Max))
		}
		b.Void("input", attrs...)
	}
	b.Close("div")
}

func resultHTML(b *Builder, id string, r *CardResult, running bool) {
	rid := "result-" + id
	switch {
	case running:
		b.Elem("output", "Running…", A("id", rid), A("class", "tool-result"), A("data-state", "running"))
	case r == nil:
		b.Elem("output", "", A("id", rid), A("class", "tool-result"), A("data-state", "none"))
	case r.IsError:
		b.Open("output", A("id", rid), A("class", "tool-result tool-error"), A("data-state", "error"), A("data-code", r.Code), A("role", "alert"))
		head := "isError · " + r.Code
		if r.Retryable {
			head += " (retryable)"
		}
		b.Elem("strong", head)
		b.Elem("span", " "+r.Message)
		if r.JSON != "" {
			b.Elem("pre", r.JSON)
		}
		b.Close("output")
	default:
		b.Open("output", A("id", rid), A("class", "tool-result tool-ok"), A("data-state", "ok"))
		b.Elem("pre", r.JSON)
		b.Close("output")
	}
}
