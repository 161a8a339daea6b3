package fakeprovider_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/host/fakeprovider"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// These replay the constructed SSE streams of testdata/ over HTTP, cut where each test says,
// to the real loop reading through httpclient's streaming transport.

// texts records streamed text with the time each fragment arrived.
type texts struct {
	mu    sync.Mutex
	got   []openrouter.TextDelta
	first time.Time
}

func (x *texts) add(d openrouter.TextDelta) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.first.IsZero() {
		x.first = time.Now()
	}
	x.got = append(x.got, d)
}

func (x *texts) joined(attempt int) string {
	x.mu.Lock()
	defer x.mu.Unlock()
	var b strings.Builder
	for _, d := range x.got {
		if d.Attempt == attempt {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

func streaming(h *harness) *texts {
	x := &texts{}
	h.opts.Stream = true
	h.opts.OnText = x.add
	return x
}

func sse(name string) fakeprovider.Step { return fakeprovider.Step{BodyFile: name} }

const finalText = "I switched the preview theme to emerald (에메랄드 💚): the accent tokens in styles.css now use #10b981."

// TestStreamTextArrivesBeforeTheStreamEnds: text cut inside multi-byte UTF-8 sequences and
// written slowly reaches OnText long before the run ends; the run ends at [DONE] although
// the server keeps the connection open; the usage-only last chunk is read.
func TestStreamTextArrivesBeforeTheStreamEnds(t *testing.T) {
	body := fakeprovider.Body("stream_final_text.sse")
	st := sse("stream_final_text.sse")
	st.Cuts = []int{fakeprovider.Offset(body, "에", 1), fakeprovider.Offset(body, "💚", 2), fakeprovider.Offset(body, "💚", 3)}
	st.CutEvery, st.ChunkDelay, st.HangAfter = 97, 15*time.Millisecond, true
	h := newHarness(t, false, st)
	x := streaming(h)
	start := time.Now()
	rep := h.run("hello")
	end := time.Now()
	if rep.Failed || rep.Summary != finalText || x.joined(1) != finalText {
		t.Fatalf("report %+v, streamed %q", rep, x.joined(1))
	}
	if x.first.IsZero() || end.Sub(x.first) < 10*15*time.Millisecond || end.Sub(start) > 30*time.Second {
		t.Fatalf("first text %v after the start, run took %v", x.first.Sub(start), end.Sub(start))
	}
	u := rep.Usage
	if u == nil || u.PromptTokens != 3301 || u.CompletionTokens != 24 || u.CachedTokens != 2048 || u.Cost == nil || *u.Cost != 0.00050955 {
		t.Fatalf("usage %+v", u)
	}
	if r := h.srv.ChatRequests()[0]; r.Chat["stream"] != true || r.Header.Get("Accept") != "text/event-stream" {
		t.Fatalf("request %v", r.Chat)
	}
}

// TestStreamParallelCallsCutEverywhere: interleaved parallel calls cut every 7 bytes and
// inside the arguments' JSON string, then the final text byte by byte: both calls run, in
// index order, and the usage of both turns adds up.
func TestStreamParallelCallsCutEverywhere(t *testing.T) {
	calls := fakeprovider.Body("stream_parallel_calls.sse")
	first := sse("stream_parallel_calls.sse")
	first.Cuts, first.CutEvery = []int{fakeprovider.Offset(calls, `emer`, 2)}, 7
	last := sse("stream_final_text.sse")
	last.CutEvery = 1
	h := newHarness(t, true, first, last)
	streaming(h)
	rep := h.run("Make it emerald")
	if rep.Failed || len(rep.Calls) != 2 || rep.Calls[0].Request.Name != "workspace.getStatus" || rep.Calls[1].Request.Name != "preview.setTheme" {
		t.Fatalf("report %+v", rep)
	}
	if css := h.file("styles.css"); !strings.Contains(css, "#10b981") {
		t.Fatalf("styles.css:\n%s", css)
	}
	if rep.Usage.TotalTokens != 3161+3325 || rep.Usage.Responses != 2 || len(rep.TurnUsage) != 2 || rep.TurnUsage[0].TotalTokens != 3161 {
		t.Fatalf("usage %+v %+v", rep.Usage, rep.TurnUsage)
	}
}

func TestStreamErrorEventAfter200IsTyped(t *testing.T) {
	h := newHarness(t, false, sse("stream_error_event.sse"), sse("stream_error_event.sse"), sse("stream_error_event.sse"))
	x := streaming(h)
	rep := h.run("hello")
	wantCode(t, rep, mcp.CodeOpenRouterProviderError, true)
	if !strings.Contains(rep.Summary, "Provider disconnected unexpectedly") || x.joined(3) != "I will switch the theme" {
		t.Fatalf("report %+v", rep)
	}
}

// TestStreamCutIsRetriedAndNeverRuns: a stream cut after a complete-looking workspace_reset
// call is retried; the call never runs. Three cuts fail with OPENROUTER_NETWORK_ERROR.
func TestStreamCutIsRetriedAndNeverRuns(t *testing.T) {
	h := newHarness(t, true, sse("stream_cut.sse"), sse("stream_final_text.sse"))
	x := streaming(h)
	rep := h.run("reset")
	if rep.Failed || len(rep.Calls) != 0 || len(rep.Notices) != 1 || x.joined(1) != "Resetting the workspace" || x.joined(2) != finalText {
		t.Fatalf("report %+v", rep)
	}
	h = newHarness(t, true, sse("stream_cut.sse"), sse("stream_cut.sse"), sse("stream_cut.sse"))
	streaming(h)
	rep = h.run("reset")
	wantCode(t, rep, mcp.CodeOpenRouterNetworkError, true)
	if d := rep.Error.Details.(map[string]any); d["reason"] != "stream-cut" || len(rep.Calls) != 0 {
		t.Fatalf("details %v", d)
	}
}

// TestStreamLengthWithTruncatedArgumentsNeverRuns: finish_reason "length" inside a call's
// arguments ends the run with OPENROUTER_INVALID_TOOL_CALL that says the answer was cut by the
// length limit (max_tokens); the cut call never runs and the model is not asked again.
func TestStreamLengthWithTruncatedArgumentsNeverRuns(t *testing.T) {
	h := newHarness(t, true, sse("stream_length_truncated.sse"), sse("stream_final_text.sse"))
	streaming(h)
	before := h.file("index.html")
	rep := h.run("Say hello")
	wantCode(t, rep, mcp.CodeOpenRouterInvalidToolCall, true)
	if !strings.Contains(rep.Error.Message, "cut off by the length limit (max_tokens 1200)") || !strings.Contains(rep.Error.Message, "workspace_writeFile") {
		t.Fatalf("message %q", rep.Error.Message)
	}
	if d := rep.Error.Details.(map[string]any); d["reason"] != "truncated" || d["maxTokens"] != openrouter.MaxTokens {
		t.Fatalf("details %v", d)
	}
	if n := len(h.srv.ChatRequests()); n != 1 || h.srv.Remaining() != 1 {
		t.Fatalf("the model was asked again: %d chat requests", n)
	}
	if len(rep.Calls) != 1 || rep.Calls[0].Result.Error == nil || rep.Calls[0].Result.Error.Code != mcp.CodeOpenRouterInvalidToolCall {
		t.Fatalf("report %+v", rep)
	}
	if h.file("index.html") != before {
		t.Fatal("the truncated writeFile ran")
	}
}

// TestStreamCancelAbortsAtOnce: cancelling on the first text, while the server holds the
// stream open, ends the run at once and the server sees the client go.
func TestStreamCancelAbortsAtOnce(t *testing.T) {
	body := fakeprovider.Body("stream_cut.sse")
	h := newHarness(t, true, fakeprovider.Step{Body: body, Header: map[string]string{"Content-Type": "text/event-stream"}, HangAfter: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.opts.Stream = true
	h.opts.OnText = func(openrouter.TextDelta) { cancel() }
	start := time.Now()
	rep := openrouter.Run(ctx, "reset", h.opts)
	if !rep.Cancelled || rep.Failed || len(rep.Calls) != 0 || time.Since(start) > 5*time.Second {
		t.Fatalf("report %+v after %v", rep, time.Since(start))
	}
	select {
	case <-h.srv.Aborted():
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not see the client give up")
	}
}

func TestStreamBudgetStopsBeforeTheNextRequest(t *testing.T) {
	h := newHarness(t, true, sse("stream_parallel_calls.sse"))
	streaming(h)
	h.opts.Budget = openrouter.Budget{Tokens: 3000}
	rep := h.run("Make it emerald")
	wantCode(t, rep, mcp.CodeOpenRouterBudgetExceeded, false)
	if len(h.srv.ChatRequests()) != 1 || len(rep.Calls) != 2 || rep.Usage.TotalTokens != 3161 {
		t.Fatalf("report %+v", rep)
	}
}

// roles lists the roles of request i's messages with user texts, e.g. "system user:hi assistant".
func roles(h *harness, i int) []string {
	var out []string
	for _, m := range h.srv.ChatRequests()[i].Chat["messages"].([]any) {
		mm := m.(map[string]any)
		r := mm["role"].(string)
		if r == "user" {
			r += ":" + mm["content"].(string)
		}
		out = append(out, r)
	}
	return out
}

func noUserPair(t *testing.T, rs []string) {
	t.Helper()
	for i := 1; i < len(rs); i++ {
		if strings.HasPrefix(rs[i-1], "user") && strings.HasPrefix(rs[i], "user") {
			t.Fatalf("two user messages in a row: %q", rs)
		}
	}
}

// TestFailedTurnLeavesNoUserPair (docs/design.md §5.20): after a run that failed before any
// reply, a retry of the same prompt replaces the unanswered user message, and a different
// prompt follows the no-reply marker; no request body holds two user messages in a row.
func TestFailedTurnLeavesNoUserPair(t *testing.T) {
	h := newHarness(t, false, status(503, "error_503.json"), status(503, "error_503.json"), status(503, "error_503.json"),
		file("chat_final_text.json"))
	h.opts.Conversation = &openrouter.Conversation{}
	if rep := h.run("will fail"); !rep.Failed {
		t.Fatalf("report %+v", rep)
	}
	if rep := h.run("will fail"); rep.Failed { // Retry
		t.Fatalf("report %+v", rep)
	}
	rs := roles(h, 3)
	noUserPair(t, rs)
	if strings.Join(rs, " ") != "system user:will fail" {
		t.Fatalf("retry request messages %q", rs)
	}
	h = newHarness(t, false, status(503, "error_503.json"), status(503, "error_503.json"), status(503, "error_503.json"),
		file("chat_final_text.json"))
	h.opts.Conversation = &openrouter.Conversation{}
	if rep := h.run("second"); !rep.Failed {
		t.Fatalf("report %+v", rep)
	}
	if rep := h.run("third"); rep.Failed { // a new prompt after the failure
		t.Fatalf("report %+v", rep)
	}
	rs = roles(h, 3)
	noUserPair(t, rs)
	if got := strings.Join(rs[len(rs)-3:], " "); got != "user:second assistant user:third" {
		t.Fatalf("new prompt after a failure: %q", rs)
	}
	last := h.srv.ChatRequests()[3].Chat["messages"].([]any)
	if c := last[len(last)-2].(map[string]any)["content"]; c != openrouter.NoReplyMarker {
		t.Fatalf("marker %v", c)
	}
}
