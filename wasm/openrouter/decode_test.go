package openrouter_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

func TestDecodeResponseContentForms(t *testing.T) {
	for body, want := range map[string]string{
		`{"choices":[{"message":{"role":"assistant","content":null}}]}`: "null/present",
		`{"choices":[{"message":{"role":"assistant","content":""}}]}`:   `""/present`,
		`{"choices":[{"message":{"role":"assistant"}}]}`:                "null/absent",
		`{"choices":[{"message":{"content":"hi"}}]}`:                    `"hi"/present`,
	} {
		c, pe, terr := openrouter.DecodeResponse([]byte(body))
		if pe != nil || terr != nil {
			t.Fatalf("%s: %v %v", body, pe, terr)
		}
		got := "null"
		if c.Content != nil {
			b, _ := json.Marshal(*c.Content)
			got = string(b)
		}
		if c.ContentPresent {
			got += "/present"
		} else {
			got += "/absent"
		}
		if got != want {
			t.Fatalf("%s: %s, want %s", body, got, want)
		}
	}
}

func TestDecodeArguments(t *testing.T) {
	for _, c := range []struct {
		args, finish, want string
		code               mcp.Code
	}{
		{`""`, "tool_calls", `{}`, ""},
		{`" \t "`, "tool_calls", `{}`, ""},
		{`null`, "tool_calls", `{}`, ""},
		{`"{ \"a\" : [1, 2] }"`, "tool_calls", `{"a":[1,2]}`, ""},
		{`{ "a" : 1 }`, "stop", `{"a":1}`, ""},
		{`"[1]"`, "tool_calls", ``, mcp.CodeOpenRouterInvalidToolCall},
		{`"\"x\""`, "tool_calls", ``, mcp.CodeOpenRouterInvalidToolCall},
		{`"{\"a\":"`, "length", ``, mcp.CodeOpenRouterInvalidToolCall},
		{`"{\"a\":1,\"a\":2}"`, "stop", ``, mcp.CodeOpenRouterInvalidToolCall},
		{`[1]`, "stop", ``, mcp.CodeOpenRouterInvalidToolCall},
		{`true`, "stop", ``, mcp.CodeOpenRouterInvalidToolCall},
	} {
		body := `{"choices":[{"finish_reason":"` + c.finish + `","message":{"role":"assistant","tool_calls":[{"id":"x","type":"function","function":{"name":"n","arguments":` + c.args + `}}]}}]}`
		comp, pe, terr := openrouter.DecodeResponse([]byte(body))
		if pe != nil || terr != nil || len(comp.Calls) != 1 {
			t.Fatalf("%s: %v %v", c.args, pe, terr)
		}
		call := comp.Calls[0]
		if c.code != "" {
			if call.ArgError == nil || call.ArgError.Code != c.code || call.Arguments != nil {
				t.Fatalf("%s: %+v", c.args, call)
			}
			continue
		}
		if call.ArgError != nil || string(call.Arguments) != c.want {
			t.Fatalf("%s: got %s %+v, want %s", c.args, call.Arguments, call.ArgError, c.want)
		}
	}
}

func TestDecodeMissingTypeIsAFunction(t *testing.T) {
	comp, _, terr := openrouter.DecodeResponse([]byte(`{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"x","function":{"name":"n","arguments":"{}"}}]}}]}`))
	if terr != nil || len(comp.Calls) != 1 {
		t.Fatalf("%v", terr)
	}
}

func TestSerializeResult(t *testing.T) {
	decode := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return m
	}
	ok := &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent("done")}, StructuredContent: json.RawMessage(`{"revision":3}`), ToolCallID: "a"}
	if got := openrouter.SerializeResult(ok); got != `{"revision":3}` {
		t.Fatalf("structured: %s", got)
	}
	textOnly := &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent("line 1"), mcp.TextContent("line 2")}, ToolCallID: "a"}
	if m := decode(openrouter.SerializeResult(textOnly)); m["status"] != "completed" || m["content"] != "line 1\nline 2" {
		t.Fatalf("text: %v", m)
	}
	failed := mcp.ErrorResult("a", mcp.NewError(mcp.CodeWorkspaceFileNotFound, false, map[string]any{"path": "x"}, "File x not found."))
	if m := decode(openrouter.SerializeResult(failed)); m["status"] != "error" || m["code"] != "WORKSPACE_FILE_NOT_FOUND" ||
		m["message"] != "File x not found." || m["retryable"] != false || m["details"].(map[string]any)["path"] != "x" {
		t.Fatalf("error: %v", m)
	}
	for _, bad := range []*mcp.CallToolResult{nil, {ToolCallID: "a"}, {Content: []mcp.Content{mcp.TextContent("x")}}, {Content: []mcp.Content{mcp.TextContent("x")}, ToolCallID: "a", IsError: true}} {
		if m := decode(openrouter.SerializeResult(bad)); m["code"] != string(mcp.CodeToolResultValidationFailed) || m["status"] != "error" {
			t.Fatalf("invalid %+v: %v", bad, m)
		}
	}
	broken := &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent("x")}, StructuredContent: json.RawMessage(`{"a":`), ToolCallID: "a"}
	if m := decode(openrouter.SerializeResult(broken)); m["code"] != string(mcp.CodeToolResultSerializationFailed) {
		t.Fatalf("unserializable: %v", m)
	}
	cyclic := mcp.ErrorResult("a", mcp.NewError(mcp.CodeToolExecutionFailed, true, nil, "boom"))
	cyclic.Error.Details = map[string]any{"f": func() {}}
	m := decode(openrouter.SerializeResult(cyclic))
	orig, _ := m["originalError"].(map[string]any)
	if m["code"] != string(mcp.CodeToolResultSerializationFailed) || orig["code"] != "TOOL_EXECUTION_FAILED" || orig["retryable"] != true || m["details"] != nil {
		t.Fatalf("unserializable details: %v", m)
	}
}

func TestBackoffAndRetryAfter(t *testing.T) {
	for a, want := range []time.Duration{350 * time.Millisecond, 700 * time.Millisecond, 1400 * time.Millisecond, 2800 * time.Millisecond, 4 * time.Second, 4 * time.Second} {
		if got := openrouter.Backoff(a, 0); got != want {
			t.Fatalf("attempt %d: %v, want %v", a, got, want)
		}
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{"": 0, "1": time.Second, "1.5": 1500 * time.Millisecond, "-3": 0, "soon": 0,
		now.Add(2 * time.Second).Format(time.RFC1123): 2 * time.Second, now.Add(-time.Minute).Format(time.RFC1123): 0} {
		if got := openrouter.RetryAfter(v, now); got != want {
			t.Fatalf("Retry-After %q: %v, want %v", v, got, want)
		}
	}
	if openrouter.Backoff(0, time.Hour) != openrouter.MaxBackoff {
		t.Fatal("Retry-After not capped")
	}
}

func TestExcerpt(t *testing.T) {
	if got := openrouter.Excerpt("  a \n\t b  ", 240); got != "a b" {
		t.Fatalf("%q", got)
	}
	long := strings.Repeat("é ", 300)
	if got := openrouter.Excerpt(long, 240); len([]rune(got)) != 240 || !strings.HasSuffix(got, "…") {
		t.Fatalf("%d runes", len([]rune(got)))
	}
	if got := openrouter.Excerpt("a\xffb", 10); got != "a\uFFFDb" {
		t.Fatalf("%q", got)
	}
}
