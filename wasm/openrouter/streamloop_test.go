package openrouter_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

var eventStream = map[string]string{"Content-Type": "text/event-stream"}

func sse200(body string) step { return step{status: 200, header: eventStream, body: body} }

// streamed is options() with streaming on and the text deltas recorded.
func streamed(o openrouter.Options) (openrouter.Options, *[]openrouter.TextDelta) {
	var got []openrouter.TextDelta
	o.Stream = true
	o.OnText = func(d openrouter.TextDelta) { got = append(got, d) }
	return o, &got
}

func TestStreamedToolLoopMakesItEmerald(t *testing.T) {
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{sse200(callStream("tool_calls", "rald\"}")), sse200(textStream())}}
	o, texts := streamed(options(r, tr))
	rep := openrouter.Run(context.Background(), "Make it emerald", o)
	if rep.Failed || rep.Turns != 2 || rep.Summary != "Emerald 테마 ✓ done." || len(rep.Calls) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if css := readFile(t, r, "styles.css"); !strings.Contains(css, "#10b981") {
		t.Fatalf("styles.css not emerald:\n%s", css)
	}
	b := tr.body(t, 0)
	if b["stream"] != true || b["stream_options"].(map[string]any)["include_usage"] != true || tr.requests()[0].Header["Accept"] != "text/event-stream" {
		t.Fatalf("request %v", b)
	}
	var text []string
	for _, d := range *texts {
		if d.Turn != 2 || d.Attempt != 1 {
			t.Fatalf("delta %+v", d)
		}
		text = append(text, d.Text)
	}
	if strings.Join(text, "") != rep.Summary {
		t.Fatalf("streamed %q", text)
	}
	// The assistant message sent back carries the assembled calls, compact.
	msgs := tr.messages(t, 1)
	am := msgs[len(msgs)-3]
	calls := am["tool_calls"].([]any)
	if len(calls) != 2 || calls[1].(map[string]any)["function"].(map[string]any)["arguments"] != `{"theme":"emerald"}` {
		t.Fatalf("assistant message %v", am)
	}
	if rep.Usage == nil || rep.Usage.TotalTokens != 300 || rep.Usage.Responses != 2 || *rep.Usage.Cost != 0.00084 || len(rep.TurnUsage) != 2 || rep.TurnUsage[1].TotalTokens != 150 {
		t.Fatalf("usage %+v turns %+v", rep.Usage, rep.TurnUsage)
	}
}

// TestStreamedBatchOverTheCallLimitRunsNothing: 13 streamed calls exceed the 12 a run allows;
// the whole answer is refused before any call runs.
func TestStreamedBatchOverTheCallLimitRunsNothing(t *testing.T) {
	r := newRegistry(t, true)
	var ps []string
	for i := range 13 {
		ps = append(ps, delta(`{"tool_calls":[{"index":`+strconv.Itoa(i)+`,"id":"c`+strconv.Itoa(i)+`","type":"function","function":{"name":"workspace_getStatus","arguments":"{}"}}]}`, ""))
	}
	ps = append(ps, delta(`{}`, "tool_calls"), "[DONE]")
	tr := &script{t: t, steps: []step{sse200(events(ps...))}}
	o, _ := streamed(options(r, tr))
	rep := openrouter.Run(context.Background(), "status", o)
	wantFailure(t, rep, mcp.CodeOpenRouterToolCallLimit, false)
	if len(rep.Calls) != 0 {
		t.Fatalf("%d calls ran", len(rep.Calls))
	}
}

// TestStreamCutIsRetriedAndRunsNothing: a stream that ends without a finish_reason, after a
// call that looks complete, is retried (notice) and its call never runs.
func TestStreamCutIsRetriedAndRunsNothing(t *testing.T) {
	r := newRegistry(t, true)
	cut := events(textDelta("Let me "), delta(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"workspace_reset","arguments":"{}"}}]}`, ""))
	tr := &script{t: t, steps: []step{sse200(cut), sse200(textStream())}}
	o, texts := streamed(options(r, tr))
	recordSleeps(&o)
	rep := openrouter.Run(context.Background(), "hi", o)
	if rep.Failed || len(rep.Calls) != 0 || len(rep.Notices) != 1 || len(tr.requests()) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if (*texts)[0].Attempt != 1 || (*texts)[0].Text != "Let me " || (*texts)[1].Attempt != 2 {
		t.Fatalf("deltas %+v", *texts)
	}
}

// TestStreamedLengthNeverRunsTheTruncatedCall: under finish_reason "length" the call whose
// arguments were cut is answered OPENROUTER_INVALID_TOOL_CALL (truncated), not run; the
// complete one runs; the run then ends with the length error instead of asking again.
func TestStreamedLengthNeverRunsTheTruncatedCall(t *testing.T) {
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{sse200(callStream("length", "ra"))}}
	o, _ := streamed(options(r, tr))
	rep := openrouter.Run(context.Background(), "Make it emerald", o)
	if !rep.Failed || rep.Error.Code != mcp.CodeOpenRouterInvalidToolCall || len(rep.Calls) != 2 || rep.Calls[0].Result.IsError ||
		!rep.Calls[1].Result.IsError || rep.Calls[1].Result.Error.Code != mcp.CodeOpenRouterInvalidToolCall || len(tr.reqs) != 1 {
		t.Fatalf("report %+v", rep)
	}
	if css := readFile(t, r, "styles.css"); strings.Contains(css, "#10b981") {
		t.Fatal("the truncated call ran")
	}
	if d := rep.Calls[1].Result.Error.Details.(map[string]any); d["reason"] != "truncated" {
		t.Fatalf("call result %v", d)
	}
}

func TestStreamErrorEventIsAProviderError(t *testing.T) {
	r := newRegistry(t, false)
	ev := events(textDelta("Half"), `{"error":{"code":502,"message":"Upstream disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`)
	tr := &script{t: t, steps: []step{sse200(ev), sse200(ev), sse200(ev)}}
	o, _ := streamed(options(r, tr))
	recordSleeps(&o)
	rep := openrouter.Run(context.Background(), "hi", o)
	wantFailure(t, rep, mcp.CodeOpenRouterProviderError, true)
	if !strings.Contains(rep.Summary, "Upstream disconnected") || rep.Error.Details.(map[string]any)["status"] != 502 || len(rep.Notices) != 2 {
		t.Fatalf("report %+v", rep)
	}
}

// TestStreamedRequestAnsweredWithJSON: an endpoint that ignores "stream": true answers one
// JSON object, which is read as a plain answer.
func TestStreamedRequestAnsweredWithJSON(t *testing.T) {
	r := newRegistry(t, false)
	tr := &script{t: t, steps: []step{{status: 200, header: map[string]string{"Content-Type": "application/json"}, body: textAnswer("plain")}}}
	o, texts := streamed(options(r, tr))
	rep := openrouter.Run(context.Background(), "hi", o)
	if rep.Failed || rep.Summary != "plain" || len(*texts) != 0 || rep.Usage == nil || rep.Usage.TotalTokens != 15 {
		t.Fatalf("report %+v", rep)
	}
}

func TestBudgetStopsBeforeTheNextRequest(t *testing.T) {
	for _, c := range []struct {
		name   string
		budget openrouter.Budget
		limit  string
	}{{"tokens", openrouter.Budget{Tokens: 150}, "tokens"}, {"cost", openrouter.Budget{Cost: 0.0004}, "cost"}} {
		r := newRegistry(t, true)
		tr := &script{t: t, steps: []step{sse200(callStream("tool_calls", "rald\"}"))}}
		o, _ := streamed(options(r, tr))
		o.Budget = c.budget
		rep := openrouter.Run(context.Background(), "Make it emerald", o)
		wantFailure(t, rep, mcp.CodeOpenRouterBudgetExceeded, false)
		if d := rep.Error.Details.(map[string]any); d["limit"] != c.limit || d["turns"] != 1 || len(tr.requests()) != 1 || len(rep.Calls) != 2 {
			t.Fatalf("%s: details %v, %d requests, %d calls", c.name, d, len(tr.requests()), len(rep.Calls))
		}
	}
	// Under the budget the run goes on.
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{sse200(callStream("tool_calls", "rald\"}")), sse200(textStream())}}
	o, _ := streamed(options(r, tr))
	o.Budget = openrouter.Budget{Tokens: 151, Cost: 0.01}
	if rep := openrouter.Run(context.Background(), "Make it emerald", o); rep.Failed {
		t.Fatalf("report %+v", rep)
	}
}

// pipeStream is a StreamTransport whose body is written by the test through a pipe; a Read
// returns ctx's error once ctx is done, as net/http's does.
type pipeStream struct {
	w      chan *io.PipeWriter
	closed chan struct{}
}

func (p *pipeStream) Do(context.Context, openrouter.Request) (openrouter.Response, error) {
	return openrouter.Response{}, errors.New("Do must not be used for a streamed request")
}

func (p *pipeStream) DoStream(ctx context.Context, _ openrouter.Request) (openrouter.Response, io.ReadCloser, error) {
	pr, pw := io.Pipe()
	p.w <- pw
	go func() {
		select {
		case <-ctx.Done():
			pr.CloseWithError(ctx.Err())
		case <-p.closed:
		}
	}()
	return openrouter.Response{Status: 200, Header: eventStream}, closer{pr, p.closed}, nil
}

type closer struct {
	*io.PipeReader
	closed chan struct{}
}

func (c closer) Close() error { close(c.closed); return c.PipeReader.Close() }

// TestStreamCancelAbortsAtOnce: cancelling while the stream is open (text arrived, the rest
// never comes) ends the run at once, cancelled, with the body closed and no call run.
func TestStreamCancelAbortsAtOnce(t *testing.T) {
	r := newRegistry(t, true)
	tr := &pipeStream{w: make(chan *io.PipeWriter, 1), closed: make(chan struct{})}
	o := options(r, tr)
	o.Stream = true
	ctx, cancel := context.WithCancel(context.Background())
	o.OnText = func(openrouter.TextDelta) { cancel() }
	go func() {
		w := <-tr.w
		_, _ = w.Write([]byte(events(delta(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"workspace_reset","arguments":"{}"}}]}`, ""), textDelta("Resetting"))))
	}()
	start := time.Now()
	rep := openrouter.Run(ctx, "reset", o)
	if !rep.Cancelled || rep.Failed || len(rep.Calls) != 0 || time.Since(start) > 5*time.Second {
		t.Fatalf("report %+v after %v", rep, time.Since(start))
	}
	select {
	case <-tr.closed:
	default:
		t.Fatal("the body was not closed")
	}
}

// TestStreamedTurnLimit: a model that keeps streaming tool calls stops after MaxTurns
// requests with OPENROUTER_TOOL_LOOP_LIMIT, as with plain answers.
func TestStreamedTurnLimit(t *testing.T) {
	r := newRegistry(t, false)
	var steps []step
	for i := range openrouter.MaxTurns + 1 {
		steps = append(steps, sse200(events(delta(`{"tool_calls":[{"index":0,"id":"s`+strconv.Itoa(i)+`","type":"function","function":{"name":"workspace_getStatus","arguments":"{}"}}]}`, "tool_calls"), "[DONE]")))
	}
	tr := &script{t: t, steps: steps}
	o, _ := streamed(options(r, tr))
	rep := openrouter.Run(context.Background(), "status forever", o)
	wantFailure(t, rep, mcp.CodeOpenRouterToolLoopLimit, false)
	if len(tr.requests()) != openrouter.MaxTurns || len(rep.Calls) != openrouter.MaxTurns || len(rep.TurnUsage) != openrouter.MaxTurns {
		t.Fatalf("%d requests, %d calls, %d turn usages", len(tr.requests()), len(rep.Calls), len(rep.TurnUsage))
	}
}

// fakeTimer is an idle timer the test fires by hand; it counts its re-arms.
type fakeTimer struct {
	fire   func()
	resets chan struct{}
}

func (f *fakeTimer) Reset(time.Duration) bool { f.resets <- struct{}{}; return true }
func (f *fakeTimer) Stop() bool               { return true }

// pipes is a StreamTransport handing the test one pipe per streamed request.
type pipes struct{ w chan *io.PipeWriter }

func (p *pipes) Do(context.Context, openrouter.Request) (openrouter.Response, error) {
	return openrouter.Response{}, errors.New("Do must not be used for a streamed request")
}

func (p *pipes) DoStream(ctx context.Context, _ openrouter.Request) (openrouter.Response, io.ReadCloser, error) {
	pr, pw := io.Pipe()
	p.w <- pw
	stop := context.AfterFunc(ctx, func() { pr.CloseWithError(ctx.Err()) })
	return openrouter.Response{Status: 200, Header: eventStream}, readCloser{pr, stop}, nil
}

type readCloser struct {
	*io.PipeReader
	stop func() bool
}

func (r readCloser) Close() error { r.stop(); return r.PipeReader.Close() }

// TestStreamIdleTimeout: a streamed answer read as it arrives is bounded by RequestTimeout
// per wait, not as a whole: the headers and every chunk re-arm the timer, and a stream that
// then sends nothing until it fires fails (after the retries) with OPENROUTER_TIMEOUT
// (details.idle), its half-streamed call never run.
func TestStreamIdleTimeout(t *testing.T) {
	timers := make(chan *fakeTimer, 8)
	defer openrouter.SetAfterFunc(func(d time.Duration, fire func()) openrouter.IdleTimer {
		if d != openrouter.RequestTimeout {
			t.Errorf("idle timer armed for %v", d)
		}
		ft := &fakeTimer{fire: fire, resets: make(chan struct{}, 16)}
		timers <- ft
		return ft
	})()
	r := newRegistry(t, true)
	tr := &pipes{w: make(chan *io.PipeWriter, 1)}
	o := options(r, tr)
	o.Stream = true
	go func() {
		for range openrouter.MaxRetries + 1 {
			ft := <-timers
			w := <-tr.w
			<-ft.resets // the headers arrived
			_, _ = w.Write([]byte(events(textDelta("Resetting"))))
			<-ft.resets // the chunk re-armed it
			_, _ = w.Write([]byte(events(delta(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"workspace_reset","arguments":"{"}}]}`, ""))))
			<-ft.resets
			ft.fire() // then nothing more: the idle timeout fires
		}
	}()
	rep := openrouter.Run(context.Background(), "reset", o)
	wantFailure(t, rep, mcp.CodeOpenRouterTimeout, true)
	if d, _ := rep.Error.Details.(map[string]any); d["idle"] != true || len(rep.Calls) != 0 {
		t.Fatalf("details %v, calls %v", rep.Error.Details, rep.Calls)
	}
}

// idleTransport is an openrouter.IdleTransport: every request is answered by answer, and the
// idle timeouts asked for are recorded.
type idleTransport struct {
	mu     sync.Mutex
	idles  []time.Duration
	answer func(n int) (openrouter.Response, error)
}

func (t *idleTransport) Do(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
	return openrouter.Response{}, errors.New("Do must not be used for a streamed request")
}

func (t *idleTransport) DoIdle(ctx context.Context, req openrouter.Request, idle time.Duration) (openrouter.Response, error) {
	if _, has := ctx.Deadline(); has {
		return openrouter.Response{}, errors.New("a streamed attempt must not carry a whole-answer deadline")
	}
	t.mu.Lock()
	t.idles = append(t.idles, idle)
	n := len(t.idles)
	t.mu.Unlock()
	return t.answer(n)
}

// TestIdleTransportBoundsWaits: on an IdleTransport (the wasip1 host function) a streamed
// request goes through DoIdle with RequestTimeout as the idle timeout and no whole-answer
// deadline; ErrIdle is OPENROUTER_TIMEOUT {idle: true} after the retries, and a complete
// streamed body is decoded (issue 16).
func TestIdleTransportBoundsWaits(t *testing.T) {
	r := newRegistry(t, true)
	tr := &idleTransport{answer: func(int) (openrouter.Response, error) {
		return openrouter.Response{}, fmt.Errorf("host: %w", openrouter.ErrIdle)
	}}
	o := options(r, tr)
	o.Stream = true
	rep := openrouter.Run(context.Background(), "reset", o)
	wantFailure(t, rep, mcp.CodeOpenRouterTimeout, true)
	if d, _ := rep.Error.Details.(map[string]any); d["idle"] != true || len(tr.idles) != openrouter.MaxRetries+1 || tr.idles[0] != openrouter.RequestTimeout {
		t.Fatalf("details %v, idle timeouts %v", rep.Error.Details, tr.idles)
	}

	tr = &idleTransport{answer: func(int) (openrouter.Response, error) {
		return openrouter.Response{Status: 200, Header: map[string]string{"Content-Type": "text/event-stream"},
			Body: []byte(textStream())}, nil
	}}
	o = options(r, tr)
	o.Stream = true
	if rep := openrouter.Run(context.Background(), "hello", o); rep.Failed || rep.Summary != "Emerald 테마 ✓ done." {
		t.Fatalf("report %+v", rep)
	}
}
