package openrouter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// recorded reads one of the fake provider's response bodies (host/fakeprovider/testdata).
func recorded(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../host/fakeprovider/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseReasoning(t *testing.T) {
	for _, c := range []struct {
		effort  string
		max     int
		exclude bool
		want    string // JSON of the object, "null" for none, "error"
	}{
		{"", 0, false, "null"},
		{"low", 0, false, `{"effort":"low"}`},
		{" High ", 0, true, `{"effort":"high","exclude":true}`},
		{"", 800, false, `{"max_tokens":800}`},
		{"", 0, true, `{"exclude":true}`},
		{"medium", 800, false, "error"},
		{"huge", 0, false, "error"},
		{"", openrouter.MaxReasoningTokens + 1, false, "error"},
		{"", -1, false, "error"},
	} {
		r, err := openrouter.ParseReasoning(c.effort, c.max, c.exclude)
		got := "error"
		if err == nil {
			b, _ := json.Marshal(r)
			got = string(b)
		}
		if got != c.want {
			t.Errorf("ParseReasoning(%q, %d, %v) = %s (%v), want %s", c.effort, c.max, c.exclude, got, err, c.want)
		}
	}
}

func TestBuildRequestSendsReasoning(t *testing.T) {
	r, _ := openrouter.ParseReasoning("high", 0, true)
	req, err := openrouter.BuildRequest(openrouter.Config{Reasoning: r}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(req.Body, []byte(`"reasoning":{"effort":"high","exclude":true}`)) {
		t.Fatalf("body %s", req.Body)
	}
	req, _ = openrouter.BuildRequest(openrouter.Config{}, nil, nil)
	if bytes.Contains(req.Body, []byte(`"reasoning"`)) {
		t.Fatalf("no setting must send no reasoning object: %s", req.Body)
	}
}

func TestDecodeReasoning(t *testing.T) {
	c, pe, err := openrouter.DecodeResponse([]byte(recorded(t, "chat_reasoning_tool_call.json")))
	if err != nil || pe != nil {
		t.Fatal(err, pe)
	}
	if c.Reasoning != "The user wants emerald. I should call preview_setTheme." || len(c.ReasoningDetails) != 1 ||
		!strings.HasPrefix(string(c.ReasoningDetails[0]), `{"type":"reasoning.text","text":"The user wants emerald.`) {
		t.Fatalf("reasoning %q details %s", c.Reasoning, c.ReasoningDetails)
	}
	for name, body := range map[string]string{
		"reasoning number":    `{"choices":[{"message":{"role":"assistant","content":"x","reasoning":1}}]}`,
		"details not array":   `{"choices":[{"message":{"role":"assistant","content":"x","reasoning_details":{}}}]}`,
		"detail not object":   `{"choices":[{"message":{"role":"assistant","content":"x","reasoning_details":["x"]}}]}`,
		"too many details":    `{"choices":[{"message":{"role":"assistant","content":"x","reasoning_details":[` + strings.Repeat(`{},`, openrouter.MaxReasoningDetails) + `{}]}}]}`,
		"stream reasoning 1":  "data: {\"choices\":[{\"delta\":{\"reasoning\":7}}]}\n\n",
		"stream details text": "data: {\"choices\":[{\"delta\":{\"reasoning_details\":\"x\"}}]}\n\n",
	} {
		var terr error
		if strings.HasPrefix(body, "data:") {
			_, _, terr = openrouter.DecodeStream([]byte(body), nil)
		} else {
			_, _, terr = openrouter.DecodeResponse([]byte(body))
		}
		if te, ok := terr.(*mcp.ToolError); !ok || te.Code != mcp.CodeOpenRouterInvalidResponse {
			t.Errorf("%s: %v, want OPENROUTER_INVALID_RESPONSE", name, terr)
		}
	}
}

// TestStreamReasoningSplitInsideRune: the recorded stream fed in pieces cut inside "é" and
// inside a JSON string gives the same reasoning text and blocks as one piece.
func TestStreamReasoningSplitInsideRune(t *testing.T) {
	body := []byte(recorded(t, "stream_reasoning_tool_call.sse"))
	whole, _, err := openrouter.DecodeStream(body, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(body, []byte("é")) + 1
	j := bytes.Index(body, []byte(`"text":"The user`)) + 10
	d := &openrouter.StreamDecoder{}
	for _, p := range [][]byte{body[:j], body[j:i], body[i:]} {
		d.Feed(p)
	}
	split, _, err := d.Finish()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*openrouter.Completion{whole, split} {
		if c.Reasoning != "The user wants émerald → setTheme." || len(c.ReasoningDetails) != 2 || len(c.Calls) != 1 || c.Calls[0].ID != "toolu_reason02" {
			t.Fatalf("reasoning %q, %d blocks, calls %+v", c.Reasoning, len(c.ReasoningDetails), c.Calls)
		}
	}
	if string(whole.ReasoningDetails[1]) != string(split.ReasoningDetails[1]) {
		t.Fatalf("split changed a block: %s vs %s", whole.ReasoningDetails[1], split.ReasoningDetails[1])
	}
}

// TestToolLoopSendsReasoningDetailsBack: the reasoning model's signed block (recorded answer)
// goes back, unchanged, on the assistant message of the next request of the tool loop, with
// the reasoning setting on both requests; the report carries the reasoning text. Streamed and
// plain answers behave the same.
func TestToolLoopSendsReasoningDetailsBack(t *testing.T) {
	for _, stream := range []bool{false, true} {
		first := recorded(t, "chat_reasoning_tool_call.json")
		hdr := map[string]string(nil)
		if stream {
			first = recorded(t, "stream_reasoning_tool_call.sse")
			hdr = map[string]string{"Content-Type": "text/event-stream"}
		}
		r := newRegistry(t, true)
		tr := &script{t: t, steps: []step{{status: 200, header: hdr, body: first}, ok200(textAnswer("Emerald it is."))}}
		o := options(r, tr)
		o.Stream = stream
		o.Reasoning, _ = openrouter.ParseReasoning("medium", 0, false)
		conv := &openrouter.Conversation{}
		o.Conversation = conv
		rep := openrouter.Run(context.Background(), "make it emerald", o)
		if rep.Failed || rep.Summary != "Emerald it is." {
			t.Fatalf("stream %v: report %+v", stream, rep)
		}
		if !strings.Contains(rep.Reasoning, "setTheme") {
			t.Errorf("stream %v: report reasoning %q", stream, rep.Reasoning)
		}
		for i := 0; i < 2; i++ {
			if got, _ := tr.body(t, i)["reasoning"].(map[string]any); got["effort"] != "medium" {
				t.Errorf("stream %v: request %d reasoning %v", stream, i, got)
			}
		}
		msgs := tr.messages(t, 1)
		var sent []any
		for _, m := range msgs {
			if m["role"] == "assistant" && m["tool_calls"] != nil {
				sent, _ = m["reasoning_details"].([]any)
			}
		}
		if len(sent) == 0 {
			t.Fatalf("stream %v: the second request carries no reasoning_details: %v", stream, msgs)
		}
		b, _ := json.Marshal(sent[len(sent)-1])
		if !strings.Contains(string(b), `"signature":"EqQBCkgIBxABGAIiQL1Xz2sig`) {
			t.Errorf("stream %v: the signed block was not sent back unchanged: %s", stream, b)
		}
		// The history (what the browser stores) keeps the blocks and restores into a new
		// conversation that sends them again.
		h := conv.Messages()
		var again openrouter.Conversation
		if err := again.Restore(h); err != nil {
			t.Fatalf("stream %v: restore: %v", stream, err)
		}
		raw1, _ := json.Marshal(h)
		raw2, _ := json.Marshal(again.Messages())
		if !bytes.Equal(raw1, raw2) {
			t.Errorf("stream %v: restore changed the history", stream)
		}
	}
}

func TestRestoreRefusesBrokenHistory(t *testing.T) {
	s := func(v string) *string { return &v }
	sys := openrouter.Message{Role: openrouter.RoleSystem, Content: s("old prompt")}
	user := openrouter.Message{Role: openrouter.RoleUser, Content: s("hi")}
	call := openrouter.Message{Role: openrouter.RoleAssistant, ToolCalls: []openrouter.ToolCall{{ID: "a", Type: "function",
		Function: openrouter.ToolCallFunction{Name: "workspace_getStatus", Arguments: "{}"}}}}
	tool := openrouter.Message{Role: openrouter.RoleTool, ToolCallID: "a", Content: s("{}")}
	var c openrouter.Conversation
	if err := c.Restore([]openrouter.Message{sys, user, call, tool}); err != nil {
		t.Fatal(err)
	}
	if got := c.Messages(); *got[0].Content != openrouter.SystemPrompt {
		t.Errorf("the system message is not today's: %q", *got[0].Content)
	}
	for name, h := range map[string][]openrouter.Message{
		"no system":         {user},
		"two systems":       {sys, sys},
		"unanswered":        {sys, user, call},
		"stray tool":        {sys, user, tool},
		"user in the gap":   {sys, user, call, user, tool},
		"unknown role":      {sys, {Role: "developer", Content: s("x")}},
		"user with calls":   {sys, {Role: openrouter.RoleUser, Content: s("x"), ToolCalls: call.ToolCalls}},
		"args not object":   {sys, user, {Role: openrouter.RoleAssistant, ToolCalls: []openrouter.ToolCall{{ID: "b", Type: "function", Function: openrouter.ToolCallFunction{Name: "x", Arguments: "[]"}}}}, {Role: openrouter.RoleTool, ToolCallID: "b", Content: s("{}")}},
		"detail not object": {sys, user, {Role: openrouter.RoleAssistant, Content: s("x"), ReasoningDetails: []json.RawMessage{json.RawMessage(`"x"`)}}},
	} {
		before := c.Messages()
		if err := c.Restore(h); err == nil {
			t.Errorf("%s: restored", name)
		}
		if len(c.Messages()) != len(before) {
			t.Errorf("%s: a refused restore changed the conversation", name)
		}
	}
}
