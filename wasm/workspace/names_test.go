package workspace

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

const (
	cafeNFC = "caf\u00e9.html"  // é precomposed
	cafeNFD = "cafe\u0301.html" // e + combining acute
	cafeUp  = "CAF\u00c9.html"
)

// Issue 14 item 12: names that look the same are the same file in macOS/Windows folders.
// Creating or renaming onto one is refused with an error naming the other file; renaming a
// file to another case of its own name is allowed.
func TestNameCollisionsRefused(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.CreateFile(ctx, tool("c"), cafeNFC, "<p>1</p>"))(t)
	for _, p := range []string{cafeNFD, cafeUp} {
		_, cerr := m.CreateFile(ctx, tool("c2"), p, "<p>2</p>")
		err := mcp.ToolErrorOf(cerr)
		if err == nil || err.Code != mcp.CodeWorkspaceFileConflict {
			t.Fatalf("create %q: %v", p, err)
		}
		d := err.Details.(map[string]any)
		if d["conflictsWith"] != cafeNFC || d["reason"] != ReasonNameCollision || !(strings.Contains(err.Message, cafeNFC) || strings.Contains(err.Message, `caf\u00e9.html`)) {
			t.Fatalf("create %q: %+v %s", p, d, err.Message)
		}
		if _, rerr := m.RenameFile(ctx, tool("r"), "app.js", strings.TrimSuffix(p, ".html")+".HTML"); rerr == nil || mcp.ToolErrorOf(rerr).Details.(map[string]any)["reason"] != ReasonNameCollision {
			t.Fatalf("rename onto %q: %v", p, rerr)
		}
	}
	must(m.RenameFile(ctx, tool("r2"), cafeNFC, cafeUp))(t) // same file, other case
	if got := len(m.Files()); got != 5 {
		t.Fatalf("%d files", got)
	}
}

// The import keeps colliding on-disk names as they are and reports each pair.
func TestImportFlagsNameCollisions(t *testing.T) {
	m, _, _ := newManager(t)
	folder := NewMemFolder("site", map[string]string{cafeNFC: "<p>a</p>", cafeNFD: "<p>b</p>", cafeUp: "<p>c</p>", "index.html": "<p>i</p>"})
	res := must(m.ImportFolder(ctx, tool("i"), folder))(t)
	if res.FileCount != 4 || len(res.NameCollisions) != 2 {
		t.Fatalf("import: %+v", res)
	}
	for _, c := range res.NameCollisions {
		if NameKey(c.Path) != NameKey(c.CollidesWith) || c.Path == c.CollidesWith {
			t.Fatalf("pair %+v", c)
		}
	}
}

// A folder of 10,000 files: the import keeps index.html and what it references (which sort
// after the first 200), and counts the 9,800 it left out.
func TestImportOverLimitKeepsEntryAndCounts(t *testing.T) {
	var list []ImportEntry
	for i := 0; i < 9997; i++ {
		list = append(list, entry(fmt.Sprintf("a/%05d.js", i), 4, nil))
	}
	page := []byte(`<!doctype html><link rel="stylesheet" href="z/site.css"><script src="./z/app.js"></script><a href="https://x.example/">x</a>`)
	list = append(list,
		ImportEntry{Path: "index.html", Size: int64(len(page)), Read: func(context.Context) ([]byte, error) { return page, nil }},
		entry("z/site.css", 4, nil), entry("z/app.js", 4, nil))
	slices.SortFunc(list, func(a, b ImportEntry) int { return strings.Compare(a.Path, b.Path) })
	imp, err := ImportFiles(ctx, "big", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range imp.Files {
		paths = append(paths, f.Path)
	}
	if len(imp.Files) != MaxImportFiles || !slices.Contains(paths, "index.html") || !slices.Contains(paths, "z/site.css") || !slices.Contains(paths, "z/app.js") {
		t.Fatalf("%d files, entry/refs kept: %v %v %v", len(paths), slices.Contains(paths, "index.html"), slices.Contains(paths, "z/site.css"), slices.Contains(paths, "z/app.js"))
	}
	if imp.ActivePath != "index.html" {
		t.Fatalf("active %q", imp.ActivePath)
	}
	last := imp.Skipped[len(imp.Skipped)-1]
	if last.Reason != SkipFileLimit || last.Count != 10000-MaxImportFiles || !strings.Contains(last.Message, "9800 more") {
		t.Fatalf("summary %+v", last)
	}
}

// Names that differ only in normalization are spelled with escapes, so the user sees which is
// which; other collisions keep the readable form.
func TestNameCollisionMessageShowsNormalization(t *testing.T) {
	nfc, nfd := "caf\u00e9.html", "cafe\u0301.html"
	if m := NameCollisionError(nfd, nfc, "create").Message; !strings.Contains(m, `"cafe\u0301.html"`) || !strings.Contains(m, `"caf\u00e9.html"`) {
		t.Fatalf("NFC/NFD message: %s", m)
	}
	if m := NameCollisionError("CAF\u00c9.html", nfc, "create").Message; !strings.Contains(m, "\"CAF\u00c9.html\"") {
		t.Fatalf("case message: %s", m)
	}
}

// A folder over the file limit whose entry page links a stylesheet that references a font
// (url()), imports another stylesheet (@import, which references an image) and a module
// script that imports another module: the import follows the references breadth-first, so
// all of them are kept although 210 filler files sort before them; the files the cut left out
// are listed (LeftOut) and reach Metadata.NotImported with a reason naming the limit (issue 13).
func TestImportFollowsStylesheetAndModuleReferences(t *testing.T) {
	files := map[string]string{
		"index.html":         `<!doctype html><link rel="stylesheet" href="css/site.css?v=2"><script type="module" src="js/app.js"></script>`,
		"css/site.css":       `@import "parts/more.css"; /* url(fonts/decoy.woff2) */ @font-face{font-family:x;src:url("../fonts/x.woff2#iefix") format("woff2"), url(data:font/woff2;base64,AA==)}`,
		"css/parts/more.css": `body{background:url('../../img/bg%20one.png')}`,
		"js/app.js":          `import {a} from "./lib/a.js"; import "https://cdn.example/x.js"; const s = "import './lib/decoy.js'";`,
		"js/lib/a.js":        `export const a = 1;`,
		"fonts/x.woff2":      "wOF2",
		"fonts/decoy.woff2":  "wOF2",
		"img/bg one.png":     "png",
		"js/lib/decoy.js":    "x",
	}
	imp, err := ImportFiles(ctx, "big", entries(withFillers(files, 210)))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range imp.Files {
		have[f.Path] = true
	}
	for _, p := range []string{"index.html", "css/site.css", "css/parts/more.css", "fonts/x.woff2", "img/bg one.png", "js/app.js", "js/lib/a.js"} {
		if !have[p] {
			t.Errorf("%s not imported", p)
		}
	}
	for _, p := range []string{"fonts/decoy.woff2", "js/lib/decoy.js"} {
		if have[p] {
			t.Errorf("%s (referenced only in a comment or a string) was prioritized", p)
		}
	}
	if len(imp.Files) != MaxImportFiles {
		t.Fatalf("%d files", len(imp.Files))
	}
	// 219 files, 200 kept: the 19 left out are listed in walk order, and the summary counts them.
	if len(imp.LeftOut) != 19 || imp.LeftOut[0].Path != "a/193.txt" || imp.LeftOut[0].Reason != SkipFileLimit {
		t.Fatalf("left out %+v", imp.LeftOut)
	}
	if last := imp.Skipped[len(imp.Skipped)-1]; last.Reason != SkipFileLimit || last.Count != 19 || len(imp.Skipped) != 1 {
		t.Fatalf("skipped %+v", imp.Skipped)
	}
	m, _, _ := newManager(t)
	must(m.ImportUpload(ctx, tool("import"), "big", entries(withFillers(files, 210))))(t)
	ni := m.Snapshot().NotImported
	if len(ni) != 19 || !slices.ContainsFunc(ni, func(s Skipped) bool { return s.Path == "fonts/decoy.woff2" }) {
		t.Fatalf("not imported %+v", ni)
	}
	if why := NotImportedReason(ni[0]); why != "the import keeps at most 200 files" {
		t.Fatalf("reason %q", why)
	}
}

// The reference walk reads at most MaxImportPriorityScanBytes: of eleven 400 KB stylesheets the
// entry links, the first ten are scanned (4,000 KB) and their fonts kept although 300 filler
// files sort before them; the eleventh would pass the 4 MiB budget, so its font is not
// followed and falls in path order behind the fillers (cut). Two runs give the same files.
func TestImportReferenceWalkIsBounded(t *testing.T) {
	var list []ImportEntry
	for i := 0; i < 300; i++ {
		list = append(list, entry(fmt.Sprintf("a/%03d.txt", i), 4, nil))
	}
	var page strings.Builder
	for i := 0; i < 11; i++ {
		fmt.Fprintf(&page, `<link rel="stylesheet" href="css/%02d.css">`, i)
		css := fmt.Sprintf("@font-face{src:url(../fonts/%02d.woff2)}/*", i)
		css += strings.Repeat("x", 400_000-len(css)-2) + "*/"
		list = append(list, ImportEntry{Path: fmt.Sprintf("css/%02d.css", i), Size: int64(len(css)), Read: func(context.Context) ([]byte, error) { return []byte(css), nil }},
			entry(fmt.Sprintf("fonts/%02d.woff2", i), 4, nil))
	}
	html := page.String()
	list = append(list, ImportEntry{Path: "index.html", Size: int64(len(html)), Read: func(context.Context) ([]byte, error) { return []byte(html), nil }})
	slices.SortFunc(list, func(a, b ImportEntry) int { return strings.Compare(a.Path, b.Path) })
	var runs [2][]string
	for r := range runs {
		imp, err := ImportFiles(ctx, "big", slices.Values(list))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range imp.Files {
			runs[r] = append(runs[r], f.Path)
		}
	}
	if !slices.Equal(runs[0], runs[1]) {
		t.Fatal("two imports of the same folder kept different files")
	}
	for i := 0; i < 11; i++ {
		p := fmt.Sprintf("fonts/%02d.woff2", i)
		if kept := slices.Contains(runs[0], p); kept != (i < 10) {
			t.Errorf("%s kept = %v", p, kept)
		}
		if !slices.Contains(runs[0], fmt.Sprintf("css/%02d.css", i)) {
			t.Errorf("css/%02d.css (linked by the entry) not kept", i)
		}
	}
}

// The reference walk finds what the preview compiler resolves (pagerefs.Scan), not only
// src/href: srcset of img and <picture><source>, <video poster>, url() in an inline <style>
// and in a style attribute, and import("./x.js") with a literal (inline and in a module).
// 210 fillers sort before them, so each is kept only if the walk followed it (F4).
func TestImportFollowsEveryPageReferenceKind(t *testing.T) {
	files := map[string]string{
		"index.html": `<!doctype html><style>.s{background:url(img/inline.png)}</style>` +
			`<body style="background-image:url('img/attr.png')"><img src="img/logo.png" srcset="img/s1.png 1x, img/s2.png 2x">` +
			`<video poster="img/poster.png"></video><picture><source srcset="img/pic.webp"><img src="img/pic.png"></picture>` +
			`<script type="module">import("./js/dyn.js")</script><script type="module" src="js/app.js"></script>`,
		"js/app.js": `const m = await import("./lazy.js");`,
	}
	for _, p := range []string{"img/inline.png", "img/attr.png", "img/logo.png", "img/s1.png", "img/s2.png", "img/poster.png", "img/pic.webp", "img/pic.png", "js/dyn.js", "js/lazy.js"} {
		files[p] = "x"
	}
	imp, err := ImportFiles(ctx, "big", entries(withFillers(files, 210)))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range imp.Files {
		have[f.Path] = true
	}
	for p := range files {
		if !have[p] {
			t.Errorf("%s (referenced by the page) not imported", p)
		}
	}
}

// A folder of more than MaxImportScannedEntries entries (2,500 under a/, then zimg/): the files
// the page references past the bound (srcset, poster) are imported, and one it does not
// reference statically (a fetch) is named in LeftOut with SkipScanLimit, whose reason names
// the bound, so the preview never calls it missing (F3).
func TestImportPastScanLimitNamesFolderFiles(t *testing.T) {
	var list []ImportEntry
	for i := 0; i < 2500; i++ {
		list = append(list, entry(fmt.Sprintf("a/%04d.txt", i), 4, nil))
	}
	page := `<!doctype html><img srcset="zimg/s1.png 1x"><video poster="zimg/poster.png"></video><script>fetch("zimg/data.json")</script>`
	list = append(list, ImportEntry{Path: "index.html", Size: int64(len(page)), Read: func(context.Context) ([]byte, error) { return []byte(page), nil }},
		entry("zimg/s1.png", 4, nil), entry("zimg/poster.png", 4, nil), entry("zimg/data.json", 4, nil))
	imp, err := ImportFiles(ctx, "big", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range imp.Files {
		have[f.Path] = true
	}
	for _, p := range []string{"index.html", "zimg/s1.png", "zimg/poster.png"} {
		if !have[p] {
			t.Errorf("%s not imported", p)
		}
	}
	i := slices.IndexFunc(imp.LeftOut, func(s Skipped) bool { return s.Path == "zimg/data.json" })
	if i < 0 || imp.LeftOut[i].Reason != SkipScanLimit {
		t.Fatalf("zimg/data.json not named as left out past the scan limit: %d entries", len(imp.LeftOut))
	}
	if why := NotImportedReason(imp.LeftOut[i]); !strings.Contains(why, "larger than the import examines") || !strings.Contains(why, "2,000") {
		t.Fatalf("reason %q", why)
	}
	// 2,500+4 entries, 2,000 examined, so 504 are late (fewer than MaxImportLateNames): every
	// late entry but the three taken is named.
	late := 0
	for _, s := range imp.LeftOut {
		if s.Reason == SkipScanLimit {
			late++
		}
	}
	if late != 504-3 || imp.LateUnnamed != 0 {
		t.Fatalf("%d late names, %d unnamed", late, imp.LateUnnamed)
	}
}

// withFillers returns files plus n filler files a/000.txt … ("aaaa", none referenced): a
// folder over the import's file limit around the files a test cares about (files unchanged).
func withFillers(files map[string]string, n int) map[string]string {
	out := maps.Clone(files)
	for i := 0; i < n; i++ {
		out[fmt.Sprintf("a/%03d.txt", i)] = "aaaa"
	}
	return out
}
