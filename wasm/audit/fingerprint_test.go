package audit

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// fnv1a64 is an independent FNV-1a implementation (offset basis and prime from the FNV
// specification) to check that Fingerprint hashes the serialization it claims.
func fnv1a64(b []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	return h
}

func TestFingerprintFormat(t *testing.T) {
	got := Fingerprint("workspace.getFile", json.RawMessage(`{"path":"index.html"}`))
	ser := `workspace.getFile:{"path":"index.html"}`
	want := fmt.Sprintf("fnv1a64:%016x:%d", fnv1a64([]byte(ser)), len(ser))
	if got != want {
		t.Errorf("Fingerprint = %s, want %s", got, want)
	}
	if !regexp.MustCompile(`^fnv1a64:[0-9a-f]{16}:[0-9]+$`).MatchString(got) {
		t.Errorf("Fingerprint %s does not match the format", got)
	}
	// A hash with leading zero nibbles is still 16 hex digits.
	for i := range 2000 {
		fp := Fingerprint("t", json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)))
		if !regexp.MustCompile(`^fnv1a64:[0-9a-f]{16}:`).MatchString(fp) {
			t.Fatalf("Fingerprint %s is not zero-padded", fp)
		}
	}
}

func TestFingerprintStable(t *testing.T) {
	same := [][]string{
		// omitted, empty, null and {} arguments
		{``, `{}`, ` { } `, `null`},
		// key order at every depth and white space
		{`{"a":1,"b":{"y":[1,{"q":1,"p":2}],"x":2}}`, `{"b":{"x":2,"y":[1,{"p":2,"q":1}]},"a":1}`, "{\n \"b\" : {\"x\":2,\"y\":[1,{\"q\":1,\"p\":2}]},\"a\":1}"},
		// number forms
		{`{"n":1}`, `{"n":1.0}`, `{"n":1e0}`, `{"n":10e-1}`, `{"n":1.00E+0}`},
		{`{"n":0}`, `{"n":-0}`, `{"n":0.0e5}`},
		{`{"n":1e21}`, `{"n":1000000000000000000000}`},
		// string escapes
		{`{"s":"é\/"}`, `{"s":"\u00e9/"}`},
		// out-of-range literals
		{`{"n":1e400}`, `{"n":2e999}`},
	}
	for _, group := range same {
		first := Fingerprint("tool", json.RawMessage(group[0]))
		for _, args := range group[1:] {
			if got := Fingerprint("tool", json.RawMessage(args)); got != first {
				t.Errorf("Fingerprint(%s) = %s, want %s as for %s", args, got, first, group[0])
			}
		}
	}
	if Fingerprint("tool", nil) != Fingerprint("tool", json.RawMessage(`{}`)) {
		t.Error("nil and {} arguments differ")
	}
}

func TestFingerprintDistinguishes(t *testing.T) {
	inputs := []struct{ tool, args string }{
		{"tool", `{}`},
		{"tool2", `{}`},
		{"tool", `{"a":1}`},
		{"tool", `{"a":"1"}`},
		{"tool", `{"a":1.5}`},
		{"tool", `{"a":[1,2]}`},
		{"tool", `{"a":[2,1]}`},
		{"tool", `{"a":null}`},
		{"tool", `{"a":true}`},
		{"tool", `{"A":1}`},
		{"tool", `{"n":1e400}`},
		{"tool", `{"n":"Infinity"}`},
		{"tool", `{"a":`},
		{"tool", `[]`},
	}
	seen := map[string]string{}
	for _, in := range inputs {
		fp := Fingerprint(in.tool, json.RawMessage(in.args))
		key := in.tool + " " + in.args
		if prev, ok := seen[fp]; ok {
			t.Errorf("%s and %s share %s", prev, key, fp)
		}
		seen[fp] = key
	}
}

func TestStableJSON(t *testing.T) {
	cases := map[string]string{
		`{"b":[3,{"d":1,"c":"<&>"}],"a":"x\ny\u0001"}`: `{"a":"x\ny\u0001","b":[3,{"c":"<&>","d":1}]}`,
		`  null `:                 `{}`,
		`[1.50, 2e2, -3E-2]`:      `[1.5,200,-0.03]`,
		`"\ud83d\ude00"`:          `"😀"`,
		`{"k":{"z":{},"a":[]}}`:   `{"k":{"a":[],"z":{}}}`,
		`{"n":12345678901234567}`: `{"n":12345678901234568}`,
	}
	for in, want := range cases {
		got, err := StableJSON(json.RawMessage(in))
		if err != nil || string(got) != want {
			t.Errorf("StableJSON(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{`{`, `{"a":1}{}`, "\"\xff\"", `{"a":01}`} {
		if got, err := StableJSON(json.RawMessage(bad)); err == nil {
			t.Errorf("StableJSON(%q) = %s, want an error", bad, got)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1, "-1"},
		{1.5, "1.5"},
		{123.456, "123.456"},
		{0.1, "0.1"},
		{0.000001, "0.000001"},
		{1e-7, "1e-7"},
		{1.5e-7, "1.5e-7"},
		{1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{1.2345e22, "1.2345e+22"},
		{123456789012345680000, "123456789012345680000"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{2.5e-5, "0.000025"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, c := range cases {
		if got := FormatNumber(c.f); got != c.want {
			t.Errorf("FormatNumber(%v) = %s, want %s", c.f, got, c.want)
		}
	}
}

// referenceStable is the decode-based stable serialization: decode with json.Number, sort
// keys, re-encode. The byte scanner behind StableJSON must agree with it on every input.
func referenceStable(raw []byte) ([]byte, bool) {
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "" || trimmed == "null" {
		return []byte("{}"), true
	}
	v, ok := decodeJSON([]byte(trimmed))
	if !ok {
		return nil, false
	}
	return refAppend(nil, v), true
}

func refAppend(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return appendString(b, x)
	case json.Number:
		f, _ := strconv.ParseFloat(string(x), 64)
		return append(b, FormatNumber(f)...)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = refAppend(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = refAppend(b, x[k])
		}
		return append(b, '}')
	}
	panic("unexpected type")
}

func TestStableJSONMatchesReference(t *testing.T) {
	var many strings.Builder
	many.WriteString("{")
	for i := 99; i >= 0; i-- {
		if i < 99 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `"k%02d":[%d,{"z":1,"a":"\u00e9\n"}]`, i, i)
	}
	many.WriteString(`,"k05":"repeat wins"}`)
	inputs := []string{
		many.String(),
		`{"b":1,"a":{"d":[1,2,{"y":0.10,"x":-0}],"c":"\"quoted\""},"a\u0000":true}`,
		`{"a":1,"a":2}`, `{"b":1,"a":2,"b":3}`, `{"\u0061":1,"a":2}`,
		`[1e21,1E-7,-0.0,123456789012345,1234567890123456,00]`,
		`"plain"`, `"esc\/aped\t"`, `true`, `  false `, `12`, `-5`, `[]`, `{}`,
	}
	for _, in := range inputs {
		got, err := StableJSON(json.RawMessage(in))
		want, ok := referenceStable([]byte(in))
		if (err == nil) != ok || string(got) != string(want) {
			t.Errorf("StableJSON(%s)\n got %s, %v\nwant %s, %v", in, got, err, want, ok)
		}
	}
}

// FuzzStableJSON checks the byte scanner against the decode-based reference and that
// Fingerprint depends only on the stable serialization.
func FuzzStableJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1.0,"x"]}`, `{"a":1,"a":2}`, `[-0,1e400,"\u00e9"]`, `null`, ``, `{"a":`, `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := StableJSON(raw)
		want, ok := referenceStable(raw)
		if (err == nil) != ok {
			t.Fatalf("StableJSON(%q) error %v, reference ok %v", raw, err, ok)
		}
		if !ok {
			return
		}
		if string(got) != string(want) {
			t.Fatalf("StableJSON(%q)\n got %s\nwant %s", raw, got, want)
		}
		if !json.Valid(got) && !strings.Contains(string(got), "Infinity") {
			t.Fatalf("stable form is not JSON: %s", got)
		}
		again, err := StableJSON(got)
		if err == nil && string(again) != string(got) {
			t.Fatalf("not idempotent: %s -> %s", got, again)
		}
		if Fingerprint("t", raw) != Fingerprint("t", got) && err == nil {
			t.Fatalf("fingerprint differs between %q and its stable form %s", raw, got)
		}
	})
}

// TestFingerprintWhitespaceAfterComma is the regression for a panic found by the idempotency
// conformance vector: whitespace between a comma and the next key.
func TestFingerprintWhitespaceAfterComma(t *testing.T) {
	compact := Fingerprint("t", []byte(`{"a":1,"b":[1,2]}`))
	for _, s := range []string{"{ \"a\" : 1 , \"b\" : [ 1 , 2 ] }", "{\n \"b\": [1,\n 2],\n \"a\": 1\n }"} {
		if got := Fingerprint("t", []byte(s)); got != compact {
			t.Errorf("Fingerprint(%q) = %s, want %s", s, got, compact)
		}
	}
}
