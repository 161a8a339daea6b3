package schema

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const pathSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
"properties":{"path":{"type":"string","minLength":1,"maxLength":3}},"required":["path"],"additionalProperties":false}`

func TestValidateCountsCodePoints(t *testing.T) {
	s := MustCompile("t", []byte(pathSchema))
	if got := s.Validate([]byte(`{"path":"한국어"}`)); got != nil {
		t.Fatalf("3 code points (9 UTF-8 bytes) must pass maxLength 3, got %v", got)
	}
	got := s.Validate([]byte(`{"path":"abcd"}`))
	if len(got) != 1 || got[0].Path != "/path" || !strings.HasSuffix(got[0].Keyword, "maxLength") {
		t.Fatalf("want one maxLength issue at /path, got %+v", got)
	}
}

func TestValidateClosedObjectIsCaseSensitive(t *testing.T) {
	s := MustCompile("t", []byte(pathSchema))
	got := s.Validate([]byte(`{"Path":"a"}`))
	if len(got) < 2 {
		t.Fatalf("\"Path\" must be both unknown and leave \"path\" missing, got %+v", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i-1].Path > got[i].Path {
			t.Fatalf("issues not sorted: %+v", got)
		}
	}
}

func TestCompileRefusesExternalRef(t *testing.T) {
	_, err := Compile("t", []byte(`{"$ref":"https://example.com/x.json"}`))
	if err == nil {
		t.Fatal("external $ref must fail to compile")
	}
}

func TestIssuesAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; i < 50; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"p` + string(rune('A'+i%26)) + string(rune('a'+i/26)) + `":{"type":"string"}`)
	}
	b.WriteString(`}}`)
	s := MustCompile("t", []byte(b.String()))
	var in strings.Builder
	in.WriteString("{")
	for i := 0; i < 50; i++ {
		if i > 0 {
			in.WriteByte(',')
		}
		in.WriteString(`"p` + string(rune('A'+i%26)) + string(rune('a'+i/26)) + `":1`)
	}
	in.WriteString("}")
	got := s.Validate([]byte(in.String()))
	if len(got) != MaxIssues || got[MaxIssues-1].Keyword != "truncated" {
		t.Fatalf("want %d issues ending in truncated, got %d: %+v", MaxIssues, len(got), got[len(got)-1])
	}
}

func TestCompileReusesCompiledSchemas(t *testing.T) {
	raw := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":3}},"additionalProperties":false}`)
	a, err := Compile("reuse", raw)
	if err != nil {
		t.Fatal(err)
	}
	raw[bytes.IndexByte(raw, '3')] = '9' // the caller's bytes change after compiling: the schema keeps its own copy
	b, err := Compile("reuse", json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":3}},"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatal("the same name and document compiled twice gave two schemas")
	}
	if !json.Valid(a.Raw()) || len(a.Validate([]byte(`{"n":2}`))) == 0 || len(a.Validate([]byte(`{"n":4}`))) != 0 {
		t.Fatalf("cached schema: raw %s", a.Raw())
	}
	if c, _ := Compile("other-name", b.Raw()); c == a {
		t.Fatal("a different name shares the entry")
	}
	if _, err := Compile("bad", json.RawMessage(`{"type":"nope"}`)); err == nil {
		t.Fatal("an invalid schema compiled")
	}
	if _, err := Compile("bad", json.RawMessage(`{"type":"nope"}`)); err == nil {
		t.Fatal("an invalid schema compiled the second time (failures must not be cached)")
	}
}
