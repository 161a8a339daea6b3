package schema_test

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/schema"
	"github.com/webcoding/studio/wasm/schema/schematest"
)

// vocabularySchemas use every keyword of the vocabulary (vocabulary.go), alone and together,
// at the root, in properties, in additionalProperties and in items.
var vocabularySchemas = []string{
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"t","description":"d",
	  "properties":{"path":{"type":"string","minLength":1,"maxLength":4,"format":"uri"},
	    "n":{"type":"integer","minimum":1,"maximum":10},
	    "x":{"type":"number","exclusiveMinimum":-1.5,"exclusiveMaximum":2.25},
	    "big":{"type":"integer","maximum":9007199254740993},
	    "kind":{"type":"string","enum":["a","b","c"]},
	    "one":{"enum":["only"]},
	    "mixed":{"enum":[1,"1",true,null,2.5]},
	    "c":{"const":"fixed"},
	    "cobj":{"const":{"a":[1,2]}},
	    "flag":{"type":"boolean","default":false},
	    "list":{"type":"array","items":{"type":"string","enum":["log","warn","error"]},"minItems":1,"maxItems":3,"uniqueItems":true},
	    "objs":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false}},
	    "opt":{"type":["string","null"],"maxLength":2},
	    "never":false,"any":true,
	    "a/b~c":{"type":"string"}},
	  "required":["path","n"],"additionalProperties":false,"minProperties":2,"maxProperties":12}`,
	`{"type":"object","additionalProperties":{"type":"integer","minimum":0},"properties":{"s":{"type":"string"}}}`,
	`{"type":"array","items":{"type":"array","items":{"type":"integer"},"maxItems":2}}`,
	`{"type":["integer","string"],"minimum":3,"minLength":2}`,
	`{"enum":[{"a":1},[1,2],"x"]}`,
	`{"uniqueItems":true,"items":true}`,
	`{"minimum":0.1,"maximum":1e3}`,
	`true`,
	`false`,
	`{}`,
}

var handInstances = []string{
	`null`, `true`, `0`, `-0`, `1`, `1.0`, `1e0`, `10e-1`, `1.5`, `-1.5`, `2.25`, `0.1`, `0.10000000000000001`, `1000`, `1e3`, `1001`,
	`9007199254740993`, `9007199254740994`, `1e400`, `-1e400`, `1e-400`, `""`, `"x"`, `"xyz"`, `"한국"`, `[]`, `[1,1]`, `[1,1.0]`, `[{"a":1},{"a":1.0}]`,
	`[[1,2],[1,2,3]]`, `[["a"]]`, `{}`, `{"a":1}`, `{"s":"x","t":-1,"u":2}`, `{"path":"a","n":1}`, `{"path":"","n":0,"zz":1,"aa":2}`,
	`{"path":"abcde","n":11,"kind":"d","list":["log","log"],"c":"x","cobj":{"a":[1,2.0]},"never":1}`,
	`{"path":"a","n":1.0,"x":-1.5,"big":9007199254740994,"one":"only","mixed":1.0,"opt":null,"objs":[{"id":1},{"id":"1"},{"x":1}]}`,
	`{"path":"a","n":2.5,"x":2.25,"list":[],"opt":"abc","a/b~c":1}`,
	`{"a":[1,2]}`, `[1,2]`, `{"a":[1,2.0]}`, `"1"`, `2.5`, `{"a":1,"b":2,"c":3}`,
}

func TestVocabularyMatchesReference(t *testing.T) {
	for i, raw := range vocabularySchemas {
		var ins [][]byte
		for _, s := range handInstances {
			ins = append(ins, []byte(s))
		}
		ins = append(ins, schematest.Instances([]byte(raw))...)
		if err := schematest.Compare("vocabulary"+string(rune('A'+i)), []byte(raw), ins); err != nil {
			t.Error(err)
		}
	}
}

var hugeExponent = regexp.MustCompile(`[eE][-+]?0*[0-9]{4,}`)

// FuzzVocabularyMatchesReference: on any JSON instance, wasm/schema reports exactly the
// reference validator's issues for every vocabulary schema.
func FuzzVocabularyMatchesReference(f *testing.F) {
	for _, s := range handInstances {
		f.Add([]byte(s))
	}
	for _, raw := range vocabularySchemas {
		for _, in := range schematest.Instances([]byte(raw)) {
			f.Add(in)
		}
	}
	var pairs []*schematest.Pair
	for i, raw := range vocabularySchemas {
		p, err := schematest.NewPair("vocabulary"+string(rune('A'+i)), []byte(raw))
		if err != nil {
			f.Fatal(err)
		}
		pairs = append(pairs, p)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if hugeExponent.Match(in) {
			return // the reference expands 1e999999 into a big.Rat, which takes minutes
		}
		for _, p := range pairs {
			if err := p.Check(in); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestCompileRefusesOutsideVocabulary: a keyword outside the vocabulary, a misspelt one, or a
// malformed value fails to compile with the keyword's JSON Pointer, instead of being ignored.
func TestCompileRefusesOutsideVocabulary(t *testing.T) {
	for doc, want := range map[string]string{
		`{"type":"object","properties":{"p":{"type":"string","maxLenght":3}}}`: `/properties/p/maxLenght: keyword "maxLenght" is not supported`,
		`{"pattern":"^a"}`:                                      `/pattern: keyword "pattern"`,
		`{"allOf":[{"type":"string"}]}`:                         `/allOf: keyword "allOf"`,
		`{"$ref":"#/$defs/a","$defs":{"a":{}}}`:                 `/$defs: keyword "$defs"`,
		`{"type":"strnig"}`:                                     `/type: "strnig" is not a JSON Schema type`,
		`{"type":["string","string"]}`:                          `/type: the list must hold distinct`,
		`{"maxLength":-1}`:                                      `/maxLength: "maxLength" must be a non-negative integer`,
		`{"maxLength":1.5}`:                                     `/maxLength: "maxLength" must be a non-negative integer`,
		`{"minimum":"1"}`:                                       `/minimum: "minimum" must be a number, got string`,
		`{"required":["a","a"]}`:                                `/required: "required" must be an array of distinct strings`,
		`{"items":[{"type":"string"}]}`:                         `/items: a schema must be an object or a boolean, got array`,
		`{"properties":{"a":{"$schema":"x"}}}`:                  `/properties/a/$schema: only the root may name a dialect`,
		`{"$schema":"http://json-schema.org/draft-07/schema#"}`: `/$schema: only the root may name a dialect, and only https://json-schema.org/draft/2020-12/schema`,
		`{"title":1}`:                                           `/title: "title" must be a string, got number`,
		`[]`:                                                    `(root): a schema must be an object or a boolean`,
		`{} {}`:                                                 `more than one JSON value`,
	} {
		_, err := schema.Compile("bad", json.RawMessage(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", doc, err, want)
		}
	}
}

// BenchmarkCompile compares compiling vocabularySchemas[0] (a 15-property tool-like schema)
// with wasm/schema (a fresh name each time, so its cache does not answer) and with the
// reference validator, which also checks the document against the 2020-12 meta-schema.
func BenchmarkCompile(b *testing.B) {
	raw := []byte(vocabularySchemas[0])
	b.Run("wasm-schema", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if _, err := schema.Compile("bench"+strconv.Itoa(i), raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schematest.Reference("bench", raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkValidate compares validating one valid and one invalid instance.
func BenchmarkValidate(b *testing.B) {
	raw := []byte(vocabularySchemas[0])
	ours := schema.MustCompile("bench", raw)
	ref, err := schematest.Reference("bench", raw)
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range []string{
		`{"path":"a","n":1,"kind":"b","list":["log","warn"],"opt":null,"objs":[{"id":1}]}`,
		`{"path":"abcde","n":11,"kind":"d","list":["log","log"],"c":"x","cobj":{"a":[1,2.0]},"never":1}`,
	} {
		v, err := schema.Decode([]byte(in))
		if err != nil {
			b.Fatal(err)
		}
		name := "valid"
		if len(ours.ValidateValue(v)) > 0 {
			name = "invalid"
		}
		b.Run(name+"/wasm-schema", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ours.ValidateValue(v)
			}
		})
		b.Run(name+"/reference", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ref(v)
			}
		})
	}
}
