// Package schema compiles JSON Schema 2020-12 documents once and validates untrusted JSON
// against them, turning failures into a bounded, deterministic list of issues for
// TOOL_VALIDATION_FAILED and TOOL_OUTPUT_VALIDATION_FAILED details (REFERENCE §3.1; SPEC §2.2).
//
// It implements the part of 2020-12 our tool schemas are written in (vocabulary.go) and
// refuses every other keyword at compile time, so nothing in a schema is silently not
// enforced. The general validator github.com/santhosh-tekuri/jsonschema/v5 is the reference:
// the tests check every catalog schema against the 2020-12 meta-schema with it and compare
// this package's issues with its issues on generated and fuzzed instances (wasm/schema/
// schematest). It is not linked into the studio's page, where it and the packages it needs
// (math/big, net/mail, …) cost 141 KB of the brotli module (docs/design.md §5.45).
//
// Lengths (minLength, maxLength) count Unicode code points, as JSON Schema specifies and as
// SPEC §2.14 requires for every text limit. Numbers compare exactly (number.go).
//
// Nothing is ever loaded: $ref is not in the vocabulary, so no schema can reach the network
// or the file system.
//
// Owns: JSON Schema compilation and validation of tool inputs and outputs.
//
// Must never: import another package of this module but wasm/jsonstring, or know a tool by
// name (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"unicode/utf8"
)

// MaxIssues bounds the issues reported for one validation; a longer list ends with one issue
// whose keyword is "truncated" and whose message says how many were left out.
const MaxIssues = 32

// Dialect is the $schema URI of the dialect every studio schema uses (SPEC §2.2).
const Dialect = "https://json-schema.org/draft/2020-12/schema"

// Schema is a compiled schema. It is immutable and safe for concurrent use.
type Schema struct {
	raw      json.RawMessage
	compiled *node
	admits   admitsCache // AdmitsType's memo
}

// Issue is one validation failure: the JSON Pointer of the offending value ("" = the root),
// the failing keyword location in the schema, and a message. Messages name keys and limits,
// never echo string values.
type Issue struct {
	Path    string `json:"path"`
	Keyword string `json:"keyword"`
	Message string `json:"message"`
}

// cache holds the schemas compiled so far, keyed by name and document: every session build
// registers the same catalog, so a rebuild (session/configure, each MCP session, each
// conformance vector) reuses them. At most cacheMax documents are kept; past
// that Compile still works, uncached. Failures are never cached.
var cache = struct {
	sync.Mutex
	m map[string]*Schema
}{m: map[string]*Schema{}}

const cacheMax = 512

// Compile compiles raw (a JSON Schema document) under the given name, which only names it in
// errors. It fails on malformed JSON, on a document that is not a schema, and on any keyword
// outside the vocabulary (vocabulary.go), naming the keyword and its JSON Pointer. The same
// name and bytes compiled again return the same immutable *Schema (see cache).
func Compile(name string, raw json.RawMessage) (*Schema, error) {
	key := name + "\x00" + string(raw)
	cache.Lock()
	s, ok := cache.m[key]
	cache.Unlock()
	if ok {
		return s, nil
	}
	s, err := compile(name, append(json.RawMessage(nil), raw...))
	if err != nil {
		return nil, err
	}
	cache.Lock()
	if len(cache.m) < cacheMax {
		cache.m[key] = s
	}
	cache.Unlock()
	return s, nil
}

func compile(name string, raw json.RawMessage) (*Schema, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("schema: %s: not JSON: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("schema: %s: more than one JSON value", name)
	}
	n, err := compileNode(doc, "", 0)
	if err != nil {
		return nil, fmt.Errorf("schema: %s: %w", name, err)
	}
	return &Schema{raw: raw, compiled: n}, nil
}

// MustCompile is Compile for schemas fixed at build time; it panics on error (a programming
// error found at registration).
func MustCompile(name string, raw json.RawMessage) *Schema {
	s, err := Compile(name, raw)
	if err != nil {
		panic(err)
	}
	return s
}

// Raw returns the schema document as registered.
func (s *Schema) Raw() json.RawMessage { return s.raw }

// ValidateValue validates an already decoded instance (from Decode or json.Unmarshal) and
// returns nil when it is valid.
func (s *Schema) ValidateValue(v any) []Issue {
	var va validator
	va.validate(s.compiled, v, "", "")
	issues := va.issues
	if len(issues) == 0 {
		return nil
	}
	for i := range issues {
		issues[i].Message = BoundMessage(issues[i].Message)
	}
	sort.Slice(issues, func(i, j int) bool {
		if issues[i].Path != issues[j].Path {
			return issues[i].Path < issues[j].Path
		}
		if issues[i].Keyword != issues[j].Keyword {
			return issues[i].Keyword < issues[j].Keyword
		}
		return issues[i].Message < issues[j].Message
	})
	if len(issues) > MaxIssues {
		n := len(issues) - (MaxIssues - 1)
		issues = append(issues[:MaxIssues-1], Issue{Keyword: "truncated", Message: fmt.Sprintf("%d more issue(s) not listed", n)})
	}
	return issues
}

// MaxMessageChars bounds an issue's message in code points. A message can echo what the
// instance holds (an out-of-range number's digits, unknown property names); past the bound it
// keeps its first MaxMessageChars-40 code points and says how many it left out, so a 2 MB
// number in the arguments is not repeated three times in a 10 MB error result.
const MaxMessageChars = 240

// BoundMessage applies MaxMessageChars to msg: "<first 200 code points>… (N more characters)".
func BoundMessage(msg string) string {
	n := utf8.RuneCountInString(msg)
	if n <= MaxMessageChars {
		return msg
	}
	keep := MaxMessageChars - 40
	cut := 0
	for i := range msg {
		if keep == 0 {
			cut = i
			break
		}
		keep--
	}
	return fmt.Sprintf("%s… (%d more characters)", msg[:cut], n-(MaxMessageChars-40))
}

// Validate decodes data and validates it. Malformed JSON is reported as one issue with keyword
// "json".
func (s *Schema) Validate(data []byte) []Issue {
	v, err := Decode(data)
	if err != nil {
		return []Issue{{Keyword: "json", Message: "instance is not valid JSON"}}
	}
	return s.ValidateValue(v)
}
