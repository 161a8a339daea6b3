package studio

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

func method(t *testing.T, s *rpcsession.Session, name, params string) json.RawMessage {
	t.Helper()
	v, rerr := s.Methods[name](context.Background(), json.RawMessage(params))
	if rerr != nil {
		t.Fatalf("%s: %+v", name, rerr)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

type historyList struct {
	Revision    int64 `json:"revision"`
	Checkpoints []struct {
		Revision int64  `json:"revision"`
		Tool     string `json:"tool"`
		Current  bool   `json:"current"`
	} `json:"checkpoints"`
}

// TestHistoryOperations: three edits → four checkpoints with their tools; the first
// checkpoint's files are readable; restoring it brings the files back, is traced as an
// operation, and undo returns the state before the restore.
func TestHistoryOperations(t *testing.T) {
	var mu sync.Mutex
	var events []audit.ToolCallEvent
	s := session(t, Ports{Observer: func(e audit.ToolCallEvent) { mu.Lock(); events = append(events, e); mu.Unlock() }}, rpcsession.Config{})
	r := s.Registry
	orig := ok(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "app.js"}))["source"].(string)
	ok(t, call(t, r, ToolWorkspaceWriteFile, map[string]any{"path": "app.js", "source": "edited"}))
	ok(t, call(t, r, ToolWorkspaceCreateFile, map[string]any{"path": "notes.md", "source": "n"}))
	ok(t, call(t, r, ToolPreviewSetTheme, map[string]any{"theme": "emerald"}))

	var list historyList
	if err := json.Unmarshal(method(t, s, MethodHistoryList, `{}`), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Checkpoints) != 4 || list.Checkpoints[1].Tool != ToolWorkspaceWriteFile || list.Checkpoints[3].Tool != ToolPreviewSetTheme ||
		!list.Checkpoints[3].Current || list.Checkpoints[3].Revision != list.Revision {
		t.Fatalf("history %+v", list)
	}
	first := list.Checkpoints[0].Revision
	var cp struct {
		ActivePath string `json:"activePath"`
		Files      []struct {
			Path, Source string
		} `json:"files"`
	}
	if err := json.Unmarshal(method(t, s, MethodHistoryCheckpoint, `{"revision":`+itoa64(first)+`}`), &cp); err != nil {
		t.Fatal(err)
	}
	if len(cp.Files) != 4 || cp.ActivePath != "index.html" {
		t.Fatalf("checkpoint %+v", cp)
	}
	if _, rerr := s.Methods[MethodHistoryCheckpoint](context.Background(), json.RawMessage(`{"revision":9999}`)); rerr == nil ||
		!strings.Contains(rerr.Message, "No checkpoint at revision 9999") {
		t.Fatalf("unknown checkpoint: %+v", rerr)
	}
	for _, bad := range []string{``, `{}`, `{"revision":"1"}`, `{"revision":0}`, `{"revision":1,"x":1}`} {
		if _, rerr := s.Methods[MethodHistoryRestore](context.Background(), json.RawMessage(bad)); rerr == nil {
			t.Fatalf("params %q accepted", bad)
		}
	}

	// A stale expectedRevision is a retryable conflict and changes nothing.
	stale := decodeResult(t, method(t, s, MethodHistoryRestore, `{"revision":`+itoa64(first)+`,"expectedRevision":`+itoa64(list.Revision-1)+`}`))
	if !stale.IsError || stale.Error.Code != mcp.CodeWorkspaceRevisionConflict || !stale.Error.Retryable {
		t.Fatalf("stale restore %+v", stale)
	}
	mu.Lock()
	events = nil
	mu.Unlock()
	res := decodeResult(t, method(t, s, MethodHistoryRestore, `{"revision":`+itoa64(first)+`,"expectedRevision":`+itoa64(list.Revision)+`}`))
	out := ok(t, res)
	if out["direction"] != "restore" || out["changed"] != true || out["revision"].(float64) != float64(list.Revision+1) || out["preview"] != "synced" {
		t.Fatalf("restore %+v", out)
	}
	if got := ok(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "app.js"}))["source"]; got != orig {
		t.Fatalf("app.js after restore: %q", got)
	}
	fails(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "notes.md"}), mcp.CodeWorkspaceFileNotFound)
	mu.Lock()
	var names []string
	for _, e := range events {
		if e.Name == MethodHistoryRestore {
			names = append(names, string(e.Type))
		}
	}
	mu.Unlock()
	if strings.Join(names, ",") != string(audit.EventStarted)+","+string(audit.EventCompleted) {
		t.Fatalf("restore lifecycle events %v", names)
	}
	if err := json.Unmarshal(method(t, s, MethodHistoryList, ``), &list); err != nil {
		t.Fatal(err)
	}
	if last := list.Checkpoints[len(list.Checkpoints)-1]; len(list.Checkpoints) != 5 || last.Tool != MethodHistoryRestore || !last.Current {
		t.Fatalf("history after restore %+v", list)
	}
	// Undo returns the state before the restore.
	ok(t, call(t, r, ToolWorkspaceUndo, map[string]any{}))
	if got := ok(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "app.js"}))["source"]; got != "edited" {
		t.Fatalf("app.js after undo: %q", got)
	}
	ok(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "notes.md"}))
}

// TestApproveRunThroughAgentRun: "Approve all for this run" over agent/run: the first card of
// a run with three preview edits is approved with approvals/approveRun and the other two run
// without a card; the next run asks again.
func TestApproveRunThroughAgentRun(t *testing.T) {
	h := rpcsession.New(context.Background(), Builder(Ports{}))
	rpc := func(req string) string { return string(h.Handle(context.Background(), []byte(req))) }
	if out := rpc(`{"jsonrpc":"2.0","id":1,"method":"session/configure","params":{"approval":{"mode":"queue"}}}`); !strings.Contains(out, "configured") {
		t.Fatal(out)
	}
	q := h.Session().Approvals
	type runOut struct {
		Result struct {
			Failed bool `json:"failed"`
			Calls  []any
		} `json:"result"`
	}
	done := make(chan runOut, 1)
	go func() {
		var o runOut
		_ = json.Unmarshal(h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":"run1","method":"agent/run","params":{"prompt":"Make it emerald, add a feature card and update the hero","sessionId":"studio"}}`)), &o)
		done <- o
	}()
	waitUntil(t, func() bool { return len(q.Snapshot()) == 1 })
	first := q.Snapshot()[0]
	if first.RunID == "" || !strings.Contains(string(first.Arguments), "emerald") {
		t.Fatalf("first approval %+v", first)
	}
	if out := rpc(`{"jsonrpc":"2.0","id":2,"method":"approvals/approveRun","params":{"id":"` + first.ID + `"}}`); !strings.Contains(out, `"approved":1`) {
		t.Fatal(out)
	}
	select {
	case o := <-done:
		if o.Result.Failed || len(o.Result.Calls) != 4 {
			t.Fatalf("run %+v", o)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the run still waits: %+v", q.Snapshot())
	}
	if out := rpc(`{"jsonrpc":"2.0","id":3,"method":"approvals/approveRun","params":{"id":"nope"}}`); !strings.Contains(out, "-32602") {
		t.Fatal(out)
	}
	// The next run asks again.
	go func() {
		h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":"run2","method":"agent/run","params":{"prompt":"Make it amber","sessionId":"studio"}}`))
		done <- runOut{}
	}()
	waitUntil(t, func() bool { return len(q.Snapshot()) == 1 })
	if q.Snapshot()[0].RunID == first.RunID {
		t.Fatal("a later run must have its own scope")
	}
	q.DenyAll()
	<-done
}

func decodeResult(t *testing.T, raw json.RawMessage) *mcp.CallToolResult {
	t.Helper()
	var r mcp.CallToolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func itoa64(n int64) string { b, _ := json.Marshal(n); return string(b) }

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

// FuzzHistoryParams: the history methods' params decoder accepts only {revision ≥ 1,
// expectedRevision? ≥ 0} and answers everything else with -32602; the methods never panic.
func FuzzHistoryParams(f *testing.F) {
	for _, s := range []string{`{"revision":1}`, `{"revision":3,"expectedRevision":2}`, ``, `{}`, `null`, `[1]`,
		`{"revision":-1}`, `{"revision":1.5}`, `{"revision":"1"}`, `{"revision":1,"revision":2}`, `{"Revision":1}`,
		`{"revision":1,"expectedRevision":-4}`, `{"revision":9223372036854775807}`, `{"revision":1e3}`} {
		f.Add([]byte(s))
	}
	s, err := Builder(Ports{})(context.Background(), rpcsession.Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		rev, expected, perr := historyParams("m", raw, true)
		if perr == nil && (rev < 1 || (expected != nil && *expected < 0)) {
			t.Fatalf("accepted %q → %d %v", raw, rev, expected)
		}
		if perr != nil && perr.Code != -32602 {
			t.Fatalf("code %d for %q", perr.Code, raw)
		}
		for _, name := range []string{MethodHistoryCheckpoint, MethodHistoryRestore} {
			v, rerr := s.Methods[name](context.Background(), raw)
			if (rerr == nil) == (v == nil) {
				t.Fatalf("%s(%q): result %v and error %v", name, raw, v, rerr)
			}
		}
	})
}

// BenchmarkApprovalDiffScratch is the core of an approval card's diff (browser approval.go):
// a scratch studio session over a memory repository holding the seed, one preview.setTheme
// in direct mode, and the files read back.
func BenchmarkApprovalDiffScratch(b *testing.B) {
	seed := workspace.Seed()
	for b.Loop() {
		repo := &workspace.MemoryRepository{}
		repo.SetStored(workspace.Snapshot{Metadata: workspace.Metadata{RootName: seed.RootName, ActivePath: seed.ActivePath, Revision: 6}, Files: seed.Files})
		s, err := Builder(Ports{Repository: repo})(context.Background(), rpcsession.Config{})
		if err != nil {
			b.Fatal(err)
		}
		res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: ToolPreviewSetTheme, Arguments: json.RawMessage(`{"theme":"emerald"}`),
			Meta: &mcp.CallMeta{ToolCallID: "d", Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
		if res.IsError {
			b.Fatal(res.Error)
		}
		if _, err := repo.Load(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
