package audit

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
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
