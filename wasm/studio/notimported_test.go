package studio

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
)

// TestFileLimitCutIsNotImportedInPreview: a folder whose entry page references more files than
// the import keeps (200): the references to the files the count cut left out — images of the
// page and a font of its stylesheet — are not-imported-reference diagnostics naming the
// limit, never "Missing" (issue 13). The preview's input is what the studio hands it
// (snapshotPreviewFiles of the imported snapshot).
func TestFileLimitCutIsNotImportedInPreview(t *testing.T) {
	var page strings.Builder
	page.WriteString(`<!doctype html><link rel="stylesheet" href="css/site.css">`)
	src := map[string]string{"css/site.css": `@font-face{font-family:x;src:url(../fonts/x.woff2)}`, "fonts/x.woff2": "wOF2"}
	for i := 0; i < 205; i++ {
		p := fmt.Sprintf("img/%03d.png", i)
		fmt.Fprintf(&page, `<img src="%s">`, p)
		src[p] = "png"
	}
	src["index.html"] = page.String()
	s := importedSnapshot(t, src)
	why := workspace.NotImportedReason(workspace.Skipped{Reason: workspace.SkipFileLimit})
	if !strings.Contains(why, "at most 200 files") {
		t.Fatalf("reason %q does not name the limit", why)
	}
	// index.html, css/site.css and img/000–197 are kept; img/198–204 and the font (reached
	// one level further, through the stylesheet) are cut.
	want := map[string]bool{"../fonts/x.woff2": true}
	for i := 198; i < 205; i++ {
		want[fmt.Sprintf("img/%03d.png", i)] = true
	}
	got := preview.Diagnose(snapshotPreviewFiles(s))
	n := 0
	for _, d := range got {
		if strings.Contains(d.Message, "Missing") || d.Kind == preview.DiagMissingReference {
			t.Errorf("reported missing: %+v", d)
		}
		if d.Kind != preview.DiagNotImported {
			continue
		}
		n++
		if !want[d.RequestedPath] || !strings.HasSuffix(d.Message, "is in the folder but was not imported: "+why) {
			t.Errorf("diagnostic %+v", d)
		}
	}
	if n != len(want) {
		t.Fatalf("%d not-imported diagnostics, want %d: %+v", n, len(want), got)
	}
}

// TestStyleAttributeAndScanBoundCutsAreNotImported: references the count cut left out from
// style attributes get a not-imported-reference diagnostic like other references (they had
// none), and in a folder over the 2,000-entry scan bound the page's srcset/poster files are
// imported while an unreferenced file past the bound reaches the preview as not imported
// (a run-time fetch of it reports the limit, not a missing file).
func TestStyleAttributeAndScanBoundCutsAreNotImported(t *testing.T) {
	var page strings.Builder
	page.WriteString(`<!doctype html><img srcset="zimg/s1.png 1x"><video poster="zimg/poster.png"></video><script>fetch("zimg/data.json")</script>`)
	src := map[string]string{}
	for i := 0; i < 205; i++ {
		p := fmt.Sprintf("img/%03d.png", i)
		fmt.Fprintf(&page, `<div style="background:url('%s')"></div>`, p)
		src[p] = "png"
	}
	src["index.html"] = page.String()
	for i := 0; i < 2100; i++ {
		src[fmt.Sprintf("a/%04d.txt", i)] = "x"
	}
	for _, p := range []string{"zimg/s1.png", "zimg/poster.png", "zimg/data.json"} {
		src[p] = "x"
	}
	s := importedSnapshot(t, src)
	files := snapshotPreviewFiles(s)
	kinds := map[string]string{}
	for _, f := range files {
		kinds[f.Path] = f.Kind
		if f.Path == "zimg/data.json" && !strings.Contains(f.Reason, "2,000") {
			t.Errorf("zimg/data.json reason %q does not name the bound", f.Reason)
		}
	}
	for _, p := range []string{"zimg/s1.png", "zimg/poster.png"} {
		if kinds[p] == "" || kinds[p] == preview.KindNotImported {
			t.Errorf("%s (referenced past the scan bound) kind %q", p, kinds[p])
		}
	}
	if kinds["zimg/data.json"] != preview.KindNotImported {
		t.Errorf("zimg/data.json kind %q, want not imported", kinds["zimg/data.json"])
	}
	n := 0
	for _, d := range preview.Diagnose(files) {
		if d.Kind == preview.DiagMissingReference {
			t.Errorf("reported missing: %+v", d)
		}
		if d.Kind == preview.DiagNotImported && strings.HasPrefix(d.RequestedPath, "img/") {
			n++
		}
	}
	// The import keeps 200 files in walk order: the entry, s1, poster (referenced first) and
	// the first 197 images; the other 8 style-attribute images are cut.
	if n != 205-197 {
		t.Fatalf("%d not-imported diagnostics for style-attribute images, want %d", n, 205-197)
	}
}

// TestUnnamedFolderFilesAreNeverMissing: past MaxImportLateNames the import only counts the
// entries it left out (LateUnnamed) and Metadata.NotImported ends with one path-less entry;
// a page reference that names no imported file is then a not-imported-reference diagnostic
// naming the 2,000-entry bound ("may be in the folder"), never "missing" (F3).
func TestUnnamedFolderFilesAreNeverMissing(t *testing.T) {
	page := `<!doctype html><img src="z/unnamed.png">`
	n := workspace.MaxImportScannedEntries + workspace.MaxImportLateNames + 10
	list := []workspace.ImportEntry{{Path: "index.html", Size: int64(len(page)), Read: func(context.Context) ([]byte, error) { return []byte(page), nil }}}
	for i := 0; i < n; i++ {
		list = append(list, workspace.ImportEntry{Path: fmt.Sprintf("a/%05d.txt", i), Size: 1, Read: func(context.Context) ([]byte, error) { return []byte("x"), nil }})
	}
	imp, err := workspace.ImportFiles(context.Background(), "site", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	// 1 + n entries: 2,000 examined, the rest (2,011) late; 2,000 of them named, 11 only counted.
	if imp.LateUnnamed != n+1-workspace.MaxImportScannedEntries-workspace.MaxImportLateNames {
		t.Fatalf("LateUnnamed %d", imp.LateUnnamed)
	}
	ni := imp.NotImported()
	if last := ni[len(ni)-1]; last.Path != "" || last.Reason != workspace.SkipScanLimit || last.Count != imp.LateUnnamed {
		t.Fatalf("last not-imported entry %+v", last)
	}
	s := workspace.Snapshot{Metadata: workspace.Metadata{ActivePath: imp.ActivePath, NotImported: ni}, Files: imp.Files}
	got := preview.Diagnose(snapshotPreviewFiles(s))
	if len(got) != 1 || got[0].Kind != preview.DiagNotImported ||
		got[0].Message != "Asset z/unnamed.png: z/unnamed.png is not among the imported files; it may be in the folder: the folder is larger than the import examines (the first 2,000 entries)" {
		t.Fatalf("diagnostics %+v", got)
	}
}

// importedSnapshot imports the folder src (path → text, offered in path order) as the studio
// imports a folder and returns the workspace it would hold: the imported files and the import's
// not-imported list.
func importedSnapshot(t *testing.T, src map[string]string) workspace.Snapshot {
	t.Helper()
	var list []workspace.ImportEntry
	for _, p := range slices.Sorted(maps.Keys(src)) {
		data := []byte(src[p])
		list = append(list, workspace.ImportEntry{Path: p, Size: int64(len(data)), Read: func(context.Context) ([]byte, error) { return data, nil }})
	}
	imp, err := workspace.ImportFiles(context.Background(), "site", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	return workspace.Snapshot{Metadata: workspace.Metadata{ActivePath: imp.ActivePath, NotImported: imp.NotImported()}, Files: imp.Files}
}
