package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

func entry(p string, size int, reads *int) ImportEntry {
	return ImportEntry{Path: p, Size: int64(size), Read: func(context.Context) ([]byte, error) {
		if reads != nil {
			*reads++
		}
		return []byte(strings.Repeat("a", size)), nil
	}}
}

// TestImportKeepsVendoredText (issue 13, docs/design.md §5.44): a vendored script of 920 KB —
// over the reference's 512 KiB, under MaxImportTextBytes, like reveal.js's highlight plugin —
// is imported in full as text, over budget (readable, not editable until shrunk), and a text
// file just over the limit is still left out with the limit named.
func TestImportKeepsVendoredText(t *testing.T) {
	const vendored = 920 << 10
	imp, err := ImportFiles(ctx, "deck", slices.Values([]ImportEntry{
		entry("index.html", 10, nil),
		entry("plugin/highlight.js", vendored, nil),
		entry("plugin/huge.js", MaxImportTextBytes+1, nil),
	}))
	if err != nil {
		t.Fatal(err)
	}
	var plugin *File
	for _, f := range imp.Files {
		if f.Path == "plugin/highlight.js" {
			plugin = f
		}
	}
	if plugin == nil || plugin.Kind != KindText || len(plugin.Source) != vendored || !plugin.OverBudget() {
		t.Fatalf("the 920 KB script was not imported whole as over-budget text: %+v", imp.Files)
	}
	want := []Skipped{{Path: "plugin/huge.js", Reason: SkipTooLarge, Message: "larger than 2 MB"}}
	if !slices.Equal(imp.Skipped, want) {
		t.Fatalf("skipped %+v, want %+v", imp.Skipped, want)
	}
	if got := NotImportedReason(imp.Skipped[0]); got != "larger than 2 MB (the import limit for text files)" {
		t.Fatalf("reason %q", got)
	}
}

// TestImportTotalKeepsTheEntryPage (new-user test of docs/design.md §5.44): seven 2 MiB scripts that sort
// before index.html would fill the 12 MiB total in path order and leave the page out; the
// page and what it references in document order come first, and the scripts the total cuts are
// skipped as total-limit.
func TestImportTotalKeepsTheEntryPage(t *testing.T) {
	page := "<!doctype html><title>t</title><link rel=stylesheet href=z.css>"
	var list []ImportEntry
	for i := range 7 {
		list = append(list, entry(fmt.Sprintf("f%d.js", i), MaxImportTextBytes, nil))
		page += fmt.Sprintf("<script src=f%d.js></script>", i)
	}
	list = append(list, ImportEntry{Path: "index.html", Size: int64(len(page)), Read: func(context.Context) ([]byte, error) { return []byte(page), nil }},
		entry("z.css", 10, nil))
	imp, err := ImportFiles(ctx, "site", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range imp.Files {
		got = append(got, f.Path)
	}
	if want := []string{"f0.js", "f1.js", "f2.js", "f3.js", "f4.js", "index.html", "z.css"}; !slices.Equal(got, want) {
		t.Fatalf("imported %v, want %v", got, want)
	}
	if imp.ActivePath != "index.html" {
		t.Fatalf("active path %q", imp.ActivePath)
	}
	var cut []string
	for _, s := range imp.Skipped {
		if s.Reason == SkipTotalLimit {
			cut = append(cut, s.Path)
		}
	}
	if !slices.Equal(cut, []string{"f5.js", "f6.js"}) {
		t.Fatalf("total-limit skips %v (all skips %+v)", cut, imp.Skipped)
	}
}

// TestNotImportedFileSaysWhy (new-user test of docs/design.md §5.44): a tool naming a file the import left
// out gets WORKSPACE_FILE_NOT_FOUND with the preview's words for why (details.notImported); a
// path the folder never had keeps the plain message.
func TestNotImportedFileSaysWhy(t *testing.T) {
	m := New(Options{})
	if _, err := m.ImportUpload(ctx, Call{}, "site", slices.Values([]ImportEntry{
		entry("index.html", 10, nil), entry("vendor/huge.js", MaxImportTextBytes+1, nil)})); err != nil {
		t.Fatal(err)
	}
	why := "larger than 2 MB (the import limit for text files)"
	_, err := m.ReadFile("vendor/huge.js")
	te := mcp.ToolErrorOf(err)
	if te == nil || te.Code != mcp.CodeWorkspaceFileNotFound || te.Details.(map[string]any)["notImported"] != why ||
		te.Message != `Workspace file "vendor/huge.js" does not exist: it is in the folder but was not imported: `+why+`.` {
		t.Fatalf("read of a left-out file: %v", err)
	}
	if _, err := m.ApplyPatch(ctx, Call{}, "vendor/huge.js", "a", "b", OccurrenceFirst); mcp.ToolErrorOf(err).Details.(map[string]any)["notImported"] != why {
		t.Fatalf("patch of a left-out file: %v", err)
	}
	if _, err := m.ReadFile("nowhere.js"); err == nil || err.Error() == "" || mcp.ToolErrorOf(err).Message != `Workspace file "nowhere.js" does not exist.` {
		t.Fatalf("read of an unknown path: %v", err)
	}
}

func TestImportRules(t *testing.T) {
	var reads int
	list := []ImportEntry{
		entry("site/.git/config", 10, &reads),
		entry("site/node_modules/x/index.js", 10, &reads),
		entry(".cache/a.txt", 10, &reads),
		entry("index.html", 10, &reads),
		entry("./index.html", 10, &reads),
		entry(`css\site.css`, 10, &reads),
		entry("../escape.js", 10, &reads),
		entry("bad\x00name.js", 10, &reads),
		entry(".env", 10, &reads),
		entry("big.js", MaxImportTextBytes+1, &reads),
		entry("big.png", MaxImportAssetBytes+1, &reads),
		entry("ok.png", MaxImportAssetBytes, &reads),
		{Path: "broken.js", Size: 3, Read: func(context.Context) ([]byte, error) { return nil, errors.New("disk on fire") }},
		{Path: "liar.js", Size: 1, Read: func(context.Context) ([]byte, error) { return make([]byte, MaxImportTextBytes+5), nil }},
	}
	imp, err := ImportFiles(ctx, "site", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range imp.Files {
		got = append(got, f.Path+":"+f.Kind)
	}
	if !slices.Equal(got, []string{"index.html:text", "css/site.css:text", "ok.png:asset"}) {
		t.Fatalf("accepted %v", got)
	}
	want := []Skipped{
		{Path: "./index.html", Reason: SkipDuplicate},
		{Path: "../escape.js", Reason: SkipInvalidPath, Message: "parent-traversal"},
		{Path: "bad\uFFFDname.js", Reason: SkipInvalidPath, Message: "nul"},
		{Path: ".env", Reason: SkipHidden},
		{Path: "big.js", Reason: SkipTooLarge, Message: "larger than 2 MB"},
		{Path: "big.png", Reason: SkipTooLarge, Message: "larger than 4 MB (the limit for image files)"},
		{Path: "broken.js", Reason: SkipReadFailed, Message: "disk on fire"},
		{Path: "liar.js", Reason: SkipTooLarge, Message: "larger than 2 MB"},
	}
	want[0].Path = "index.html"
	if !slices.Equal(imp.Skipped, want) {
		t.Fatalf("skipped\n got %+v\nwant %+v", imp.Skipped, want)
	}
	if reads != 3 {
		t.Fatalf("oversized or skipped entries were read: %d reads", reads)
	}
	if imp.ActivePath != "index.html" {
		t.Fatal(imp.ActivePath)
	}
}

func TestImportScanLimitIgnoresDotFolders(t *testing.T) {
	var list []ImportEntry
	for i := 0; i < 5000; i++ { // never counted
		list = append(list, entry(fmt.Sprintf(".git/objects/%d", i), 1, nil))
		list = append(list, entry(fmt.Sprintf("node_modules/p/%d.js", i), 1, nil))
	}
	for i := 0; i < MaxImportScannedEntries; i++ {
		list = append(list, entry(fmt.Sprintf("d/%04d.bin.txt", i), 1, nil))
		if i <= MaxImportScannedEntries-MaxImportFiles { // make most of them duplicates so the file limit is not hit
			list[len(list)-1].Path = "d/dup.txt"
		}
	}
	// The 2,001st counted entry is past the limit: not imported, but named (LeftOut, SkipScanLimit).
	// (Not an HTML file: a page past the limit would be taken as the preview entry.)
	list = append(list, entry("after-limit.txt", 1, nil))
	imp, err := ImportFiles(ctx, "x", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Files) != MaxImportFiles {
		t.Fatalf("files %d", len(imp.Files))
	}
	last := imp.Skipped[len(imp.Skipped)-1]
	if last.Reason != SkipScanLimit || last.Path != "" {
		t.Fatalf("summary %+v", last)
	}
	if len(imp.LeftOut) != 1 || imp.LeftOut[0] != (Skipped{Path: "after-limit.txt", Reason: SkipScanLimit}) {
		t.Fatalf("left out %+v", imp.LeftOut)
	}
	n := 0
	for _, s := range imp.Skipped {
		if s.Reason == SkipScanLimit || s.Reason == SkipFileLimit {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d summary entries", n)
	}
}

func TestImportFileLimitAndTotal(t *testing.T) {
	var list []ImportEntry
	for i := 0; i < 250; i++ {
		list = append(list, entry(fmt.Sprintf("f%03d.txt", i), 10, nil))
	}
	imp, err := ImportFiles(ctx, "x", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Files) != 200 || len(imp.Skipped) != 1 || imp.Skipped[0].Reason != SkipFileLimit {
		t.Fatalf("files %d skipped %+v", len(imp.Files), imp.Skipped)
	}
	// The summary counts every file left out (50 here), not 1.
	if s := imp.Skipped[0]; s.Count != 50 || !strings.Contains(s.Message, "50 more file(s)") {
		t.Fatalf("file-limit summary %+v: want count 50 named in the message", s)
	}
	if imp.ActivePath != "f000.txt" {
		t.Fatalf("active %q: first text file", imp.ActivePath)
	}

	list = nil
	for i := 0; i < 4; i++ { // 3 × 4 MiB = 12 MiB fits; the 4th does not
		list = append(list, entry(fmt.Sprintf("a%d.png", i), MaxImportAssetBytes, nil))
	}
	list = append(list, entry("small.html", 10, nil))
	imp, err = ImportFiles(ctx, "x", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	// Over the total by the claimed sizes, the page comes first (docs/design.md §5.44): it and
	// two images fit, a2 and a3 do not (in path order the three images filled exactly 12 MiB
	// and the page was left out).
	want := []Skipped{{Path: "a2.png", Reason: SkipTotalLimit, Message: "import larger than 12 MB"},
		{Path: "a3.png", Reason: SkipTotalLimit, Message: "import larger than 12 MB"}}
	if len(imp.Files) != 3 || !slices.Equal(imp.Skipped, want) {
		t.Fatalf("files %d skipped %+v", len(imp.Files), imp.Skipped)
	}
	if imp.ActivePath != "small.html" {
		t.Fatalf("active %q", imp.ActivePath)
	}
}

func TestImportActivePathChoice(t *testing.T) {
	cases := []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"a.html": "", "index.html": "", "b.css": ""}, "index.html"},
		{map[string]string{"b.js": "", "page.htm": "", "a.css": ""}, "page.htm"},
		{map[string]string{"z.png": "", "y.css": ""}, "y.css"},
		{map[string]string{"z.png": "", "y.gif": ""}, "y.gif"},
	}
	for _, c := range cases {
		imp, err := ImportFiles(ctx, "r", entries(c.files))
		if err != nil || imp.ActivePath != c.want {
			t.Errorf("%v: %q %v", c.files, imp.ActivePath, err)
		}
	}
}

func TestImportNoSupportedFilesLeavesStateUntouched(t *testing.T) {
	m, repo, _ := newManager(t)
	must(m.WriteFile(ctx, tool("w"), "app.js", "mine"))(t)
	before, rev, saves := m.Snapshot(), m.Revision(), repo.Saves
	list := []ImportEntry{entry(".git/HEAD", 1, nil), entry("../x.js", 1, nil), entry(".DS_Store", 1, nil)}
	_, err := m.ImportUpload(ctx, tool("import"), "empty-folder", slices.Values(list))
	wantErr(t, err, mcp.CodeWorkspaceNoSupportedFiles, false,
		map[string]any{"operation": "import", "rootName": "empty-folder", "skippedCount": 2,
			"skipped": []string{"../x.js (invalid-path)", ".DS_Store (hidden)"}, "skippedFolders": []string{".git"}})
	if m.Revision() != rev || repo.Saves != saves || source(t, m, "app.js") != "mine" || len(m.Snapshot().Files) != len(before.Files) {
		t.Fatal("failed import changed the workspace")
	}
	folder := NewMemFolder("empty", nil)
	_, err = m.ImportFolder(ctx, tool("i"), folder)
	wantErr(t, err, mcp.CodeWorkspaceNoSupportedFiles, false, nil)
	if m.FolderLinked() {
		t.Fatal("failed import linked the folder")
	}
}

func TestImportResetsHistoryBaselineDeletions(t *testing.T) {
	m, repo, _ := newManager(t)
	must(m.DeleteFile(ctx, tool("d"), "README.md"))(t)
	must(m.WriteFile(ctx, tool("w"), "app.js", "x"))(t)
	r := must(m.ImportUpload(ctx, tool("import"), "up", entries(map[string]string{"index.html": "<p>", "a/b.css": "p{}"})))(t)
	if r.Revision != 5 || r.FileCount != 2 || r.RootName != "up" || len(r.Skipped) != 0 {
		t.Fatalf("%+v", r)
	}
	st := m.Status(ctx)
	if len(st.DeletedPaths)+len(st.DirtyPaths) != 0 || st.History.CanUndo || st.Filesystem.FolderLinked {
		t.Fatalf("%+v", st)
	}
	if s, _ := repo.Load(ctx); s.RootName != "up" || len(s.Files) != 2 || s.Revision != 5 {
		t.Fatalf("repository not replaced: %+v", s.Metadata)
	}
	_, err := m.ImportUpload(ctx, Call{ExpectedRevision: Rev(1)}, "up", entries(map[string]string{"a.txt": ""}))
	wantErr(t, err, mcp.CodeWorkspaceRevisionConflict, true, map[string]any{"expectedRevision": int64(1), "currentRevision": int64(5), "operation": "import"})
}

func TestImportCancelled(t *testing.T) {
	c, cancel := context.WithCancel(ctx)
	cancel()
	_, err := ImportFiles(c, "x", entries(map[string]string{"a.txt": ""}))
	wantErr(t, err, mcp.CodeToolCancelled, true, nil)
}

// Bug repro: a non-UTF-8 "text" file used to be imported with U+FFFD replacements and then
// saved back corrupted. It is skipped now (and, never loaded, never overwritten by a save).
func TestImportSkipsNonUTF8Text(t *testing.T) {
	files := map[string]string{
		"index.html":       "<p>ok</p>",
		"latin1.txt":       "caf\xe9",
		"nul.js":           "a\x00b",
		"logo.png":         "\x89PNG\x00\xff",
		"lib/node_modules": "a file, not a folder",
	}
	imp, err := ImportFiles(ctx, "root", entries(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range imp.Files {
		got = append(got, f.Path)
	}
	if !slices.Equal(got, []string{"index.html", "logo.png"}) {
		t.Fatalf("files %v", got)
	}
	want := []Skipped{
		{Path: "latin1.txt", Reason: SkipNotText, Message: "binary or not UTF-8 text"},
		{Path: "lib/node_modules", Reason: SkipIgnored},
		{Path: "nul.js", Reason: SkipNotText, Message: "binary or not UTF-8 text"},
	}
	if !slices.Equal(imp.Skipped, want) {
		t.Fatalf("skipped %+v", imp.Skipped)
	}

	m, _, _ := newManager(t)
	folder := NewMemFolder("site", files)
	must(m.ImportFolder(ctx, tool("i"), folder))(t)
	must(m.CreateFile(ctx, tool("c"), "latin1.txt", "café"))(t)
	_, terr := m.SaveAll(ctx, tool("s"), SaveOptions{})
	wantErr(t, terr, mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": "latin1.txt", "operation": "save", "reason": SaveConflictExists})
	if got, _ := folder.Content("latin1.txt"); got != "caf\xe9" {
		t.Fatalf("overwritten: %q", got)
	}
}

// TestSkippedFolders: the folders a file list holds that the importer does not enter, with
// their parents, once each in first-seen order; imported paths yield none.
func TestSkippedFolders(t *testing.T) {
	got := SkippedFolders([]string{"index.html", ".git/HEAD", "a/node_modules/x/y.js", ".git/refs/main",
		"a/.cache/z", "b\\.hidden\\f", ".env", "node_modules"})
	want := []string{".git", "a/node_modules", "a/.cache", "b/.hidden"}
	if !slices.Equal(got, want) {
		t.Fatalf("SkippedFolders = %q, want %q", got, want)
	}
	if d := SkippedFolder("../x.js"); d != "" {
		t.Fatalf("SkippedFolder(../x.js) = %q", d)
	}
}

// TestImportKeepsNotImportedForThePreview: files the folder holds but the import left out
// for their size or content (too-large, not-text, total-limit) are kept in the snapshot's
// metadata with the reason the preview shows (NotImportedReason, limits from AssetLimit);
// other skips are not; an edit keeps them, the next import replaces them.
func TestImportKeepsNotImportedForThePreview(t *testing.T) {
	m, repo, _ := newManager(t)
	list := []ImportEntry{entry("index.html", 10, nil), entry("data/big.json", MaxImportTextBytes+1, nil),
		entry("clip.mp4", MaxImportMediaBytes+1, nil), {Path: "blob", Size: 3, Read: func(context.Context) ([]byte, error) { return []byte{0, 1, 2}, nil }},
		entry(".env", 1, nil)}
	must(m.ImportUpload(ctx, tool("import"), "up", slices.Values(list)))(t)
	got := m.Snapshot().NotImported
	want := []string{
		"data/big.json: larger than 2 MB (the import limit for text files)",
		"clip.mp4: larger than 8 MB (the import limit for video files)",
		"blob: it is not text (binary or not UTF-8) and its extension is not one of the asset types",
	}
	var have []string
	for _, n := range got {
		have = append(have, n.Path+": "+NotImportedReason(n))
	}
	if !slices.Equal(have, want) {
		t.Fatalf("not imported = %q, want %q", have, want)
	}
	must(m.WriteFile(ctx, tool("w"), "index.html", "<p>edited"))(t)
	if s, _ := repo.Load(ctx); len(s.NotImported) != 3 || len(m.Snapshot().NotImported) != 3 {
		t.Fatalf("an edit dropped them: stored %+v", s.NotImported)
	}
	must(m.ImportUpload(ctx, tool("import"), "up", entries(map[string]string{"index.html": "<p>"})))(t)
	if n := m.Snapshot().NotImported; len(n) != 0 {
		t.Fatalf("a new import kept %+v", n)
	}
}
