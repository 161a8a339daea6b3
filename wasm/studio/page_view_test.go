package studio

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// TestPageViewIsAnUntracedRead: workspace/view returns what workspace.getStatus and
// workspace.listFiles return plus the active file's text (left out when the page already
// shows that file at that revision), and emits no lifecycle event — the page's refreshes add
// no trace rows (issue 15).
func TestPageViewIsAnUntracedRead(t *testing.T) {
	var mu sync.Mutex
	var events []audit.ToolCallEvent
	s := session(t, Ports{Observer: func(e audit.ToolCallEvent) { mu.Lock(); events = append(events, e); mu.Unlock() }}, rpcsession.Config{})
	ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "# one\n"}))
	ok(t, call(t, s.Registry, ToolWorkspaceOpenFile, map[string]any{"path": "README.md"}))
	status := ok(t, call(t, s.Registry, ToolWorkspaceGetStatus, nil))
	list := ok(t, call(t, s.Registry, ToolWorkspaceListFiles, nil))
	mu.Lock()
	before := len(events)
	mu.Unlock()

	type view struct {
		Status map[string]any `json:"status"`
		Files  []any          `json:"files"`
		Source *string        `json:"source"`
	}
	var v view
	if err := json.Unmarshal(method(t, s, MethodPageView, `{}`), &v); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.Status, status) {
		t.Errorf("status\n %v\nwant the getStatus result\n %v", v.Status, status)
	}
	if !reflect.DeepEqual(v.Files, list["files"]) {
		t.Errorf("files\n %v\nwant the listFiles files\n %v", v.Files, list["files"])
	}
	if v.Source == nil || *v.Source != "# one\n" {
		t.Errorf("source %v, want the active README.md", v.Source)
	}
	rev := int64(status["revision"].(float64))
	known, _ := json.Marshal(map[string]any{"knownPath": "README.md", "knownRevision": rev})
	v = view{}
	if err := json.Unmarshal(method(t, s, MethodPageView, string(known)), &v); err != nil {
		t.Fatal(err)
	}
	if v.Source != nil || v.Status["revision"].(float64) != float64(rev) {
		t.Errorf("known file at its revision: source %v sent again (status %v)", v.Source, v.Status)
	}
	known, _ = json.Marshal(map[string]any{"knownPath": "README.md", "knownRevision": rev - 1})
	v = view{}
	if err := json.Unmarshal(method(t, s, MethodPageView, string(known)), &v); err != nil {
		t.Fatal(err)
	}
	if v.Source == nil || *v.Source != "# one\n" {
		t.Errorf("known file at an older revision: source %v", v.Source)
	}
	mu.Lock()
	after := len(events)
	mu.Unlock()
	if after != before {
		t.Fatalf("workspace/view emitted %d lifecycle events", after-before)
	}
	for _, bad := range []string{`{"x":1}`, `{"knownRevision":-1}`, `{"knownPath":3}`, `[]`} {
		if _, rerr := s.Methods[MethodPageView](context.Background(), json.RawMessage(bad)); rerr == nil {
			t.Errorf("params %s accepted", bad)
		}
	}
}
