package studio

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// blockedRepo is a Repository whose every access fails the way blocked browser storage does:
// Load panics (the indexedDB getter throwing inside the adapter), writes fail.
type blockedRepo struct{}

func (blockedRepo) Load(context.Context) (workspace.Snapshot, error) {
	panic("SecurityError: Storage is blocked by policy")
}
func (blockedRepo) SaveSnapshot(context.Context, workspace.Snapshot) error {
	return fmt.Errorf("SecurityError: Storage is blocked by policy")
}
func (blockedRepo) SaveChanges(context.Context, workspace.Metadata, []*workspace.File, []string) error {
	return fmt.Errorf("SecurityError: Storage is blocked by policy")
}

// TestBlockedStorageConcurrentCalls (issue 14 item 9): with storage blocked the core runs in
// memory mode with the storage error, and stays consistent under the browser's call pattern —
// the boot's tools/list racing the render loop's listFiles/getStatus reads, editor flushes
// (writeFile), preview refreshes and a session/configure rebuild (the read-only tab's take
// over). Run with -race.
func TestBlockedStorageConcurrentCalls(t *testing.T) {
	for _, repo := range []workspace.Repository{blockedRepo{}, &monotonicRepo{t: t}} {
		t.Run(fmt.Sprintf("%T", repo), func(t *testing.T) {
			h := rpcsession.New(context.Background(), Builder(Ports{Repository: repo}))
			ctx := context.Background()
			var wg sync.WaitGroup
			req := func(id int, method string, params any) map[string]any {
				raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
				var out map[string]any
				if err := json.Unmarshal(h.Handle(ctx, raw), &out); err != nil {
					t.Errorf("%s: %v", method, err)
				}
				return out
			}
			tool := func(name string, args any) map[string]any {
				return map[string]any{"name": name, "arguments": args, "_meta": map[string]any{"source": "local", "mode": "direct"}}
			}
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range 20 {
						id := g*100 + i
						switch (g + i) % 6 {
						case 0:
							req(id, "tools/list", map[string]any{})
						case 1:
							req(id, "tools/call", tool("workspace.listFiles", map[string]any{}))
						case 2:
							req(id, "tools/call", tool("workspace.getStatus", map[string]any{}))
						case 3:
							req(id, "tools/call", tool("workspace.writeFile", map[string]any{"path": "app.js", "source": fmt.Sprintf("// %d", id)}))
						case 4:
							req(id, "tools/call", tool("preview.refresh", map[string]any{}))
						case 5:
							if i%10 == 5 {
								req(id, "session/configure", map[string]any{})
							} else {
								req(id, "workspace/history", map[string]any{})
							}
						}
					}
				}()
			}
			wg.Wait()
			out := req(1, "tools/call", tool("workspace.getStatus", map[string]any{}))
			res, _ := out["result"].(map[string]any)
			sc, _ := res["structuredContent"].(map[string]any)
			if _, blocked := repo.(blockedRepo); blocked {
				if sc["storageMode"] != "memory" || !strings.Contains(fmt.Sprint(sc["storageError"]), "blocked") {
					t.Fatalf("blocked storage status: %v", sc)
				}
			} else if sc["storageMode"] != "indexed-db" && !strings.Contains(fmt.Sprint(sc["storageError"]), "is newer") {
				// A rebuild racing writes still in flight on the replaced session may leave the
				// new one behind the store: then it says so (memory mode, the refusal), never
				// writes over the newer state (monotonicRepo checks every write).
				t.Fatalf("status: %v", sc)
			}
		})
	}
}

// monotonicRepo is a MemoryRepository that fails the test when a successful write lowers the
// stored revision (issue 14: never write a state older than the stored one).
type monotonicRepo struct {
	workspace.MemoryRepository
	t    *testing.T
	mu   sync.Mutex
	high int64
}

// check runs write and checks the revision it stored, both under r.mu (so the order of the
// checks is the order of the writes).
func (r *monotonicRepo) check(rev int64, write func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := write(); err != nil {
		return err
	}
	if rev < r.high {
		r.t.Errorf("a write stored revision %d over the stored %d", rev, r.high)
	}
	r.high = max(r.high, rev)
	return nil
}

func (r *monotonicRepo) SaveSnapshot(ctx context.Context, s workspace.Snapshot) error {
	return r.check(s.Revision, func() error { return r.MemoryRepository.SaveSnapshot(ctx, s) })
}

func (r *monotonicRepo) SaveChanges(ctx context.Context, m workspace.Metadata, put []*workspace.File, del []string) error {
	return r.check(m.Revision, func() error { return r.MemoryRepository.SaveChanges(ctx, m, put, del) })
}
