package studio

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/rpcsession"
)

func diffResult(t *testing.T, s *rpcsession.Session, m, params string) DiffResult {
	t.Helper()
	var out DiffResult
	if err := json.Unmarshal(method(t, s, m, params), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDiffMethods: workspace/diffCall previews a write (the real tool on a scratch copy: the
// workspace is unchanged), a failing call, undo/redo and a non-file tool; workspace/
// diffCheckpoint diffs a checkpoint against the current files; neither emits a lifecycle
// event (never traced).
func TestDiffMethods(t *testing.T) {
	var mu sync.Mutex
	var events []audit.ToolCallEvent
	s := session(t, Ports{Observer: func(e audit.ToolCallEvent) { mu.Lock(); events = append(events, e); mu.Unlock() }}, rpcsession.Config{})
	ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "# one\n"}))
	st := ok(t, call(t, s.Registry, ToolWorkspaceGetStatus, nil))
	rev := int64(st["revision"].(float64))
	mu.Lock()
	before := len(events)
	mu.Unlock()

	d := diffResult(t, s, MethodDiffCall, `{"name":"workspace.writeFile","arguments":{"path":"README.md","source":"# two\n"}}`)
	if d.Revision != rev || len(d.Files) != 1 || d.Files[0].Path != "README.md" || d.Files[0].Status != "modified" ||
		d.Files[0].Added != 1 || d.Files[0].Removed != 1 || d.Note != "" {
		t.Fatalf("diffCall write: %+v", d)
	}
	// A call guarded on the current revision previews as the guard would run now (the
	// approval card of a picked-element edit carries expectedRevision): no false conflict.
	d = diffResult(t, s, MethodDiffCall, `{"name":"workspace.writeFile","arguments":{"path":"README.md","source":"# two\n","expectedRevision":`+jsonInt(rev)+`}}`)
	if len(d.Files) != 1 || d.Note != "" {
		t.Fatalf("diffCall guarded on the current revision: %+v", d)
	}
	d = diffResult(t, s, MethodDiffCall, `{"name":"workspace.writeFile","arguments":{"path":"README.md","source":"# two\n","expectedRevision":`+jsonInt(rev-1)+`}}`)
	if len(d.Files) != 0 || !strings.HasPrefix(d.Note, "If approved now, this call would fail: [WORKSPACE_REVISION_CONFLICT]") {
		t.Fatalf("diffCall guarded on a stale revision: %+v", d)
	}
	d = diffResult(t, s, MethodDiffCall, `{"name":"workspace.deleteFile","arguments":{"path":"nope.md"}}`)
	if len(d.Files) != 0 || !strings.HasPrefix(d.Note, "If approved now, this call would fail: [WORKSPACE_FILE_NOT_FOUND]") {
		t.Fatalf("diffCall failing: %+v", d)
	}
	d = diffResult(t, s, MethodDiffCall, `{"name":"workspace.undo"}`)
	if len(d.Files) != 1 || d.Files[0].Path != "README.md" {
		t.Fatalf("diffCall undo: %+v", d)
	}
	if d = diffResult(t, s, MethodDiffCall, `{"name":"workspace.redo"}`); d.Note != "Nothing to redo: this call would fail." {
		t.Fatalf("diffCall redo: %+v", d)
	}
	if d = diffResult(t, s, MethodDiffCall, `{"name":"workspace.downloadFile","arguments":{"path":"README.md"}}`); !strings.HasPrefix(d.Note, "Downloads a file") {
		t.Fatalf("diffCall download: %+v", d)
	}
	hist := diffResult(t, s, MethodDiffCheckpoint, `{"revision":`+jsonInt(rev-1)+`}`)
	if hist.Revision != rev || len(hist.Files) != 1 || hist.Files[0].Path != "README.md" {
		t.Fatalf("diffCheckpoint: %+v", hist)
	}
	if _, rerr := s.Methods[MethodDiffCheckpoint](context.Background(), json.RawMessage(`{"revision":999}`)); rerr == nil {
		t.Fatal("unknown checkpoint accepted")
	}
	if _, rerr := s.Methods[MethodDiffCall](context.Background(), json.RawMessage(`{"name":""}`)); rerr == nil {
		t.Fatal("empty name accepted")
	}
	mu.Lock()
	after := len(events)
	mu.Unlock()
	if after != before {
		t.Fatalf("the diff methods emitted %d lifecycle events", after-before)
	}
	if src := ok(t, call(t, s.Registry, ToolWorkspaceReadFile, map[string]any{"path": "README.md"}))["source"]; src != "# one\n" {
		t.Fatalf("the preview changed the workspace: %q", src)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
