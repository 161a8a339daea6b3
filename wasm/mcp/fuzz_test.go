package mcp

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzCallRequest: the tools/call guard never panics; whatever it accepts is valid UTF-8
// JSON without repeated keys, has a name, and arguments that are an object.
func FuzzCallRequest(f *testing.F) {
	for _, s := range []string{
		`{"name":"workspace.readFile","arguments":{"path":"index.html"}}`,
		`{"name":"a","Name":"b"}`,
		`{"name":"a","name":"b"}`,
		`{"name":"a","n\u0061me":"b"}`,
		`{"name":"a","_meta":{"toolCallId":"x","IdempotencyKey":"k"}}`,
		`{"name":"a","arguments":null}`,
		"{\"name\":\"\xff\"}",
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
		`{"name":"a","_meta":{"timeoutMs":1e400}}`,
		`{"name":"a","_meta":{"coalesceKey":"type:a.js#1","source":"local","mode":"direct"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, terr := ParseCallToolParams(data)
		if terr != nil {
			if ToolErrorOf(terr).Code != CodeToolValidationFailed || ToolErrorOf(terr).Message == "" {
				t.Fatalf("unexpected error %+v", terr)
			}
			if _, err := json.Marshal(terr); err != nil {
				t.Fatalf("error not serializable: %v", err)
			}
			return
		}
		if !utf8.Valid(data) || CheckJSON(data) != nil {
			t.Fatalf("accepted input that CheckJSON refuses: %q", data)
		}
		if p.Name == "" {
			t.Fatal("accepted an empty name")
		}
		if len(p.Arguments) > 0 && jsonKind(p.Arguments) != "object" {
			t.Fatalf("accepted non-object arguments %s", p.Arguments)
		}
	})
}
