package jsonstring

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestHTMLSafeMatchesEncodingJSON: HTMLSafe writes exactly what encoding/json writes.
func TestHTMLSafeMatchesEncodingJSON(t *testing.T) {
	for _, s := range cases {
		want, _ := json.Marshal(s)
		if got := Append(nil, s, HTMLSafe); !bytes.Equal(got, want) {
			t.Errorf("Append(%q, HTMLSafe) = %s, want %s", s, got, want)
		}
	}
}

// TestNoHTMLMatchesEncoder: NoHTML writes exactly what an encoding/json Encoder with
// SetEscapeHTML(false) writes.
func TestNoHTMLMatchesEncoder(t *testing.T) {
	for _, s := range cases {
		checkNoHTML(t, s)
	}
}

func checkNoHTML(t *testing.T, s string) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	want := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if got := Append(nil, s, NoHTML); !bytes.Equal(got, want) {
		t.Errorf("Append(%q, NoHTML) = %s, want %s", s, got, want)
	}
}

// TestPlainIsJSONStringify: Plain leaves '<', '>', '&', U+2028 and U+2029 as they are (as
// JSON.stringify does) and decodes back to the input.
func TestPlainIsJSONStringify(t *testing.T) {
	if got := String("<a href=\"x\">&\u2028\u2029\x01\b", Plain); got != `"<a href=\"x\">&`+"\u2028\u2029"+`\u0001\b"` {
		t.Fatalf("Plain = %s", got)
	}
	for _, s := range cases {
		var back string
		if err := json.Unmarshal(Append(nil, s, Plain), &back); err != nil {
			t.Fatalf("Plain(%q) is not JSON: %v", s, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Errorf("Plain(%q) decodes to %q", s, back)
		}
	}
}

var cases = []string{"", "plain", "q\"b\\", "\n\r\t\b\f\x00\x1f\x7f", "<script>&</script>", "\u2028\u2029",
	"é 한국어 😀", "bad\xffutf8", "\xed\xa0\x80"}

func FuzzAppendHTMLSafe(f *testing.F) {
	for _, s := range cases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := Append(nil, s, HTMLSafe); !bytes.Equal(got, want) {
			t.Fatalf("Append(%q, HTMLSafe) = %s, want %s", s, got, want)
		}
		checkNoHTML(t, s)
		if !json.Valid(Append(nil, s, Plain)) {
			t.Fatalf("Append(%q, Plain) is not valid JSON", s)
		}
	})
}

// decodeCases are raw literals, as valid JSON holds them.
var decodeCases = []string{`""`, `"plain"`, `"q\"b\\\/"`, `"\b\f\n\r\t"`, `"\u00e9\u0000\u001F"`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, `"é 한국어 😀\n"`, "\"bad\xff\\n\"", "\"bad\xff\""}

// TestDecodeMatchesEncodingJSON: Decode gives what json.Unmarshal gives, except that a
// literal without escapes keeps its bytes (invalid UTF-8 included).
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, raw := range decodeCases {
		checkDecode(t, raw)
	}
	if got := Decode([]byte("\"bad\xff\"")); got != "bad\xff" {
		t.Errorf("Decode without escapes = %q, want the bytes", got)
	}
	for _, s := range cases {
		if got := Decode(Append(nil, s, Plain)); utf8.ValidString(s) && got != s {
			t.Errorf("Decode(Append(%q)) = %q", s, got)
		}
	}
}

func checkDecode(t *testing.T, raw string) {
	t.Helper()
	var want string
	if json.Unmarshal([]byte(raw), &want) != nil {
		return
	}
	got := Decode([]byte(raw))
	if bytes.IndexByte([]byte(raw), '\\') < 0 {
		want = raw[1 : len(raw)-1]
	}
	if got != want {
		t.Errorf("Decode(%s) = %q, want %q", raw, got, want)
	}
}

func FuzzDecode(f *testing.F) {
	for _, raw := range decodeCases {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		_ = Decode([]byte(raw)) // never reads outside raw
		checkDecode(t, raw)
	})
}

// TestSkip: the walk finds the end of each value of valid JSON.
func TestSkip(t *testing.T) {
	data := []byte(` {"a\"":[1,{"b":"}"}], "c" : -1.5e3 ,"d":true}x`)
	pos := SkipSpace(data, 0)
	if end := SkipValue(data, pos); string(data[pos:end]) != `{"a\"":[1,{"b":"}"}], "c" : -1.5e3 ,"d":true}` {
		t.Fatalf("SkipValue = %q", data[pos:end])
	}
	if end, esc := SkipString(data, 2); string(data[2:end]) != `"a\""` || !esc {
		t.Fatalf("SkipString = %q %v", data[2:end], esc)
	}
	if end := SkipValue(data, 29); string(data[29:end]) != "-1.5e3" {
		t.Fatalf("SkipValue(number) = %q", data[29:end])
	}
}
