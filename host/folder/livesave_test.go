package folder

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/livesurface"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// cutFolder passes writes to a real DirFolder until failAfter have landed, then fails every
// write without touching the disk (the connection to the folder is gone).
type cutFolder struct {
	*DirFolder
	mu        sync.Mutex
	failAfter int
	landed    []string
}

func (c *cutFolder) WriteFile(ctx context.Context, p string, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failAfter >= 0 && len(c.landed) >= c.failAfter {
		return errors.New("the folder went away")
	}
	if err := c.DirFolder.WriteFile(ctx, p, data); err != nil {
		return err
	}
	c.landed = append(c.landed, p)
	return nil
}

// TestLiveSaveAllInterruptedOnDisk: the Live Code Editor's keyed editor.saveAll over a real
// directory, cut after k=2 of n=4 writes. The durable record is unknown, a retry with the key
// writes nothing, and editor/recoverSave reads the directory back: the two written files
// match the manifest, the two others are listed as different, the record stays unknown and
// nothing is written. Once the other two are written by a new save (new key), the files on
// disk are the edited texts and each was written once; then the first save, recovered again,
// completes from the bytes on disk.
func TestLiveSaveAllInterruptedOnDisk(t *testing.T) {
	dir := t.TempDir()
	paths := []string{"a.txt", "b.txt", "c.txt", "d.txt"}
	for _, p := range append([]string{"index.html"}, paths...) {
		if err := os.WriteFile(filepath.Join(dir, p), []byte("old "+p+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	folder := &cutFolder{DirFolder: d, failAfter: 2}
	livesurface.Install()
	s, err := studio.Builder(studio.Ports{Folder: folder, Durable: memstore.New()})(context.Background(), rpcsession.Config{Catalog: livesurface.Catalog})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Registry
	call := func(name, key string, args map[string]any) *mcp.CallToolResult {
		raw, _ := json.Marshal(args)
		m := &mcp.CallMeta{Source: mcp.SourceLocal, Mode: mcp.ModeDirect, SessionID: "s1"}
		if key != "" {
			m.IdempotencyKey = &key
		}
		return r.Call(context.Background(), mcp.CallToolParams{Name: name, Arguments: raw, Meta: m})
	}
	for _, p := range paths {
		if res := call(livesurface.ToolOpenFile, "", map[string]any{"path": p}); res.IsError {
			t.Fatal(res.Error)
		}
		if res := call(livesurface.ToolSetDocument, "", map[string]any{"source": "new " + p + "\n"}); res.IsError {
			t.Fatal(res.Error)
		}
	}
	res := call(livesurface.ToolSaveAll, "save-1", map[string]any{})
	if !res.IsError || res.Error.Code != mcp.CodeToolExecutionUnknown {
		t.Fatalf("want TOOL_EXECUTION_UNKNOWN, got %+v", res)
	}
	folder.mu.Lock()
	folder.failAfter = -1
	folder.mu.Unlock()
	if res := call(livesurface.ToolSaveAll, "save-1", map[string]any{}); !res.IsError || res.Error.Code != mcp.CodeToolIdempotencyUnknown {
		t.Fatalf("the retry: %+v", res)
	}
	recoverSave := func() livesurface.RecoverResult {
		raw, _ := json.Marshal(map[string]any{"tool": livesurface.ToolSaveAll, "idempotencyKey": "save-1", "sessionId": "s1"})
		out, jerr := s.Methods[livesurface.MethodRecoverSave](context.Background(), raw)
		if jerr != nil {
			t.Fatal(jerr)
		}
		return out.(livesurface.RecoverResult)
	}
	out := recoverSave()
	if out.Status != "unknown" || !reflect.DeepEqual(out.Mismatches, []livesurface.Mismatch{{Path: "c.txt", Reason: "different"}, {Path: "d.txt", Reason: "different"}}) {
		t.Fatalf("recovery: %+v", out)
	}
	if !reflect.DeepEqual(folder.landed, []string{"a.txt", "b.txt"}) {
		t.Fatalf("writes %v", folder.landed)
	}
	if res := call(livesurface.ToolSaveAll, "save-2", map[string]any{}); res.IsError {
		t.Fatal(res.Error)
	}
	if !reflect.DeepEqual(folder.landed, paths) {
		t.Fatalf("a file was written twice or not at all: %v", folder.landed)
	}
	for _, p := range paths {
		if b, err := os.ReadFile(filepath.Join(dir, p)); err != nil || string(b) != "new "+p+"\n" {
			t.Fatalf("%s on disk: %q %v", p, b, err)
		}
	}
	// The folder now holds everything the first save planned: its record completes by read-back.
	if out := recoverSave(); out.Status != "completed" || !reflect.DeepEqual(out.RecoveredPaths, paths) {
		t.Fatalf("second recovery: %+v", out)
	}
	if len(folder.landed) != 4 {
		t.Fatalf("recovery wrote: %v", folder.landed)
	}
	var _ workspace.FolderAdapter = folder
}
