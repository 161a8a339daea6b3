package toolcatalog

import (
	"encoding/json"
	"testing"
)

// FuzzSample: any schema text either fails with ErrSchema or yields a JSON object.
func FuzzSample(f *testing.F) {
	f.Add(`{"type":"object","properties":{"path":{"type":"string","minLength":1,"maxLength":160}},"required":["path"]}`, "index.html", int64(3))
	f.Add(`{"type":["null","array"],"items":{"type":"object","properties":{"a":{"enum":[1]}},"required":["a"]},"minItems":3}`, "", int64(0))
	f.Add(`{"properties":{"x":{"properties":{"y":{"const":{"z":1}}},"required":["y"]}},"required":["x","missing"]}`, "a/b", int64(-1))
	f.Add(`{"required":["s"],"properties":{"s":{"minLength":100000000,"maxLength":-3}}}`, "é", int64(1))
	f.Fuzz(func(t *testing.T, schema, active string, rev int64) {
		out, err := Sample(json.RawMessage(schema), SampleOptions{ActivePath: active, Revision: rev, HasRevision: rev >= 0})
		if err != nil {
			return
		}
		if _, perr := ParseArguments(json.RawMessage(out)); perr != nil {
			t.Fatalf("sample %q of %q is not an object: %v", out, schema, perr)
		}
	})
}

// FuzzParseArguments: accepted text is always re-encoded as one JSON object.
func FuzzParseArguments(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":[1,{"b":null}]} `, `{"a":1}{}`, `[]`, ``, `{"a":"\ud800"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := ParseArguments(json.RawMessage(s))
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(out, &m) != nil || m == nil {
			t.Fatalf("%q → %q", s, out)
		}
	})
}
