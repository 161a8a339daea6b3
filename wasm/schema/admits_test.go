package schema

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

const readOut = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer","minimum":0}},"required":["path","source","revision"],"additionalProperties":false}`

type readOK struct {
	Path     string `json:"path"`
	Source   string `json:"source"`
	Revision uint64 `json:"revision"`
}

type inner struct {
	On    bool    `json:"on"`
	Ratio float64 `json:"ratio"`
	Delta int32   `json:"delta"`
}

type nestedOK struct {
	Name   string `json:"name"`
	Inner  inner  `json:"inner"`
	Count  uint8  `json:"count,omitempty"`
	hidden string //nolint:unused // unexported: never encoded
	Skip   []int  `json:"-"`
}

const nestedOut = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"n","properties":{"name":{"type":"string","description":"d"},"inner":{"type":"object","properties":{"on":{"type":"boolean"},"ratio":{"type":"number"},"delta":{"type":"integer"}},"additionalProperties":false},"count":{"type":"integer","minimum":0},"extra":{"type":"string"}},"required":["name","inner"],"additionalProperties":false}`

// TestAdmitsTypeIsSound checks the proof against the validator: for every type AdmitsType
// admits, marshalled values at the edges of the type and random ones all validate.
func TestAdmitsTypeIsSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	strs := []string{"", "a", "한국어", "\xff\xfe invalid UTF-8", "\x00\n\"\\", "<script>&"}
	cases := []struct {
		schema string
		gen    func() any
	}{
		{readOut, func() any {
			return readOK{Path: strs[rng.IntN(len(strs))], Source: strs[rng.IntN(len(strs))], Revision: []uint64{0, 1, math.MaxUint64, rng.Uint64()}[rng.IntN(4)]}
		}},
		{nestedOut, func() any {
			return nestedOK{Name: strs[rng.IntN(len(strs))], Count: uint8(rng.IntN(3)), hidden: "x",
				Inner: inner{On: rng.IntN(2) == 0, Ratio: []float64{0, -1.5, math.MaxFloat64, math.SmallestNonzeroFloat64, 1e21}[rng.IntN(5)],
					Delta: []int32{math.MinInt32, 0, math.MaxInt32}[rng.IntN(3)]}}
		}},
	}
	for _, c := range cases {
		s := MustCompile("admits", []byte(c.schema))
		typ := reflect.TypeOf(c.gen())
		if !s.AdmitsType(typ) {
			t.Fatalf("%v: want admitted by %s", typ, c.schema)
		}
		for i := 0; i < 500; i++ {
			v := c.gen()
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if issues := s.Validate(b); issues != nil {
				t.Fatalf("%v admitted but %s fails: %v", typ, b, issues)
			}
		}
	}
}

type stringMarshaler struct{ X string }

func (stringMarshaler) MarshalJSON() ([]byte, error) { return []byte(`7`), nil }

type textKey struct{ X string }

func (*textKey) MarshalText() ([]byte, error) { return []byte(`t`), nil }

// TestAdmitsTypeRefusesWhatItCannotProve lists the types and schemas the proof must not admit.
func TestAdmitsTypeRefusesWhatItCannotProve(t *testing.T) {
	s := MustCompile("admits", []byte(readOut))
	for _, typ := range []any{
		struct {
			Path     string `json:"path"`
			Source   string `json:"source"`
			Revision int64  `json:"revision"` // can be negative; the schema says minimum 0
		}{},
		struct {
			Path     string `json:"path"`
			Source   string `json:"source"`
			Revision uint64 `json:"revision,omitempty"` // required but may be left out
		}{},
		struct {
			Path     string `json:"path"`
			Source   string `json:"source"`
			Revision uint64 `json:"revision,string"` // encoded as a string
		}{},
		struct {
			Path   string `json:"path"`
			Source string `json:"source"` // revision missing: required
		}{},
		struct {
			Path     string `json:"path"`
			Source   string `json:"source"`
			Revision uint64 `json:"revision"`
			Extra    string `json:"extra"` // not in properties, additionalProperties false
		}{},
		struct {
			Path     *string `json:"path"` // nil marshals to null
			Source   string  `json:"source"`
			Revision uint64  `json:"revision"`
		}{},
		struct {
			Path     stringMarshaler `json:"path"`
			Source   string          `json:"source"`
			Revision uint64          `json:"revision"`
		}{},
		struct {
			Path     textKey `json:"path"`
			Source   string  `json:"source"`
			Revision uint64  `json:"revision"`
		}{},
		struct {
			Path     string        `json:"path"`
			Source   string        `json:"source"`
			Revision time.Duration `json:"revision"` // signed
		}{},
		&readOK{}, // a nil *readOK marshals to null
		map[string]any{},
		[]any{},
		"x",
	} {
		if s.AdmitsType(reflect.TypeOf(typ)) {
			t.Errorf("%T must not be admitted", typ)
		}
	}
	for _, doc := range []string{
		`{"type":"object","properties":{"path":{"type":"string","maxLength":3},"source":{"type":"string"},"revision":{"type":"integer"}}}`,
		`{"type":"object","properties":{"path":{"type":"string","format":"uri"},"source":{"type":"string"},"revision":{"type":"integer"}}}`,
		`{"type":"object","properties":{"path":{"$ref":"#/$defs/s"},"source":{"type":"string"},"revision":{"type":"integer"}},"$defs":{"s":{"type":"string"}}}`,
		`{"type":"object","properties":{"path":{"type":"string","enum":["a"]},"source":{"type":"string"},"revision":{"type":"integer"}}}`,
		`{"type":"object","properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer","minimum":1}}}`,
		`{"type":"object","properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer","maximum":10}}}`,
		`{"type":"object","minProperties":4,"properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer"}}}`,
		`{"type":"object","properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer"}},"additionalProperties":{"type":"string"}}`,
		`{"type":"object","properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer"}},"unevaluatedProperties":false}`,
		`{"type":"object","properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"string"}}}`,
		`{"type":["object","null"],"properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer"}}}`,
		`{"type":"object","properties":{"path":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string"},"source":{"type":"string"},"revision":{"type":"integer"}}}`,
		`{"type":"object","allOf":[{"required":["x"]}],"properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer"}}}`,
	} {
		s, err := Compile("refuse", []byte(doc))
		if err != nil {
			continue // outside the vocabulary ($ref, allOf, …): no tool can declare it
		}
		if s.AdmitsType(reflect.TypeFor[readOK]()) {
			t.Errorf("readOK must not be admitted by %s", doc)
		}
	}
	if !MustCompile("open", []byte(`{"type":"object","properties":{"path":{"type":"string"},"source":true,"revision":{"type":"integer","minimum":0}}}`)).AdmitsType(reflect.TypeFor[readOK]()) {
		t.Error("readOK must be admitted by an open schema with a true property schema")
	}
}
