package workspace

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
)

func TestSeed(t *testing.T) {
	s := Seed()
	if s.RootName != "canvas-landing" || s.ActivePath != "index.html" || len(s.Files) != 4 {
		t.Fatalf("seed = %+v", s.Metadata)
	}
	want := []string{"index.html", "styles.css", "app.js", "README.md"}
	for i, f := range s.Files {
		if f.Path != want[i] || f.Kind != KindText {
			t.Fatalf("file %d = %s %s", i, f.Path, f.Kind)
		}
	}
	html := s.Files[0].Source
	for _, needle := range []string{"<link rel=stylesheet href=styles.css>", `id="hero-title"`, `id="hero-subtitle"`,
		`id="hero-button"`, FeatureSlotMarker, `id="cta-copy"`, `<script src="app.js"></script>`} {
		if !strings.Contains(html, needle) {
			t.Errorf("index.html lacks %q", needle)
		}
	}
	if strings.Count(html, `class="feature-card"`) != 2 {
		t.Error("want two feature cards")
	}
	if !strings.Contains(s.Files[1].Source, "--accent: #8b5cf6;") || !strings.Contains(s.Files[1].Source, "--accent-soft: #f0eaff;") {
		t.Error("styles.css lacks theme tokens")
	}
	if Seed().Files[0] == s.Files[0] {
		t.Error("Seed must return new values")
	}
}

func TestFileMaps(t *testing.T) {
	cases := []struct {
		path, lang, mime string
		asset            bool
	}{
		{"a.css", "css", "text/css", false}, {"a.HTM", "html", "text/html", false}, {"a.mjs", "javascript", "text/javascript", false},
		{"a.json", "json", "application/json", false}, {"a.md", "markdown", "text/markdown", false},
		{"a.tsx", "typescript", "text/plain", false}, {"a.txt", "text", "text/plain", false}, {"Makefile", "text", "text/plain", false},
		{"logo.PNG", "text", "image/png", true}, {"f.woff2", "text", "font/woff2", true}, {"x.svg", "text", "image/svg+xml", true},
	}
	for _, c := range cases {
		if LanguageFor(c.path) != c.lang || IsAssetPath(c.path) != c.asset {
			t.Errorf("%s: lang %s asset %v", c.path, LanguageFor(c.path), IsAssetPath(c.path))
		}
		var f *File
		if c.asset {
			f = NewAssetFile(c.path, []byte{1, 2, 3})
		} else {
			f = NewTextFile(c.path, "x")
		}
		if f.MimeType != c.mime {
			t.Errorf("%s: mime %s want %s", c.path, f.MimeType, c.mime)
		}
	}
	if UTF16Len("a😀é") != 4 || CharCount("a😀é") != 3 {
		t.Error("unit counts")
	}
	if NewTextFile("a.txt", "😀").Size != 2 {
		t.Error("text size must be UTF-16 code units")
	}
}

func TestHydrateAndRevisionContinuity(t *testing.T) {
	m, repo, _ := newManager(t)
	if m.Revision() != 2 || m.Status(ctx).StorageMode != StorageIndexedDB {
		t.Fatalf("fresh hydrate: rev %d mode %s", m.Revision(), m.Status(ctx).StorageMode)
	}
	must(m.WriteFile(ctx, tool("workspace.writeFile"), "app.js", "console.log(1)"))(t)
	must(m.DeleteFile(ctx, tool("workspace.deleteFile"), "README.md"))(t)
	if m.Revision() != 4 {
		t.Fatalf("rev %d", m.Revision())
	}
	stored, err := repo.Load(ctx)
	if err != nil || stored.Revision != 4 || !slices.Equal(stored.DeletedPaths, []string{"README.md"}) {
		t.Fatalf("stored %+v %v", stored.Metadata, err)
	}
	m2 := New(Options{Repository: repo})
	m2.Hydrate(ctx)
	if m2.Revision() != 4 {
		t.Fatalf("reload revision %d, want 4 (the stored revision: a reload creates no revision, issue 14)", m2.Revision())
	}
	st := m2.Status(ctx)
	if !slices.Equal(st.DeletedPaths, []string{"README.md"}) || len(st.DirtyPaths) != 0 || st.History.CanUndo {
		t.Fatalf("reload status %+v", st)
	}
	if source(t, m2, "app.js") != "console.log(1)" {
		t.Fatal("edit lost across reload")
	}
	r := must(m2.WriteFile(ctx, tool("w"), "app.js", "x"))(t)
	if r.Revision != 5 {
		t.Fatalf("next revision %d", r.Revision)
	}
	if s, _ := repo.Load(ctx); s.Revision != 5 {
		t.Fatalf("stored revision %d", s.Revision)
	}
}

func TestHydrationRepair(t *testing.T) {
	repo := &MemoryRepository{}
	s := Seed()
	s.ActivePath = "gone.js"
	s.Revision = 40
	s.DeletedPaths = []string{"app.js", "old.css", "old.css"}
	s.Files = s.Files[1:] // no index.html: active must fall back to first text file
	repo.SetStored(s)
	m := New(Options{Repository: repo})
	m.Hydrate(ctx)
	st := m.Status(ctx)
	if st.ActivePath != "styles.css" || !slices.Equal(st.DeletedPaths, []string{"old.css"}) || st.Revision != 40 {
		t.Fatalf("repaired status %+v", st)
	}
	if got, _ := repo.Load(ctx); got.ActivePath != "styles.css" || len(got.DeletedPaths) != 1 {
		t.Fatalf("repository load not repaired: %+v", got.Metadata)
	}
}

func TestRepositoryFailureFallsBackToMemory(t *testing.T) {
	repo := &failingRepo{failAfter: 1}
	m := New(Options{Repository: repo})
	m.Hydrate(ctx)
	if st := m.Status(ctx); st.StorageMode != StorageIndexedDB {
		t.Fatalf("mode %s", st.StorageMode)
	}
	r, err := m.WriteFile(ctx, tool("w"), "app.js", "x")
	if err != nil || r.Revision != 3 {
		t.Fatalf("write must still succeed: %v", err)
	}
	st := m.Status(ctx)
	if st.StorageMode != StorageMemory || utf8.RuneCountInString(st.StorageError) > MaxMessageChars ||
		!strings.HasPrefix(st.StorageError, "QuotaExceededError") {
		t.Fatalf("status after failure: %s %q", st.StorageMode, st.StorageError)
	}

	broken := &failingRepo{loadErr: errString(""), failAfter: -1}
	m2 := New(Options{Repository: broken})
	m2.Hydrate(ctx)
	if st := m2.Status(ctx); st.StorageMode != StorageMemory || st.StorageError != FallbackRestoreError || st.FileCount != 4 {
		t.Fatalf("restore failure status %+v", st)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestNoRepositoryIsMemoryMode(t *testing.T) {
	m := New(Options{})
	if m.Status(ctx).StorageMode != StorageMemory {
		t.Fatal("want memory mode")
	}
	m.Hydrate(ctx)
	if m.Revision() != 2 {
		t.Fatal("hydrate should move to revision 2")
	}
}

func TestRevisionGuard(t *testing.T) {
	m, _, _ := newManager(t)
	stale := Call{Tool: "t", ExpectedRevision: Rev(1)}
	want := map[string]any{"expectedRevision": int64(1), "currentRevision": int64(2)}
	ops := map[string]func() error{
		"create":  func() error { _, e := m.CreateFile(ctx, stale, "n.js", ""); return e },
		"rename":  func() error { _, e := m.RenameFile(ctx, stale, "app.js", "b.js"); return e },
		"delete":  func() error { _, e := m.DeleteFile(ctx, stale, "app.js"); return e },
		"write":   func() error { _, e := m.WriteFile(ctx, stale, "app.js", ""); return e },
		"patch":   func() error { _, e := m.ApplyPatch(ctx, stale, "app.js", "a", "b", "first"); return e },
		"revert":  func() error { _, e := m.RevertFile(ctx, stale, "app.js"); return e },
		"undo":    func() error { _, e := m.Undo(ctx, stale); return e },
		"redo":    func() error { _, e := m.Redo(ctx, stale); return e },
		"reset":   func() error { _, e := m.Reset(ctx, stale); return e },
		"save":    func() error { _, e := m.SaveAll(ctx, stale, SaveOptions{}); return e },
		"ckpt":    func() error { _, e := m.SaveCheckpoint(ctx, stale); return e },
		"reload":  func() error { _, e := m.ReloadFolder(ctx, stale); return e },
		"theme":   func() error { _, e := m.SetTheme(ctx, stale, "rose"); return e },
		"feature": func() error { _, e := m.AddFeature(ctx, stale, "a", "b"); return e },
		"hero":    func() error { _, e := m.UpdateHero(ctx, stale, "a", ptr("b")); return e },
	}
	for name, op := range ops {
		err := op()
		wantErr(t, err, mcp.CodeWorkspaceRevisionConflict, true, want)
		if mcp.ToolErrorOf(err).Message != "Workspace revision mismatch: expected 1, current 2. Re-read the workspace status and retry with the current revision." {
			t.Errorf("%s message %q", name, mcp.ToolErrorOf(err).Message)
		}
	}
	if m.Revision() != 2 {
		t.Fatal("guarded calls changed the revision")
	}
	if _, err := m.WriteFile(ctx, Call{ExpectedRevision: Rev(2)}, "app.js", "ok"); err != nil {
		t.Fatalf("matching expectedRevision refused: %v", err)
	}
}

func TestReadListOpen(t *testing.T) {
	m, _, _ := newManager(t)
	_, err := m.ReadFile("nope.js")
	wantErr(t, err, mcp.CodeWorkspaceFileNotFound, false, map[string]any{"path": "nope.js"})
	_, err = m.ReadFile("../x")
	wantErr(t, err, mcp.CodeWorkspacePathInvalid, false, map[string]any{"path": "../x", "reason": "parent-traversal"})
	must(m.ImportUpload(ctx, tool("import"), "up", entries(map[string]string{"index.html": "<h1>", "logo.png": "PNG"})))(t)
	_, err = m.ReadFile("logo.png")
	wantErr(t, err, mcp.CodeWorkspaceFileTypeConflict, false,
		map[string]any{"path": "logo.png", "operation": "read", "actualKind": "asset", "expectedKind": "text"})
	rev := m.Revision()
	r := must(m.OpenFile(ctx, "./logo.png"))(t)
	if r.ActivePath != "logo.png" || r.Revision != rev || m.Revision() != rev {
		t.Fatalf("open: %+v", r)
	}
	_, err = m.OpenFile(ctx, "x.css")
	wantErr(t, err, mcp.CodeWorkspaceFileNotFound, false, nil)
	l := m.ListFiles()
	if l.ActivePath != "logo.png" || l.Dirty || len(l.Files) != 2 || l.Files[1].Kind != KindAsset || l.Files[1].Size != 3 {
		t.Fatalf("listing %+v", l)
	}
	f := must(m.File("logo.png"))(t)
	if string(f.Data) != "PNG" {
		t.Fatal("asset bytes")
	}
}

func TestCreateFile(t *testing.T) {
	m, repo, _ := newManager(t)
	r := must(m.CreateFile(ctx, tool("workspace.createFile"), "src\\main.ts", "let a = 1"))(t)
	if r.Path != "src/main.ts" || r.ActivePath != "src/main.ts" || r.Revision != 3 || r.Language != "typescript" {
		t.Fatalf("create result %+v", r)
	}
	if s, _ := repo.Load(ctx); len(s.Files) != 5 || s.ActivePath != "src/main.ts" {
		t.Fatal("create not persisted")
	}
	st := m.Status(ctx)
	if !slices.Equal(st.DirtyPaths, []string{"src/main.ts"}) || !st.History.CanUndo || st.Preview != (PreviewState{Revision: 3, Status: PreviewWaiting}) {
		t.Fatalf("status %+v", st)
	}
	_, err := m.CreateFile(ctx, tool("c"), "index.html", "")
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false, map[string]any{"path": "index.html", "operation": "create"})
	_, err = m.CreateFile(ctx, tool("c"), "img/a.png", "")
	wantErr(t, err, mcp.CodeWorkspaceFileTypeConflict, false, map[string]any{"path": "img/a.png", "operation": "create", "expectedKind": "text"})
	_, err = m.CreateFile(ctx, tool("c"), "big.txt", strings.Repeat("é", MaxSourceChars+1))
	wantErr(t, err, mcp.CodeWorkspaceSourceLimit, false, map[string]any{"limit": MaxSourceChars})
	// Exactly the limit in code points (multi-byte) is fine: the limit is not bytes.
	must(m.CreateFile(ctx, tool("c"), "max.txt", strings.Repeat("é", MaxSourceChars)))(t)
	_, err = m.CreateFile(ctx, tool("c"), "a\x00", "")
	wantErr(t, err, mcp.CodeWorkspacePathInvalid, false, map[string]any{"path": "a\x00", "reason": "nul"})
	// create removes the path from pending deletions
	must(m.DeleteFile(ctx, tool("d"), "app.js"))(t)
	must(m.CreateFile(ctx, tool("c"), "app.js", "new"))(t)
	if len(m.Status(ctx).DeletedPaths) != 0 {
		t.Fatal("create must drop the path from deletedPaths")
	}
}

func TestRenameFile(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.OpenFile(ctx, "app.js"))(t)
	r := must(m.RenameFile(ctx, tool("workspace.renameFile"), "app.js", "./js/main.mjs"))(t)
	if r.FromPath != "app.js" || r.Path != "js/main.mjs" || r.ActivePath != "js/main.mjs" || r.Revision != 3 {
		t.Fatalf("rename %+v", r)
	}
	f := must(m.File("js/main.mjs"))(t)
	if f.RenamedFrom != "app.js" || f.Language != "javascript" || f.MimeType != "text/javascript" {
		t.Fatalf("renamed file %+v", f)
	}
	st := m.Status(ctx)
	if !slices.Equal(st.DeletedPaths, []string{"app.js"}) || !slices.Equal(st.DirtyPaths, []string{"js/main.mjs"}) {
		t.Fatalf("status %+v", st)
	}
	// rename back clears renamedFrom and the deletion
	must(m.RenameFile(ctx, tool("r"), "js/main.mjs", "app.js"))(t)
	if f := must(m.File("app.js"))(t); f.RenamedFrom != "" {
		t.Fatal("renamedFrom must clear when renamed back")
	}
	st = m.Status(ctx)
	if len(st.DeletedPaths) != 0 || len(st.DirtyPaths) != 0 {
		t.Fatalf("after rename back %+v", st)
	}

	_, err := m.RenameFile(ctx, tool("r"), "app.js", "./app.js")
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false, map[string]any{"fromPath": "app.js", "toPath": "app.js"})
	_, err = m.RenameFile(ctx, tool("r"), "nope.js", "b.js")
	wantErr(t, err, mcp.CodeWorkspaceFileNotFound, false, map[string]any{"path": "nope.js"})
	_, err = m.RenameFile(ctx, tool("r"), "app.js", "styles.css")
	wantErr(t, err, mcp.CodeWorkspaceFileConflict, false, map[string]any{"path": "styles.css", "operation": "rename"})
	_, err = m.RenameFile(ctx, tool("r"), "app.js", "app.png")
	wantErr(t, err, mcp.CodeWorkspaceFileTypeConflict, false, map[string]any{"path": "app.png", "operation": "rename", "actualKind": "asset", "expectedKind": "text"})
	_, err = m.RenameFile(ctx, tool("r"), "index.html", "index.txt")
	wantErr(t, err, mcp.CodeWorkspacePreviewEntryRequired, false, map[string]any{"operation": "rename", "path": "index.html"})
	_, err = m.RenameFile(ctx, tool("r"), "..", "x")
	wantErr(t, err, mcp.CodeWorkspacePathInvalid, false, nil)
	// HTML → HTML is fine
	must(m.RenameFile(ctx, tool("r"), "index.html", "home.htm"))(t)

	must(m.ImportUpload(ctx, tool("i"), "up", entries(map[string]string{"index.html": "x", "logo.png": "P"})))(t)
	_, err = m.RenameFile(ctx, tool("r"), "logo.png", "logo.txt")
	wantErr(t, err, mcp.CodeWorkspaceFileTypeConflict, false, map[string]any{"path": "logo.txt", "operation": "rename", "actualKind": "text", "expectedKind": "asset"})
	r = must(m.RenameFile(ctx, tool("r"), "logo.png", "img/logo.webp"))(t)
	if f := must(m.File("img/logo.webp"))(t); f.MimeType != "image/webp" || f.Kind != KindAsset {
		t.Fatalf("asset rename %+v", f)
	}
}

func TestDeleteFile(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.OpenFile(ctx, "app.js"))(t)
	r := must(m.DeleteFile(ctx, tool("workspace.deleteFile"), "app.js"))(t)
	if r.ActivePath != "index.html" || r.Revision != 3 || !slices.Equal(m.Status(ctx).DeletedPaths, []string{"app.js"}) {
		t.Fatalf("delete %+v", r)
	}
	// a never-saved file is not queued for deletion
	must(m.CreateFile(ctx, tool("c"), "tmp.md", ""))(t)
	must(m.DeleteFile(ctx, tool("d"), "tmp.md"))(t)
	if !slices.Equal(m.Status(ctx).DeletedPaths, []string{"app.js"}) {
		t.Fatal("unsaved file must not be queued")
	}
	_, err := m.DeleteFile(ctx, tool("d"), "index.html")
	wantErr(t, err, mcp.CodeWorkspacePreviewEntryRequired, false, map[string]any{"operation": "delete", "path": "index.html"})
	_, err = m.DeleteFile(ctx, tool("d"), "missing.css")
	wantErr(t, err, mcp.CodeWorkspaceFileNotFound, false, nil)
	must(m.DeleteFile(ctx, tool("d"), "styles.css"))(t)
	must(m.DeleteFile(ctx, tool("d"), "README.md"))(t)
	_, err = m.DeleteFile(ctx, tool("d"), "index.html")
	wantErr(t, err, mcp.CodeWorkspaceEmpty, false, map[string]any{"operation": "delete", "path": "index.html"})

	// active falls back to the first file when no HTML remains... (needs a non-HTML workspace)
	must(m.ImportUpload(ctx, tool("i"), "up", entries(map[string]string{"a.css": "", "b.js": ""})))(t)
	must(m.OpenFile(ctx, "a.css"))(t)
	r = must(m.DeleteFile(ctx, tool("d"), "a.css"))(t)
	if r.ActivePath != "b.js" {
		t.Fatalf("fallback active %q", r.ActivePath)
	}
}

func TestWriteFileAndOverBudgetImport(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.OpenFile(ctx, "README.md"))(t)
	r := must(m.WriteFile(ctx, tool("workspace.writeFile"), "app.js", "x"))(t)
	if r.ActivePath != "README.md" || !r.Changed {
		t.Fatal("write must not change the active path")
	}
	_, err := m.WriteFile(ctx, tool("w"), "app.js", strings.Repeat("a", MaxSourceChars+1))
	wantErr(t, err, mcp.CodeWorkspaceSourceLimit, false, map[string]any{"limit": 80000})
	_, err = m.WriteFile(ctx, tool("w"), "none.js", "")
	wantErr(t, err, mcp.CodeWorkspaceFileNotFound, false, nil)

	big := strings.Repeat("b", MaxSourceChars+10)
	must(m.ImportUpload(ctx, tool("i"), "up", entries(map[string]string{"index.html": "h", "big.txt": big, "i.png": "P"})))(t)
	if source(t, m, "big.txt") != big {
		t.Fatal("over-budget import must stay readable in full")
	}
	var info FileInfo
	for _, f := range m.ListFiles().Files {
		if f.Path == "big.txt" {
			info = f
		}
	}
	if !info.OverBudget || info.Size != len(big) {
		t.Fatalf("listing %+v", info)
	}
	_, err = m.WriteFile(ctx, tool("w"), "big.txt", big+"!")
	wantErr(t, err, mcp.CodeWorkspaceSourceLimit, false, nil)
	_, err = m.ApplyPatch(ctx, tool("p"), "big.txt", "bb", "b", OccurrenceFirst)
	wantErr(t, err, mcp.CodeWorkspaceSourceLimit, false, nil) // still over after the patch
	must(m.WriteFile(ctx, tool("w"), "big.txt", "short"))(t)
	_, err = m.WriteFile(ctx, tool("w"), "i.png", "x")
	wantErr(t, err, mcp.CodeWorkspaceFileTypeConflict, false, map[string]any{"path": "i.png", "operation": "write", "actualKind": "asset", "expectedKind": "text"})
}

func TestApplyPatch(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.WriteFile(ctx, tool("w"), "app.js", "a-b-a-b-a"))(t)
	r := must(m.ApplyPatch(ctx, tool("workspace.applyPatch"), "app.js", "a", "X", OccurrenceFirst))(t)
	if r.Replacements != 1 || source(t, m, "app.js") != "X-b-a-b-a" {
		t.Fatalf("first: %+v %q", r, source(t, m, "app.js"))
	}
	r = must(m.ApplyPatch(ctx, tool("p"), "app.js", "a", "YY", OccurrenceAll))(t)
	if r.Replacements != 2 || source(t, m, "app.js") != "X-b-YY-b-YY" {
		t.Fatalf("all: %+v", r)
	}
	_, err := m.ApplyPatch(ctx, tool("p"), "app.js", "secret-needle", "", OccurrenceAll)
	wantErr(t, err, mcp.CodeWorkspacePatchNotFound, false, map[string]any{"path": "app.js", "occurrence": "all", "searchLength": 13})
	if strings.Contains(mcp.ToolErrorOf(err).Message, "secret-needle") || strings.Contains(mcp.ToolErrorOf(err).Message, "X-b") {
		t.Fatal("PATCH_NOT_FOUND must not echo text")
	}
	_, err = m.ApplyPatch(ctx, tool("p"), "app.js", "b", strings.Repeat("z", 20_000), OccurrenceAll)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.ApplyPatch(ctx, tool("p"), "app.js", "z", strings.Repeat("z", 5), OccurrenceAll)
	wantErr(t, err, mcp.CodeWorkspaceSourceLimit, false, map[string]any{"limit": 80000})
	if !strings.HasPrefix(mcp.ToolErrorOf(err).Message, "Patched source") {
		t.Fatalf("label: %q", mcp.ToolErrorOf(err).Message)
	}
	_, err = m.ApplyPatch(ctx, tool("p"), "app.js", "", "x", OccurrenceFirst)
	wantErr(t, err, mcp.CodeToolValidationFailed, false, nil)
	_, err = m.ApplyPatch(ctx, tool("p"), "app.js", "a", "x", "second")
	wantErr(t, err, mcp.CodeToolValidationFailed, false, nil)
	must(m.ImportUpload(ctx, tool("i"), "up", entries(map[string]string{"index.html": "h", "i.gif": "G"})))(t)
	_, err = m.ApplyPatch(ctx, tool("p"), "i.gif", "G", "H", OccurrenceFirst)
	wantErr(t, err, mcp.CodeWorkspaceFileTypeConflict, false, map[string]any{"path": "i.gif", "operation": "patch", "actualKind": "asset", "expectedKind": "text"})
}

func TestRevertFile(t *testing.T) {
	m, _, _ := newManager(t)
	orig := source(t, m, "app.js")

	// (c) unchanged → no new revision
	r := must(m.RevertFile(ctx, tool("workspace.revertFile"), "app.js"))(t)
	if r.Changed || r.Revision != 2 {
		t.Fatalf("(c) %+v", r)
	}
	// (d) edited → saved source back
	must(m.WriteFile(ctx, tool("w"), "app.js", "edited"))(t)
	r = must(m.RevertFile(ctx, tool("v"), "app.js"))(t)
	if !r.Changed || source(t, m, "app.js") != orig || len(m.Status(ctx).DirtyPaths) != 0 {
		t.Fatalf("(d) %+v", r)
	}
	// (a) renamed (and edited) → back at the original path with the saved source
	must(m.RenameFile(ctx, tool("r"), "app.js", "lib/app2.js"))(t)
	must(m.WriteFile(ctx, tool("w"), "lib/app2.js", "changed"))(t)
	r = must(m.RevertFile(ctx, tool("v"), "lib/app2.js"))(t)
	if r.Path != "app.js" || source(t, m, "app.js") != orig || slices.Contains(paths(m), "lib/app2.js") {
		t.Fatalf("(a) %+v %v", r, paths(m))
	}
	if st := m.Status(ctx); len(st.DeletedPaths) != 0 || len(st.DirtyPaths) != 0 {
		t.Fatalf("(a) status %+v", st)
	}
	// (b) not in the baseline → deleted
	must(m.CreateFile(ctx, tool("c"), "new.css", "x"))(t)
	r = must(m.RevertFile(ctx, tool("v"), "new.css"))(t)
	if slices.Contains(paths(m), "new.css") || r.ActivePath != "index.html" {
		t.Fatalf("(b) %+v", r)
	}
	// (b) with delete invariants
	must(m.ImportUpload(ctx, tool("i"), "up", entries(map[string]string{"a.txt": "1"})))(t)
	must(m.CreateFile(ctx, tool("c"), "n.txt", "new"))(t)
	must(m.DeleteFile(ctx, tool("d"), "a.txt"))(t)
	_, err := m.RevertFile(ctx, tool("v"), "n.txt")
	wantErr(t, err, mcp.CodeWorkspaceEmpty, false, map[string]any{"operation": "revert", "path": "n.txt"})
	_, err = m.RevertFile(ctx, tool("v"), "zz.txt")
	wantErr(t, err, mcp.CodeWorkspaceFileNotFound, false, nil)
}

func TestUndoRedo(t *testing.T) {
	m, _, _ := newManager(t)
	_, err := m.Undo(ctx, tool("workspace.undo"))
	wantErr(t, err, mcp.CodeWorkspaceHistoryEmpty, false, map[string]any{"direction": "undo"})
	_, err = m.Redo(ctx, tool("workspace.redo"))
	wantErr(t, err, mcp.CodeWorkspaceHistoryEmpty, false, map[string]any{"direction": "redo"})

	orig := source(t, m, "app.js")
	must(m.WriteFile(ctx, tool("w1"), "app.js", "one"))(t)
	must(m.CreateFile(ctx, tool("c"), "new.md", "n"))(t) // active → new.md
	must(m.OpenFile(ctx, "styles.css"))(t)
	h := must(m.Undo(ctx, tool("u")))(t) // undo create: active returns to the checkpoint's (index.html)
	if h.Direction != "undo" || !h.Changed || h.ActivePath != "index.html" || slices.Contains(paths(m), "new.md") || h.Revision != 5 {
		t.Fatalf("undo create %+v", h)
	}
	must(m.OpenFile(ctx, "styles.css"))(t)
	h = must(m.Undo(ctx, tool("u")))(t) // undo a source edit keeps the current tab
	if h.ActivePath != "styles.css" || source(t, m, "app.js") != orig {
		t.Fatalf("undo write %+v", h)
	}
	h = must(m.Redo(ctx, tool("r")))(t)
	if source(t, m, "app.js") != "one" || h.ActivePath != "styles.css" {
		t.Fatalf("redo %+v", h)
	}
	if st := m.Status(ctx); !st.History.CanRedo || !st.History.CanUndo {
		t.Fatalf("history %+v", st.History)
	}
	// a new edit drops the redo branch
	must(m.WriteFile(ctx, tool("w2"), "app.js", "two"))(t)
	if m.Status(ctx).History.CanRedo {
		t.Fatal("redo branch must be dropped")
	}
	_, err = m.Redo(ctx, tool("r"))
	wantErr(t, err, mcp.CodeWorkspaceHistoryEmpty, false, nil)
	hist := m.History()
	last := hist[len(hist)-1]
	if last.Tool != "w2" || last.CallID != "call-w2" || !last.Current {
		t.Fatalf("checkpoint provenance %+v", last)
	}
}

func TestHistoryCap(t *testing.T) {
	m, _, _ := newManager(t)
	for i := 0; i < 150; i++ {
		must(m.WriteFile(ctx, tool("w"), "app.js", strings.Repeat("x", i)))(t)
	}
	if n := len(m.History()); n != MaxHistory {
		t.Fatalf("history length %d", n)
	}
	undos := 0
	for {
		if _, err := m.Undo(ctx, tool("u")); err != nil {
			break
		}
		undos++
	}
	if undos != MaxHistory-1 {
		t.Fatalf("undos %d", undos)
	}
	if got := source(t, m, "app.js"); got != strings.Repeat("x", 50) {
		t.Fatalf("oldest kept state has %d x", len(got))
	}
}

func TestTypingCoalesces(t *testing.T) {
	m, _, clk := newManager(t)
	typing := Call{Tool: "editor", CoalesceKey: "type:app.js"}
	for _, s := range []string{"a", "ab", "abc"} {
		must(m.WriteFile(ctx, typing, "app.js", s))(t)
		clk.Add(300 * CoalesceWindow / 750)
	}
	if n := len(m.History()); n != 2 {
		t.Fatalf("typing burst checkpoints = %d, want 1 + initial", n)
	}
	clk.Add(CoalesceWindow)
	must(m.WriteFile(ctx, typing, "app.js", "abcd"))(t)
	if n := len(m.History()); n != 3 {
		t.Fatalf("after the window: %d", n)
	}
	r := must(m.WriteFile(ctx, typing, "app.js", "abcd"))(t)
	if r.Changed {
		t.Fatal("unchanged typing is a no-op")
	}
	must(m.WriteFile(ctx, tool("workspace.writeFile"), "app.js", "tool"))(t)
	must(m.WriteFile(ctx, tool("workspace.writeFile"), "app.js", "tool2"))(t)
	if n := len(m.History()); n != 5 {
		t.Fatalf("tool writes must never coalesce: %d", n)
	}
	must(m.Undo(ctx, tool("u")))(t)
	must(m.Undo(ctx, tool("u")))(t)
	must(m.Undo(ctx, tool("u")))(t)
	if got := source(t, m, "app.js"); got != "abc" {
		t.Fatalf("undo over a coalesced burst → %q", got)
	}
	// The window counts from the burst's first flush, not its last: flushes every 5 s for
	// 40 s (never idle for the window) make two checkpoints, not one.
	cont := Call{Tool: "editor", CoalesceKey: "type:app.js#long"}
	must(m.WriteFile(ctx, cont, "app.js", "long"))(t) // the burst's first checkpoint
	base := len(m.History())
	for i := 1; i <= 8; i++ {
		clk.Add(CoalesceWindow / 6)
		must(m.WriteFile(ctx, cont, "app.js", "long "+strings.Repeat("x", i)))(t)
	}
	if n := len(m.History()) - base; n != 1 {
		t.Fatalf("a 40 s burst made %d more checkpoints after its first, want 1 (a new one %v after its first flush)", n, CoalesceWindow)
	}
}

func TestPreviewStatus(t *testing.T) {
	m, _, _ := newManager(t)
	if m.SetPreviewStatus(1, PreviewSynced, "") {
		t.Fatal("stale revision accepted")
	}
	if !m.SetPreviewStatus(2, PreviewError, strings.Repeat("e", 500)) {
		t.Fatal("current revision refused")
	}
	p := m.Preview()
	if p.Status != PreviewError || utf8.RuneCountInString(p.Message) != MaxMessageChars {
		t.Fatalf("preview %+v", p)
	}
	if m.SetPreviewStatus(2, "bogus", "") {
		t.Fatal("unknown status accepted")
	}
	must(m.WriteFile(ctx, tool("w"), "app.js", "x"))(t)
	if m.Preview() != (PreviewState{Revision: 3, Status: PreviewWaiting}) {
		t.Fatal("mutation must reset preview to waiting")
	}
	m.SetPreviewStatus(3, PreviewSynced, "")
	if a, rev := m.RefreshPreview(); rev != 3 || a != "index.html" || m.Preview().Status != PreviewWaiting {
		t.Fatal("refresh")
	}
}

func TestResetAndCheckpoint(t *testing.T) {
	m, repo, _ := newManager(t)
	must(m.WriteFile(ctx, tool("w"), "app.js", "x"))(t)
	must(m.DeleteFile(ctx, tool("d"), "README.md"))(t)
	res := must(m.SaveCheckpoint(ctx, tool("workspace.saveCheckpoint")))(t)
	if !slices.Equal(res.SavedPaths, []string{"app.js"}) || !slices.Equal(res.DeletedPaths, []string{"README.md"}) ||
		res.CheckpointUpdated == nil || !*res.CheckpointUpdated || res.Revision != 4 {
		t.Fatalf("checkpoint %+v", res)
	}
	if st := m.Status(ctx); len(st.DirtyPaths)+len(st.DeletedPaths) != 0 {
		t.Fatal("checkpoint must clear dirty state")
	}
	if s, _ := repo.Load(ctx); len(s.DeletedPaths) != 0 {
		t.Fatal("cleared deletions not persisted")
	}

	ir := must(m.Reset(ctx, tool("workspace.reset")))(t)
	if ir.RootName != SeedRootName || ir.FileCount != 4 || ir.ActivePath != "index.html" || ir.Revision != 5 {
		t.Fatalf("reset %+v", ir)
	}
	if st := m.Status(ctx); st.History.CanUndo || len(m.History()) != 1 || len(st.DirtyPaths) != 0 {
		t.Fatalf("reset status %+v", st)
	}
	if s, _ := repo.Load(ctx); s.Revision != 5 || len(s.Files) != 4 {
		t.Fatal("reset not persisted")
	}

	folder := NewMemFolder("site", map[string]string{"index.html": "<p>"})
	must(m.ImportFolder(ctx, tool("import"), folder))(t)
	_, err := m.Reset(ctx, Call{ExpectedRevision: Rev(0)}) // folder conflict wins over the guard
	wantErr(t, err, mcp.CodeWorkspaceFolderStateConflict, false, map[string]any{"operation": "reset", "folderLinked": true})
	_, err = m.SaveCheckpoint(ctx, tool("c"))
	wantErr(t, err, mcp.CodeWorkspaceFolderStateConflict, false, map[string]any{"operation": "checkpoint", "folderLinked": true})
	d := m.DisconnectFolder(ctx)
	if d.Revision != m.Revision() || m.FolderLinked() {
		t.Fatal("disconnect")
	}
	must(m.Reset(ctx, tool("reset")))(t)
}

func TestStatusFilesystem(t *testing.T) {
	m, _, _ := newManager(t)
	fs := m.Status(ctx).Filesystem
	if fs != (FilesystemState{Mode: "browser-only", Permission: PermissionDisconnected}) {
		t.Fatalf("%+v", fs)
	}
	folder := NewMemFolder("site", map[string]string{"index.html": "<p>"})
	must(m.ImportFolder(ctx, tool("i"), folder))(t)
	folder.Perm = PermissionPrompt
	fs = m.Status(ctx).Filesystem
	want := FilesystemState{Mode: "local-folder", FolderLinked: true, Permission: PermissionPrompt, SaveAllAvailable: true, ReloadAvailable: true}
	if !reflect.DeepEqual(fs, want) {
		t.Fatalf("%+v", fs)
	}
}

func TestHistoryRestoreRespectsSourceLimit(t *testing.T) {
	m, _, _ := newManager(t)
	big := strings.Repeat("b", MaxSourceChars+1)
	must(m.ImportUpload(ctx, tool("i"), "up", entries(map[string]string{"index.html": "h", "big.txt": big})))(t)
	must(m.WriteFile(ctx, tool("w"), "big.txt", "short"))(t)
	// While the over-budget text is still the saved original, undo may bring it back.
	must(m.Undo(ctx, tool("u")))(t)
	if source(t, m, "big.txt") != big {
		t.Fatal("undo to the imported original")
	}
	must(m.Redo(ctx, tool("r")))(t)
	must(m.SaveCheckpoint(ctx, tool("c")))(t) // "short" is now the saved state
	rev := m.Revision()
	_, err := m.Undo(ctx, tool("u"))
	wantErr(t, err, mcp.CodeWorkspaceSourceLimit, false, map[string]any{"limit": MaxSourceChars})
	if m.Revision() != rev || source(t, m, "big.txt") != "short" {
		t.Fatal("a refused restore changed the workspace")
	}
}

func TestRepositoryFailureAndResync(t *testing.T) {
	repo := &failingRepo{failAfter: -1}
	m := New(Options{Repository: repo})
	m.Hydrate(ctx)
	must(m.WriteFile(ctx, tool("w"), "app.js", "1"))(t)
	repo.failAfter = repo.saves // fail from now on
	must(m.Undo(ctx, tool("u")))(t)
	if st := m.Status(ctx); st.StorageMode != StorageMemory || st.StorageError == "" {
		t.Fatalf("snapshot failure: %+v", st)
	}
	_, err := m.SaveCheckpoint(ctx, tool("c"))
	if err != nil {
		t.Fatalf("already in memory mode: checkpoint must not touch the repository: %v", err)
	}
	// The repository works again: a whole-snapshot save (reset) resynchronizes it.
	repo.failAfter = -1
	must(m.Reset(ctx, tool("reset")))(t)
	if st := m.Status(ctx); st.StorageMode != StorageIndexedDB || st.StorageError != "" {
		t.Fatalf("after resync: %+v", st)
	}
	if s, _ := repo.Load(ctx); s.Revision != m.Revision() {
		t.Fatal("repository not resynchronized")
	}
	// A failure while the checkpoint clears deletions propagates.
	must(m.DeleteFile(ctx, tool("d"), "README.md"))(t)
	repo.failAfter = repo.saves
	_, err = m.SaveCheckpoint(ctx, tool("c"))
	wantErr(t, err, mcp.CodeToolExecutionFailed, false, map[string]any{"operation": "checkpoint"})
	if m.Status(ctx).StorageMode != StorageMemory {
		t.Fatal("checkpoint failure must switch to memory mode")
	}
}
