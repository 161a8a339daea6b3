package openrouter_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// FuzzOpenRouterChunk feeds arbitrary bodies to the response decoder: it never panics, returns
// exactly one outcome, and every accepted completion is well-formed (non-blank unique ids,
// non-blank names, arguments either a compact JSON object or an OPENROUTER_INVALID_TOOL_CALL).
func FuzzOpenRouterChunk(f *testing.F) {
	f.Add([]byte(textAnswer("hi")))
	f.Add([]byte(callsAnswer("tool_calls", "null", tc{"a", "workspace_getStatus", str("")}, tc{"b", "preview_setTheme", str(`{"theme":"emerald"}`)})))
	f.Add([]byte(callsAnswer("length", `""`, tc{"a", "workspace_writeFile", str(`{"path":"a`)})))
	f.Add([]byte(`{"error":{"code":"429","message":"x"},"http_status":429}`))
	f.Add([]byte(`{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"n","arguments":{"x":null}}}]}}]}`))
	f.Add([]byte(`{"choices":[{"message":null}]}`))
	f.Add([]byte(`{"choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","reasoning":"r","reasoning_details":[{"type":"reasoning.text","text":"r","signature":"s"},{"type":"reasoning.encrypted","data":"x"}],"tool_calls":[{"id":"a","type":"function","function":{"name":"n","arguments":"{}"}}]}}]}`))
	f.Add([]byte(`<html>502</html>`))
	f.Add([]byte(`{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"n","arguments":"[1]"}},{"id":"a"}]}}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		comp, pe, terr := openrouter.DecodeResponse(body)
		n := 0
		for _, set := range []bool{comp != nil, pe != nil, terr != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d outcomes for %q", n, body)
		}
		if terr != nil && mcp.ToolErrorOf(terr).Code != mcp.CodeOpenRouterInvalidResponse && mcp.ToolErrorOf(terr).Code != mcp.CodeOpenRouterNoAssistantMessage {
			t.Fatalf("code %s", mcp.ToolErrorOf(terr).Code)
		}
		if pe != nil && pe.Status != 0 && (pe.Status < 100 || pe.Status > 599) {
			t.Fatalf("status %d", pe.Status)
		}
		if comp == nil {
			return
		}
		wellFormed(t, comp)
	})
}

// wellFormed fails t unless every call of comp has a non-blank unique id, a non-blank name,
// and exactly one of a compact JSON object and an OPENROUTER_INVALID_TOOL_CALL error.
func wellFormed(t *testing.T, comp *openrouter.Completion) {
	t.Helper()
	if len(comp.ReasoningDetails) > openrouter.MaxReasoningDetails || len(comp.Reasoning) > openrouter.MaxReasoningBytes {
		t.Fatalf("reasoning over its bounds: %d blocks, %d bytes", len(comp.ReasoningDetails), len(comp.Reasoning))
	}
	for _, d := range comp.ReasoningDetails {
		if mcp.JSONKind(d) != "object" || mcp.CheckJSON(d) != nil {
			t.Fatalf("reasoning block %q is not a JSON object", d)
		}
	}
	seen := map[string]bool{}
	for _, c := range comp.Calls {
		if strings.TrimSpace(c.ID) == "" || seen[c.ID] || strings.TrimSpace(c.Name) == "" {
			t.Fatalf("bad call %+v", c)
		}
		seen[c.ID] = true
		if (c.ArgError == nil) == (c.Arguments == nil) {
			t.Fatalf("call %+v: want exactly one of arguments and error", c)
		}
		if c.ArgError != nil {
			if c.ArgError.Code != mcp.CodeOpenRouterInvalidToolCall {
				t.Fatalf("arg error %s", c.ArgError.Code)
			}
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(c.Arguments, &m); err != nil || m == nil {
			t.Fatalf("arguments %q are not an object", c.Arguments)
		}
		if err := mcp.CheckJSON(c.Arguments); err != nil {
			t.Fatalf("arguments %q: %v", c.Arguments, err)
		}
	}
}

// FuzzOpenRouterLoop runs the whole loop over the real studio catalog with one arbitrary 2xx
// body followed by a final answer: it never panics, a failed run always names an
// OPENROUTER_* code, and a body the decoder refuses runs no tool.
func FuzzOpenRouterLoop(f *testing.F) {
	f.Add([]byte(callsAnswer("tool_calls", "null", tc{"a", "workspace_getStatus", str("")}, tc{"b", "workspace_readFile", str(`{"path":"index.html"}`)})))
	f.Add([]byte(callsAnswer("length", `""`, tc{"a", "workspace_writeFile", str(`{"path":"a`)})))
	f.Add([]byte(`{"error":{"code":"401"}}`))
	f.Add([]byte(`{"choices":[{"message":{"role":"assistant","content":"done"}}]}`))
	r := newRegistryF(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		tr := &script{t: t, steps: []step{{status: 200, body: string(body)}, {status: 200, body: textAnswer("ok")},
			{status: 200, body: textAnswer("ok")}, {status: 200, body: textAnswer("ok")}}}
		o := options(r, tr)
		o.Sleep = func(context.Context, time.Duration) error { return nil }
		rep := openrouter.Run(context.Background(), "fuzz", o)
		_, _, terr := openrouter.DecodeResponse(body)
		if terr != nil && len(rep.Calls) != 0 {
			t.Fatalf("refused body ran %d calls", len(rep.Calls))
		}
		if rep.Failed && (rep.Error == nil || !strings.HasPrefix(string(rep.Error.Code), "OPENROUTER_")) {
			t.Fatalf("failure without a provider code: %+v", rep.Error)
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("report does not serialize: %v", err)
		}
	})
}

// FuzzSSEDecoder feeds arbitrary bytes to the stream decoder, whole and cut at an arbitrary
// offset: it never panics, both give the same outcome and text, a completion always has a
// finish_reason and well-formed calls, and the text handed to OnText is the completion's.
func FuzzSSEDecoder(f *testing.F) {
	f.Add([]byte(textStream()), uint16(7))
	f.Add([]byte(callStream("tool_calls", "rald\"}")), uint16(200))
	f.Add([]byte(callStream("length", "ra")), uint16(333))
	f.Add([]byte("\uFEFFdata:{\"choices\":[{\"delta\":{\"content\":\"é\"},\r\ndata: \"finish_reason\":\"stop\"}]}\r\r: c\n"), uint16(30))
	f.Add([]byte("data: [DONE]\n\n"), uint16(3))
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"reasoning\":\"é\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"é\"}]}}]}\n\ndata: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"), uint16(40))
	f.Fuzz(func(t *testing.T, body []byte, cut uint16) {
		at := int(cut) % (len(body) + 1)
		whole, wholeText := decodeSplit(string(body))
		split, splitText := decodeSplit(string(body), at)
		if wholeText != splitText || !reflect.DeepEqual(whole, split) {
			t.Fatalf("cut at %d: %+v %q, whole %+v %q", at, split, splitText, whole, wholeText)
		}
		var text strings.Builder
		comp, pe, err := openrouter.DecodeStream(body, func(s string) { text.WriteString(s) })
		if (comp != nil) == (pe != nil || err != nil) || (pe != nil && err != nil) {
			t.Fatalf("not exactly one outcome: %v %v %v", comp, pe, err)
		}
		if err != nil && !strings.HasPrefix(string(mcp.ToolErrorOf(err).Code), "OPENROUTER_") {
			t.Fatalf("code %s", mcp.ToolErrorOf(err).Code)
		}
		if comp == nil {
			return
		}
		if comp.FinishReason == "" || (comp.Content != nil && *comp.Content != text.String()) || (comp.Content == nil && text.Len() > 0) {
			t.Fatalf("completion %+v, text %q", comp, text.String())
		}
		wellFormed(t, comp)
	})
}

// FuzzStreamDeltas assembles arbitrary tool-call deltas: each line of the input is the
// tool_calls array of one chunk (the last chunk carries finish_reason). It never panics, and
// a completion's calls are well-formed, in index order, and never carry arguments that are
// not a complete JSON object.
func FuzzStreamDeltas(f *testing.F) {
	f.Add("[{\"index\":0,\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"n\",\"arguments\":\"{\\\"x\"}}]\n[{\"index\":0,\"function\":{\"arguments\":\"\\\":1}\"}}]", "tool_calls")
	f.Add("[{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"m\",\"arguments\":\"{\"}}]\n[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"n\"}}]", "length")
	f.Add("[{\"id\":\"a\",\"function\":{\"name\":\"n\",\"arguments\":{}}}]\n[{\"id\":\"b\",\"function\":{\"name\":\"n\",\"arguments\":\"[]\"}}]", "stop")
	f.Fuzz(func(t *testing.T, lines, finish string) {
		var ps []string
		for _, l := range strings.Split(lines, "\n") {
			ps = append(ps, delta(`{"tool_calls":`+l+`}`, ""))
		}
		ps = append(ps, delta(`{}`, strings.Trim(str(finish), `"`)), "[DONE]")
		comp, _, _ := openrouter.DecodeStream([]byte(events(ps...)), nil)
		if comp == nil {
			return
		}
		wellFormed(t, comp)
		if comp.FinishReason == "length" {
			for _, c := range comp.Calls {
				if c.ArgError == nil && mcp.CheckJSON(c.Arguments) != nil {
					t.Fatalf("truncated arguments accepted: %+v", c)
				}
			}
		}
	})
}
