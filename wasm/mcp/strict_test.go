package mcp

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckJSON(t *testing.T) {
	deep := strings.Repeat("[", MaxJSONDepth+1) + strings.Repeat("]", MaxJSONDepth+1)
	okDeep := strings.Repeat("[", MaxJSONDepth) + strings.Repeat("]", MaxJSONDepth)
	tests := []struct {
		name string
		in   string
		want error
		key  string
	}{
		{"object", `{"a":1,"b":[1,{"c":"d"}]}`, nil, ""},
		{"duplicate key", `{"name":"a","name":"b"}`, ErrJSONDuplicateKey, "name"},
		{"duplicate after unescaping", `{"name":"a","n\u0061me":"b"}`, ErrJSONDuplicateKey, "name"},
		{"case differs: not a duplicate", `{"name":"a","Name":"b"}`, nil, ""},
		{"nested duplicate", `{"a":{"x":1,"y":2,"x":3}}`, ErrJSONDuplicateKey, "x"},
		{"duplicate inside array", `[{"k":1},{"k":1,"k":2}]`, ErrJSONDuplicateKey, "k"},
		{"same key in sibling objects is fine", `[{"k":1},{"k":2}]`, nil, ""},
		{"invalid UTF-8", "{\"a\":\"\xff\"}", ErrJSONInvalidUTF8, ""},
		{"syntax", `{"a":}`, ErrJSONSyntax, ""},
		{"trailing garbage", `{} {}`, ErrJSONSyntax, ""},
		{"too deep", deep, ErrJSONTooDeep, ""},
		{"exactly max depth", okDeep, nil, ""},
		{"escaped quotes in strings", `{"a\"b":"c\\","a\"b2":"\"{"}`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckJSON([]byte(tt.in))
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("CheckJSON(%q) = %v, want %v", tt.in, err, tt.want)
			}
			var je *JSONError
			if tt.key != "" && (!errors.As(err, &je) || je.Key != tt.key) {
				t.Fatalf("want key %q in %v", tt.key, err)
			}
		})
	}
}

func TestParseCallToolParams(t *testing.T) {
	p, terr := ParseCallToolParams([]byte(`{"name":"workspace.readFile","arguments":{"path":"a"},"_meta":{"toolCallId":"c1","source":"mcp","mode":"agent","idempotencyKey":"k","timeoutMs":100,"maxOutputBytes":10,"progressToken":5}}`))
	if terr != nil {
		t.Fatal(terr)
	}
	if p.Name != "workspace.readFile" || string(p.Arguments) != `{"path":"a"}` || p.Meta.ToolCallID != "c1" ||
		p.Meta.Source != "mcp" || *p.Meta.IdempotencyKey != "k" || *p.Meta.TimeoutMs != 100 || *p.Meta.MaxOutputBytes != 10 {
		t.Fatalf("decoded %+v %+v", p, p.Meta)
	}
	bad := map[string]string{
		"Name beside name":    `{"name":"a","Name":"b"}`,
		"repeated name":       `{"name":"a","name":"b"}`,
		"arguments string":    `{"name":"a","arguments":"{}"}`,
		"meta not object":     `{"name":"a","_meta":[]}`,
		"meta case variant":   `{"name":"a","_meta":{"IdempotencyKey":"k"}}`,
		"mode unknown":        `{"name":"a","_meta":{"mode":"root"}}`,
		"name too long":       `{"name":"` + strings.Repeat("x", 129) + `"}`,
		"empty name":          `{"name":""}`,
		"not an object":       `[]`,
		"toolCallId with NUL": `{"name":"a","_meta":{"toolCallId":"a\u0000b"}}`,
	}
	for name, in := range bad {
		if _, terr := ParseCallToolParams([]byte(in)); terr == nil || ToolErrorOf(terr).Code != CodeToolValidationFailed {
			t.Errorf("%s: %s accepted (%v)", name, in, terr)
		}
	}
}

func TestParseListToolsParams(t *testing.T) {
	if _, terr := ParseListToolsParams(nil, false); terr != nil {
		t.Fatalf("omitted params must be accepted: %v", terr)
	}
	if _, terr := ParseListToolsParams([]byte("null"), true); terr == nil {
		t.Fatal("null params must be refused")
	}
	p, terr := ParseListToolsParams([]byte(`{"cursor":"abc"}`), true)
	if terr != nil || p.Cursor != "abc" {
		t.Fatalf("cursor: %+v %v", p, terr)
	}
}

func TestValidateCallToolResult(t *testing.T) {
	ok := ErrorResult("c1", NewError(CodeWorkspaceFileNotFound, false, map[string]any{"path": "a"}, "File %q was not found.", "a"))
	if err := ValidateCallToolResult(ok); err != nil {
		t.Fatalf("canonical error result refused: %v", err)
	}
	if ok.Content[0].Text != `[WORKSPACE_FILE_NOT_FOUND] File "a" was not found.` {
		t.Fatalf("text = %q", ok.Content[0].Text)
	}
	cases := map[string]*CallToolResult{
		"no id":            {Content: []Content{TextContent("x")}},
		"no text":          {ToolCallID: "c", Content: []Content{{Type: "image", Data: "AA==", MimeType: "image/png"}}},
		"isError no error": {ToolCallID: "c", Content: []Content{TextContent("x")}, IsError: true},
		"bad code":         {ToolCallID: "c", Content: []Content{TextContent("x")}, IsError: true, Error: &ToolError{Code: "bad code!", Message: "m"}},
		"empty message":    {ToolCallID: "c", Content: []Content{TextContent("x")}, IsError: true, Error: &ToolError{Code: "X", Message: " "}},
		"json block":       {ToolCallID: "c", Content: []Content{TextContent("x"), {Type: "json"}}},
		"array structured": {ToolCallID: "c", Content: []Content{TextContent("x")}, StructuredContent: []byte(`[1]`)},
	}
	for name, r := range cases {
		if err := ValidateCallToolResult(r); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := ParseCallToolResult([]byte(`{"content":[{"type":"text","text":"x"}],"isError":false,"toolCallId":"c","extra":1}`)); err == nil {
		t.Error("unknown result field accepted")
	}
}

func TestStringifyToolContent(t *testing.T) {
	r := &CallToolResult{StructuredContent: []byte(`{"a":1}`)}
	if got := StringifyToolContent(r); got != `{"a":1}` {
		t.Fatalf("structured-only result rendered as %q", got)
	}
	r = &CallToolResult{Content: []Content{TextContent("one"), {Type: "image", MimeType: "image/png", Data: "AAAA"}}}
	if got := StringifyToolContent(r); got != "one\n[image image/png, 4 base64 chars]" {
		t.Fatalf("got %q", got)
	}
}
