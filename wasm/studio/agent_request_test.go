package studio

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/trace"
)

// recorder is an Observer that feeds a trace and keeps the events.
type recorder struct {
	mu     sync.Mutex
	events []audit.ToolCallEvent
	tr     *trace.Trace
}

func newRecorder() *recorder { return &recorder{tr: trace.New(trace.Options{})} }

func (r *recorder) observe(e audit.ToolCallEvent) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	r.tr.Observe(e)
}

func agentRows(rows []trace.Row) []trace.Row {
	var out []trace.Row
	for _, r := range rows {
		if r.Kind == trace.KindAgent {
			out = append(out, r)
		}
	}
	return out
}

// TestAgentRequestBracketsARun: one agent.request row brackets the calls of an agent/run,
// every row has its own trace id, and the bracket never carries the prompt.
func TestAgentRequestBracketsARun(t *testing.T) {
	rec := newRecorder()
	p := Ports{Observer: rec.observe}
	s, err := WithAgentRequests(Builder(p), p)(context.Background(), rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
	if err != nil {
		t.Fatal(err)
	}
	runAgent(t, s, `{"prompt":"Make it emerald","sessionId":"s1"}`)
	rows := rec.tr.Rows(trace.Filter{})
	if len(rows) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	ag := rows[0]
	if ag.Kind != trace.KindAgent || ag.Status != trace.StatusCompleted || ag.Summary != "2 tool calls" || ag.SessionID != "s1" || ag.Source != "local" {
		t.Fatalf("agent row %+v", ag)
	}
	seen := map[string]bool{ag.TraceID: true}
	for _, r := range rows[1:] {
		if r.ParentID != ag.TraceID || r.Status != trace.StatusCompleted || seen[r.TraceID] {
			t.Fatalf("call row %+v", r)
		}
		seen[r.TraceID] = true
	}
	if rows[2].Summary != "theme emerald" {
		t.Fatalf("setTheme summary %q", rows[2].Summary)
	}
	for _, e := range rec.events {
		if e.Name == AgentRequestName && strings.Contains(string(e.Request.Arguments), "emerald") {
			t.Fatalf("the bracket carries the prompt: %s", e.Request.Arguments)
		}
	}
}

// TestAgentRequestCancelled: a run whose context is cancelled while its call waits for
// approval ends as a cancelled agent.request row with no completed call.
func TestAgentRequestCancelled(t *testing.T) {
	rec := newRecorder()
	p := Ports{Observer: rec.observe}
	h := rpcsession.New(context.Background(), WithAgentRequests(Builder(p), p))
	if out := h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"session/configure","params":{"approval":{"mode":"queue"}}}`)); !strings.Contains(string(out), "configured") {
		t.Fatal(string(out))
	}
	done := make(chan struct{})
	go func() {
		h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":"run1","method":"agent/run","params":{"prompt":"Make it amber","sessionId":"studio"}}`))
		close(done)
	}()
	q := h.Session().Approvals
	waitUntil(t, func() bool { return len(q.Snapshot()) == 1 })
	// The studio's cancel: deny every approval, then cancel the request.
	q.DenyAll()
	h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"run1"}}`))
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not end")
	}
	ags := agentRows(rec.tr.Rows(trace.Filter{}))
	if len(ags) != 1 {
		t.Fatalf("agent rows %+v", ags)
	}
	for _, r := range rec.tr.Rows(trace.Filter{}) {
		if r.Kind == trace.KindCall && r.Status == trace.StatusCompleted && r.Mode == "agent" && r.Name != ToolWorkspaceGetStatus {
			t.Errorf("a completed mutation in a cancelled run: %+v", r)
		}
	}
	t.Logf("cancelled run row: %s %s", ags[0].Status, ags[0].Summary)
	if st := ags[0].Status; st != trace.StatusCancelled && !(st == trace.StatusFailed && ags[0].ErrorCode == "TOOL_POLICY_DENIED") {
		t.Fatalf("agent row %+v", ags[0])
	}
}

// TestAgentRequestCancelledContext: a context cancelled before the run answers is cancelled.
func TestAgentRequestCancelledContext(t *testing.T) {
	rec := newRecorder()
	p := Ports{Observer: rec.observe}
	s, err := WithAgentRequests(Builder(p), p)(context.Background(), rpcsession.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, rerr := s.Methods[MethodAgentRun](ctx, json.RawMessage(`{"prompt":"Make it amber"}`)); rerr != nil {
		t.Fatal(rerr)
	}
	ags := agentRows(rec.tr.Rows(trace.Filter{}))
	if len(ags) != 1 || ags[0].Status != trace.StatusCancelled || ags[0].Summary != "cancelled" {
		t.Fatalf("agent rows %+v", ags)
	}
}

// TestAgentRequestProviderFailure: an OpenRouter run whose provider fails before any tool
// call is one failed agent.request row with the provider's code and no call rows.
func TestAgentRequestProviderFailure(t *testing.T) {
	rec := newRecorder()
	p := Ports{Observer: rec.observe}
	tr := openrouter.TransportFunc(func(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
		return openrouter.Response{Status: 401, Body: []byte(`{"error":{"message":"No auth credentials found","code":401}}`)}, nil
	})
	b := WithAgentRequests(WithOpenRouter(Builder(p), OpenRouterOptions{Transport: tr,
		Defaults: openrouter.Config{APIKey: "sk-or-v1-planted-secret", Model: "m"}}), p)
	s, err := b(context.Background(), rpcsession.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, rerr := s.Methods[MethodAgentOpenRouter](context.Background(), json.RawMessage(`{"prompt":"Make it emerald"}`)); rerr != nil {
		t.Fatal(rerr)
	}
	rows := rec.tr.Rows(trace.Filter{})
	if len(rows) != 1 || rows[0].Kind != trace.KindAgent || rows[0].Status != trace.StatusFailed ||
		!strings.HasPrefix(rows[0].ErrorCode, "OPENROUTER_") || rows[0].Summary != rows[0].ErrorCode || rows[0].Source != "model" {
		t.Fatalf("rows %+v", rows)
	}
	if exp := string(rec.tr.Export(trace.Filter{}, time.Now())); strings.Contains(exp, "planted-secret") || strings.Contains(rows[0].ResultText, "planted-secret") {
		t.Fatal("the key leaked into the trace")
	}
	// Bad params fail the bracket too (and still answer the JSON-RPC error).
	if _, rerr := s.Methods[MethodAgentOpenRouter](context.Background(), json.RawMessage(`{"prompt":" "}`)); rerr == nil {
		t.Fatal("blank prompt accepted")
	}
	if ags := agentRows(rec.tr.Rows(trace.Filter{})); len(ags) != 2 || ags[1].ErrorCode != "TOOL_VALIDATION_FAILED" {
		t.Fatalf("agent rows %+v", ags)
	}
}

func TestWithAgentRequestsWithoutObserver(t *testing.T) {
	b := Builder(Ports{})
	s, err := WithAgentRequests(b, Ports{})(context.Background(), rpcsession.Config{})
	if err != nil || s.Methods[MethodAgentRun] == nil {
		t.Fatal(err)
	}
}

// TestAgentRequestNotUnderstood (issue 14 item 6): a prompt the local agent does not understand
// is a failed agent.request in the trace with notUnderstood, never a completed one.
func TestAgentRequestNotUnderstood(t *testing.T) {
	res, state := agentResult("agent-request-x", map[string]any{"calls": []any{}, "failed": true, "notUnderstood": true, "summary": "…"}, nil, false)
	if state != audit.StateFailed || !res.IsError || !strings.Contains(string(res.StructuredContent), `"notUnderstood":true`) {
		t.Fatalf("state %s, result %+v %s", state, res.Error, res.StructuredContent)
	}
}
