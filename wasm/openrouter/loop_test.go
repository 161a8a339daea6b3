package openrouter_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// recordSleeps replaces the backoff sleeper with one that records the delays and returns at once.
func recordSleeps(o *openrouter.Options) *[]time.Duration {
	var d []time.Duration
	o.Sleep = func(ctx context.Context, x time.Duration) error { d = append(d, x); return ctx.Err() }
	return &d
}

func TestRetry503TwiceThenSuccess(t *testing.T) {
	r := newRegistry(t, false)
	tr := &script{t: t, steps: []step{{status: 503, body: `{"error":{"code":503,"message":"upstream overloaded"}}`},
		{status: 503, body: "Service Unavailable"}, ok200(textAnswer("All good."))}}
	o := options(r, tr)
	sleeps := recordSleeps(&o)
	var notices []openrouter.Notice
	o.OnNotice = func(n openrouter.Notice) { notices = append(notices, n) }
	rep := openrouter.Run(context.Background(), "hello", o)
	if rep.Failed || rep.Summary != "All good." || rep.Turns != 1 {
		t.Fatalf("report %+v", rep)
	}
	if len(tr.requests()) != 3 {
		t.Fatalf("%d requests, want 3", len(tr.requests()))
	}
	if want := []time.Duration{350 * time.Millisecond, 700 * time.Millisecond}; len(*sleeps) != 2 || (*sleeps)[0] != want[0] || (*sleeps)[1] != want[1] {
		t.Fatalf("backoff %v, want %v", *sleeps, want)
	}
	if len(notices) != 2 || notices[0].Text != "retrying provider request 1/2" || notices[1].Text != "retrying provider request 2/2" ||
		notices[0].Code != mcp.CodeOpenRouterProviderError || notices[0].Status != 503 || notices[1].Status != 503 {
		t.Fatalf("notices %+v", notices)
	}
	if strings.Join(rep.Notices, "|") != "retrying provider request 1/2|retrying provider request 2/2" {
		t.Fatalf("report notices %v", rep.Notices)
	}
}

func TestProviderErrorAfterRetriesExhausted(t *testing.T) {
	r := newRegistry(t, false)
	html := "<!DOCTYPE html>\n<html>\n  <head><title>502 Bad Gateway</title></head>\n  <body>\n\n\t<h1>502   Bad Gateway</h1>" + strings.Repeat("\n<p>nginx proxy padding text</p>", 40) + "</body></html>"
	tr := &script{t: t, steps: []step{{status: 502, body: html}, {status: 502, body: html}, {status: 502, body: html}}}
	o := options(r, tr)
	recordSleeps(&o)
	rep := openrouter.Run(context.Background(), "hello", o)
	wantFailure(t, rep, mcp.CodeOpenRouterProviderError, true)
	msg := rep.Error.Message
	if strings.ContainsAny(msg, "\n\t") || strings.Contains(msg, "  ") {
		t.Fatalf("excerpt not collapsed: %q", msg)
	}
	if !strings.Contains(msg, "<html> <head><title>502 Bad Gateway</title></head> <body> <h1>502 Bad Gateway</h1>") {
		t.Fatalf("message %q", msg)
	}
	_, excerpt, _ := strings.Cut(msg, ": ")
	if n := len([]rune(excerpt)); n > openrouter.ExcerptChars || !strings.HasSuffix(excerpt, "…") {
		t.Fatalf("excerpt %d chars: %q", n, excerpt)
	}
	d := rep.Error.Details.(map[string]any)
	if d["status"] != 502 || d["attempts"] != 3 {
		t.Fatalf("details %+v", d)
	}
}

func TestAuthenticationFailedIsNotRetriedAndKeyNeverEchoed(t *testing.T) {
	r := newRegistry(t, false)
	const key = "sk-or-v1-secretsecretsecret"
	tr := &script{t: t, steps: []step{{status: 401, body: `{"error":{"code":401,"message":"No auth credentials found for sk-or-v1-secretsecretsecret"}}`}}}
	o := options(r, tr)
	o.APIKey = key
	sleeps := recordSleeps(&o)
	rep := openrouter.Run(context.Background(), "hello", o)
	wantFailure(t, rep, mcp.CodeOpenRouterAuthenticationFailed, false)
	if len(tr.requests()) != 1 || len(*sleeps) != 0 || len(rep.Notices) != 0 {
		t.Fatalf("retried: %d requests, sleeps %v", len(tr.requests()), *sleeps)
	}
	if got := tr.requests()[0].Header["Authorization"]; got != "Bearer "+key {
		t.Fatalf("Authorization %q", got)
	}
	b, _ := json.Marshal(rep)
	if strings.Contains(string(b), key) {
		t.Fatalf("report leaks the key: %s", b)
	}
	if !strings.Contains(rep.Error.Message, "[api key redacted]") {
		t.Fatalf("message %q", rep.Error.Message)
	}
}

func TestStatusClasses(t *testing.T) {
	for _, c := range []struct {
		status int
		code   mcp.Code
		retry  bool
		reqs   int
	}{
		{401, mcp.CodeOpenRouterAuthenticationFailed, false, 1},
		{403, mcp.CodeOpenRouterAccessDenied, false, 1},
		{400, mcp.CodeOpenRouterConfigurationError, false, 1},
		{404, mcp.CodeOpenRouterConfigurationError, false, 1},
		{429, mcp.CodeOpenRouterRateLimited, true, 3},
		{500, mcp.CodeOpenRouterProviderError, true, 3},
		{504, mcp.CodeOpenRouterProviderError, true, 3},
	} {
		r := newRegistry(t, false)
		tr := &script{t: t}
		for range c.reqs {
			tr.steps = append(tr.steps, step{status: c.status, body: `{"error":{"message":"nope"}}`})
		}
		o := options(r, tr)
		recordSleeps(&o)
		rep := openrouter.Run(context.Background(), "hello", o)
		wantFailure(t, rep, c.code, c.retry)
		if len(tr.requests()) != c.reqs {
			t.Fatalf("HTTP %d: %d requests, want %d", c.status, len(tr.requests()), c.reqs)
		}
	}
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	r := newRegistry(t, false)
	tr := &script{t: t, steps: []step{
		{status: 429, header: map[string]string{"retry-after": "2"}, body: `{"error":{"code":429,"message":"Rate limit exceeded: free-models-per-min"}}`},
		{status: 429, header: map[string]string{"Retry-After": now.Add(3 * time.Second).Format(time.RFC1123)}, body: `{"error":{"code":429,"message":"slow down"}}`},
		ok200(textAnswer("done"))}}
	o := options(r, tr)
	o.Now = func() time.Time { return now }
	sleeps := recordSleeps(&o)
	rep := openrouter.Run(context.Background(), "hello", o)
	if rep.Failed || rep.Summary != "done" {
		t.Fatalf("report %+v", rep)
	}
	if len(*sleeps) != 2 || (*sleeps)[0] != 2*time.Second || (*sleeps)[1] != 3*time.Second {
		t.Fatalf("sleeps %v", *sleeps)
	}
	// A long Retry-After is capped at 4 s.
	tr = &script{t: t, steps: []step{{status: 429, header: map[string]string{"Retry-After": "120"}}, ok200(textAnswer("done"))}}
	o = options(r, tr)
	sleeps = recordSleeps(&o)
	openrouter.Run(context.Background(), "hello", o)
	if len(*sleeps) != 1 || (*sleeps)[0] != openrouter.MaxBackoff {
		t.Fatalf("sleeps %v", *sleeps)
	}
}

func TestTimeoutAndNetworkErrorOnFakeClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRegistry(t, false)
		tr := &script{t: t, steps: []step{{hang: true}, {hang: true}, {hang: true}}}
		start := time.Now()
		rep := openrouter.Run(context.Background(), "hello", options(r, tr))
		wantFailure(t, rep, mcp.CodeOpenRouterTimeout, true)
		if el, want := time.Since(start), 3*openrouter.RequestTimeout+350*time.Millisecond+700*time.Millisecond; el != want {
			t.Fatalf("elapsed %v, want %v", el, want)
		}
		// A transport that enforces the deadline itself reports context.DeadlineExceeded.
		hostTimeout := fmt.Errorf("host: request to the endpoint: %w", context.DeadlineExceeded)
		tr = &script{t: t, steps: []step{{err: hostTimeout}, {err: hostTimeout}, {err: hostTimeout}}}
		rep = openrouter.Run(context.Background(), "hello", options(r, tr))
		wantFailure(t, rep, mcp.CodeOpenRouterTimeout, true)
		tr = &script{t: t, steps: []step{{err: errors.New("dial tcp: connection refused")}, {hang: true}, ok200(textAnswer("back"))}}
		rep = openrouter.Run(context.Background(), "hello", options(r, tr))
		if rep.Failed || rep.Summary != "back" || len(rep.Notices) != 2 {
			t.Fatalf("report %+v", rep)
		}
		tr = &script{t: t, steps: []step{{err: errors.New("dial tcp: connection refused")}, {err: errors.New("reset")}, {err: errors.New("dial tcp: connection refused")}}}
		rep = openrouter.Run(context.Background(), "hello", options(r, tr))
		wantFailure(t, rep, mcp.CodeOpenRouterNetworkError, true)
		if rep.Error.Message != "Network request failed: dial tcp: connection refused" {
			t.Fatalf("message %q", rep.Error.Message)
		}
	})
}

func TestCancelDuringBackoffSendsNoMoreRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRegistry(t, false)
		tr := &script{t: t, steps: []step{{status: 503, body: "busy"}}}
		ctx, cancel := context.WithCancel(context.Background())
		o := options(r, tr)
		o.OnNotice = func(openrouter.Notice) {
			go func() { time.Sleep(100 * time.Millisecond); cancel() }()
		}
		start := time.Now()
		rep := openrouter.Run(ctx, "hello", o)
		if !rep.Cancelled || rep.Failed || rep.Error != nil || rep.Summary != "OpenRouter run cancelled." {
			t.Fatalf("report %+v", rep)
		}
		if len(tr.requests()) != 1 {
			t.Fatalf("%d requests after cancel", len(tr.requests()))
		}
		if el := time.Since(start); el != 100*time.Millisecond {
			t.Fatalf("cancel took %v", el)
		}
	})
}

var legalName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func TestTwoTurnToolLoopMakesItEmerald(t *testing.T) {
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{
		ok200(callsAnswer("tool_calls", "null", tc{"call_status", "workspace_getStatus", str("")})),
		ok200(callsAnswer("tool_calls", str(""), tc{"call_theme", "preview_setTheme", str(`{"theme": "emerald"}`)})),
		ok200(textAnswer("Switched the accent to emerald.")),
	}}
	o := options(r, tr)
	o.Referer = "http://127.0.0.1:8080"
	o.DataPolicy = openrouter.DataDeny
	rep := openrouter.Run(context.Background(), "Make it emerald", o)
	if rep.Failed || rep.Summary != "Switched the accent to emerald." || rep.Turns != 3 || len(rep.Calls) != 2 {
		t.Fatalf("report %+v", rep)
	}
	for i, want := range []string{"workspace.getStatus", "preview.setTheme"} {
		st := rep.Calls[i]
		m := st.Request.Meta
		if st.Request.Name != want || st.Result.IsError || m.Source != mcp.SourceModel || m.Mode != mcp.ModeAgent ||
			m.SessionID != "run-1" || m.MaxOutputBytes == nil || *m.MaxOutputBytes != 65536 || st.Result.ToolCallID != m.ToolCallID {
			t.Fatalf("step %d: %+v meta %+v result %+v", i, st.Request, m, st.Result)
		}
	}
	if rep.Calls[0].Request.Meta.ToolCallID != "call_status" || string(rep.Calls[1].Request.Arguments) != `{"theme":"emerald"}` {
		t.Fatalf("calls %+v", rep.Calls)
	}
	css := readFile(t, r, "styles.css")
	if !strings.Contains(css, "--accent: #10b981") {
		t.Fatalf("styles.css not emerald:\n%s", css)
	}
	// Request shape.
	req := tr.requests()[0]
	if req.Method != "POST" || req.URL != o.Endpoint || req.Header["Content-Type"] != "application/json" ||
		req.Header["HTTP-Referer"] != "http://127.0.0.1:8080" || req.Header["X-Title"] != openrouter.DefaultTitle {
		t.Fatalf("request %s %s %v", req.Method, req.URL, req.Header)
	}
	if _, ok := req.Header["Authorization"]; ok {
		t.Fatal("Authorization set without a key: the transport adds it")
	}
	b := tr.body(t, 0)
	if b["model"] != "openai/gpt-4o-mini" || b["tool_choice"] != "auto" || b["max_tokens"] != float64(1200) {
		t.Fatalf("body %v", b)
	}
	if p, _ := json.Marshal(b["provider"]); string(p) != `{"data_collection":"deny"}` {
		t.Fatalf("provider %s", p)
	}
	tools := b["tools"].([]any)
	if len(tools) != 26 {
		t.Fatalf("%d tools sent, want the full catalog of 26", len(tools))
	}
	for _, x := range tools {
		fn := x.(map[string]any)["function"].(map[string]any)
		if !legalName.MatchString(fn["name"].(string)) {
			t.Fatalf("tool name %q is not provider-legal", fn["name"])
		}
		if _, has := fn["parameters"].(map[string]any)["$schema"]; has {
			t.Fatalf("%s: $schema sent", fn["name"])
		}
	}
	msgs := tr.messages(t, 0)
	if len(msgs) != 2 || msgs[0]["role"] != "system" || msgs[0]["content"] != openrouter.SystemPrompt || msgs[1]["role"] != "user" || msgs[1]["content"] != "Make it emerald" {
		t.Fatalf("first messages %v", msgs)
	}
	// Turn 2 carries the assistant call (content null kept null, arguments a compact string) and the result.
	msgs = tr.messages(t, 1)
	if len(msgs) != 4 || msgs[2]["role"] != "assistant" {
		t.Fatalf("second messages %v", msgs)
	}
	if c, has := msgs[2]["content"]; !has || c != nil {
		t.Fatalf("assistant content %v (present %v), want null", c, has)
	}
	call := msgs[2]["tool_calls"].([]any)[0].(map[string]any)
	if call["id"] != "call_status" || call["type"] != "function" || call["function"].(map[string]any)["arguments"] != "{}" ||
		call["function"].(map[string]any)["name"] != "workspace_getStatus" {
		t.Fatalf("assistant call %v", call)
	}
	status := tr.toolMessage(t, 1, "call_status")
	if _, ok := status["revision"]; !ok {
		t.Fatalf("getStatus result sent as %v, want its structuredContent", status)
	}
	// Turn 3: the "" content stays "", the arguments are re-serialized compact.
	msgs = tr.messages(t, 2)
	if msgs[4]["content"] != "" {
		t.Fatalf("assistant content %#v, want \"\"", msgs[4]["content"])
	}
	if a := msgs[4]["tool_calls"].([]any)[0].(map[string]any)["function"].(map[string]any)["arguments"]; a != `{"theme":"emerald"}` {
		t.Fatalf("arguments %q", a)
	}
}

func TestApprovalDeniedIsReportedToTheModel(t *testing.T) {
	r := newRegistry(t, false) // no approver: agent-mode mutations need approval
	tr := &script{t: t, steps: []step{
		ok200(callsAnswer("tool_calls", "", tc{"c1", "preview_setTheme", str(`{"theme":"emerald"}`)})),
		ok200(textAnswer("I could not change the theme without approval.")),
	}}
	rep := openrouter.Run(context.Background(), "Make it emerald", options(r, tr))
	if rep.Failed || len(rep.Calls) != 1 || !rep.Calls[0].Result.IsError {
		t.Fatalf("report %+v", rep)
	}
	if c, has := tr.messages(t, 1)[2]["content"]; !has || c != nil {
		t.Fatalf("absent content sent back as %v (present %v), want null", c, has)
	}
	res := tr.toolMessage(t, 1, "c1")
	if res["status"] != "error" || res["code"] != string(mcp.CodeToolApprovalRequired) || res["retryable"] != true {
		t.Fatalf("tool result %v", res)
	}
	if strings.Contains(readFile(t, r, "styles.css"), "#10b981") {
		t.Fatal("theme changed without approval")
	}
}

func TestArgumentRules(t *testing.T) {
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{
		ok200(callsAnswer("stop", "null",
			tc{"empty_req", "workspace_readFile", str("")},              // required path missing
			tc{"blank_zero", "workspace_listFiles", str("  \n ")},       // zero-argument tool: fine
			tc{"object", "workspace_readFile", `{"path":"index.html"}`}, // already decoded
			tc{"array", "workspace_readFile", str(`["index.html"]`)},
			tc{"number", "workspace_readFile", `42`},
			tc{"bad", "workspace_readFile", str(`{"path": "index.html"`)},
			tc{"nullopt", "workspace_applyPatch", str(`{"path":"index.html","search":"zzz-not-there","replace":"y","occurrence":"first","expectedRevision":null}`)},
			tc{"nullreq", "workspace_readFile", str(`{"path":null}`)},
			tc{"unknown", "workspace_nope", str(`{}`)},
		)),
		ok200(textAnswer("ok")),
	}}
	rep := openrouter.Run(context.Background(), "look around", options(r, tr))
	if rep.Failed || len(rep.Calls) != 9 {
		t.Fatalf("report %+v", rep)
	}
	code := func(id string) any { return tr.toolMessage(t, 1, id)["code"] }
	if code("empty_req") != string(mcp.CodeToolValidationFailed) {
		t.Fatalf("empty arguments for a required field: %v", tr.toolMessage(t, 1, "empty_req"))
	}
	if m := tr.toolMessage(t, 1, "blank_zero"); m["status"] == "error" {
		t.Fatalf("blank arguments for a zero-argument tool: %v", m)
	}
	if m := tr.toolMessage(t, 1, "object"); m["status"] == "error" || m["path"] != "index.html" {
		t.Fatalf("object arguments: %v", m)
	}
	for _, id := range []string{"array", "number", "bad"} {
		m := tr.toolMessage(t, 1, id)
		if m["code"] != string(mcp.CodeOpenRouterInvalidToolCall) || m["retryable"] != true {
			t.Fatalf("%s: %v", id, m)
		}
	}
	if rep.Calls[3].Request.Arguments != nil || rep.Calls[3].Result.Error.Code != mcp.CodeOpenRouterInvalidToolCall {
		t.Fatalf("invalid call dispatched: %+v", rep.Calls[3])
	}
	if code("nullopt") != string(mcp.CodeWorkspacePatchNotFound) {
		t.Fatalf("null optional argument not treated as absent: %v", tr.toolMessage(t, 1, "nullopt"))
	}
	if code("nullreq") != string(mcp.CodeToolValidationFailed) {
		t.Fatalf("null required argument: %v", tr.toolMessage(t, 1, "nullreq"))
	}
	if code("unknown") != string(mcp.CodeToolNotFound) {
		t.Fatalf("unknown tool: %v", tr.toolMessage(t, 1, "unknown"))
	}
	// Invalid arguments are sent back as "{}", valid ones compact.
	calls := tr.messages(t, 1)[2]["tool_calls"].([]any)
	if a := calls[5].(map[string]any)["function"].(map[string]any)["arguments"]; a != "{}" {
		t.Fatalf("invalid arguments sent back as %q", a)
	}
	if a := calls[2].(map[string]any)["function"].(map[string]any)["arguments"]; a != `{"path":"index.html"}` {
		t.Fatalf("object arguments sent back as %q", a)
	}
}

// TestTruncatedArgumentsWithFinishLength: a call cut by finish_reason "length" is refused
// without running and the run ends with the length error; the model is not asked again.
func TestTruncatedArgumentsWithFinishLength(t *testing.T) {
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{
		ok200(callsAnswer("length", "null", tc{"cut", "workspace_writeFile", str(`{"path":"index.html","source":"<html><body>hel`)})),
	}}
	before := readFile(t, r, "index.html")
	rep := openrouter.Run(context.Background(), "rewrite index", options(r, tr))
	if !rep.Failed || rep.Error == nil || rep.Error.Code != mcp.CodeOpenRouterInvalidToolCall || !rep.Error.Retryable ||
		!strings.Contains(rep.Error.Message, "length limit") || len(rep.Calls) != 1 || len(tr.reqs) != 1 {
		t.Fatalf("report %+v (%d requests)", rep, len(tr.reqs))
	}
	res := rep.Calls[0].Result
	d, _ := res.Error.Details.(map[string]any)
	if res.Error.Code != mcp.CodeOpenRouterInvalidToolCall || d["reason"] != "truncated" || d["finishReason"] != "length" {
		t.Fatalf("call result %+v", res.Error)
	}
	if readFile(t, r, "index.html") != before {
		t.Fatal("a truncated call ran")
	}
}

func TestInvalidResponsesRunNoTool(t *testing.T) {
	for name, body := range map[string]string{
		"not json":        `<html>OK</html>`,
		"not object":      `[1,2]`,
		"choices object":  `{"choices":{"message":{}}}`,
		"role user":       `{"choices":[{"message":{"role":"user","content":"hi"}}]}`,
		"content number":  `{"choices":[{"message":{"role":"assistant","content":7}}]}`,
		"tool_calls obj":  `{"choices":[{"message":{"role":"assistant","tool_calls":{}}}]}`,
		"duplicate id":    callsAnswer("tool_calls", "null", tc{"same", "preview_setTheme", str(`{"theme":"emerald"}`)}, tc{"same", "workspace_getStatus", str("")}),
		"blank id":        callsAnswer("tool_calls", "null", tc{" ", "preview_setTheme", str(`{"theme":"emerald"}`)}),
		"blank name":      callsAnswer("tool_calls", "null", tc{"a", "", str(`{}`)}),
		"type not fn":     `{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"a","type":"code","function":{"name":"x","arguments":"{}"}}]}}]}`,
		"duplicate key":   `{"choices":[],"choices":[]}`,
		"item not object": `{"choices":[{"message":{"role":"assistant","tool_calls":["x"]}}]}`,
	} {
		r := newRegistry(t, true)
		tr := &script{t: t, steps: []step{ok200(body)}}
		rep := openrouter.Run(context.Background(), "Make it emerald", options(r, tr))
		if !rep.Failed || rep.ErrorCode != mcp.CodeOpenRouterInvalidResponse || *rep.Retryable || len(rep.Calls) != 0 {
			t.Fatalf("%s: report %+v", name, rep)
		}
		if len(tr.requests()) != 1 {
			t.Fatalf("%s: retried", name)
		}
		if strings.Contains(readFile(t, r, "styles.css"), "#10b981") {
			t.Fatalf("%s: a tool ran", name)
		}
	}
}

func TestNoAssistantMessage(t *testing.T) {
	for _, body := range []string{`{"id":"gen"}`, `{"choices":[]}`, `{"choices":[{"finish_reason":"stop"}]}`, `{"choices":[{"message":null}]}`} {
		tr := &script{t: t, steps: []step{ok200(body)}}
		rep := openrouter.Run(context.Background(), "hi", options(newRegistry(t, false), tr))
		wantFailure(t, rep, mcp.CodeOpenRouterNoAssistantMessage, true)
	}
}

func TestErrorObjectInside200(t *testing.T) {
	for _, c := range []struct {
		body  string
		code  mcp.Code
		retry bool
		reqs  int
	}{
		{`{"error":{"code":401,"message":"User not found."}}`, mcp.CodeOpenRouterAuthenticationFailed, false, 1},
		{`{"error":{"code":"403","message":"moderation"}}`, mcp.CodeOpenRouterAccessDenied, false, 1},
		{`{"error":{"message":"bad model"},"http_status":400}`, mcp.CodeOpenRouterConfigurationError, false, 1},
		{`{"error":{"code":"rate_limit_exceeded","message":"slow","http_status":429}}`, mcp.CodeOpenRouterRateLimited, true, 3},
		{`{"error":{"code":502,"message":"Provider returned error","metadata":{"provider_name":"X"}}}`, mcp.CodeOpenRouterProviderError, true, 3},
		{`{"error":{"message":"something"}}`, mcp.CodeOpenRouterProviderError, true, 3},
		{`{"choices":[{"finish_reason":"error","error":{"code":429,"message":"upstream rate limit"},"message":{"role":"assistant","content":""}}]}`, mcp.CodeOpenRouterRateLimited, true, 3},
	} {
		tr := &script{t: t}
		for range c.reqs {
			tr.steps = append(tr.steps, ok200(c.body))
		}
		o := options(newRegistry(t, false), tr)
		recordSleeps(&o)
		rep := openrouter.Run(context.Background(), "hi", o)
		wantFailure(t, rep, c.code, c.retry)
		if len(tr.requests()) != c.reqs {
			t.Fatalf("%s: %d requests", c.body, len(tr.requests()))
		}
	}
}

func TestBudgets(t *testing.T) {
	r := newRegistry(t, true)
	var calls []tc
	for i := range 13 {
		calls = append(calls, tc{"c" + string(rune('a'+i)), "workspace_getStatus", str("")})
	}
	tr := &script{t: t, steps: []step{ok200(callsAnswer("tool_calls", "null", calls...))}}
	rep := openrouter.Run(context.Background(), "go", options(r, tr))
	wantFailure(t, rep, mcp.CodeOpenRouterToolCallLimit, false)
	if len(rep.Calls) != 0 {
		t.Fatalf("%d calls ran over the budget", len(rep.Calls))
	}
	// 10 then 3: the second batch would make 13 > 12 and is refused whole.
	tr = &script{t: t, steps: []step{ok200(callsAnswer("tool_calls", "null", calls[:10]...)), ok200(callsAnswer("tool_calls", "null", calls[10:]...))}}
	rep = openrouter.Run(context.Background(), "go", options(r, tr))
	wantFailure(t, rep, mcp.CodeOpenRouterToolCallLimit, false)
	if len(rep.Calls) != 10 {
		t.Fatalf("%d calls ran", len(rep.Calls))
	}
	// Five turns of tool calls and no answer.
	tr = &script{t: t}
	for i := range 5 {
		tr.steps = append(tr.steps, ok200(callsAnswer("tool_calls", "null", tc{"t" + string(rune('0'+i)), "workspace_getStatus", str("")})))
	}
	rep = openrouter.Run(context.Background(), "go", options(r, tr))
	wantFailure(t, rep, mcp.CodeOpenRouterToolLoopLimit, false)
	if len(tr.requests()) != 5 || len(rep.Calls) != 5 || rep.Turns != 5 {
		t.Fatalf("%d requests, %d calls, %d turns", len(tr.requests()), len(rep.Calls), rep.Turns)
	}
}

func TestFinalAnswerFallbackAndFollowUpConversation(t *testing.T) {
	r := newRegistry(t, true)
	conv := &openrouter.Conversation{}
	tr := &script{t: t, steps: []step{
		ok200(callsAnswer("tool_calls", "null", tc{"a", "workspace_getStatus", str("")})),
		ok200(`{"choices":[{"finish_reason":"stop","message":{"role":"assistant","content":null}}]}`),
		ok200(textAnswer("second")),
	}}
	o := options(r, tr)
	o.Conversation = conv
	rep := openrouter.Run(context.Background(), "first prompt", o)
	if rep.Summary != "OpenRouter completed 1 tool call(s)." {
		t.Fatalf("summary %q", rep.Summary)
	}
	o.SessionID = "run-2"
	rep = openrouter.Run(context.Background(), "second prompt", o)
	if rep.Summary != "second" {
		t.Fatalf("summary %q", rep.Summary)
	}
	msgs := tr.messages(t, 2)
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m["role"].(string))
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,assistant,user" || msgs[5]["content"] != "second prompt" || msgs[4]["content"] != "" {
		t.Fatalf("follow-up history %v", msgs)
	}
	conv.Reset()
	if len(conv.Messages()) != 0 {
		t.Fatal("reset kept messages")
	}
}

func TestDataPolicies(t *testing.T) {
	for policy, want := range map[openrouter.DataPolicy]string{openrouter.DataAllow: "null", openrouter.DataDeny: `{"data_collection":"deny"}`, openrouter.DataZDR: `{"zdr":true}`} {
		req, err := openrouter.BuildRequest(openrouter.Config{DataPolicy: policy, APIKey: "k-123"}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b map[string]json.RawMessage
		_ = json.Unmarshal(req.Body, &b)
		got := string(b["provider"])
		if got == "" {
			got = "null"
		}
		if got != want || req.URL != openrouter.DefaultEndpoint || req.Header["Authorization"] != "Bearer k-123" {
			t.Fatalf("%s: provider %s url %s", policy, got, req.URL)
		}
		if _, has := b["tool_choice"]; has {
			t.Fatalf("tool_choice without tools")
		}
	}
	if _, err := openrouter.ParseDataPolicy("share"); err == nil {
		t.Fatal("unknown policy accepted")
	}
}

func TestModelCallsAreBoundedAndOldResultsElided(t *testing.T) {
	r := newRegistry(t, true)
	create := func(path, source string) {
		res := r.Call(context.Background(), mcp.CallToolParams{Name: "workspace.createFile",
			Arguments: json.RawMessage(`{"path":` + str(path) + `,"source":` + str(source) + `}`), Meta: &mcp.CallMeta{Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
		if res.IsError {
			t.Fatalf("createFile: %+v", res.Error)
		}
	}
	create("big.txt", strings.Repeat("x", 70000))
	if readFile(t, r, "big.txt") == "" { // readable in full without a bound
		t.Fatal("empty")
	}
	tr := &script{t: t, steps: []step{
		ok200(callsAnswer("tool_calls", "null", tc{"big", "workspace_readFile", str(`{"path":"big.txt"}`)})),
		ok200(textAnswer("too big")),
	}}
	conv := &openrouter.Conversation{}
	o := options(r, tr)
	o.Conversation = conv
	openrouter.Run(context.Background(), "read big.txt", o)
	m := tr.toolMessage(t, 1, "big")
	if m["code"] != string(mcp.CodeToolOutputLimitExceeded) || m["details"].(map[string]any)["maxOutputBytes"] != float64(65536) {
		t.Fatalf("model call not bounded: %v", m)
	}
	// Four model reads of a 30,000-character file (about 30 KB each as sent) outgrow the
	// 96 KiB bound: the oldest result is elided, the newer ones are kept.
	mid := strings.Repeat("y", 30000)
	create("mid.txt", mid)
	read := str(`{"path":"mid.txt"}`)
	tr.steps = []step{
		ok200(callsAnswer("tool_calls", "null", tc{"m1", "workspace_readFile", read}, tc{"m2", "workspace_readFile", read},
			tc{"m3", "workspace_readFile", read}, tc{"m4", "workspace_readFile", read})),
		ok200(textAnswer("read four times")),
	}
	o.SessionID = "run-2"
	rep := openrouter.Run(context.Background(), "read mid.txt four times", o)
	if rep.Failed {
		t.Fatalf("report %+v", rep)
	}
	last := len(tr.requests()) - 1
	if got := tr.toolMessage(t, last, "m1"); got["status"] != "elided" {
		t.Fatalf("oldest result kept: %.80v", got)
	}
	for _, id := range []string{"m2", "m3", "m4"} {
		if got := tr.toolMessage(t, last, id); got["source"] != mid {
			t.Fatalf("%s elided", id)
		}
	}
}

func TestCancelDuringBatchAnswersTheRestCancelled(t *testing.T) {
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{ok200(callsAnswer("tool_calls", "null",
		tc{"a", "workspace_getStatus", str("")}, tc{"b", "preview_setTheme", str(`{"theme":"emerald"}`)}))}}
	ctx, cancel := context.WithCancel(context.Background())
	o := options(r, tr)
	exec := o.Exec
	o.Exec = func(ctx context.Context, p mcp.CallToolParams) *mcp.CallToolResult {
		res := exec(ctx, p)
		cancel() // the user presses Cancel while the first call finishes
		return res
	}
	conv := &openrouter.Conversation{}
	o.Conversation = conv
	rep := openrouter.Run(ctx, "Make it emerald", o)
	if !rep.Cancelled || rep.Failed || len(rep.Calls) != 2 || rep.Calls[1].Result.Error.Code != mcp.CodeToolCancelled {
		t.Fatalf("report %+v", rep)
	}
	if strings.Contains(readFile(t, r, "styles.css"), "#10b981") {
		t.Fatal("a call ran after cancel")
	}
	// The history stays well-formed: every assistant tool call has its tool message.
	msgs := conv.Messages()
	if n := len(msgs); n != 5 || msgs[3].ToolCallID != "a" || msgs[4].ToolCallID != "b" {
		t.Fatalf("history %+v", msgs)
	}
}

// TestInvalidArgumentsAreReportedThroughOnRefused: a call whose arguments are not a JSON
// object is never dispatched, and OnRefused gets it (canonical name, provider call id,
// source model / mode agent, the OPENROUTER_INVALID_TOOL_CALL result) so the UI can show it;
// a valid call in the same batch is dispatched and not reported there.
func TestInvalidArgumentsAreReportedThroughOnRefused(t *testing.T) {
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{
		ok200(callsAnswer("tool_calls", "null", tc{"bad-1", "workspace_readFile", str(`{"path":`)}, tc{"ok-1", "workspace_getStatus", str(``)})),
		ok200(textAnswer("done")),
	}}
	opts := options(r, tr)
	var refused []mcp.CallToolParams
	var results []*mcp.CallToolResult
	opts.OnRefused = func(p mcp.CallToolParams, res *mcp.CallToolResult) {
		refused = append(refused, p)
		results = append(results, res)
	}
	rep := openrouter.Run(context.Background(), "read", opts)
	if rep.Failed || len(rep.Calls) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if len(refused) != 1 {
		t.Fatalf("OnRefused got %d calls, want 1: %+v", len(refused), refused)
	}
	p, res := refused[0], results[0]
	if p.Name != "workspace.readFile" || p.Meta == nil || p.Meta.ToolCallID != "bad-1" || p.Meta.Source != mcp.SourceModel || p.Meta.Mode != mcp.ModeAgent {
		t.Errorf("refused params %+v (meta %+v)", p, p.Meta)
	}
	if res == nil || !res.IsError || res.Error == nil || res.Error.Code != mcp.CodeOpenRouterInvalidToolCall {
		t.Errorf("refused result %+v", res)
	}
}

// Issue 14 item 10: a tool call whose id and function.name carry surrounding whitespace is
// trimmed (as the original does) before lookup and correlation: the tool runs, and the
// assistant message and the tool result echo the trimmed id.
func TestPaddedToolCallIDAndNameAreTrimmed(t *testing.T) {
	r := newRegistry(t, true)
	tr := &script{t: t, steps: []step{
		ok200(callsAnswer("tool_calls", "null", tc{`  call_theme\t`, ` preview_setTheme\n`, str(`{"theme":"emerald"}`)})),
		ok200(textAnswer("Done.")),
	}}
	rep := openrouter.Run(context.Background(), "Make it emerald", options(r, tr))
	if rep.Failed || len(rep.Calls) != 1 || rep.Calls[0].Result.IsError {
		t.Fatalf("report %+v", rep)
	}
	if st := rep.Calls[0]; st.Request.Name != "preview.setTheme" || st.Request.Meta.ToolCallID != "call_theme" || st.Result.ToolCallID != "call_theme" {
		t.Fatalf("call %+v result %+v", st.Request, st.Result)
	}
	msgs := tr.messages(t, 1)
	call := msgs[2]["tool_calls"].([]any)[0].(map[string]any)
	if call["id"] != "call_theme" || call["function"].(map[string]any)["name"] != "preview_setTheme" {
		t.Fatalf("assistant call echoed as %v", call)
	}
	tr.toolMessage(t, 1, "call_theme")
	if css := readFile(t, r, "styles.css"); !strings.Contains(css, "--accent: #10b981") {
		t.Fatalf("styles.css not emerald:\n%s", css)
	}
}
