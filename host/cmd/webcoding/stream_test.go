package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/host/fakeprovider"
	"github.com/webcoding/studio/wasm/openrouter"
)

// These stream answers (host/fakeprovider's constructed .sse files) through `agent
// --provider openrouter`: the host prints the text as it reads it, the module decides.

// isTextLine reports whether an agent output line is streamed text {"response","text"}.
func isTextLine(l []byte) bool {
	var v struct {
		Response int     `json:"response"`
		Text     *string `json:"text"`
	}
	return json.Unmarshal(l, &v) == nil && v.Response > 0 && v.Text != nil
}

// streamedText joins the text lines of answer n (0: all answers).
func streamedText(t *testing.T, out string, n int) string {
	t.Helper()
	var b strings.Builder
	for _, l := range lines(t, out) {
		var v struct {
			Response int    `json:"response"`
			Text     string `json:"text"`
		}
		if isTextLine(l) && json.Unmarshal(l, &v) == nil && (n == 0 || v.Response == n) {
			b.WriteString(v.Text)
		}
	}
	return b.String()
}

// stampedWriter records output and when its first byte was written.
type stampedWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first time.Time
}

func (w *stampedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first.IsZero() {
		w.first = time.Now()
	}
	return w.buf.Write(p)
}

type usageSummary struct {
	Summary   string            `json:"summary"`
	Failed    bool              `json:"failed"`
	ErrorCode string            `json:"errorCode"`
	Usage     *openrouter.Usage `json:"usage"`
}

func lastLine(t *testing.T, out string) usageSummary {
	t.Helper()
	ls := lines(t, out)
	var s usageSummary
	if err := json.Unmarshal(ls[len(ls)-1], &s); err != nil {
		t.Fatal(err)
	}
	return s
}

const streamedFinal = "I switched the preview theme to emerald (에메랄드 💚): the accent tokens in styles.css now use #10b981."

// TestOpenRouterStreamsTextToStdout: parallel calls cut every 11 bytes, then the final text
// cut inside UTF-8 sequences and written slowly, the server holding the stream open after
// [DONE]: the text reaches stdout before the run ends, the calls run and are saved, and the
// usage totals end the output (summary line and stderr).
func TestOpenRouterStreamsTextToStdout(t *testing.T) {
	dir := seedCopy(t)
	text := fakeprovider.Body("stream_final_text.sse")
	calls := fakeprovider.Step{BodyFile: "stream_parallel_calls.sse", CutEvery: 11}
	final := fakeprovider.Step{BodyFile: "stream_final_text.sse", Cuts: []int{fakeprovider.Offset(text, "에", 2), fakeprovider.Offset(text, "💚", 1)},
		CutEvery: 64, ChunkDelay: 20 * time.Millisecond, HangAfter: true}
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, calls, final)
	out := &stampedWriter{}
	var errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: &errb, getenv: func(k string) string {
		switch k {
		case "WEBCODING_MODULE":
			return providerModule(t)
		case apiKeyEnv, endpointKeyEnv:
			return testKey
		}
		return ""
	}, newHost: openHost}
	start := time.Now()
	code := run(context.Background(), []string{"agent", "--provider", "openrouter", "--endpoint", srv.ChatURL, "--dir", dir, "--approve", "all", "--save", "Make it emerald"}, e)
	end := time.Now()
	stdout, stderr := out.buf.String(), errb.String()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	noKey(t, stdout, stderr)
	noKeyInRequestBodies(t, srv)
	if got := streamedText(t, stdout, 2); got != streamedFinal || streamedText(t, stdout, 0) != got {
		t.Fatalf("streamed text %q", got)
	}
	if ls := lines(t, stdout); !isTextLine(ls[0]) {
		t.Fatalf("the first line is not streamed text: %s", ls[0])
	}
	if end.Sub(out.first) < 10*20*time.Millisecond || end.Sub(start) > time.Minute {
		t.Fatalf("first text %v before the end (run %v)", end.Sub(out.first), end.Sub(start))
	}
	cs, sum := agentOutput(t, stdout)
	if got := strings.Join(callNames(t, cs), ","); got != "workspace.getStatus,preview.setTheme,workspace.saveAll" || sum.Failed || !sum.Saved {
		t.Fatalf("calls %s, summary %+v", got, sum)
	}
	if css := tree(t, dir)["styles.css"]; !strings.Contains(css, emeraldAccent) {
		t.Fatalf("styles.css:\n%s", css)
	}
	u := lastLine(t, stdout).Usage
	if u == nil || u.TotalTokens != 3161+3325 || u.Responses != 2 || u.CachedTokens != 2048 || u.Cost == nil {
		t.Fatalf("usage %+v", u)
	}
	if !strings.Contains(stderr, "usage: 6486 tokens (6421 prompt, 2048 of them cached; 65 completion, 0 of them reasoning) over 2 answer(s), cost 0.00100215") {
		t.Fatalf("stderr:\n%s", stderr)
	}
	for _, r := range srv.ChatRequests() {
		if r.Chat["stream"] != true {
			t.Fatalf("request without stream: %v", r.Chat)
		}
	}
}

// TestOpenRouterStreamBreakagesInCLI: a stream cut three times fails the run with
// OPENROUTER_NETWORK_ERROR and runs nothing; a token budget stops the run after its first
// answer; --stream=false sends plain requests.
func TestOpenRouterStreamBreakagesInCLI(t *testing.T) {
	cut := fakeprovider.Step{BodyFile: "stream_cut.sse"}
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, cut, cut, cut)
	code, out, stderr := runOpenRouter(t, testKey, "--endpoint", srv.ChatURL, "--approve", "all", "reset everything")
	sum := lastLine(t, out)
	if code != 0 || !sum.Failed || sum.ErrorCode != "OPENROUTER_NETWORK_ERROR" || !strings.Contains(stderr, "retrying provider request 2/2") {
		t.Fatalf("exit %d, summary %+v, stderr:\n%s", code, sum, stderr)
	}
	if cs, _ := agentOutput(t, out); len(cs) != 0 || streamedText(t, out, 3) != "Resetting the workspace" {
		t.Fatalf("calls %d, output:\n%s", len(cs), out)
	}

	srv = fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{BodyFile: "stream_parallel_calls.sse"})
	code, out, stderr = runOpenRouter(t, testKey, "--endpoint", srv.ChatURL, "--approve", "all", "--budget-tokens", "3000", "Make it emerald")
	sum = lastLine(t, out)
	if code != 0 || sum.ErrorCode != "OPENROUTER_BUDGET_EXCEEDED" || sum.Usage == nil || sum.Usage.TotalTokens != 3161 || !strings.Contains(stderr, "--budget-tokens") {
		t.Fatalf("exit %d, summary %+v, stderr:\n%s", code, sum, stderr)
	}

	srv = fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{BodyFile: "chat_final_text.json"})
	code, out, _ = runOpenRouter(t, testKey, "--endpoint", srv.ChatURL, "--stream=false", "hello")
	if _, has := srv.ChatRequests()[0].Chat["stream"]; code != 0 || has || lastLine(t, out).Failed || streamedText(t, out, 0) != "" {
		t.Fatalf("exit %d, request %v, output:\n%s", code, srv.ChatRequests()[0].Chat, out)
	}
	if code, _, _ := runOpenRouter(t, testKey, "--endpoint", srv.ChatURL, "--budget-cost", "-1", "hello"); code != 2 {
		t.Fatalf("a negative budget: exit %d", code)
	}
}

// TestSlowStreamIsNotCut: a streamed answer is bounded by the wait for its next bytes, not by
// its whole length (issue 16: a slow local model). With the host's per-wait cap at 300 ms,
// an answer that trickles in over about a second in pieces 60 ms apart completes; one whose
// next piece is 900 ms late fails with OPENROUTER_TIMEOUT {idle: true} (retried, then given
// up), and nothing runs.
func TestSlowStreamIsNotCut(t *testing.T) {
	slow := fakeprovider.Step{BodyFile: "stream_final_text.sse", CutEvery: 24, ChunkDelay: 60 * time.Millisecond}
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, slow)
	h := providerHost(t, srv.URL, 300*time.Millisecond, nil)
	start := time.Now()
	raw, rerr, err := (&rpcClient{h: h}).call(context.Background(), "agent/openrouter",
		[]byte(`{"prompt":"hi","endpoint":"`+srv.ChatURL+`","stream":true}`))
	if err != nil || rerr != nil {
		t.Fatalf("agent/openrouter: %v %v", err, rerr)
	}
	var rep orReport
	if err := json.Unmarshal(raw, &rep); err != nil || rep.Failed || time.Since(start) < 500*time.Millisecond {
		t.Fatalf("after %v: report %s", time.Since(start), raw)
	}

	text := fakeprovider.Body("stream_final_text.sse")
	late := fakeprovider.Step{BodyFile: "stream_final_text.sse", Cuts: []int{fakeprovider.Offset(text, "emerald", 0)}, ChunkDelay: 900 * time.Millisecond}
	srv = fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, late, late, late)
	h = providerHost(t, srv.URL, 300*time.Millisecond, nil)
	raw, rerr, err = (&rpcClient{h: h}).call(context.Background(), "agent/openrouter",
		[]byte(`{"prompt":"hi","endpoint":"`+srv.ChatURL+`","stream":true}`))
	if err != nil || rerr != nil {
		t.Fatalf("agent/openrouter: %v %v", err, rerr)
	}
	if err := json.Unmarshal(raw, &rep); err != nil || !rep.Failed || rep.ErrorCode != "OPENROUTER_TIMEOUT" || !strings.Contains(string(raw), "sent nothing") {
		t.Fatalf("report %s", raw)
	}
	if n := len(srv.ChatRequests()); n != 3 {
		t.Fatalf("%d requests, want 3 (two retries)", n)
	}
}
