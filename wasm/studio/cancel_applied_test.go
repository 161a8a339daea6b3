package studio

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/trace"
	"github.com/webcoding/studio/wasm/workspace"
)

// blockingPort mounts and then waits in Await until the call's context ends: the preview stays
// "pending acknowledgement" for as long as the test wants. waiting gets one value per Await.
type blockingPort struct{ waiting chan int64 }

func (p *blockingPort) Mount(ctx context.Context, m Mount) error { return nil }
func (p *blockingPort) Await(ctx context.Context, rev int64, timeout time.Duration) (Ack, error) {
	p.waiting <- rev
	<-ctx.Done()
	return Ack{}, ctx.Err()
}
func (p *blockingPort) Runtime() string { return RuntimeSandboxIframe }

// TestCancelDuringAckWaitSaysApplied reproduces the race of an approved preview.setTheme
// cancelled while its preview waits for the acknowledgement (Approve, then Cancel within
// milliseconds): the change landed, so the result must not read as "nothing happened" —
// TOOL_CANCELLED with details {applied: true, revision}, a message that says it was applied,
// and a trace row whose summary says so (SPEC §2.13).
func TestCancelDuringAckWaitSaysApplied(t *testing.T) {
	port := &blockingPort{waiting: make(chan int64, 4)}
	rec := newRecorder()
	p := Ports{Preview: port, Observer: rec.observe}
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
	if err := q.Resolve(q.Snapshot()[0].ID, true); err != nil { // Approve
		t.Fatal(err)
	}
	var rev int64
	select {
	case rev = <-port.waiting: // the mutation applied; the preview is pending acknowledgement
	case <-time.After(10 * time.Second):
		t.Fatal("the approved call never waited for the preview")
	}
	// Cancel (Escape): deny every approval, then cancel the run.
	q.DenyAll()
	h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"run1"}}`))
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not end")
	}

	var failed *audit.ToolCallEvent
	rec.mu.Lock()
	for i := range rec.events {
		if e := rec.events[i]; e.Name == ToolPreviewSetTheme && e.Type != audit.EventStarted {
			failed = &rec.events[i]
		}
	}
	rec.mu.Unlock()
	if failed == nil || failed.Result == nil || !failed.Result.IsError {
		t.Fatalf("setTheme ended %+v", failed)
	}
	e := failed.Result.Error
	d := details(t, e)
	if e.Code != mcp.CodeToolCancelled || d["applied"] != true || d["revision"] != float64(rev) {
		t.Fatalf("cancelled after applying: %s %v %s", e.Code, d, e.Message)
	}
	if !strings.Contains(e.Message, "applied, then cancelled while waiting for the preview") {
		t.Fatalf("the message must say the change was applied: %q", e.Message)
	}
	// The change really landed: the workspace is at that revision with the amber accent.
	st := ok(t, call(t, h.Session().Registry, ToolWorkspaceGetStatus, nil))
	if st["revision"] != float64(rev) {
		t.Fatalf("status %v, want revision %d", st, rev)
	}
	css := ok(t, call(t, h.Session().Registry, ToolWorkspaceReadFile, map[string]any{"path": "styles.css"}))
	if src, _ := css["source"].(string); !strings.Contains(src, workspace.Themes["amber"].Accent) {
		t.Fatalf("styles.css %v", css)
	}
	var row *trace.Row
	for _, r := range rec.tr.Rows(trace.Filter{}) {
		if r.Name == ToolPreviewSetTheme {
			r := r
			row = &r
		}
	}
	if row == nil || row.Status != trace.StatusCancelled || !strings.Contains(row.Summary, "applied, then cancelled while waiting for the preview") {
		t.Fatalf("trace row %+v", row)
	}
}

// TestCancelBeforeApplyStaysPlainCancelled: a call cancelled before its mutation (nothing
// applied) keeps the plain TOOL_CANCELLED without an applied claim.
func TestCancelBeforeApplyStaysPlainCancelled(t *testing.T) {
	port := &blockingPort{waiting: make(chan int64, 4)}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-port.waiting; cancel() }()
	// preview.refresh changes nothing (applied=false) and waits for the ack.
	res := s.Registry.Call(ctx, mcp.CallToolParams{Name: ToolPreviewRefresh, Arguments: []byte(`{}`),
		Meta: &mcp.CallMeta{Mode: mcp.ModeDirect}})
	e := fails(t, res, mcp.CodeToolCancelled)
	if d := details(t, e); d["applied"] == true {
		t.Fatalf("nothing was applied: %v", d)
	}
}
