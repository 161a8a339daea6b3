package workspace

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// TestReloadCreatesNoHistory (issue 14 item 3): hydrating the same stored workspace again and
// again neither moves the revision nor writes to the repository, and the one checkpoint is
// the current one at the header's revision.
func TestReloadCreatesNoHistory(t *testing.T) {
	repo := &MemoryRepository{}
	m := New(Options{Repository: repo})
	m.Hydrate(ctx)
	must(m.WriteFile(ctx, tool("workspace.writeFile"), "app.js", "console.log(1)"))(t)
	want := m.Revision()
	saves := repo.Saves
	for i := range 4 {
		r := New(Options{Repository: repo})
		r.Hydrate(ctx)
		if got := r.Revision(); got != want {
			t.Fatalf("reload %d: revision %d, want the stored %d", i, got, want)
		}
		h := r.History()
		if len(h) != 1 || !h[0].Current || h[0].Revision != want {
			t.Fatalf("reload %d: history %+v, want one current checkpoint at %d", i, h, want)
		}
	}
	if repo.Saves != saves {
		t.Fatalf("reloads wrote to the repository: %d saves, want %d", repo.Saves, saves)
	}
	// A rebuilt session over the same preview starts above the session it replaces.
	r := New(Options{Repository: repo, After: want + 3})
	r.Hydrate(ctx)
	if r.Revision() != want+4 || repo.Saves != saves {
		t.Fatalf("rebuild after %d: revision %d (saves %d)", want+3, r.Revision(), repo.Saves)
	}
}

// gatedRepo is a MemoryRepository behind a WriteGate (the browser's read-only tab).
type gatedRepo struct {
	*MemoryRepository
	open atomic.Bool
}

var errOtherTab = errors.New("this workspace is open in another tab")

func (g *gatedRepo) Writable() error {
	if g.open.Load() {
		return nil
	}
	return errOtherTab
}

// TestReadOnlyRefusesEveryMutation (issue 14 item 1): while the WriteGate refuses, every
// mutation fails with WORKSPACE_READ_ONLY and neither the in-memory workspace nor the store
// changes; once it opens, mutations pass.
func TestReadOnlyRefusesEveryMutation(t *testing.T) {
	g := &gatedRepo{MemoryRepository: &MemoryRepository{}}
	g.open.Store(true)
	m := New(Options{Repository: g})
	m.Hydrate(ctx)
	g.open.Store(false)
	before := m.Snapshot()
	saves := g.Saves
	ops := map[string]func() error{
		"create":  func() error { _, e := m.CreateFile(ctx, tool("c"), "n.js", ""); return e },
		"rename":  func() error { _, e := m.RenameFile(ctx, tool("r"), "app.js", "b.js"); return e },
		"delete":  func() error { _, e := m.DeleteFile(ctx, tool("d"), "app.js"); return e },
		"write":   func() error { _, e := m.WriteFile(ctx, tool("w"), "app.js", "x"); return e },
		"patch":   func() error { _, e := m.ApplyPatch(ctx, tool("p"), "index.html", "<", "<", "first"); return e },
		"revert":  func() error { _, e := m.RevertFile(ctx, tool("v"), "app.js"); return e },
		"theme":   func() error { _, e := m.SetTheme(ctx, tool("t"), "rose"); return e },
		"feature": func() error { _, e := m.AddFeature(ctx, tool("f"), "T", "D"); return e },
		"hero":    func() error { _, e := m.UpdateHero(ctx, tool("h"), "T", nil); return e },
		"undo":    func() error { _, e := m.Undo(ctx, tool("u")); return e },
		"redo":    func() error { _, e := m.Redo(ctx, tool("u")); return e },
		"reset":   func() error { _, e := m.Reset(ctx, tool("x")); return e },
		"upload": func() error {
			_, e := m.AddFiles(ctx, tool("up"), []*File{NewTextFile("up.txt", "u")})
			return e
		},
		"checkpoint": func() error { _, e := m.RestoreCheckpoint(ctx, tool("rc"), before.Revision); return e },
	}
	for name, op := range ops {
		err := mcp.ToolErrorOf(op())
		if err == nil || err.Code != mcp.CodeWorkspaceReadOnly {
			t.Errorf("%s in a read-only workspace: %v, want WORKSPACE_READ_ONLY", name, err)
		}
	}
	if st := m.Status(ctx); st.StorageMode != StorageMemory || st.StorageError != errOtherTab.Error() {
		t.Errorf("read-only status %s %q, want memory with the reason", st.StorageMode, st.StorageError)
	}
	after := m.Snapshot()
	if after.Revision != before.Revision || !slices.Equal(after.Files, before.Files) || g.Saves != saves {
		t.Fatalf("a refused mutation changed something: revision %d→%d, saves %d→%d", before.Revision, after.Revision, saves, g.Saves)
	}
	g.open.Store(true)
	must(m.WriteFile(ctx, tool("w"), "app.js", "x"))(t)
}

// TestStaleWriteRefused (issue 14 item 1): a manager whose revision is older than the stored
// one (another writer saved meanwhile) writes nothing and reports the refusal in memory mode.
func TestStaleWriteRefused(t *testing.T) {
	repo := &MemoryRepository{}
	a := New(Options{Repository: repo})
	a.Hydrate(ctx)
	b := New(Options{Repository: repo}) // a second writer from the same stored state
	b.Hydrate(ctx)
	must(a.WriteFile(ctx, tool("w"), "app.js", "// A1"))(t)
	must(a.WriteFile(ctx, tool("w"), "app.js", "// A1 A2"))(t)
	must(b.WriteFile(ctx, tool("w"), "app.js", "// B1"))(t) // the edit itself stays in b's memory
	st := b.Status(ctx)
	if st.StorageMode != StorageMemory || st.StorageError == "" {
		t.Fatalf("stale write status %s %q, want memory mode with the refusal", st.StorageMode, st.StorageError)
	}
	stored, _ := repo.Load(ctx)
	for _, f := range stored.Files {
		if f.Path == "app.js" && f.Source != "// A1 A2" {
			t.Fatalf("stored app.js = %q, want the newer %q", f.Source, "// A1 A2")
		}
	}
	var stale *StaleWriteError
	if err := repo.SaveChanges(context.Background(), Metadata{Revision: 1}, nil, nil); !errors.As(err, &stale) || stale.Stored != stored.Revision {
		t.Fatalf("stale SaveChanges: %v", err)
	}
}
