package foldersave_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/foldersave"
	"github.com/webcoding/studio/wasm/workspace"
)

const (
	oldCSS = "h1 { color: red; }"
	newCSS = "h1{color:green}"
)

// interrupted leaves, in a fresh backend, the record of a save item that stopped in flight:
// pending under owner, or unknown when unknown is set; with a plan record naming the folder's
// bytes before the save (oldCSS).
func interrupted(t *testing.T, folder *workspace.MemFolder, it workspace.SaveItem, owner string, unknown bool) durable.Backend {
	t.Helper()
	ctx := context.Background()
	backend := memstore.New()
	store, err := durable.New(backend, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := store.Claim(ctx, it.OperationKey(), it.Fingerprint(), owner, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if unknown {
		if _, err := store.MarkUnknown(ctx, it.OperationKey(), owner, c.Fence, "the write did not confirm", nil); err != nil {
			t.Fatal(err)
		}
	}
	pk := foldersave.PlanKey(folder.ScopeID(), it.Revision)
	pc, err := store.Claim(ctx, pk, "workspace.saveAll.plan:test", owner, 0)
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := json.Marshal(map[string]any{"previousHashes": map[string]string{it.Path: workspace.SourceHash([]byte(oldCSS))}})
	if _, err := store.Complete(ctx, pk, owner, pc.Fence, plan); err != nil {
		t.Fatal(err)
	}
	return backend
}

func state(t *testing.T, b durable.Backend, key string) durable.State {
	t.Helper()
	rec, found, err := b.Read(context.Background(), key)
	if err != nil || !found {
		t.Fatalf("record %s: found %v, %v", key, found, err)
	}
	return rec.State
}

// Reconcile settles an interrupted write by reading the folder back: the planned bytes →
// completed; absent or the bytes from before the save → failed; other bytes stay unknown.
func TestReconcileWriteByHash(t *testing.T) {
	for _, tc := range []struct {
		name, onDisk string // "" = the file is absent
		want         durable.State
		unresolved   bool
	}{
		{"landed", newCSS, durable.StateCompleted, false},
		{"absent", "", durable.StateFailed, false},
		{"pre-save bytes", oldCSS, durable.StateFailed, false},
		{"other bytes", "something else", durable.StateUnknown, true},
	} {
		for _, v := range []struct {
			name, owner string
			unknown     bool
		}{
			{"own pending claim", "tab-1", false},
			{"unknown", "tab-1", true},
			// A tab killed mid-save: its claim, with a live lease, settled by the sole owner.
			{"killed tab's pending claim", "tab-dead", false},
		} {
			name, unknown := tc.name+"/"+v.name, v.unknown
			t.Run(name, func(t *testing.T) {
				ctx := context.Background()
				folder := workspace.NewMemFolder("proj", map[string]string{"styles.css": oldCSS})
				it := workspace.SaveItem{Op: workspace.SaveOpWrite, Path: "styles.css", Revision: 7, ScopeID: folder.ScopeID(),
					SourceHash: workspace.SourceHash([]byte(newCSS))}
				backend := interrupted(t, folder, it, v.owner, unknown)
				if tc.onDisk == "" {
					_ = folder.DeleteFile(ctx, "styles.css")
				} else {
					_ = folder.WriteFile(ctx, "styles.css", []byte(tc.onDisk))
				}
				s := foldersave.New(foldersave.Options{Backend: backend, OwnerID: "tab-1", SoleOwner: v.owner != "tab-1"})
				unresolved, err := s.Reconcile(ctx, folder)
				if err != nil {
					t.Fatal(err)
				}
				if got := state(t, backend, it.OperationKey()); got != tc.want {
					t.Errorf("record %s, want %s", got, tc.want)
				}
				if (len(unresolved) > 0) != tc.unresolved {
					t.Errorf("unresolved %v", unresolved)
				}
			})
		}
	}
}

// An interrupted delete is completed when the file is gone and failed when it is still there.
func TestReconcileDelete(t *testing.T) {
	for _, gone := range []bool{true, false} {
		ctx := context.Background()
		folder := workspace.NewMemFolder("proj", map[string]string{"old.css": oldCSS})
		it := workspace.SaveItem{Op: workspace.SaveOpDelete, Path: "old.css", Revision: 3, ScopeID: folder.ScopeID()}
		backend := interrupted(t, folder, it, "tab-1", true)
		want := durable.StateFailed
		if gone {
			_ = folder.DeleteFile(ctx, "old.css")
			want = durable.StateCompleted
		}
		if _, err := foldersave.New(foldersave.Options{Backend: backend, OwnerID: "tab-1"}).Reconcile(ctx, folder); err != nil {
			t.Fatal(err)
		}
		if got := state(t, backend, it.OperationKey()); got != want {
			t.Errorf("gone %v: record %s, want %s", gone, got, want)
		}
	}
}

// Another owner's live claim is left alone, however the folder looks, unless the Saver is the
// sole owner (TestReconcileWriteByHash, "killed tab's pending claim").
func TestReconcileLeavesOtherOwnersClaim(t *testing.T) {
	ctx := context.Background()
	folder := workspace.NewMemFolder("proj", map[string]string{"styles.css": newCSS})
	it := workspace.SaveItem{Op: workspace.SaveOpWrite, Path: "styles.css", Revision: 7, ScopeID: folder.ScopeID(),
		SourceHash: workspace.SourceHash([]byte(newCSS))}
	backend := interrupted(t, folder, it, "tab-other", false)
	unresolved, err := foldersave.New(foldersave.Options{Backend: backend, OwnerID: "tab-1"}).Reconcile(ctx, folder)
	if err != nil || len(unresolved) != 0 {
		t.Fatalf("unresolved %v, %v", unresolved, err)
	}
	if got := state(t, backend, it.OperationKey()); got != durable.StatePending {
		t.Fatalf("another owner's claim became %s", got)
	}
}

// Resolve settles the unknown records of one path as failed, by the user's choice, and
// counts them; Prepare then no longer blocks the save.
func TestResolveUnknown(t *testing.T) {
	ctx := context.Background()
	folder := workspace.NewMemFolder("proj", map[string]string{"styles.css": "something else"})
	it := workspace.SaveItem{Op: workspace.SaveOpWrite, Path: "styles.css", Revision: 7, ScopeID: folder.ScopeID(),
		SourceHash: workspace.SourceHash([]byte(newCSS))}
	backend := interrupted(t, folder, it, "tab-1", true)
	s := foldersave.New(foldersave.Options{Backend: backend, OwnerID: "tab-1"})
	if unresolved, err := s.Reconcile(ctx, folder); err != nil || len(unresolved) != 1 {
		t.Fatalf("unresolved %v, %v", unresolved, err)
	}
	n, err := s.Resolve(ctx, folder.ScopeID(), "styles.css", foldersave.ChoiceWriteOurs)
	if err != nil || n != 1 {
		t.Fatalf("resolved %d, %v", n, err)
	}
	if got := state(t, backend, it.OperationKey()); got != durable.StateFailed {
		t.Fatalf("record %s after Resolve", got)
	}
	if unresolved, err := s.Reconcile(ctx, folder); err != nil || len(unresolved) != 0 {
		t.Fatalf("after Resolve: unresolved %v, %v", unresolved, err)
	}
}

// Without a backend a Saver does nothing: plain saves, nothing to reconcile or resolve.
func TestNoBackend(t *testing.T) {
	ctx := context.Background()
	s := foldersave.New(foldersave.Options{})
	m := workspace.New(workspace.Options{})
	opts, err := s.Prepare(ctx, m)
	if err != nil || opts.Perform != nil {
		t.Fatalf("Prepare: %+v, %v", opts, err)
	}
	if unresolved, err := s.Reconcile(ctx, workspace.NewMemFolder("proj", nil)); err != nil || unresolved == nil || len(unresolved) != 0 {
		t.Fatalf("Reconcile: %v, %v", unresolved, err)
	}
	if n, err := s.Resolve(ctx, "scope", "a.css", foldersave.ChoiceKeepFolder); err != nil || n != 0 {
		t.Fatalf("Resolve: %d, %v", n, err)
	}
}
