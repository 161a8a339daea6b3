package studio

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// fakePort answers Await with a scripted outcome for every mount.
type fakePort struct {
	mu      sync.Mutex
	mounts  []Mount
	timeout time.Duration
	answer  func(m Mount) (Ack, error)
}

func (f *fakePort) Mount(ctx context.Context, m Mount) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mounts = append(f.mounts, m)
	return nil
}

func (f *fakePort) Await(ctx context.Context, rev int64, timeout time.Duration) (Ack, error) {
	f.mu.Lock()
	m := f.mounts[len(f.mounts)-1]
	f.timeout = timeout
	f.mu.Unlock()
	return f.answer(m)
}

func (f *fakePort) Runtime() string { return RuntimeSandboxIframe }

func TestPreviewAckTimeoutKeepsAppliedRevision(t *testing.T) {
	port := &fakePort{answer: func(Mount) (Ack, error) { return Ack{}, ErrAckTimeout }}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	e := fails(t, call(t, s.Registry, ToolPreviewSetTheme, map[string]any{"theme": "emerald"}), mcp.CodePreviewAckTimeout)
	d := details(t, e)
	if !e.Retryable || d["revision"].(float64) != 3 || d["timeoutMs"].(float64) != 2500 || d["applied"] != true {
		t.Fatalf("timeout error %+v", e)
	}
	if port.timeout != PreviewAckTimeout {
		t.Fatalf("waited %v", port.timeout)
	}
	st := ok(t, call(t, s.Registry, ToolWorkspaceGetStatus, nil))
	if st["revision"].(float64) != 3 || st["preview"].(map[string]any)["status"] != "waiting" {
		t.Fatalf("the change must have landed with the preview still waiting: %v", st)
	}
	if len(port.mounts) != 1 || port.mounts[0].Revision != 3 || len(port.mounts[0].Files) != 4 {
		t.Fatalf("mounts %+v", port.mounts)
	}
}

func TestPreviewSupersededAndRuntimeError(t *testing.T) {
	port := &fakePort{answer: func(m Mount) (Ack, error) {
		return Ack{Revision: m.Revision + 1, Status: workspace.PreviewSynced}, nil
	}}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	e := fails(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "x"}), mcp.CodePreviewRevisionSuperseded)
	d := details(t, e)
	if !e.Retryable || d["requestedRevision"].(float64) != 3 || d["actualRevision"].(float64) != 4 || d["revision"].(float64) != 3 || d["applied"] != true {
		t.Fatalf("superseded %+v", e)
	}

	port.answer = func(m Mount) (Ack, error) {
		return Ack{Revision: m.Revision, Status: workspace.PreviewError, Message: "ReferenceError: x is not defined"}, nil
	}
	e = fails(t, call(t, s.Registry, ToolPreviewAddFeature, map[string]any{"title": "T", "description": "D"}), mcp.CodePreviewRuntimeError)
	d = details(t, e)
	if e.Retryable || d["revision"].(float64) != 4 || d["applied"] != true {
		t.Fatalf("runtime error %+v", e)
	}
	ps := ok(t, call(t, s.Registry, ToolPreviewGetStatus, nil))
	if ps["status"] != "error" || ps["message"] != "ReferenceError: x is not defined" || ps["runtime"] != RuntimeSandboxIframe {
		t.Fatalf("preview status after error %v", ps)
	}
	// A refresh is not a change: its failure says applied false.
	e = fails(t, call(t, s.Registry, ToolPreviewRefresh, nil), mcp.CodePreviewRuntimeError)
	if details(t, e)["applied"] != false || !port.mounts[len(port.mounts)-1].Remount {
		t.Fatalf("refresh %+v", e)
	}
	port.answer = func(m Mount) (Ack, error) { return Ack{Revision: m.Revision, Status: workspace.PreviewSynced}, nil }
	ok(t, call(t, s.Registry, ToolPreviewRefresh, nil))
	if ps := ok(t, call(t, s.Registry, ToolPreviewGetStatus, nil)); ps["status"] != "synced" {
		t.Fatalf("after refresh %v", ps)
	}
}

func TestPreviewMountFailureAndCancel(t *testing.T) {
	port := &fakePort{answer: func(m Mount) (Ack, error) { return Ack{}, context.Canceled }}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := s.Registry.Call(ctx, mcp.CallToolParams{Name: ToolPreviewSetTheme, Arguments: []byte(`{"theme":"amber"}`),
		Meta: &mcp.CallMeta{Mode: mcp.ModeDirect}})
	if !res.IsError || res.Error.Code != mcp.CodeToolCancelled {
		t.Fatalf("cancelled call %+v", res.Error)
	}
}

func TestAckBoard(t *testing.T) {
	var b AckBoard
	if _, err := b.Await(context.Background(), 1, 10*time.Millisecond); !errors.Is(err, ErrAckTimeout) {
		t.Fatalf("empty board: %v", err)
	}
	done := make(chan Ack)
	go func() {
		a, err := b.Await(context.Background(), 5, time.Minute)
		if err != nil {
			t.Error(err)
		}
		done <- a
	}()
	b.Publish(Ack{Revision: 4, Status: workspace.PreviewSynced})
	select {
	case a := <-done:
		t.Fatalf("woke for an older revision: %+v", a)
	case <-time.After(20 * time.Millisecond):
	}
	b.Publish(Ack{Revision: 6, Status: workspace.PreviewSynced})
	if a := <-done; a.Revision != 6 {
		t.Fatalf("got %+v", a)
	}
	if b.Publish(Ack{Revision: 2}) {
		t.Fatal("an older ack replaced a newer one")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Await(ctx, 9, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
}

func TestHeadlessPreviewCompilesAndAcks(t *testing.T) {
	h := NewHeadlessPreview()
	files := previewFiles(workspace.Seed().Files)
	if err := h.Mount(context.Background(), Mount{Revision: 7, Files: files}); err != nil {
		t.Fatal(err)
	}
	a, err := h.Await(context.Background(), 7, time.Second)
	if err != nil || a.Revision != 7 || a.Status != workspace.PreviewSynced || a.Runtime != RuntimeHeadless {
		t.Fatalf("ack %+v %v", a, err)
	}
	doc, rev := h.Document()
	if rev != 7 || doc.Entry != "index.html" || len(doc.HTML) == 0 {
		t.Fatalf("document rev %d entry %q", rev, doc.Entry)
	}
}

// TestConcurrentMutationsStaySynced runs mutations in parallel (run with -race): each either
// syncs or is superseded by a newer revision, and the final revision counts every change.
func TestConcurrentMutationsStaySynced(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": string(rune('a' + i))})
			if res.IsError && res.Error.Code != mcp.CodePreviewRevisionSuperseded {
				t.Errorf("write %d: %+v", i, res.Error)
			}
		}(i)
	}
	wg.Wait()
	st := ok(t, call(t, s.Registry, ToolWorkspaceGetStatus, nil))
	if st["revision"].(float64) != 10 {
		t.Fatalf("revision %v, want 10", st["revision"])
	}
}
