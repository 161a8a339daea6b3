package sites

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/host/folder"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

const sitesDir = "../testdata/sites"

// site is one fixture and what its compiled document must show.
type site struct {
	dir      string
	files    int      // files on disk, all of which import
	contains []string // substrings of the compiled document
	// exported are substrings of the standalone export (assets inlined as data: URLs; the
	// preview names them by virtual URL and carries each once in its file table, design.md
	// §5.26).
	exported  []string
	patchPath string // a text file to patch
	search    string
	replace   string
}

var sites = []site{
	{dir: "todo-modules", files: 12,
		contains: []string{
			`<style href="css/app.css" data-workspace-source="css/app.css"` /* then data-webcoding-style (docs/design.md §5.33) */, "--accent: #2563eb;", ".btn-primary", "@media print {",
			preview.ModuleSpecifierPrefix + "src/lib/confirm.js", preview.ModuleSpecifierPrefix + "src/lib/uid.js",
			`href="` + preview.ModuleSpecifierPrefix},
		exported:  []string{`href="data:image/svg+xml;base64,`},
		patchPath: "src/view.js", search: `join("")`, replace: `join("\n")`},
	{dir: "studio portfolio", files: 10,
		contains: []string{`<style href="css/site.css" data-workspace-source="css/site.css"`, "Georgia", `src="` + preview.ModuleSpecifierPrefix,
			`url("` + preview.ModuleSpecifierPrefix, "nav.top a", `"type":"image/svg+xml","b64":"`},
		exported:  []string{`src="data:image/svg+xml;base64,`, `url("data:image/svg+xml;base64,`},
		patchPath: "about.html", search: "Commissions open in spring.", replace: "Commissions are open."},
	{dir: "asteroid-dodge", files: 6,
		contains:  []string{`"type":"image/png","b64":"iVBORw0KGgo`, `url("` + preview.ModuleSpecifierPrefix, "requestAnimationFrame(frame)", `var keys = {};`},
		exported:  []string{`src="data:image/png;base64,iVBORw0KGgo`, `url("data:image/png;base64,`},
		patchPath: "js/game.js", search: "speed: 3", replace: "speed: 4"},
	{dir: "weather-dashboard", files: 8,
		contains: []string{preview.ModuleSpecifierPrefix + "widgets/chart%20card.js", "//# sourceURL=index.html",
			"@media screen and (prefers-color-scheme: dark) {", "grid-template-columns"},
		patchPath: "widgets/format.js", search: "#0ea5e9", replace: "#f97316"},
	{dir: "recipe-notes", files: 8,
		contains: []string{`poster="` + preview.ModuleSpecifierPrefix, `"Noto Sans KR"`, `url("` + preview.ModuleSpecifierPrefix,
			"data:image/svg+xml,%3Csvg", `localStorage.setItem("last"`},
		exported:  []string{`poster="data:image/svg+xml;base64,`, `url("data:image/svg+xml;base64,`},
		patchPath: "notes/레시피.md", search: "두부는", replace: "두부와 파는"},
}

// entries walks dir with os and offers every regular file to the importer.
func entries(t *testing.T, dir string) []workspace.ImportEntry {
	t.Helper()
	var out []workspace.ImportEntry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, workspace.ImportEntry{Path: filepath.ToSlash(rel), Size: info.Size(),
			Read: func(context.Context) ([]byte, error) { return os.ReadFile(p) }})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func toPreview(files []*workspace.File) []preview.File {
	out := make([]preview.File, len(files))
	for i, f := range files {
		out[i] = preview.File{Path: f.Path, Language: f.Language, Kind: f.Kind, MimeType: f.MimeType, Source: f.Source, Data: f.Data}
	}
	return out
}

func TestSitesImportAndCompileClean(t *testing.T) {
	if len(sites) < 5 {
		t.Fatal("at least five sites")
	}
	for _, s := range sites {
		t.Run(s.dir, func(t *testing.T) {
			es := entries(t, filepath.Join(sitesDir, s.dir))
			imp, terr := workspace.ImportFiles(context.Background(), s.dir, slices.Values(es))
			if terr != nil {
				t.Fatal(terr)
			}
			if len(imp.Skipped) != 0 || len(imp.Files) != s.files || len(es) != s.files {
				t.Fatalf("imported %d of %d files (want %d), skipped %+v", len(imp.Files), len(es), s.files, imp.Skipped)
			}
			if imp.ActivePath != "index.html" {
				t.Fatalf("active path %q", imp.ActivePath)
			}
			res := preview.Compile(toPreview(imp.Files), preview.Options{Revision: 1, Nonce: "n", Bridge: true})
			if res.Entry != "index.html" {
				t.Fatalf("entry %q", res.Entry)
			}
			if len(res.Diagnostics) != 0 {
				t.Fatalf("diagnostics: %+v", res.Diagnostics)
			}
			if os.Getenv("SITES_DUMP") == s.dir {
				t.Log(res.HTML)
			}
			for _, want := range s.contains {
				if !strings.Contains(res.HTML, want) {
					t.Errorf("compiled document lacks %q", want)
				}
			}
			if d := preview.Diagnose(toPreview(imp.Files)); len(d) != 0 {
				t.Fatalf("Diagnose disagrees with Compile: %+v", d)
			}
			exp, err := preview.Export(toPreview(imp.Files))
			if err != nil || strings.Contains(exp, preview.BridgeAttr) {
				t.Fatalf("export: %v (bridge present: %v)", err, strings.Contains(exp, preview.BridgeAttr))
			}
			for _, want := range s.exported {
				if !strings.Contains(exp, want) {
					t.Errorf("export lacks %q", want)
				}
			}
		})
	}
}

// copyDir copies src into a fresh temporary directory and returns it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func callTool(t *testing.T, s *rpcsession.Session, name string, args map[string]any) map[string]any {
	t.Helper()
	raw := []byte("{}")
	if args != nil {
		raw, _ = json.Marshal(args)
	}
	res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: name, Arguments: raw,
		Meta: &mcp.CallMeta{ToolCallID: "e2e-" + name, Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
	if res.IsError {
		t.Fatalf("%s: %+v", name, res.Error)
	}
	var out map[string]any
	if err := json.Unmarshal(res.StructuredContent, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func openSession(t *testing.T, dir string, cfg rpcsession.Config) *rpcsession.Session {
	t.Helper()
	f, err := folder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	s, err := studio.Builder(studio.Ports{Folder: f, Log: func(_ int, m string) { t.Log(m) }})(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSitesPatchRoundTripsThroughTheRegistry(t *testing.T) {
	for _, s := range sites {
		t.Run(s.dir, func(t *testing.T) {
			dir := copyDir(t, filepath.Join(sitesDir, s.dir))
			sess := openSession(t, dir, rpcsession.Config{})
			st := callTool(t, sess, studio.ToolWorkspaceGetStatus, nil)
			if st["fileCount"].(float64) != float64(s.files) || st["filesystem"].(map[string]any)["folderLinked"] != true {
				t.Fatalf("status %v", st)
			}
			before := callTool(t, sess, studio.ToolWorkspaceReadFile, map[string]any{"path": s.patchPath})["source"].(string)
			disk, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(s.patchPath)))
			if before != string(disk) {
				t.Fatal("readFile differs from the file on disk")
			}
			p := callTool(t, sess, studio.ToolWorkspaceApplyPatch, map[string]any{"path": s.patchPath, "search": s.search,
				"replace": s.replace, "occurrence": "first", "expectedRevision": st["revision"]})
			if p["replacements"].(float64) != 1 || p["preview"] != "synced" {
				t.Fatalf("patch %v", p)
			}
			after := callTool(t, sess, studio.ToolWorkspaceReadFile, map[string]any{"path": s.patchPath})["source"].(string)
			if after != strings.Replace(before, s.search, s.replace, 1) {
				t.Fatalf("patched source does not round-trip:\n%s", after)
			}
			if ps := callTool(t, sess, studio.ToolPreviewGetStatus, nil); len(ps["diagnostics"].([]any)) != 0 || ps["status"] != "synced" {
				t.Fatalf("preview after patch %v", ps)
			}
			saved := callTool(t, sess, studio.ToolWorkspaceSaveAll, nil)
			if !slices.Equal(toStrings(saved["savedPaths"]), []string{s.patchPath}) {
				t.Fatalf("saveAll %v", saved)
			}
			disk, _ = os.ReadFile(filepath.Join(dir, filepath.FromSlash(s.patchPath)))
			if string(disk) != after {
				t.Fatal("saved bytes differ from the workspace source")
			}
		})
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestMakeItEmeraldOnDisk is the done-when check: in a copy of the seed on disk,
// "Make it emerald" with approval changes styles.css in the workspace, and saving writes the
// emerald tokens into the folder.
func TestMakeItEmeraldOnDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "seed")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range workspace.Seed().Files {
		if err := os.WriteFile(filepath.Join(dir, f.Path), []byte(f.Source), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sess := openSession(t, dir, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}})
	run := func(prompt string) planner.Report {
		v, rerr := sess.Methods[studio.MethodAgentRun](context.Background(), json.RawMessage(`{"prompt":"`+prompt+`"}`))
		if rerr != nil {
			t.Fatal(rerr)
		}
		rep := v.(planner.Report)
		if rep.Failed {
			t.Fatalf("%s: %s", prompt, rep.Summary)
		}
		return rep
	}
	run("Make it emerald")
	disk, _ := os.ReadFile(filepath.Join(dir, "styles.css"))
	if strings.Contains(string(disk), "#10b981") {
		t.Fatal("written before saveAll")
	}
	rep := run("Save the changes")
	if rep.Calls[len(rep.Calls)-1].Request.Name != studio.ToolWorkspaceSaveAll {
		t.Fatalf("save plan %+v", rep.Calls)
	}
	disk, _ = os.ReadFile(filepath.Join(dir, "styles.css"))
	for _, want := range []string{"--accent: #10b981;", "--accent-soft: #e7fbf3;"} {
		if !strings.Contains(string(disk), want) {
			t.Fatalf("styles.css on disk lacks %q:\n%s", want, disk)
		}
	}
}
