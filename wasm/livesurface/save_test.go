package livesurface

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// editAll makes n files of a folder session dirty: a.txt … (n files), each with new text.
func dirtyFolder(n int) (*workspace.MemFolder, []string) {
	files := map[string]string{IndexPath: "<p>site</p>\n"}
	var paths []string
	for i := 0; i < n; i++ {
		p := string(rune('a'+i)) + ".txt"
		files[p] = "old " + p + "\n"
		paths = append(paths, p)
	}
	return workspace.NewMemFolder("site", files), paths
}

func recoverSave(t *testing.T, s *rpcsession.Session, params map[string]any) RecoverResult {
	t.Helper()
	raw, _ := json.Marshal(params)
	out, jerr := s.Methods[MethodRecoverSave](context.Background(), raw)
	if jerr != nil {
		t.Fatal(jerr)
	}
	return out.(RecoverResult)
}

// editFiles writes "new <path>" into each path through the tools (openFile + setDocument).
func editFiles(t *testing.T, s *rpcsession.Session, paths []string) {
	t.Helper()
	for _, p := range paths {
		ok(t, call(t, s.Registry, ToolOpenFile, map[string]any{"path": p}))
		ok(t, call(t, s.Registry, ToolSetDocument, map[string]any{"source": "new " + p + "\n"}))
	}
}

func folderText(t *testing.T, f workspace.FolderAdapter, p string) string {
	t.Helper()
	b, err := f.ReadFile(context.Background(), p)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// TestSaveAllInterruptedThenRecovered: a keyed saveAll of n=5 dirty files whose folder fails
// after k=2 writes ends TOOL_EXECUTION_UNKNOWN; the record is unknown and a retry with the key
// is refused (never re-run). Reading the folder back finds the k files and lists the n-k others
// as different, so the record stays unknown; the k files are no longer dirty, so a new save
// writes only the n-k others — no file is written twice.
func TestSaveAllInterruptedThenRecovered(t *testing.T) {
	mem, paths := dirtyFolder(5)
	folder := &faultyFolder{FolderAdapter: mem, failAfter: 2}
	s := session(t, studio.Ports{Folder: folder, Durable: memstore.New()}, rpcsession.Config{})
	editFiles(t, s, paths)
	m := meta{source: mcp.SourceLocal, mode: mcp.ModeDirect, session: "s1", key: "editor.saveAll:s1"}
	e := fails(t, callAs(t, s.Registry, m, ToolSaveAll, nil), mcp.CodeToolExecutionUnknown)
	d := details(t, e)
	if !e.Retryable || d["outcome"] != "unknown" || num(d["plannedFiles"]) != 5 || num(d["completedCount"]) != 2 ||
		!reflect.DeepEqual(d["completedPaths"], []any{"a.txt", "b.txt"}) || d["planRecorded"] != true {
		t.Fatalf("unknown save: %+v", e)
	}
	if w := folder.writes(); !reflect.DeepEqual(w, []string{"a.txt", "b.txt"}) {
		t.Fatalf("writes %v", w)
	}
	rec, found, err := s.Registry.GetOperationStatus(context.Background(), "s1", ToolSaveAll, "editor.saveAll:s1")
	if err != nil || !found || rec.State != "unknown" {
		t.Fatalf("record %+v %v %v", rec, found, err)
	}
	folder.heal()
	// The caller retries with the key: refused, nothing written.
	fails(t, callAs(t, s.Registry, m, ToolSaveAll, nil), mcp.CodeToolIdempotencyUnknown)
	if n := len(folder.writes()); n != 2 {
		t.Fatalf("a retry wrote: %v", folder.writes())
	}
	out := recoverSave(t, s, map[string]any{"tool": ToolSaveAll, "idempotencyKey": "editor.saveAll:s1", "sessionId": "s1"})
	want := []Mismatch{{"c.txt", "different"}, {"d.txt", "different"}, {"e.txt", "different"}}
	if out.Status != "unknown" || !reflect.DeepEqual(out.Mismatches, want) || len(out.RecoveredPaths) != 0 {
		t.Fatalf("recover: %+v", out)
	}
	if n := len(folder.writes()); n != 2 {
		t.Fatalf("recovery wrote: %v", folder.writes())
	}
	if st := ok(t, call(t, s.Registry, ToolGetStatus, nil)); !reflect.DeepEqual(st["dirtyPaths"], []any{"c.txt", "d.txt", "e.txt"}) {
		t.Fatalf("dirty after the interruption: %v", st["dirtyPaths"])
	}
	// A deliberate new save (new key) writes the three others once.
	m.key = "editor.saveAll:s1:2"
	saved := ok(t, callAs(t, s.Registry, m, ToolSaveAll, nil))
	if !reflect.DeepEqual(saved["savedPaths"], []any{"c.txt", "d.txt", "e.txt"}) || len(saved["dirtyPaths"].([]any)) != 0 {
		t.Fatalf("second save %v", saved)
	}
	if w := folder.writes(); !reflect.DeepEqual(w, []string{"a.txt", "b.txt", "c.txt", "d.txt", "e.txt"}) {
		t.Fatalf("a file was written twice: %v", w)
	}
	for _, p := range paths {
		if folderText(t, mem, p) != "new "+p+"\n" {
			t.Fatalf("%s holds %q", p, folderText(t, mem, p))
		}
	}
}

// TestRecoverMismatchIsUnsaved (new-user finding): a file the interrupted save wrote, then
// changed in the folder by another program, is reported different by the read-back and is
// unsaved again, so the next save writes it (before, it stayed clean: Save skipped it and the
// page said "No unsaved files").
func TestRecoverMismatchIsUnsaved(t *testing.T) {
	mem, paths := dirtyFolder(3)
	folder := &faultyFolder{FolderAdapter: mem, failAfter: 1}
	s := session(t, studio.Ports{Folder: folder, Durable: memstore.New()}, rpcsession.Config{})
	editFiles(t, s, paths)
	m := meta{source: mcp.SourceLocal, mode: mcp.ModeDirect, session: "s4", key: "editor.saveAll:s4"}
	fails(t, callAs(t, s.Registry, m, ToolSaveAll, nil), mcp.CodeToolExecutionUnknown)
	folder.heal()
	if err := mem.WriteFile(context.Background(), "a.txt", []byte("tampered\n")); err != nil {
		t.Fatal(err)
	}
	out := recoverSave(t, s, map[string]any{"tool": ToolSaveAll, "idempotencyKey": "editor.saveAll:s4", "sessionId": "s4"})
	if out.Status != "unknown" || len(out.Mismatches) != 3 || out.Mismatches[0] != (Mismatch{"a.txt", "different"}) {
		t.Fatalf("recover: %+v", out)
	}
	if st := ok(t, call(t, s.Registry, ToolGetStatus, nil)); !reflect.DeepEqual(st["dirtyPaths"], []any{"a.txt", "b.txt", "c.txt"}) {
		t.Fatalf("after the read-back dirtyPaths %v, want all three", st["dirtyPaths"])
	}
	m.key = "editor.saveAll:s4:2"
	ok(t, callAs(t, s.Registry, m, ToolSaveAll, nil))
	if got := folderText(t, mem, "a.txt"); got != "new a.txt\n" {
		t.Fatalf("after the new save a.txt holds %q", got)
	}
}

// TestSaveAllLandedThenRecovered: the last write lands and reports a failure (the caller
// cannot tell): unknown. Reading the folder back matches the manifest (digests and lengths),
// so the record completes with the saveAll result; the key then replays it and nothing is
// written again.
func TestSaveAllLandedThenRecovered(t *testing.T) {
	mem, paths := dirtyFolder(3)
	folder := &faultyFolder{FolderAdapter: mem, failAfter: 2, land: true}
	s := session(t, studio.Ports{Folder: folder, Durable: memstore.New()}, rpcsession.Config{})
	editFiles(t, s, paths)
	ws, doc := clocks(t, s.Registry)
	m := meta{source: mcp.SourceLocal, mode: mcp.ModeDirect, session: "s2", key: "editor.saveAll:s2"}
	fails(t, callAs(t, s.Registry, m, ToolSaveAll, nil), mcp.CodeToolExecutionUnknown)
	if w := folder.writes(); len(w) != 3 {
		t.Fatalf("writes %v", w)
	}
	folder.heal()
	out := recoverSave(t, s, map[string]any{"tool": ToolSaveAll, "idempotencyKey": "editor.saveAll:s2", "sessionId": "s2"})
	if out.Status != "completed" || !reflect.DeepEqual(out.RecoveredPaths, paths) || len(out.Mismatches) != 0 || out.Operation == nil || out.Operation.State != "completed" {
		t.Fatalf("recover: %+v", out)
	}
	st := ok(t, call(t, s.Registry, ToolGetStatus, nil))
	if len(st["dirtyPaths"].([]any)) != 0 {
		t.Fatalf("dirty after the recovery: %v", st["dirtyPaths"])
	}
	wantClocks(t, "recovered", st, ws, doc)
	replay := ok(t, callAs(t, s.Registry, m, ToolSaveAll, nil))
	if !reflect.DeepEqual(replay["savedPaths"], []any{"a.txt", "b.txt", "c.txt"}) {
		t.Fatalf("replay %v", replay)
	}
	if w := folder.writes(); len(w) != 3 {
		t.Fatalf("the replay wrote again: %v", w)
	}
	// Recovering again reads the record only.
	if again := recoverSave(t, s, map[string]any{"tool": ToolSaveAll, "idempotencyKey": "editor.saveAll:s2", "sessionId": "s2"}); again.Status != "completed" || len(again.RecoveredPaths) != 0 {
		t.Fatalf("second recovery %+v", again)
	}
}

// TestSaveFileRecoveredByBytes: one file, key per session and path; recovery compares the
// folder's bytes with the text the caller saved (and refuses a text the plan does not name).
func TestSaveFileRecoveredByBytes(t *testing.T) {
	mem, paths := dirtyFolder(1)
	folder := &faultyFolder{FolderAdapter: mem, failAfter: 0, land: true}
	s := session(t, studio.Ports{Folder: folder, Durable: memstore.New()}, rpcsession.Config{})
	editFiles(t, s, paths)
	key := "editor.saveFile:s3:a.txt"
	m := meta{source: mcp.SourceLocal, mode: mcp.ModeDirect, session: "s3", key: key}
	fails(t, callAs(t, s.Registry, m, ToolSaveFile, map[string]any{"path": "a.txt"}), mcp.CodeToolExecutionUnknown)
	folder.heal()
	wrong := recoverSave(t, s, map[string]any{"tool": ToolSaveFile, "idempotencyKey": key, "sessionId": "s3", "expectedSource": "something else"})
	if wrong.Status != "unknown" || wrong.Message == "" {
		t.Fatalf("a text the plan does not name: %+v", wrong)
	}
	// Another program changed the file meanwhile: different bytes, still unknown.
	if err := mem.WriteFile(context.Background(), "a.txt", []byte("edited elsewhere\n")); err != nil {
		t.Fatal(err)
	}
	diff := recoverSave(t, s, map[string]any{"tool": ToolSaveFile, "idempotencyKey": key, "sessionId": "s3", "expectedSource": "new a.txt\n"})
	if diff.Status != "unknown" || !reflect.DeepEqual(diff.Mismatches, []Mismatch{{"a.txt", "different"}}) {
		t.Fatalf("different bytes: %+v", diff)
	}
	if err := mem.WriteFile(context.Background(), "a.txt", []byte("new a.txt\n")); err != nil {
		t.Fatal(err)
	}
	good := recoverSave(t, s, map[string]any{"tool": ToolSaveFile, "idempotencyKey": key, "sessionId": "s3", "expectedSource": "new a.txt\n"})
	if good.Status != "completed" || !reflect.DeepEqual(good.RecoveredPaths, []string{"a.txt"}) {
		t.Fatalf("recover: %+v", good)
	}
	replay := ok(t, callAs(t, s.Registry, m, ToolSaveFile, map[string]any{"path": "a.txt"}))
	if replay["path"] != "a.txt" || replay["savedTo"] != SavedToFilesystem {
		t.Fatalf("replay %v", replay)
	}
	if w := folder.writes(); len(w) != 1 {
		t.Fatalf("writes %v", w)
	}
	if missing := recoverSave(t, s, map[string]any{"tool": ToolSaveFile, "idempotencyKey": "other", "sessionId": "s3"}); missing.Status != "missing" {
		t.Fatalf("no record: %+v", missing)
	}
}

// TestSaveEditedDuringSaveStaysDirty and the definite failures: a stale folder refuses the save
// before anything is written (recorded failed, not unknown).
func TestSaveDefiniteFailure(t *testing.T) {
	mem, paths := dirtyFolder(2)
	s := session(t, studio.Ports{Folder: mem, Durable: memstore.New()}, rpcsession.Config{})
	editFiles(t, s, paths)
	mem.Stale = true
	m := meta{source: mcp.SourceLocal, mode: mcp.ModeDirect, session: "s4", key: "k"}
	fails(t, callAs(t, s.Registry, m, ToolSaveAll, nil), mcp.CodeWorkspaceFolderStale)
	rec, _, _ := s.Registry.GetOperationStatus(context.Background(), "s4", ToolSaveAll, "k")
	if rec.State != "failed" {
		t.Fatalf("record %s", rec.State)
	}
}

// blockingFolder holds every write until release is closed, then performs it.
type blockingFolder struct {
	workspace.FolderAdapter
	entered chan string
	release chan struct{}
	landed  chan error
}

func (b *blockingFolder) WriteFile(ctx context.Context, p string, data []byte) error {
	b.entered <- p
	<-b.release
	err := b.FolderAdapter.WriteFile(context.Background(), p, data)
	b.landed <- err
	return err
}

// TestTimedOutSaveIsNeverRerun: a keyed save whose caller gives up (_meta.timeoutMs) while the
// folder write is in flight is recorded unknown; the caller's retry with the same key is
// refused without calling the tool, so the file is written once; reading the folder back
// completes the record once the write landed, and the key then replays.
func TestTimedOutSaveIsNeverRerun(t *testing.T) {
	mem, paths := dirtyFolder(1)
	folder := &blockingFolder{FolderAdapter: mem, entered: make(chan string, 4), release: make(chan struct{}), landed: make(chan error, 4)}
	s := session(t, studio.Ports{Folder: folder, Durable: memstore.New()}, rpcsession.Config{})
	editFiles(t, s, paths)
	key, timeout := "editor.saveFile:s5:a.txt", float64(50)
	cm := func() *mcp.CallMeta {
		k := key
		return &mcp.CallMeta{Source: mcp.SourceLocal, Mode: mcp.ModeDirect, SessionID: "s5", IdempotencyKey: &k, TimeoutMs: &timeout}
	}
	args := json.RawMessage(`{"path":"a.txt"}`)
	res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: ToolSaveFile, Arguments: args, Meta: cm()})
	if !res.IsError || res.Error.Code != mcp.CodeToolTimeout {
		t.Fatalf("want TOOL_TIMEOUT, got %+v", res)
	}
	if p := <-folder.entered; p != "a.txt" {
		t.Fatalf("write of %s", p)
	}
	res = s.Registry.Call(context.Background(), mcp.CallToolParams{Name: ToolSaveFile, Arguments: args, Meta: cm()})
	if !res.IsError || res.Error.Code != mcp.CodeToolIdempotencyUnknown {
		t.Fatalf("the retry: %+v", res)
	}
	select {
	case p := <-folder.entered:
		t.Fatalf("the retry wrote %s again", p)
	default:
	}
	close(folder.release) // the first write lands now
	if err := <-folder.landed; err != nil {
		t.Fatal(err)
	}
	out := recoverSave(t, s, map[string]any{"tool": ToolSaveFile, "idempotencyKey": key, "sessionId": "s5", "expectedSource": "new a.txt\n"})
	if out.Status != "completed" {
		t.Fatalf("recover %+v", out)
	}
	noTimeout := cm()
	noTimeout.TimeoutMs = nil
	if res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: ToolSaveFile, Arguments: args, Meta: noTimeout}); res.IsError {
		t.Fatalf("replay %+v", res.Error)
	}
	if len(mem.Writes) != 1 {
		t.Fatalf("writes %v", mem.Writes)
	}
}
