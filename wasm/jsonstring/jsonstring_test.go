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
		if !json.Valid(Append(nil, s, Plain)) {
			t.Fatalf("Append(%q, Plain) is not valid JSON", s)
		}
	})
}
