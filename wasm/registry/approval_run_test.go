package registry

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// TestApproveRunScopesToOneRun: "Approve all for this run" allows the pending call of the
// run and its later calls without a card, while another run (earlier or later) still asks.
func TestApproveRunScopesToOneRun(t *testing.T) {
	q := NewApprovalQueue(nil)
	r := New(Options{Policy: DefaultPolicy(q)})
	r.MustRegister(echoTool("t.write", mcp.ToolAnnotations{}))
	runA := WithRun(context.Background(), "studio")
	runB := WithRun(context.Background(), "studio")
	if RunFrom(runA).ID() == RunFrom(runB).ID() || !strings.HasPrefix(RunFrom(runA).ID(), "studio#") {
		t.Fatalf("run ids %q %q", RunFrom(runA).ID(), RunFrom(runB).ID())
	}
	results := make(chan *mcp.CallToolResult, 4)
	go func() { results <- r.Call(runA, call("t.write", `{"path":"a1"}`, &mcp.CallMeta{ToolCallID: "a1"})) }()
	go func() { results <- r.Call(runB, call("t.write", `{"path":"b1"}`, &mcp.CallMeta{ToolCallID: "b1"})) }()
	waitFor(t, func() bool { return len(q.Snapshot()) == 2 })
	for _, s := range q.Snapshot() {
		if s.RunID == "" || string(s.Arguments) != `{"path":"`+s.ID+`"}` {
			t.Fatalf("snapshot %+v: want a run id and the arguments", s)
		}
	}
	raw, _ := json.Marshal(q.Snapshot())
	if strings.Contains(string(raw), `"arguments"`) || !strings.Contains(string(raw), `"runId"`) {
		t.Fatalf("serialized snapshot must carry runId and never the arguments: %s", raw)
	}
	n, err := q.ApproveRun("a1")
	if err != nil || n != 1 {
		t.Fatalf("ApproveRun = %d, %v", n, err)
	}
	if res := <-results; res.IsError || res.ToolCallID != "a1" {
		t.Fatalf("approved call: %+v", res)
	}
	// The rest of run A needs no card.
	if res := r.Call(runA, call("t.write", `{"path":"a2"}`, &mcp.CallMeta{ToolCallID: "a2"})); res.IsError {
		t.Fatalf("later call of the approved run: %+v", res.Error)
	}
	// Run B still waits.
	if s := q.Snapshot(); len(s) != 1 || s[0].ID != "b1" {
		t.Fatalf("run B's approval must stay pending: %+v", s)
	}
	if err := q.Resolve("b1", false); err != nil {
		t.Fatal(err)
	}
	if res := <-results; res.Error == nil || res.Error.Code != mcp.CodeToolPolicyDenied {
		t.Fatalf("denied call of run B: %+v", res)
	}
	// A later run asks again.
	runC := WithRun(context.Background(), "studio")
	go func() { results <- r.Call(runC, call("t.write", `{"path":"c1"}`, &mcp.CallMeta{ToolCallID: "c1"})) }()
	waitFor(t, func() bool { return len(q.Snapshot()) == 1 })
	if _, err := q.ApproveRun("nope"); !errors.Is(err, ErrApprovalNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	q.DenyAll()
	<-results
}

// TestApproveRunNeedsARun: an approval made outside WithRun cannot be approved as a run.
func TestApproveRunNeedsARun(t *testing.T) {
	q := NewApprovalQueue(nil)
	r := New(Options{Policy: DefaultPolicy(q)})
	r.MustRegister(echoTool("t.write", mcp.ToolAnnotations{}))
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		done <- r.Call(context.Background(), call("t.write", `{"path":"x"}`, &mcp.CallMeta{ToolCallID: "x1"}))
	}()
	waitFor(t, func() bool { return len(q.Snapshot()) == 1 })
	if q.Snapshot()[0].RunID != "" {
		t.Fatal("a call outside a run has no run id")
	}
	if n, err := q.ApproveRun("x1"); !errors.Is(err, ErrNoRun) || n != 0 {
		t.Fatalf("ApproveRun outside a run = %d, %v", n, err)
	}
	if len(q.Snapshot()) != 1 {
		t.Fatal("ErrNoRun must approve nothing")
	}
	q.DenyAll()
	<-done
}

// TestApproveRunRace: approvals that arrive while ApproveRun runs are never left pending.
func TestApproveRunRace(t *testing.T) {
	for i := 0; i < 50; i++ {
		q := NewApprovalQueue(nil)
		r := New(Options{Policy: DefaultPolicy(q)})
		r.MustRegister(echoTool("t.write", mcp.ToolAnnotations{}))
		run := WithRun(context.Background(), "r")
		first := make(chan *mcp.CallToolResult, 1)
		go func() { first <- r.Call(run, call("t.write", `{"path":"a"}`, &mcp.CallMeta{ToolCallID: "a"})) }()
		waitFor(t, func() bool { return len(q.Snapshot()) == 1 })
		second := make(chan *mcp.CallToolResult, 1)
		go func() { second <- r.Call(run, call("t.write", `{"path":"b"}`, &mcp.CallMeta{ToolCallID: "b"})) }()
		if _, err := q.ApproveRun("a"); err != nil {
			t.Fatal(err)
		}
		if res := <-first; res.IsError {
			t.Fatal(res.Error)
		}
		if res := <-second; res.IsError {
			t.Fatalf("call racing ApproveRun: %+v", res.Error)
		}
	}
}
