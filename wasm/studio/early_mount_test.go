package studio

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// eventLog is the order of mounts and repository writes seen by one session.
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) add(format string, args ...any) {
	l.mu.Lock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *eventLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// loggingPort acknowledges every revision it mounts (or fails every mount with fail).
type loggingPort struct {
	log   *eventLog
	fail  error
	board preview.AckBoard
}

func (p *loggingPort) Mount(_ context.Context, m preview.Mount) error {
	p.log.add("mount %d", m.Revision)
	if p.fail != nil {
		return p.fail
	}
	p.board.Publish(preview.Ack{Revision: m.Revision, Status: workspace.PreviewSynced, Runtime: "test"})
	return nil
}

func (p *loggingPort) Await(ctx context.Context, rev int64, timeout time.Duration) (preview.Ack, error) {
	return p.board.Await(ctx, rev, timeout)
}

func (p *loggingPort) Runtime() string { return "test" }

// loggingRepo is a MemoryRepository whose incremental writes are logged and fail with fail.
type loggingRepo struct {
	*workspace.MemoryRepository
	log  *eventLog
	fail error
}

func (r *loggingRepo) SaveChanges(ctx context.Context, m workspace.Metadata, put []*workspace.File, del []string) error {
	r.log.add("save %d", m.Revision)
	if r.fail != nil {
		return r.fail
	}
	return r.MemoryRepository.SaveChanges(ctx, m, put, del)
}

// TestEarlyMountBeforeWrite: an edit's preview mount starts at its commit, before its
// Repository write (workspace.Options.OnCommit), and the result still reports the write.
func TestEarlyMountBeforeWrite(t *testing.T) {
	log := &eventLog{}
	repo := &loggingRepo{MemoryRepository: &workspace.MemoryRepository{}, log: log}
	s := session(t, Ports{Repository: repo, Preview: &loggingPort{log: log}}, rpcsession.Config{})
	out := ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "early"}))
	rev := int64(out["revision"].(float64))
	want := []string{fmt.Sprintf("mount %d", rev), fmt.Sprintf("save %d", rev)}
	if got := log.list(); len(got) < 2 || !slices.Equal(got[len(got)-2:], want) {
		t.Fatalf("events %v, want them to end with %v (one mount, before the write)", got, want)
	}
	if out["storageMode"] != "indexed-db" || out["preview"] != workspace.PreviewSynced || out["storageError"] != nil {
		t.Fatalf("result %v", out)
	}
	if repo.Saves == 0 {
		t.Fatal("nothing was written")
	}
}

// TestEarlyMountFailedWrite: when the write after an early mount fails, the call reports it
// exactly as without the early mount: the change stands (success, preview synced), the
// result and every later status say storage mode "memory" with the write's error, and the
// next edits are not written (memory mode).
func TestEarlyMountFailedWrite(t *testing.T) {
	log := &eventLog{}
	repo := &loggingRepo{MemoryRepository: &workspace.MemoryRepository{}, log: log, fail: errors.New("quota exceeded")}
	s := session(t, Ports{Repository: repo, Preview: &loggingPort{log: log}}, rpcsession.Config{})
	out := ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "lost"}))
	if out["storageMode"] != "memory" || out["storageError"] != "quota exceeded" || out["preview"] != workspace.PreviewSynced {
		t.Fatalf("write result %v", out)
	}
	st := ok(t, call(t, s.Registry, ToolWorkspaceGetStatus, nil))
	if st["storageMode"] != "memory" || st["storageError"] != "quota exceeded" {
		t.Fatalf("status %v", st)
	}
	ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "again"}))
	saves := 0
	for _, e := range log.list() {
		if len(e) > 5 && e[:5] == "save " {
			saves++
		}
	}
	if saves != 1 {
		t.Fatalf("%d writes attempted, want 1 (memory mode after the failure): %v", saves, log.list())
	}
}

// TestEarlyMountError: a mount that fails at the commit is the call's
// PREVIEW_RUNTIME_ERROR {revision, applied: true}, as a failed mount in sync always was, and
// the change is still written.
func TestEarlyMountError(t *testing.T) {
	log := &eventLog{}
	repo := &loggingRepo{MemoryRepository: &workspace.MemoryRepository{}, log: log}
	s := session(t, Ports{Repository: repo, Preview: &loggingPort{log: log, fail: errors.New("shim threw")}}, rpcsession.Config{})
	res := call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "x"})
	d := details(t, fails(t, res, mcp.CodePreviewRuntimeError))
	if d["applied"] != true || d["revision"] == nil {
		t.Fatalf("details %v", d)
	}
	rd := ok(t, call(t, s.Registry, ToolWorkspaceReadFile, map[string]any{"path": "README.md"}))
	if rd["source"] != "x" {
		t.Fatalf("read %v", rd)
	}
	if got := log.list(); got[len(got)-1] != fmt.Sprintf("save %v", d["revision"]) {
		t.Fatalf("events %v", got)
	}
}
