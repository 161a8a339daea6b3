package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestDecodeMatchesEncodingJSON checks the direct decoder against encoding/json with UseNumber.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `null`, `true`, `-1.5e3`, `"a\u00e9\n\"b"`, ` { "a" : [ 1 , { "b" : null } ] , "c" : "" } `,
		`{"k":1,"k":2}`, `[[[[]]]]`, `{"\u0041":"x"}`, `12345678901234567890`,
	} {
		got, err := Decode([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(in)))
		dec.UseNumber()
		var want any
		_ = dec.Decode(&want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v", in, got, want)
		}
	}
	for _, bad := range []string{``, `{`, `{} {}`, "\"\xff\"", `[1,]`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"c"}]}`, `"\ud83d\ude00"`, `-0.0e-0`, `[null,true,false]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Decode(data)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		werr := dec.Decode(&want)
		if err != nil {
			return
		}
		if werr != nil {
			t.Fatalf("accepted %q that encoding/json refuses: %v", data, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %#v, want %#v", data, got, want)
		}
	})
}
