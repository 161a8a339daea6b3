package studio

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// TestCurrentFilesIsAnUntracedRead: workspace/files returns the current files (after an edit
// and after an undo, where no checkpoint carries the current revision) with the revision,
// active path and root name, and emits no lifecycle event — the page's approval diffs and
// search read through it without adding trace rows.
func TestCurrentFilesIsAnUntracedRead(t *testing.T) {
	var mu sync.Mutex
	var events []audit.ToolCallEvent
	s := session(t, Ports{Observer: func(e audit.ToolCallEvent) { mu.Lock(); events = append(events, e); mu.Unlock() }}, rpcsession.Config{})
	ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "# one\n"}))
	ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "# two\n"}))
	ok(t, call(t, s.Registry, ToolWorkspaceUndo, nil))
	st := ok(t, call(t, s.Registry, ToolWorkspaceGetStatus, nil))
	mu.Lock()
	before := len(events)
	mu.Unlock()
	var out struct {
		Revision   int64  `json:"revision"`
		ActivePath string `json:"activePath"`
		RootName   string `json:"rootName"`
		Files      []struct {
			Path   string `json:"path"`
			Kind   string `json:"kind"`
			Source string `json:"source"`
		} `json:"files"`
	}
	if err := json.Unmarshal(method(t, s, MethodCurrentFiles, `{}`), &out); err != nil {
		t.Fatal(err)
	}
	if out.Revision != int64(st["revision"].(float64)) || out.ActivePath != st["activePath"] || out.RootName != st["rootName"] {
		t.Fatalf("workspace/files %+v, status %v", out, st)
	}
	found := false
	for _, f := range out.Files {
		if f.Path == "README.md" {
			found = f.Source == "# one\n"
		}
	}
	if !found || len(out.Files) != int(st["fileCount"].(float64)) {
		t.Fatalf("files after undo %+v", out.Files)
	}
	mu.Lock()
	after := len(events)
	mu.Unlock()
	if after != before {
		t.Fatalf("workspace/files emitted %d lifecycle events", after-before)
	}
	if _, rerr := s.Methods[MethodCurrentFiles](context.Background(), json.RawMessage(`{"x":1}`)); rerr == nil {
		t.Fatal("unknown params accepted")
	}
}
