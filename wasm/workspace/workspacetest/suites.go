package workspacetest

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/webcoding/studio/wasm/workspace"
)

// RunRepository checks the Repository contract: ErrNoWorkspace when empty, snapshot round
// trip (metadata, file order, text and asset bodies, renamedFrom), SaveChanges upsert/delete/
// metadata in one call, and the hydration repair applied by Load (REFERENCE §1).
func RunRepository(t *testing.T, newRepo func(t *testing.T) workspace.Repository) {
	ctx := context.Background()
	t.Run("empty", func(t *testing.T) {
		if _, err := newRepo(t).Load(ctx); !errors.Is(err, workspace.ErrNoWorkspace) {
			t.Fatalf("Load on an empty repository = %v, want ErrNoWorkspace", err)
		}
	})
	t.Run("snapshot-round-trip", func(t *testing.T) {
		r := newRepo(t)
		s := workspace.Seed()
		s.Revision = 17
		s.DeletedPaths = []string{"old.css"}
		renamed := workspace.NewTextFile("docs/readme.md", "# hi")
		renamed.RenamedFrom = "README.md"
		s.Files = append(s.Files[:3], renamed, workspace.NewAssetFile("logo.png", []byte{0, 1, 2, 255}))
		if err := r.SaveSnapshot(ctx, s); err != nil {
			t.Fatal(err)
		}
		got, err := r.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got.RootName != s.RootName || got.ActivePath != s.ActivePath || got.Revision != 17 || !slices.Equal(got.DeletedPaths, []string{"old.css"}) {
			t.Fatalf("metadata %+v", got.Metadata)
		}
		sameFiles(t, got.Files, s.Files)
	})
	t.Run("save-changes", func(t *testing.T) {
		r := newRepo(t)
		s := workspace.Seed()
		if err := r.SaveSnapshot(ctx, s); err != nil {
			t.Fatal(err)
		}
		edited := workspace.NewTextFile("app.js", "edited()")
		added := workspace.NewTextFile("new.css", "a{}")
		meta := workspace.Metadata{RootName: s.RootName, ActivePath: "new.css", Revision: 9, DeletedPaths: []string{"README.md"}}
		if err := r.SaveChanges(ctx, meta, []*workspace.File{edited, added}, []string{"README.md"}); err != nil {
			t.Fatal(err)
		}
		got, err := r.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []*workspace.File{s.Files[0], s.Files[1], edited, added}
		sameFiles(t, got.Files, want)
		if got.ActivePath != "new.css" || got.Revision != 9 || !slices.Equal(got.DeletedPaths, []string{"README.md"}) {
			t.Fatalf("metadata %+v", got.Metadata)
		}
		meta.DeletedPaths = nil
		if err := r.SaveChanges(ctx, meta, nil, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := r.Load(ctx); len(got.DeletedPaths) != 0 || len(got.Files) != 4 {
			t.Fatalf("metadata-only change: %+v", got.Metadata)
		}
	})
	t.Run("hydration-repair", func(t *testing.T) {
		r := newRepo(t)
		s := workspace.Seed()
		s.ActivePath = "gone.html"
		s.DeletedPaths = []string{"app.js", "removed.js"}
		if err := r.SaveSnapshot(ctx, s); err != nil {
			t.Fatal(err)
		}
		got, err := r.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got.ActivePath != "index.html" || !slices.Equal(got.DeletedPaths, []string{"removed.js"}) {
			t.Fatalf("not repaired: %+v", got.Metadata)
		}
	})
}

func sameFiles(t *testing.T, got, want []*workspace.File) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d files, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Path != w.Path || g.Kind != w.Kind || g.Language != w.Language || g.MimeType != w.MimeType ||
			g.Size != w.Size || g.Source != w.Source || string(g.Data) != string(w.Data) || g.RenamedFrom != w.RenamedFrom {
			t.Fatalf("file %d = %+v, want %+v", i, g, w)
		}
	}
}

// FolderHarness builds folders for RunFolder. New returns a folder holding files (path →
// content). MakeStale, when set, makes the folder's root vanish so the stale checks run.
type FolderHarness struct {
	New       func(t *testing.T, files map[string]string) workspace.FolderAdapter
	MakeStale func(t *testing.T, f workspace.FolderAdapter)
}

// RunFolder checks the FolderAdapter contract: ReadTree lists every file with its size and
// bytes, ReadFile of an absent file wraps ErrFolderFileMissing, WriteFile creates parents and
// replaces content, DeleteFile of an absent file succeeds, parent traversal wraps
// ErrFolderPathEscapes, a directory in the way (or a file where a parent directory is needed)
// wraps ErrFolderNotAFile for WriteFile and ReadFile and changes nothing, permission is granted, and (with MakeStale) every call on a vanished
// root wraps ErrFolderStale.
func RunFolder(t *testing.T, h FolderHarness) {
	ctx := context.Background()
	files := map[string]string{"index.html": "<p>", "css/site.css": "p{}"}
	t.Run("read-tree", func(t *testing.T) {
		f := h.New(t, files)
		entries, err := f.ReadTree(ctx)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, e := range entries {
			b, err := e.Read(ctx)
			if err != nil || int64(len(b)) != e.Size {
				t.Fatalf("%s: %v size %d/%d", e.Path, err, len(b), e.Size)
			}
			seen[e.Path] = string(b)
		}
		if len(seen) != 2 || seen["index.html"] != "<p>" || seen["css/site.css"] != "p{}" {
			t.Fatalf("tree %v", seen)
		}
		if f.Permission(ctx) != workspace.PermissionGranted || f.ScopeID() == "" || f.Name() == "" {
			t.Fatal("permission, scope id and name")
		}
	})
	t.Run("write-read-delete", func(t *testing.T) {
		f := h.New(t, files)
		if _, err := f.ReadFile(ctx, "nope.txt"); !errors.Is(err, workspace.ErrFolderFileMissing) {
			t.Fatalf("ReadFile(absent) = %v", err)
		}
		for _, step := range []struct{ p, s string }{{"a/b/c.js", "1"}, {"a/b/c.js", "22"}, {"index.html", "<h1>"}} {
			if err := f.WriteFile(ctx, step.p, []byte(step.s)); err != nil {
				t.Fatal(err)
			}
			if b, err := f.ReadFile(ctx, step.p); err != nil || string(b) != step.s {
				t.Fatalf("%s = %q %v", step.p, b, err)
			}
		}
		if err := f.DeleteFile(ctx, "a/b/c.js"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.ReadFile(ctx, "a/b/c.js"); !errors.Is(err, workspace.ErrFolderFileMissing) {
			t.Fatalf("after delete: %v", err)
		}
		if err := f.DeleteFile(ctx, "a/b/c.js"); err != nil {
			t.Fatalf("deleting an absent file: %v", err)
		}
	})
	t.Run("escapes", func(t *testing.T) {
		f := h.New(t, files)
		for _, p := range []string{"../x", "a/../../x"} {
			if err := f.WriteFile(ctx, p, []byte("x")); !errors.Is(err, workspace.ErrFolderPathEscapes) {
				t.Errorf("WriteFile(%q) = %v", p, err)
			}
			if _, err := f.ReadFile(ctx, p); !errors.Is(err, workspace.ErrFolderPathEscapes) {
				t.Errorf("ReadFile(%q) = %v", p, err)
			}
		}
	})
	t.Run("not-a-file", func(t *testing.T) {
		f := h.New(t, files)
		// "css" is a directory (css/site.css exists); "index.html/x" needs index.html to be one.
		for _, p := range []string{"css", "index.html/x"} {
			if err := f.WriteFile(ctx, p, []byte("x")); !errors.Is(err, workspace.ErrFolderNotAFile) {
				t.Errorf("WriteFile(%q) = %v, want ErrFolderNotAFile", p, err)
			}
		}
		if _, err := f.ReadFile(ctx, "css"); !errors.Is(err, workspace.ErrFolderNotAFile) {
			t.Errorf("ReadFile(directory) = %v, want ErrFolderNotAFile", err)
		}
		if b, err := f.ReadFile(ctx, "css/site.css"); err != nil || string(b) != "p{}" {
			t.Errorf("css/site.css = %q %v", b, err)
		}
		if b, err := f.ReadFile(ctx, "index.html"); err != nil || string(b) != "<p>" {
			t.Errorf("index.html = %q %v", b, err)
		}
	})
	if h.MakeStale != nil {
		t.Run("stale", func(t *testing.T) {
			f := h.New(t, files)
			h.MakeStale(t, f)
			_, e1 := f.ReadTree(ctx)
			_, e2 := f.ReadFile(ctx, "index.html")
			e3 := f.WriteFile(ctx, "index.html", []byte("x"))
			e4 := f.DeleteFile(ctx, "index.html")
			for i, err := range []error{e1, e2, e3, e4} {
				if !errors.Is(err, workspace.ErrFolderStale) {
					t.Errorf("call %d on a stale folder = %v", i, err)
				}
			}
		})
	}
}
