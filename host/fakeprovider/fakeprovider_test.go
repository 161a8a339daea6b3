package fakeprovider_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/host/fakeprovider"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
)

const key = "sk-or-v1-fake-0123456789abcdef"

// harness is the real studio catalog over the seed workspace, driven by the real loop over
// HTTP against a fake provider.
type harness struct {
	t      *testing.T
	srv    *fakeprovider.Server
	reg    *registry.Registry
	opts   openrouter.Options
	sleeps []time.Duration
}

func newHarness(t *testing.T, approve bool, steps ...fakeprovider.Step) *harness {
	t.Helper()
	cfg := rpcsession.Config{}
	if approve {
		cfg.Approval = rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}
	}
	s, err := studio.Builder(studio.Ports{})(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, reg: s.Registry}
	h.srv = fakeprovider.New(t, fakeprovider.Options{WantKey: key}, steps...)
	h.opts = openrouter.Options{
		Config:    openrouter.Config{Endpoint: h.srv.ChatURL, Model: "openai/gpt-4o-mini", Referer: "http://127.0.0.1:8080"},
		Transport: fakeprovider.HTTPTransport{APIKey: key, AllowedOrigins: []string{h.srv.URL}},
		ListTools: func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
			res, terr := s.Registry.ListTools(ctx, mcp.ListToolsParams{Cursor: cursor})
			if terr != nil {
				return nil, terr
			}
			return res, nil
		},
		Exec:      s.Registry.Call,
		SessionID: "sess-1",
		Sleep: func(ctx context.Context, d time.Duration) error {
			h.sleeps = append(h.sleeps, d)
			return ctx.Err()
		},
	}
	return h
}

func (h *harness) run(prompt string) openrouter.Report {
	h.t.Helper()
	rep := openrouter.Run(context.Background(), prompt, h.opts)
	b, _ := json.Marshal(rep)
	if strings.Contains(string(b), key) {
		h.t.Fatalf("the report contains the API key: %s", b)
	}
	if n := h.srv.Remaining(); n != 0 && !rep.Failed && !rep.Cancelled {
		h.t.Fatalf("%d scripted steps unused", n)
	}
	return rep
}

// toolResult decodes the role "tool" message for id in request i.
func (h *harness) toolResult(i int, id string) map[string]any {
	h.t.Helper()
	reqs := h.srv.Requests()
	if i >= len(reqs) {
		h.t.Fatalf("only %d requests", len(reqs))
	}
	for _, m := range reqs[i].Chat["messages"].([]any) {
		msg := m.(map[string]any)
		if msg["role"] == "tool" && msg["tool_call_id"] == id {
			var v map[string]any
			if err := json.Unmarshal([]byte(msg["content"].(string)), &v); err != nil {
				h.t.Fatal(err)
			}
			return v
		}
	}
	h.t.Fatalf("request %d has no tool result for %s", i, id)
	return nil
}

func (h *harness) file(path string) string {
	h.t.Helper()
	res := h.reg.Call(context.Background(), mcp.CallToolParams{Name: studio.ToolWorkspaceReadFile,
		Arguments: json.RawMessage(`{"path":"` + path + `"}`), Meta: &mcp.CallMeta{Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
	var v struct {
		Source string `json:"source"`
	}
	if res.IsError || json.Unmarshal(res.StructuredContent, &v) != nil {
		h.t.Fatalf("readFile %s: %+v", path, res.Error)
	}
	return v.Source
}

func file(name string) fakeprovider.Step { return fakeprovider.Step{BodyFile: name} }

func status(code int, name string) fakeprovider.Step {
	return fakeprovider.Step{Status: code, BodyFile: name}
}

func wantCode(t *testing.T, rep openrouter.Report, code mcp.Code, retryable bool) {
	t.Helper()
	if !rep.Failed || rep.Error == nil || rep.Error.Code != code || rep.Error.Retryable != retryable {
		t.Fatalf("want %s (retryable %v), got %+v / %+v", code, retryable, rep.Report, rep.Error)
	}
}

func TestHTTP503TwiceThenSuccess(t *testing.T) {
	h := newHarness(t, false, status(503, "error_503.json"), status(503, "proxy_502.html"), file("chat_final_text.json"))
	var notices []string
	h.opts.OnNotice = func(n openrouter.Notice) { notices = append(notices, n.Text) }
	rep := h.run("hello")
	if rep.Failed || !strings.HasPrefix(rep.Summary, "I switched the preview theme") {
		t.Fatalf("report %+v", rep)
	}
	if strings.Join(notices, "|") != "retrying provider request 1/2|retrying provider request 2/2" {
		t.Fatalf("notices %v", notices)
	}
	if len(h.sleeps) != 2 || h.sleeps[0] != 350*time.Millisecond || h.sleeps[1] != 700*time.Millisecond {
		t.Fatalf("backoff %v", h.sleeps)
	}
	if len(h.srv.Requests()) != 3 {
		t.Fatalf("%d requests", len(h.srv.Requests()))
	}
}

func TestHTTP401NoRetry(t *testing.T) {
	h := newHarness(t, false, status(401, "error_401.json"))
	rep := h.run("hello")
	wantCode(t, rep, mcp.CodeOpenRouterAuthenticationFailed, false)
	if len(h.srv.Requests()) != 1 || len(h.sleeps) != 0 || rep.Error.Message != "OpenRouter rejected the API key (HTTP 401): No auth credentials found" {
		t.Fatalf("requests %d, sleeps %v, message %q", len(h.srv.Requests()), h.sleeps, rep.Error.Message)
	}
}

func TestHTTP429RetryAfter(t *testing.T) {
	h := newHarness(t, false,
		fakeprovider.Step{Status: 429, Header: map[string]string{"Retry-After": "1"}, BodyFile: "error_429.json"},
		file("chat_final_text.json"))
	rep := h.run("hello")
	if rep.Failed || len(h.sleeps) != 1 || h.sleeps[0] != time.Second {
		t.Fatalf("report %+v, sleeps %v", rep, h.sleeps)
	}
	h = newHarness(t, false, status(429, "error_429.json"), status(429, "error_429.json"), status(429, "error_429.json"))
	wantCode(t, h.run("hello"), mcp.CodeOpenRouterRateLimited, true)
}

func TestTwoTurnToolLoopEmerald(t *testing.T) {
	h := newHarness(t, true, file("chat_get_status.json"), file("chat_set_theme_emerald.json"), file("chat_final_text.json"))
	rep := h.run("Make it emerald")
	if rep.Failed || rep.Turns != 3 || len(rep.Calls) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Calls[0].Request.Name != studio.ToolWorkspaceGetStatus || rep.Calls[1].Request.Name != studio.ToolPreviewSetTheme {
		t.Fatalf("calls %s, %s", rep.Calls[0].Request.Name, rep.Calls[1].Request.Name)
	}
	if m := rep.Calls[1].Request.Meta; m.ToolCallID != "call_Hk8qTheme02" || m.Source != mcp.SourceModel || m.SessionID != "sess-1" {
		t.Fatalf("meta %+v", m)
	}
	css := h.file("styles.css")
	if !strings.Contains(css, "--accent: #10b981") || !strings.Contains(css, "--accent-soft: #e7fbf3") {
		t.Fatalf("styles.css:\n%s", css)
	}
	if r := h.toolResult(2, "call_Hk8qTheme02"); r["status"] == "error" {
		t.Fatalf("setTheme result %v", r)
	}
	req := h.srv.Requests()[0]
	if req.Header.Get("HTTP-Referer") != "http://127.0.0.1:8080" || req.Header.Get("X-Title") != openrouter.DefaultTitle || req.Path != "/api/v1/chat/completions" {
		t.Fatalf("headers %v path %s", req.Header, req.Path)
	}
}

func TestEmptyArgumentsForRequiredFields(t *testing.T) {
	h := newHarness(t, true, file("chat_empty_args_required.json"), file("chat_final_text.json"))
	rep := h.run("read something")
	if rep.Failed || len(rep.Calls) != 1 || rep.Calls[0].Result.Error == nil || rep.Calls[0].Result.Error.Code != mcp.CodeToolValidationFailed {
		t.Fatalf("report %+v", rep)
	}
	if r := h.toolResult(1, "call_emptyargs01"); r["code"] != string(mcp.CodeToolValidationFailed) {
		t.Fatalf("model was told %v", r)
	}
}

func TestNonJSON200(t *testing.T) {
	h := newHarness(t, true, file("chat_not_json.txt"))
	wantCode(t, h.run("hello"), mcp.CodeOpenRouterInvalidResponse, false)
}

func TestProxyHTMLErrorPage(t *testing.T) {
	h := newHarness(t, true, status(502, "proxy_502.html"), status(502, "proxy_502.html"), status(502, "proxy_502.html"))
	rep := h.run("hello")
	wantCode(t, rep, mcp.CodeOpenRouterProviderError, true)
	_, excerpt, _ := strings.Cut(rep.Error.Message, ": ")
	if len([]rune(excerpt)) > openrouter.ExcerptChars || strings.ContainsAny(excerpt, "\n\t") || !strings.HasPrefix(excerpt, "<html> <head><title>502 Bad Gateway</title></head> <body>") {
		t.Fatalf("excerpt %q", excerpt)
	}
}

func TestTruncatedArgumentsLength(t *testing.T) {
	h := newHarness(t, true, file("chat_truncated_length.json"))
	before := h.file("index.html")
	rep := h.run("rewrite the page")
	wantCode(t, rep, mcp.CodeOpenRouterInvalidToolCall, true)
	if len(rep.Calls) != 1 || rep.Calls[0].Result.Error == nil || len(h.srv.ChatRequests()) != 1 {
		t.Fatalf("report %+v", rep)
	}
	if d := rep.Calls[0].Result.Error.Details.(map[string]any); d["reason"] != "truncated" {
		t.Fatalf("call result %v", d)
	}
	if h.file("index.html") != before {
		t.Fatal("a truncated call was executed")
	}
}

func TestErrorObjectInside200(t *testing.T) {
	h := newHarness(t, true, file("chat_error_in_200.json"), file("chat_error_in_200.json"), file("chat_error_in_200.json"))
	rep := h.run("hello")
	wantCode(t, rep, mcp.CodeOpenRouterProviderError, true)
	if !strings.Contains(rep.Error.Message, "Provider returned error") || len(h.srv.Requests()) != 3 {
		t.Fatalf("message %q, %d requests", rep.Error.Message, len(h.srv.Requests()))
	}
	h = newHarness(t, true, file("chat_error_in_200_string_code.json"), file("chat_final_text.json"))
	if rep := h.run("hello"); rep.Failed || len(rep.Notices) != 1 {
		t.Fatalf("string code + http_status 429 not retried: %+v", rep)
	}
}

func TestDuplicateToolCallIDs(t *testing.T) {
	h := newHarness(t, true, file("chat_duplicate_ids.json"))
	rep := h.run("Make it emerald")
	wantCode(t, rep, mcp.CodeOpenRouterInvalidResponse, false)
	if len(rep.Calls) != 0 || strings.Contains(h.file("styles.css"), "#10b981") {
		t.Fatal("a tool ran before the response was validated")
	}
}

func TestObjectArgumentsWithFinishStop(t *testing.T) {
	h := newHarness(t, true, file("chat_object_args_stop.json"), file("chat_final_text.json"))
	rep := h.run("read the page")
	if rep.Failed || len(rep.Calls) != 1 || rep.Calls[0].Result.IsError {
		t.Fatalf("report %+v", rep)
	}
	if r := h.toolResult(1, "tool_0_workspace_readFile"); r["path"] != "index.html" {
		t.Fatalf("result %v", r)
	}
	msgs := h.srv.Requests()[1].Chat["messages"].([]any)
	if a := msgs[2].(map[string]any); a["content"] != "Let me read the page first." {
		t.Fatalf("assistant message %v", a)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	h := newHarness(t, true, status(503, "error_503.json"))
	ctx, cancel := context.WithCancel(context.Background())
	h.opts.Sleep = nil // the real, abortable timer
	h.opts.OnNotice = func(openrouter.Notice) { cancel() }
	rep := openrouter.Run(ctx, "hello", h.opts)
	if !rep.Cancelled || rep.Failed {
		t.Fatalf("report %+v", rep)
	}
	if len(h.srv.Requests()) != 1 {
		t.Fatalf("%d requests after cancel", len(h.srv.Requests()))
	}
}

func TestModelCatalog(t *testing.T) {
	srv := fakeprovider.New(t, fakeprovider.Options{}, fakeprovider.Step{BodyFile: "models.json", Check: func(t testing.TB, r fakeprovider.Received) {
		if r.Method != "GET" || r.Path != "/api/v1/models" || r.Query != "output_modalities=text&supported_parameters=tools&zdr=true" {
			t.Errorf("models request %s %s?%s", r.Method, r.Path, r.Query)
		}
	}})
	cat, ok, terr := openrouter.FetchModels(context.Background(), fakeprovider.HTTPTransport{}, openrouter.Config{Endpoint: srv.ChatURL, DataPolicy: openrouter.DataZDR})
	if !ok || terr != nil {
		t.Fatalf("%v %v", ok, terr)
	}
	if cat.Skipped != 4 || len(cat.Models) != 4 {
		t.Fatalf("catalog %+v", cat)
	}
	free := cat.ToolModels(true)
	if len(free) != 2 || free[0].Label != "Meta: Llama 3.3 70B Instruct (free) (meta-llama/llama-3.3-70b-instruct:free) · free" || free[1].ID != "qwen/qwen3-coder" {
		t.Fatalf("free tool models %+v", free)
	}
}

func TestTransportRefusesOtherOrigins(t *testing.T) {
	h := newHarness(t, true)
	h.opts.Endpoint = "http://203.0.113.9/api/v1/chat/completions"
	rep := h.run("hello")
	wantCode(t, rep, mcp.CodeOpenRouterNetworkError, true)
	if len(h.srv.Requests()) != 0 || !strings.Contains(rep.Error.Message, "is not the configured endpoint") {
		t.Fatalf("message %q", rep.Error.Message)
	}
}

// TestMessagesNameTheServerUsed (docs/design.md §5.16): against an OpenAI-compatible server
// that is not OpenRouter the messages name "the endpoint" (codes stay OPENROUTER_*); an error
// object inside an HTTP 200 is not called an HTTP status; a 400 saying the server cannot
// stream tells how to turn streaming off.
func TestMessagesNameTheServerUsed(t *testing.T) {
	h := newHarness(t, false, status(500, "error_503.json"), status(500, "error_503.json"), status(500, "error_503.json"))
	h.opts.OmitAttribution = true
	rep := h.run("hello")
	wantCode(t, rep, mcp.CodeOpenRouterProviderError, true)
	if strings.Contains(rep.Error.Message, "OpenRouter") || !strings.HasPrefix(rep.Error.Message, "Provider error from the endpoint (HTTP 500)") {
		t.Fatalf("message %q", rep.Error.Message)
	}

	h = newHarness(t, true, file("chat_truncated_length.json"))
	h.opts.OmitAttribution = true
	rep = h.run("rewrite the page")
	if m := rep.Calls[0].Result.Error.Message; strings.Contains(m, "OpenRouter") || !strings.HasPrefix(m, "The model's tool call is invalid") {
		t.Fatalf("call result %q", m)
	}

	h = newHarness(t, false, file("chat_error_in_200.json"), file("chat_error_in_200.json"), file("chat_error_in_200.json"))
	h.opts.OmitAttribution = true
	rep = h.run("hello")
	wantCode(t, rep, mcp.CodeOpenRouterProviderError, true)
	if strings.Contains(rep.Error.Message, "(HTTP 502)") || !strings.Contains(rep.Error.Message, "(error code 502 in an HTTP 200 answer)") {
		t.Fatalf("message %q", rep.Error.Message)
	}

	h = newHarness(t, false, fakeprovider.Step{Status: 400, Body: []byte(`{"error":{"message":"streaming is not supported by this server"}}`)})
	h.opts.OmitAttribution = true
	rep = h.run("hello")
	wantCode(t, rep, mcp.CodeOpenRouterConfigurationError, false)
	if !strings.Contains(rep.Error.Message, `turn "Stream replies" off in the provider settings (CLI: --stream=false)`) || strings.Contains(rep.Error.Message, "OpenRouter") {
		t.Fatalf("message %q", rep.Error.Message)
	}
	if d := rep.Error.Details.(map[string]any); d["reason"] != "stream_unsupported" {
		t.Fatalf("details %v", d)
	}
}
