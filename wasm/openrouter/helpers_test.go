package openrouter_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
)

// step is one scripted transport answer: a response, or err, or hang (block until the
// attempt's context ends and return its error).
type step struct {
	status int
	header map[string]string
	body   string
	err    error
	hang   bool
}

// script is an in-memory Transport that replays steps and records the requests it got.
type script struct {
	mu    sync.Mutex
	steps []step
	reqs  []openrouter.Request
	t     *testing.T
}

func (s *script) Do(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	if len(s.steps) == 0 {
		s.mu.Unlock()
		s.t.Errorf("unexpected request %d", len(s.reqs))
		return openrouter.Response{}, errors.New("script exhausted")
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	s.mu.Unlock()
	if st.hang {
		<-ctx.Done()
		return openrouter.Response{}, ctx.Err()
	}
	if st.err != nil {
		return openrouter.Response{}, st.err
	}
	return openrouter.Response{Status: st.status, Header: st.header, Body: []byte(st.body)}, nil
}

func (s *script) requests() []openrouter.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]openrouter.Request(nil), s.reqs...)
}

// body decodes request i's JSON body.
func (s *script) body(t *testing.T, i int) map[string]any {
	t.Helper()
	reqs := s.requests()
	if i >= len(reqs) {
		t.Fatalf("only %d requests", len(reqs))
	}
	var m map[string]any
	if err := json.Unmarshal(reqs[i].Body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// messages returns request i's messages.
func (s *script) messages(t *testing.T, i int) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, m := range s.body(t, i)["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// toolMessage returns the decoded content of the tool message answering id in request i.
func (s *script) toolMessage(t *testing.T, i int, id string) map[string]any {
	t.Helper()
	for _, m := range s.messages(t, i) {
		if m["role"] == "tool" && m["tool_call_id"] == id {
			var v map[string]any
			if err := json.Unmarshal([]byte(m["content"].(string)), &v); err != nil {
				t.Fatalf("tool message %s: %v", id, err)
			}
			return v
		}
	}
	t.Fatalf("request %d has no tool message for %s", i, id)
	return nil
}

func ok200(body string) step { return step{status: 200, body: body} }

// textAnswer is a final assistant answer.
func textAnswer(text string) string {
	b, _ := json.Marshal(text)
	return `{"id":"gen-1","object":"chat.completion","created":1764460800,"model":"openai/gpt-4o-mini","choices":[{"index":0,"finish_reason":"stop","native_finish_reason":"stop","message":{"role":"assistant","content":` + string(b) + `}}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`
}

// tc is one tool call of a constructed answer; args is the raw JSON of "arguments".
type tc struct{ id, name, args string }

// callsAnswer is an assistant answer with tool calls; content is the raw JSON of content
// ("" leaves it out).
func callsAnswer(finish, content string, calls ...tc) string {
	var parts []string
	for _, c := range calls {
		parts = append(parts, `{"id":"`+c.id+`","type":"function","function":{"name":"`+c.name+`","arguments":`+c.args+`}}`)
	}
	msg := `"role":"assistant",`
	if content != "" {
		msg += `"content":` + content + `,`
	}
	return `{"id":"gen-2","object":"chat.completion","created":1764460800,"model":"openai/gpt-4o-mini","choices":[{"index":0,"finish_reason":"` + finish + `","message":{` + msg + `"tool_calls":[` + strings.Join(parts, ",") + `]}}]}`
}

func str(s string) string { b, _ := json.Marshal(s); return string(b) }

// newRegistryF is newRegistry for fuzz targets: no approver, so agent-mode mutations are
// refused and the seed workspace stays small across iterations.
func newRegistryF(f *testing.F) *registry.Registry {
	s, err := studio.Builder(studio.Ports{})(context.Background(), rpcsession.Config{})
	if err != nil {
		f.Fatal(err)
	}
	return s.Registry
}

// newRegistry builds the real studio catalog over the seed workspace; approveAll approves
// every agent-mode call (destructive ones included).
func newRegistry(t *testing.T, approveAll bool) *registry.Registry {
	t.Helper()
	cfg := rpcsession.Config{}
	if approveAll {
		cfg.Approval = rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}
	}
	s, err := studio.Builder(studio.Ports{})(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s.Registry
}

func options(r *registry.Registry, tr openrouter.Transport) openrouter.Options {
	return openrouter.Options{
		Config:    openrouter.Config{Endpoint: "https://openrouter.test/api/v1/chat/completions", Model: "openai/gpt-4o-mini"},
		Transport: tr,
		ListTools: func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
			res, terr := r.ListTools(ctx, mcp.ListToolsParams{Cursor: cursor})
			if terr != nil {
				return nil, terr
			}
			return res, nil
		},
		Exec:      r.Call,
		SessionID: "run-1",
	}
}

// readFile reads a workspace file through the registry (direct mode).
func readFile(t *testing.T, r *registry.Registry, path string) string {
	t.Helper()
	res := r.Call(context.Background(), mcp.CallToolParams{Name: studio.ToolWorkspaceReadFile,
		Arguments: json.RawMessage(`{"path":` + str(path) + `}`), Meta: &mcp.CallMeta{Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
	if res.IsError {
		t.Fatalf("readFile %s: %+v", path, res.Error)
	}
	var v struct {
		Source string `json:"source"`
	}
	_ = json.Unmarshal(res.StructuredContent, &v)
	return v.Source
}

func wantFailure(t *testing.T, rep openrouter.Report, code mcp.Code, retryable bool) {
	t.Helper()
	if !rep.Failed || rep.Error == nil || rep.ErrorCode != code || rep.Error.Code != code {
		t.Fatalf("want failure %s, got %+v (error %+v)", code, rep.Report, rep.Error)
	}
	if rep.Retryable == nil || *rep.Retryable != retryable || rep.Error.Retryable != retryable {
		t.Fatalf("%s: retryable want %v, got %+v", code, retryable, rep.Error)
	}
	if !strings.HasPrefix(rep.Summary, "["+string(code)+"] ") {
		t.Fatalf("summary %q", rep.Summary)
	}
}
