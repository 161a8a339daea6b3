package studio

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// replay is a Transport that answers with bodies in order and records the requests.
type replay struct {
	mu     sync.Mutex
	bodies []string
	reqs   []openrouter.Request
}

func (r *replay) Do(_ context.Context, req openrouter.Request) (openrouter.Response, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
	if len(r.bodies) == 0 {
		return openrouter.Response{Status: 500, Body: []byte("script exhausted")}, nil
	}
	b := r.bodies[0]
	r.bodies = r.bodies[1:]
	return openrouter.Response{Status: 200, Body: []byte(b)}, nil
}

func orCall(id, name, args string) string {
	a, _ := json.Marshal(args)
	return `{"choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":` + string(a) + `}}]}}]}`
}

func orText(s string) string {
	return `{"choices":[{"finish_reason":"stop","message":{"role":"assistant","content":"` + s + `"}}]}`
}

func TestAgentOpenRouterMethod(t *testing.T) {
	tr := &replay{bodies: []string{
		orCall("c1", "workspace_getStatus", ""), orCall("c2", "preview_setTheme", `{"theme":"emerald"}`), orText("Emerald now."),
		orText("Still emerald."),
		orText("Fresh start."),
	}}
	b := WithOpenRouter(Builder(Ports{}), OpenRouterOptions{Transport: tr, Defaults: openrouter.Config{Endpoint: "http://127.0.0.1:1/api/v1/chat/completions"}})
	s, err := b(context.Background(), rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Methods[MethodAgentRun]; !ok {
		t.Fatal("the wrapped session lost agent/run")
	}
	run := func(params string) openrouter.Report {
		t.Helper()
		v, rerr := s.Methods[MethodAgentOpenRouter](context.Background(), json.RawMessage(params))
		if rerr != nil {
			t.Fatalf("%s: %+v", params, rerr)
		}
		return v.(openrouter.Report)
	}
	rep := run(`{"prompt":"Make it emerald","model":"meta-llama/llama-3.3-70b-instruct:free","dataPolicy":"zdr"}`)
	if rep.Failed || rep.Summary != "Emerald now." || len(rep.Calls) != 2 || rep.Model != "meta-llama/llama-3.3-70b-instruct:free" {
		t.Fatalf("report %+v", rep)
	}
	if m := rep.Calls[1].Request.Meta; m.SessionID != "openrouter-1" || m.Source != mcp.SourceModel {
		t.Fatalf("meta %+v", m)
	}
	src := ok(t, call(t, s.Registry, ToolWorkspaceReadFile, map[string]any{"path": "styles.css"}))["source"].(string)
	if !strings.Contains(src, "--accent: #10b981") {
		t.Fatalf("styles.css:\n%s", src)
	}
	if !strings.Contains(string(tr.reqs[0].Body), `"provider":{"zdr":true}`) || tr.reqs[0].URL != "http://127.0.0.1:1/api/v1/chat/completions" {
		t.Fatalf("request %s %s", tr.reqs[0].URL, tr.reqs[0].Body)
	}
	// A follow-up continues the conversation; newChat starts over.
	run(`{"prompt":"and now?","sessionId":"s-2"}`)
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	_ = json.Unmarshal(tr.reqs[3].Body, &body)
	if len(body.Messages) != 8 {
		t.Fatalf("follow-up sent %d messages, want 8", len(body.Messages))
	}
	run(`{"prompt":"hello","newChat":true}`)
	_ = json.Unmarshal(tr.reqs[4].Body, &body)
	if len(body.Messages) != 2 {
		t.Fatalf("new chat sent %d messages, want 2", len(body.Messages))
	}
	for _, bad := range []string{``, `{}`, `{"prompt":" "}`, `{"prompt":"x","dataPolicy":"share"}`,
		`{"prompt":"x","apiKey":"k"}`, `{"prompt":"x","newChat":"yes"}`, `{"prompt":"x","sessionId":""}`} {
		if _, rerr := s.Methods[MethodAgentOpenRouter](context.Background(), json.RawMessage(bad)); rerr == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}

func TestAgentOpenRouterModelsMethod(t *testing.T) {
	tr := &replay{bodies: []string{`{"data":[{"id":"a/b:free","name":"B","supported_parameters":["tools"]},{"id":7}]}`}}
	s, err := WithOpenRouter(Builder(Ports{}), OpenRouterOptions{Transport: tr})(context.Background(), rpcsession.Config{})
	if err != nil {
		t.Fatal(err)
	}
	v, rerr := s.Methods[MethodAgentOpenRouterModels](context.Background(), json.RawMessage(`{"dataPolicy":"zdr"}`))
	if rerr != nil {
		t.Fatal(rerr)
	}
	res := v.(ModelsResult)
	if !res.Available || res.Skipped != 1 || len(res.Models) != 1 || res.Models[0].Label != "B (a/b:free) · free" {
		t.Fatalf("%+v", res)
	}
	if !strings.HasSuffix(tr.reqs[0].URL, "&zdr=true") {
		t.Fatalf("url %s", tr.reqs[0].URL)
	}
	v, _ = s.Methods[MethodAgentOpenRouterModels](context.Background(), json.RawMessage(`{"endpoint":"https://proxy.example/llm"}`))
	if v.(ModelsResult).Available || len(tr.reqs) != 1 {
		t.Fatalf("custom endpoint without a models URL: %+v", v)
	}
}

// TestAgentOpenRouterKeySupplier: OpenRouterOptions.APIKey is read at each run (never from
// params), sent as the Authorization header of chat requests only, scrubbed from provider
// text, and a blank key fails the run with OPENROUTER_CONFIGURATION_ERROR before any request.
func TestAgentOpenRouterKeySupplier(t *testing.T) {
	key := ""
	tr := &replay{bodies: []string{orText("echo sk-live-123 back"), `{"data":[]}`}}
	b := WithOpenRouter(Builder(Ports{}), OpenRouterOptions{Transport: tr, APIKey: func() string { return key }})
	s, err := b(context.Background(), rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
	if err != nil {
		t.Fatal(err)
	}
	v, rerr := s.Methods[MethodAgentOpenRouter](context.Background(), json.RawMessage(`{"prompt":"hi"}`))
	if rerr != nil {
		t.Fatal(rerr)
	}
	rep := v.(openrouter.Report)
	if !rep.Failed || rep.ErrorCode != mcp.CodeOpenRouterConfigurationError || len(tr.reqs) != 0 || rep.Model != openrouter.DefaultModel {
		t.Fatalf("no key: report %+v, %d requests", rep, len(tr.reqs))
	}
	key = "sk-live-123"
	v, _ = s.Methods[MethodAgentOpenRouter](context.Background(), json.RawMessage(`{"prompt":"hi"}`))
	rep = v.(openrouter.Report)
	if rep.Failed || len(tr.reqs) != 1 || tr.reqs[0].Header["Authorization"] != "Bearer sk-live-123" {
		t.Fatalf("report %+v, requests %+v", rep, tr.reqs)
	}
	if raw, _ := json.Marshal(rep); strings.Contains(string(raw), "sk-live-123") {
		t.Fatalf("the report carries the key: %s", raw)
	}
	if _, rerr := s.Methods[MethodAgentOpenRouterModels](context.Background(), nil); rerr != nil {
		t.Fatal(rerr)
	}
	if len(tr.reqs) != 2 || tr.reqs[1].Header["Authorization"] != "" {
		t.Fatalf("the models request carries a key: %+v", tr.reqs[1].Header)
	}
}

// TestAgentOpenRouterEndpointAndKeyChecks: the endpoint is parsed by
// openrouter.NormalizeEndpoint (an upper-case scheme works and is normalized); an endpoint
// with credentials, a non-http(s) endpoint or a key that cannot travel in a header fails the
// run with OPENROUTER_CONFIGURATION_ERROR before any request (not retried), and the report
// never repeats the credentials.
func TestAgentOpenRouterEndpointAndKeyChecks(t *testing.T) {
	key := "sk-live-123"
	tr := &replay{bodies: []string{orText("ok")}}
	b := WithOpenRouter(Builder(Ports{}), OpenRouterOptions{Transport: tr, APIKey: func() string { return key }})
	s, err := b(context.Background(), rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(params string) openrouter.Report {
		t.Helper()
		v, rerr := s.Methods[MethodAgentOpenRouter](context.Background(), json.RawMessage(params))
		if rerr != nil {
			t.Fatalf("%s: %+v", params, rerr)
		}
		return v.(openrouter.Report)
	}
	rep := run(`{"prompt":"hi","endpoint":"HTTP://127.0.0.1:18770/api/v1/chat/completions"}`)
	if rep.Failed || len(tr.reqs) != 1 || tr.reqs[0].URL != "http://127.0.0.1:18770/api/v1/chat/completions" {
		t.Fatalf("upper-case scheme: report %+v, requests %+v", rep, tr.reqs)
	}
	for _, params := range []string{
		`{"prompt":"hi","endpoint":"http://user:pw@127.0.0.1:18770/api/v1/chat/completions"}`,
		`{"prompt":"hi","endpoint":"ftp://127.0.0.1/x"}`,
	} {
		rep := run(params)
		raw, _ := json.Marshal(rep)
		if !rep.Failed || rep.ErrorCode != mcp.CodeOpenRouterConfigurationError || rep.Retryable == nil || *rep.Retryable || len(tr.reqs) != 1 {
			t.Errorf("%s: report %s, %d requests", params, raw, len(tr.reqs))
		}
		if strings.Contains(string(raw), "user:pw") || strings.Contains(string(raw), ":pw@") {
			t.Errorf("%s: the report repeats the credentials: %s", params, raw)
		}
	}
	key = "sk-ключ-🔑-X"
	rep = run(`{"prompt":"hi"}`)
	raw, _ := json.Marshal(rep)
	if !rep.Failed || rep.ErrorCode != mcp.CodeOpenRouterConfigurationError || len(tr.reqs) != 1 || strings.Contains(string(raw), "ключ") {
		t.Errorf("non-ASCII key: report %s, %d requests", raw, len(tr.reqs))
	}
	if _, rerr := s.Methods[MethodAgentOpenRouterModels](context.Background(), json.RawMessage(`{"endpoint":"http://u:p@h/api/v1/chat/completions"}`)); rerr == nil {
		t.Error("models: an endpoint with credentials is accepted")
	}
}

// TestAgentOpenRouterRefusedCallIsObserved: a model call with arguments that are not a JSON
// object reaches OpenRouterOptions.Observer as a started and a failed event (provider call
// id, session, source model, OPENROUTER_INVALID_TOOL_CALL), so the chat and trace show it.
func TestAgentOpenRouterRefusedCallIsObserved(t *testing.T) {
	tr := &replay{bodies: []string{orCall("bad-7", "workspace_readFile", `{"path":`), orText("sorry")}}
	var mu sync.Mutex
	var events []audit.ToolCallEvent
	b := WithOpenRouter(Builder(Ports{}), OpenRouterOptions{Transport: tr, Observer: func(e audit.ToolCallEvent) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}})
	s, err := b(context.Background(), rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
	if err != nil {
		t.Fatal(err)
	}
	v, rerr := s.Methods[MethodAgentOpenRouter](context.Background(), json.RawMessage(`{"prompt":"read","sessionId":"s-9"}`))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if rep := v.(openrouter.Report); rep.Failed || len(rep.Calls) != 1 {
		t.Fatalf("report %+v", rep)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || events[0].Type != audit.EventStarted || events[1].Type != audit.EventFailed {
		t.Fatalf("events %+v", events)
	}
	f := events[1]
	if f.Name != ToolWorkspaceReadFile || f.ToolCallID != "bad-7" || f.SessionID != "s-9" || f.Source != string(mcp.SourceModel) || f.Mode != string(mcp.ModeAgent) ||
		f.Result == nil || f.Result.Error == nil || f.Result.Error.Code != mcp.CodeOpenRouterInvalidToolCall || f.Provenance.State != audit.StateFailed {
		t.Fatalf("failed event %+v (result %+v)", f, f.Result)
	}
}

// TestAgentOpenRouterStreamAndBudgetParams: stream asks for a streamed answer whose text
// reaches OnText; budget stops the run before its second request; bad values are refused.
func TestAgentOpenRouterStreamAndBudgetParams(t *testing.T) {
	sse := "data: " + `{"choices":[{"index":0,"delta":{"content":"Hi "}}]}` + "\n\n" +
		"data: " + `{"choices":[{"index":0,"delta":{"content":"there."},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2}}` + "\n\ndata: [DONE]\n\n"
	withUsage := strings.Replace(orCall("c1", "workspace_getStatus", ""), `"choices"`, `"usage":{"prompt_tokens":90,"completion_tokens":10},"choices"`, 1)
	tr := &replay{bodies: []string{sse, withUsage}}
	var texts []string
	b := WithOpenRouter(Builder(Ports{}), OpenRouterOptions{Transport: tr, OnText: func(d openrouter.TextDelta) { texts = append(texts, d.Text) }})
	s, err := b(context.Background(), rpcsession.Config{})
	if err != nil {
		t.Fatal(err)
	}
	m := s.Methods[MethodAgentOpenRouter]
	v, rerr := m(context.Background(), json.RawMessage(`{"prompt":"hi","stream":true}`))
	if rerr != nil {
		t.Fatal(rerr)
	}
	rep := v.(openrouter.Report)
	if rep.Failed || rep.Summary != "Hi there." || strings.Join(texts, "|") != "Hi |there." || rep.Usage == nil || rep.Usage.TotalTokens != 11 {
		t.Fatalf("report %+v, texts %q", rep, texts)
	}
	if !strings.Contains(string(tr.reqs[0].Body), `"stream":true`) {
		t.Fatalf("request %s", tr.reqs[0].Body)
	}
	v, _ = m(context.Background(), json.RawMessage(`{"prompt":"status","budget":{"tokens":100}}`))
	if rep := v.(openrouter.Report); rep.ErrorCode != mcp.CodeOpenRouterBudgetExceeded || len(tr.reqs) != 2 || strings.Contains(string(tr.reqs[1].Body), `"stream"`) {
		t.Fatalf("report %+v after %d requests", rep, len(tr.reqs))
	}
	for _, bad := range []string{`{"prompt":"x","stream":"yes"}`, `{"prompt":"x","budget":{"tokens":-1}}`, `{"prompt":"x","budget":{"tokens":1.5}}`,
		`{"prompt":"x","budget":{"cost":"1"}}`, `{"prompt":"x","budget":{"dollars":1}}`, `{"prompt":"x","budget":7}`} {
		if _, rerr := m(context.Background(), json.RawMessage(bad)); rerr == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}

// TestAgentOpenRouterRequestTimeoutParam: requestTimeoutMs sets the wait of each request (the
// plain request's deadline here); out-of-range or fractional values are -32602 (issue 16).
func TestAgentOpenRouterRequestTimeoutParam(t *testing.T) {
	var left time.Duration
	tr := openrouter.TransportFunc(func(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
		dl, _ := ctx.Deadline()
		left = time.Until(dl)
		return openrouter.Response{Status: 200, Body: []byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)}, nil
	})
	s, err := WithOpenRouter(Builder(Ports{}), OpenRouterOptions{Transport: tr})(context.Background(), rpcsession.Config{})
	if err != nil {
		t.Fatal(err)
	}
	m := s.Methods[MethodAgentOpenRouter]
	if v, rerr := m(context.Background(), json.RawMessage(`{"prompt":"hi","requestTimeoutMs":300000}`)); rerr != nil || v.(openrouter.Report).Failed || left < 290*time.Second || left > 300*time.Second {
		t.Fatalf("answer %+v %v, deadline in %v", v, rerr, left)
	}
	for _, bad := range []string{`{"prompt":"x","requestTimeoutMs":4999}`, `{"prompt":"x","requestTimeoutMs":600001}`, `{"prompt":"x","requestTimeoutMs":0}`,
		`{"prompt":"x","requestTimeoutMs":1e3}`, `{"prompt":"x","requestTimeoutMs":"30000"}`, `{"prompt":"x","requestTimeoutMs":20000.5}`} {
		if _, rerr := m(context.Background(), json.RawMessage(bad)); rerr == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}
