package livesurface

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/mcp/mcptest"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// The tools/call result assertions every catalog's tests share (wasm/mcp/mcptest).
var (
	ok      = mcptest.OK
	fails   = mcptest.Fails
	details = mcptest.Details
)

// session builds one Live Code Editor session over ports with cfg.
func session(t *testing.T, p studio.Ports, cfg rpcsession.Config) *rpcsession.Session {
	t.Helper()
	Install()
	cfg.Catalog = Catalog
	s, err := studio.Builder(p)(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type meta struct {
	source, mode, session, key string
}

var direct = meta{source: mcp.SourceLocal, mode: mcp.ModeDirect}

func callAs(t *testing.T, r *registry.Registry, m meta, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	raw := []byte("{}")
	if args != nil {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			t.Fatal(err)
		}
	}
	cm := &mcp.CallMeta{ToolCallID: "t-" + name, Source: m.source, Mode: m.mode, SessionID: m.session}
	if m.key != "" {
		k := m.key
		cm.IdempotencyKey = &k
	}
	return r.Call(context.Background(), mcp.CallToolParams{Name: name, Arguments: raw, Meta: cm})
}

func call(t *testing.T, r *registry.Registry, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return callAs(t, r, direct, name, args)
}

func num(v any) int64 { f, _ := v.(float64); return int64(f) }

// clocks reads both clocks through editor.getStatus.
func clocks(t *testing.T, r *registry.Registry) (ws, doc int64) {
	t.Helper()
	st := ok(t, call(t, r, ToolGetStatus, nil))
	return num(st["workspaceRevision"]), num(st["documentRevision"])
}

// wantClocks checks a result's two clocks (and revision = documentRevision when present).
func wantClocks(t *testing.T, step string, out map[string]any, ws, doc int64) {
	t.Helper()
	if num(out["workspaceRevision"]) != ws || num(out["documentRevision"]) != doc {
		t.Fatalf("%s: clocks workspace %v document %v, want %d and %d", step, out["workspaceRevision"], out["documentRevision"], ws, doc)
	}
	if rev, has := out["revision"]; has && num(rev) != doc {
		t.Fatalf("%s: revision %v is not the document clock %d", step, rev, doc)
	}
}

// faultyFolder wraps a folder adapter: writes pass through until failAfter writes happened;
// then every write fails with errLost — after landing the bytes when land is set (the
// outcome a caller cannot tell from a lost write). Writes counts the writes that landed.
type faultyFolder struct {
	workspace.FolderAdapter
	mu        sync.Mutex
	failAfter int
	land      bool
	Writes    []string
}

var errLost = errors.New("connection to the folder lost")

func (f *faultyFolder) WriteFile(ctx context.Context, p string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failAfter >= 0 && len(f.Writes) >= f.failAfter {
		if f.land {
			if err := f.FolderAdapter.WriteFile(ctx, p, data); err != nil {
				return err
			}
			f.Writes = append(f.Writes, p)
		}
		return errLost
	}
	if err := f.FolderAdapter.WriteFile(ctx, p, data); err != nil {
		return err
	}
	f.Writes = append(f.Writes, p)
	return nil
}

func (f *faultyFolder) heal() {
	f.mu.Lock()
	f.failAfter = -1
	f.mu.Unlock()
}

func (f *faultyFolder) writes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.Writes...)
}
