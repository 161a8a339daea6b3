package workspace

import (
	"context"
	"errors"
	"iter"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
)

var ctx = context.Background()

// fakeClock advances only when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newManager(t testing.TB) (*Manager, *MemoryRepository, *fakeClock) {
	t.Helper()
	repo := &MemoryRepository{}
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	m := New(Options{Repository: repo, Now: clk.Now})
	m.Hydrate(ctx)
	return m, repo, clk
}

func tool(name string) Call { return Call{Tool: name, CallID: "call-" + name} }

// must(f())(t) returns f's value and fails t on an error.
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v (details %v)", err, mcp.ToolErrorOf(err).Details)
		}
		return v
	}
}

// wantErr checks code, retryability and (when details != nil) the exact details map.
func wantErr(t testing.TB, e error, code mcp.Code, retryable bool, details map[string]any) {
	t.Helper()
	if e == nil {
		t.Fatalf("want %s, got success", code)
	}
	var err *mcp.ToolError
	if !errors.As(e, &err) {
		t.Fatalf("want %s, got a %T that is no *mcp.ToolError: %v", code, e, e)
	}
	if err.Code != code || err.Retryable != retryable {
		t.Fatalf("got %s retryable=%v (%s), want %s retryable=%v", err.Code, err.Retryable, err.Message, code, retryable)
	}
	if details != nil && !reflect.DeepEqual(err.Details, details) {
		t.Fatalf("%s details = %#v, want %#v", code, err.Details, details)
	}
}

func source(t testing.TB, m *Manager, p string) string {
	t.Helper()
	return must(m.ReadFile(p))(t).Source
}

func paths(m *Manager) []string {
	var out []string
	for _, f := range m.Files() {
		out = append(out, f.Path)
	}
	return out
}

// failingRepo fails every call after failAfter successful saves (negative: never).
type failingRepo struct {
	MemoryRepository
	loadErr   error
	failAfter int
	saves     int
}

func (r *failingRepo) Load(ctx context.Context) (Snapshot, error) {
	if r.loadErr != nil {
		return Snapshot{}, r.loadErr
	}
	return r.MemoryRepository.Load(ctx)
}

func (r *failingRepo) err() error {
	r.saves++
	if r.failAfter >= 0 && r.saves > r.failAfter {
		return errors.New("  QuotaExceededError: " + strings.Repeat("x", 400))
	}
	return nil
}

func (r *failingRepo) SaveSnapshot(ctx context.Context, s Snapshot) error {
	if err := r.err(); err != nil {
		return err
	}
	return r.MemoryRepository.SaveSnapshot(ctx, s)
}

func (r *failingRepo) SaveChanges(ctx context.Context, meta Metadata, put []*File, del []string) error {
	if err := r.err(); err != nil {
		return err
	}
	return r.MemoryRepository.SaveChanges(ctx, meta, put, del)
}

// entries offers files (sorted by path) to the importer.
func entries(files map[string]string) iter.Seq[ImportEntry] {
	keys := slices.Sorted(maps.Keys(files))
	list := make([]ImportEntry, 0, len(keys))
	for _, k := range keys {
		data := []byte(files[k])
		list = append(list, ImportEntry{Path: k, Size: int64(len(data)), Read: func(context.Context) ([]byte, error) { return data, nil }})
	}
	return slices.Values(list)
}
