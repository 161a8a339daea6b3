package mcp

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// validSeeds are JSON texts, valid and not, that the differential tests mutate.
var validSeeds = []string{
	`{"name":"demo.readFile","arguments":{"path":"index.html"},"_meta":{"toolCallId":"bench-1","source":"local","mode":"agent","maxOutputBytes":65536}}`,
	`[1,-0,0.5,-1.25e+10,1E-3,2e5,true,false,null,"",{},[],{"a":[{"b":null}]}]`,
	`  "\u00e9\ud83d\ude00\\\/\b\f\n\r\t\"x"  `,
	"\"한국어 😀 \u2028\"",
	`{"a" : 1 , "b":[ 1 , 2 ] }`,
	`01`, `1.`, `.5`, `1e`, `-`, `+1`, `1.e5`, `tru`, `nul`, `[1,]`, `{"a":1,}`, `{"a"}`, `{1:2}`,
	`"\x"`, `"\u12G4"`, "\"\x01\"", "\"\xff\"", "\"\xed\xa0\x80\"", "\"\xc3\"", `[`, `]`, `{`, ``, ` `,
	`"a" "b"`, `[] []`, `{}x`, `nullx`, `1 2`,
}

// TestValidJSONMatchesEncodingJSON: validJSON gives the answer of utf8.Valid && json.Valid on
// the seeds, on 200,000 random mutations of them, and at the nesting limit.
func TestValidJSONMatchesEncodingJSON(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		if got, want := validJSON(b), utf8.Valid(b) && json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, encoding/json says %v", b, got, want)
		}
	}
	for _, s := range validSeeds {
		check([]byte(s))
	}
	alphabet := []byte("{}[]\",:\\/ \t\n\r0123456789-+.eEtrufalsnbu\x00\x1f\x7f\xc3\xa9\xed\xa0\x80\xff")
	rng := rand.New(rand.NewPCG(7, 11))
	for n := 0; n < 200000; n++ {
		b := []byte(validSeeds[rng.IntN(len(validSeeds))])
		for k := rng.IntN(4) + 1; k > 0; k-- {
			switch op := rng.IntN(3); {
			case op == 0 && len(b) > 0: // replace
				b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
			case op == 1: // insert
				i := rng.IntN(len(b) + 1)
				b = append(b[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
			case len(b) > 0: // delete
				i := rng.IntN(len(b))
				b = append(b[:i], b[i+1:]...)
			}
		}
		check(b)
	}
	for _, depth := range []int{63, 64, 65, maxValidDepth - 1, maxValidDepth, maxValidDepth + 1} {
		check([]byte(strings.Repeat("[", depth) + strings.Repeat("]", depth)))
		check([]byte(strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)))
	}
}

// FuzzValidJSON holds validJSON to utf8.Valid && json.Valid on any input.
func FuzzValidJSON(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), utf8.Valid(b) && json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// TestMetaEnumsWithAndWithoutEscapes: source and mode take their constants whether they are
// written plainly or with escapes, and an unknown value is refused either way.
func TestMetaEnumsWithAndWithoutEscapes(t *testing.T) {
	for _, c := range []struct {
		meta         string
		source, mode string
		ok           bool
	}{
		{`{"source":"local","mode":"direct"}`, SourceLocal, ModeDirect, true},
		{`{"source": "mcp" ,"mode":"agent"}`, SourceMCP, ModeAgent, true},
		{`{"source":"loc\u0061l","mode":"\u0061gent"}`, SourceLocal, ModeAgent, true},
		{`{"source":"Local"}`, "", "", false},
		{`{"source":"loc\u0041l"}`, "", "", false},
		{`{"mode":""}`, "", "", false},
	} {
		p, err := ParseCallToolParams([]byte(`{"name":"t","_meta":` + c.meta + `}`))
		if (err == nil) != c.ok {
			t.Fatalf("%s: err %v, want ok %v", c.meta, err, c.ok)
		}
		if c.ok && (p.Meta.Source != c.source || p.Meta.Mode != c.mode) {
			t.Fatalf("%s: source %q mode %q", c.meta, p.Meta.Source, p.Meta.Mode)
		}
	}
}
