package studio

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/webcoding/studio/wasm/jsonstring"
)

// Schema construction. Every schema is JSON Schema 2020-12 (SPEC §2.2), written with its
// properties in declaration order so tools/list is byte-stable; input schemas are closed
// (additionalProperties false). Limits come from the workspace constants, never re-typed.

const schemaDialect = "https://json-schema.org/draft/2020-12/schema"

// prop is one named property schema.
type prop struct {
	name   string
	schema string
}

func p(name, schema string) prop { return prop{name, schema} }

// object returns a closed object schema body (no $schema) with the given properties; required
// names the mandatory ones.
func object(props []prop, required ...string) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, pr := range props {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonstring.String(pr.name, jsonstring.HTMLSafe))
		b.WriteByte(':')
		b.WriteString(pr.schema)
	}
	b.WriteString(`},"required":[`)
	for i, r := range required {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonstring.String(r, jsonstring.HTMLSafe))
	}
	b.WriteString(`],"additionalProperties":false}`)
	return b.String()
}

// document wraps an object schema body as a top-level schema with $schema.
func document(props []prop, required ...string) json.RawMessage {
	body := object(props, required...)
	return json.RawMessage(`{"$schema":"` + schemaDialect + `",` + body[1:])
}

func str(minLen, maxLen int) string {
	s := `{"type":"string"`
	if minLen > 0 {
		s += `,"minLength":` + strconv.Itoa(minLen)
	}
	if maxLen > 0 {
		s += `,"maxLength":` + strconv.Itoa(maxLen)
	}
	return s + "}"
}

func enum(values ...string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = jsonstring.String(v, jsonstring.HTMLSafe)
	}
	return `{"type":"string","enum":[` + strings.Join(q, ",") + `]}`
}

func constant(v string) string { return `{"const":` + jsonstring.String(v, jsonstring.HTMLSafe) + `}` }

func arrayOf(item string) string { return `{"type":"array","items":` + item + `}` }

// intRange is an integer schema with a minimum and, when max > 0, a maximum.
func intRange(min, max int) string {
	s := `{"type":"integer","minimum":` + strconv.Itoa(min)
	if max > 0 {
		s += `,"maximum":` + strconv.Itoa(max)
	}
	return s + "}"
}

const (
	sString  = `{"type":"string"}`
	sBool    = `{"type":"boolean"}`
	sTrue    = `{"const":true}`
	sInt     = `{"type":"integer","minimum":0}`
	sRev     = `{"type":"integer","minimum":0}`
	sStrings = `{"type":"array","items":{"type":"string"}}`
)

// persistence returns the persistence meta P of every result (REFERENCE §2): storageMode and,
// when set, storageError (at most 240 code points).
func persistence() []prop {
	return []prop{
		p("storageMode", enum("loading", "indexed-db", "memory")),
		p("storageError", str(0, maxMessageChars)),
	}
}

// output returns a closed output schema: the tool's own fields, then P; required lists the
// tool's mandatory fields (storageMode is always added).
func output(props []prop, required ...string) json.RawMessage {
	return document(append(props, persistence()...), append(required, "storageMode")...)
}
