package openrouter_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// events builds an SSE body from chunk payloads: each becomes "data: <payload>\n\n"; a
// payload starting with ":" is written as a comment line.
func events(payloads ...string) string {
	var b strings.Builder
	for _, p := range payloads {
		if strings.HasPrefix(p, ":") {
			b.WriteString(p + "\n\n")
			continue
		}
		b.WriteString("data: " + p + "\n\n")
	}
	return b.String()
}

// delta is one chat.completion.chunk with choices[0].delta = d and finish_reason = finish
// ("" → null).
func delta(d, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{"id":"gen-s","object":"chat.completion.chunk","created":1764460800,"model":"openai/gpt-4o-mini","choices":[{"index":0,"delta":` + d + `,"finish_reason":` + f + `}]}`
}

func textDelta(s string) string { return delta(`{"content":`+str(s)+`}`, "") }

// usageChunk is the usage-only last chunk (choices: []).
const usageChunk = `{"id":"gen-s","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150,"cost":0.00042,"prompt_tokens_details":{"cached_tokens":64},"completion_tokens_details":{"reasoning_tokens":12}}}`

// textStream is a streamed text answer with a keep-alive, multi-byte text and usage.
func textStream() string {
	return events(": OPENROUTER PROCESSING", delta(`{"role":"assistant","content":""}`, ""),
		textDelta("Emerald "), textDelta("테마 ✓ "), ": OPENROUTER PROCESSING", textDelta("done."),
		delta(`{}`, "stop"), usageChunk, "[DONE]")
}

// callStream is two parallel calls whose deltas interleave: id, type and name only on each
// call's first delta, arguments in fragments cut inside strings and escapes.
func callStream(finish string, lastArgs string) string {
	return events(
		delta(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"workspace_getStatus","arguments":""}}]}`, ""),
		delta(`{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"preview_setTheme","arguments":"{\"the"}}]}`, ""),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}`, ""),
		": OPENROUTER PROCESSING",
		delta(`{"tool_calls":[{"index":1,"function":{"arguments":"me\":\"eme"}}]}`, ""),
		delta(`{"tool_calls":[{"index":1,"function":{"arguments":`+str(lastArgs)+`}}]}`, ""),
		delta(`{}`, finish), usageChunk, "[DONE]")
}

// outcome is a comparable summary of a decode.
type outcome struct {
	Text   *string
	Finish string
	Calls  []string
	Usage  *openrouter.Usage
	PE     *openrouter.ProviderError
	Code   mcp.Code
	Reason any
}

func summarize(c *openrouter.Completion, pe *openrouter.ProviderError, err error) outcome {
	o := outcome{PE: pe}
	if err != nil {
		terr := mcp.ToolErrorOf(err)
		o.Code = terr.Code
		if d, ok := terr.Details.(map[string]any); ok {
			o.Reason = fmt.Sprint(d["reason"], " ", d["limit"])
		}
	}
	if c != nil {
		o.Text, o.Finish, o.Usage = c.Content, c.FinishReason, c.Usage
		for _, call := range c.Calls {
			s := call.ID + " " + call.Name + " " + string(call.Arguments)
			if call.ArgError != nil {
				s += " " + string(call.ArgError.Code) + fmt.Sprint(call.ArgError.Details)
			}
			o.Calls = append(o.Calls, s)
		}
	}
	return o
}

// decodeSplit decodes body fed in pieces cut at the given offsets, collecting the text.
func decodeSplit(body string, cuts ...int) (outcome, string) {
	var text strings.Builder
	d := &openrouter.StreamDecoder{OnText: func(s string) { text.WriteString(s) }}
	prev := 0
	for _, c := range append(cuts, len(body)) {
		if d.Feed([]byte(body[prev:c])) {
			break
		}
		prev = c
	}
	return summarize(d.Finish()), text.String()
}

func TestStreamTextCommentsAndUsage(t *testing.T) {
	var got []string
	c, pe, err := openrouter.DecodeStream([]byte(textStream()), func(s string) { got = append(got, s) })
	if err != nil || pe != nil {
		t.Fatalf("err %v pe %+v", err, pe)
	}
	if strings.Join(got, "|") != "Emerald |테마 ✓ |done." || c.Content == nil || *c.Content != "Emerald 테마 ✓ done." || c.FinishReason != "stop" || len(c.Calls) != 0 {
		t.Fatalf("text %q, completion %+v", got, c)
	}
	u := c.Usage
	if u == nil || u.PromptTokens != 120 || u.CompletionTokens != 30 || u.TotalTokens != 150 || u.CachedTokens != 64 ||
		u.ReasoningTokens != 12 || u.Cost == nil || *u.Cost != 0.00042 || u.Responses != 1 {
		t.Fatalf("usage %+v", u)
	}
}

// TestStreamFramingRules: CRLF and CR line ends, a BOM, multi-line data joined with "\n",
// "event"/"id"/"retry" fields and a field without a space after the colon.
func TestStreamFramingRules(t *testing.T) {
	body := "\uFEFFretry: 1000\r\nid: 7\r\nevent: message\r\ndata:" + `{"choices":[{"index":0,` + "\r\ndata: " +
		`"delta":{"content":"a"},"finish_reason":null}]}` + "\r\n\r\n" +
		": keep-alive\r\r" + "data: " + delta(`{"content":"b"}`, "stop") + "\r\r" + "data: [DONE]\n\n"
	got, text := decodeSplit(body)
	if text != "ab" || got.Finish != "stop" || got.Code != "" {
		t.Fatalf("text %q outcome %+v", text, got)
	}
	// The same body cut between the CR and the LF of every CRLF.
	for i := range len(body) - 1 {
		if body[i] == '\r' && body[i+1] == '\n' {
			if g, tx := decodeSplit(body, i+1); tx != "ab" || !reflect.DeepEqual(g, got) {
				t.Fatalf("cut at %d: %q %+v", i+1, tx, g)
			}
		}
	}
}

// TestStreamEveryCut: each constructed stream gives the same outcome and text whole, cut at
// every offset (inside UTF-8 sequences, JSON strings, escapes and line ends; the text and the
// calls streams, whose chunks the others reuse) and fed byte by byte.
func TestStreamEveryCut(t *testing.T) {
	for name, body := range map[string]string{
		"text":      textStream(),
		"calls":     callStream("tool_calls", "rald\"}"),
		"truncated": callStream("length", "ra"),
		"cut":       strings.TrimSuffix(textStream(), events(delta(`{}`, "stop"), usageChunk, "[DONE]")),
	} {
		want, wantText := decodeSplit(body)
		for i := 1; i < len(body) && (name == "text" || name == "calls"); i++ { // the other two share their chunks
			if got, text := decodeSplit(body, i); text != wantText || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s cut at %d (%q|%q): %+v %q, want %+v %q", name, i, body[max(0, i-8):i], body[i:min(len(body), i+8)], got, text, want, wantText)
			}
		}
		cuts := make([]int, 0, len(body))
		for i := 1; i < len(body); i++ {
			cuts = append(cuts, i)
		}
		if got, text := decodeSplit(body, cuts...); text != wantText || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s byte by byte: %+v, want %+v", name, got, want)
		}
	}
}

func TestStreamParallelCallsAssembledByIndex(t *testing.T) {
	got, _ := decodeSplit(callStream("tool_calls", "rald\"}"))
	want := []string{`call_a workspace_getStatus {}`, `call_b preview_setTheme {"theme":"emerald"}`}
	if got.Code != "" || got.Finish != "tool_calls" || !reflect.DeepEqual(got.Calls, want) || got.Text != nil {
		t.Fatalf("%+v", got)
	}
}

func TestStreamLengthWithTruncatedArguments(t *testing.T) {
	got, _ := decodeSplit(callStream("length", "ra"))
	if got.Code != "" || len(got.Calls) != 2 || got.Calls[0] != "call_a workspace_getStatus {}" ||
		!strings.Contains(got.Calls[1], "OPENROUTER_INVALID_TOOL_CALL") || !strings.Contains(got.Calls[1], "reason:truncated") {
		t.Fatalf("%+v", got)
	}
	// A call whose arguments never arrived before "length" is truncated too, never {}.
	body := events(delta(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"workspace_writeFile"}}]}`, "length"), "[DONE]")
	got, _ = decodeSplit(body)
	if len(got.Calls) != 1 || !strings.Contains(got.Calls[0], "reason:truncated") {
		t.Fatalf("%+v", got)
	}
}

func TestStreamBreakages(t *testing.T) {
	errorEvent := `{"id":"gen-s","object":"chat.completion.chunk","error":{"code":"server_error","message":"Upstream provider disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`
	for _, c := range []struct {
		name   string
		body   string
		code   mcp.Code
		reason string
		pe     bool
	}{
		{"error event after text", events(textDelta("Half an answ"), errorEvent), "", "", true},
		{"finish_reason error", events(textDelta("x"), delta(`{}`, "error"), "[DONE]"), "", "", true},
		{"cut without finish", events(textDelta("x"), delta(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"workspace_getStatus","arguments":"{}"}}]}`, "")), mcp.CodeOpenRouterNetworkError, "stream-cut <nil>", false},
		{"cut mid-event", events(textDelta("x")) + "data: " + delta(`{}`, "stop"), mcp.CodeOpenRouterNetworkError, "stream-cut <nil>", false},
		{"done without finish", events(textDelta("x"), "[DONE]"), mcp.CodeOpenRouterProviderError, "no-finish <nil>", false},
		{"empty body", "", mcp.CodeOpenRouterNetworkError, "stream-cut <nil>", false},
		{"chunk not JSON", events("{oops"), mcp.CodeOpenRouterInvalidResponse, "", false},
		{"content not a string", events(delta(`{"content":7}`, "")), mcp.CodeOpenRouterInvalidResponse, "", false},
		{"role not assistant", events(delta(`{"role":"user"}`, "")), mcp.CodeOpenRouterInvalidResponse, "", false},
		{"id changed", events(delta(`{"tool_calls":[{"index":0,"id":"a"}]}`, ""), delta(`{"tool_calls":[{"index":0,"id":"b"}]}`, "")), mcp.CodeOpenRouterInvalidResponse, "", false},
		{"arguments not a string", events(delta(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"n","arguments":7}}]}`, "")), mcp.CodeOpenRouterInvalidResponse, "", false},
		{"no id by the end", events(delta(`{"tool_calls":[{"index":0,"function":{"name":"n","arguments":"{}"}}]}`, "tool_calls")), mcp.CodeOpenRouterInvalidResponse, "", false},
		{"index too large", events(delta(`{"tool_calls":[{"index":64,"id":"a"}]}`, "")), mcp.CodeOpenRouterInvalidResponse, "<nil> calls", false},
		{"line too long", "data: \"" + strings.Repeat("x", openrouter.MaxStreamLineBytes) + "\"\n\n", mcp.CodeOpenRouterInvalidResponse, "<nil> line", false},
		{"event too long", strings.Repeat("data: "+strings.Repeat("x", 1<<16)+"\n", 5) + "\n", mcp.CodeOpenRouterInvalidResponse, "<nil> line", false},
	} {
		got, _ := decodeSplit(c.body)
		if c.pe {
			if got.PE == nil || got.Code != "" {
				t.Errorf("%s: want a provider error, got %+v", c.name, got)
			}
			continue
		}
		if got.Code != c.code || (c.reason != "" && got.Reason != c.reason) || got.Calls != nil {
			t.Errorf("%s: got %+v, want %s %s", c.name, got, c.code, c.reason)
		}
	}
}

// TestStreamTotalBytesBound: keep-alive comments alone cannot make a body longer than
// MaxStreamBytes pass; Feed says stop.
func TestStreamTotalBytesBound(t *testing.T) {
	d := &openrouter.StreamDecoder{}
	line := []byte(": " + strings.Repeat("k", 1<<15) + "\n")
	stopped := false
	for i := 0; i < openrouter.MaxStreamBytes/len(line)+2 && !stopped; i++ {
		stopped = d.Feed(line)
	}
	_, _, err := d.Finish()
	if !stopped || mcp.ToolErrorOf(err) == nil || mcp.ToolErrorOf(err).Details.(map[string]any)["limit"] != "bytes" {
		t.Fatalf("stopped %v err %v", stopped, err)
	}
}

// TestStreamChunksWithoutIndex: a server that omits "index" starts a new call with each new
// id and continues the last call otherwise; arguments sent as one object are kept.
func TestStreamChunksWithoutIndex(t *testing.T) {
	body := events(
		delta(`{"tool_calls":[{"id":"a","type":"function","function":{"name":"workspace_getStatus","arguments":"{"}}]}`, ""),
		delta(`{"tool_calls":[{"function":{"arguments":"}"}}]}`, ""),
		delta(`{"tool_calls":[{"id":"b","type":"function","function":{"name":"preview_setTheme","arguments":{"theme":"emerald"}}}]}`, ""),
		delta(`{}`, "tool_calls"))
	got, _ := decodeSplit(body)
	want := []string{`a workspace_getStatus {}`, `b preview_setTheme {"theme":"emerald"}`}
	if !reflect.DeepEqual(got.Calls, want) {
		t.Fatalf("%+v", got)
	}
}

func TestUsageIsReadFromPlainAnswers(t *testing.T) {
	c, _, err := openrouter.DecodeResponse([]byte(`{"choices":[{"finish_reason":"stop","message":{"role":"assistant","content":"x"}}],` +
		`"usage":{"prompt_tokens":7,"completion_tokens":"3","cost":-1,"completion_tokens_details":{"reasoning_tokens":2.5}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(c.Usage)
	if string(b) != `{"promptTokens":7,"completionTokens":0,"totalTokens":7,"responses":1}` {
		t.Fatalf("usage %s", b)
	}
}

// TestStreamBOMSplitAcrossReads (found by FuzzSSEDecoder): a byte-order mark cut between two
// reads is still dropped, so the outcome does not depend on where the body was cut.
func TestStreamBOMSplitAcrossReads(t *testing.T) {
	for _, body := range []string{"\ufeffdata\r\r", "\ufeff" + textStream(), "\xef\xbb", "\xef\xbbdata: x\n\n"} {
		want, wantText := decodeSplit(body)
		for i := 1; i < len(body) && i < 4; i++ {
			if got, text := decodeSplit(body, i); text != wantText || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q cut at %d: %+v, want %+v", body, i, got, want)
			}
		}
	}
	if got, text := decodeSplit("\ufeff"+textStream(), 1, 2); got.Code != "" || text != "Emerald 테마 ✓ done." {
		t.Fatalf("%+v %q", got, text)
	}
}
