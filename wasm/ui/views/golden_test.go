package views

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/filediff"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/trace"
	"github.com/webcoding/studio/wasm/ui/markup"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestMain(m *testing.M) {
	time.Local = time.UTC // Clock shows local time; goldens are written in UTC
	os.Exit(m.Run())
}

var t0 = time.Date(2026, 3, 1, 9, 30, 5, 0, time.UTC)

// hostile is data that must stay text wherever it lands.
const hostile = `"><script>alert(1)</script><img src=x onerror=alert(2)>&amp;`

func sampleDiff() []filediff.File {
	files, _ := filediff.Workspaces(
		map[string]filediff.Text{"index.html": {Source: "<h1>Hello</h1>\n<p>one</p>\n"}, "logo.png": {Asset: true, Size: 4}, "gone.css": {Source: "a{}\n"}},
		map[string]filediff.Text{"index.html": {Source: "<h1>Hello</h1>\n<p>" + hostile + "</p>\n"}, "logo.png": {Asset: true, Size: 5}, "new.js": {Source: "x()\n"}})
	return files
}

func sampleTrace() TraceView {
	tr := trace.New(trace.Options{Now: func() time.Time { return t0 }})
	req := mcp.CallToolParams{Name: "workspace.writeFile", Arguments: json.RawMessage(`{"path":"<b>.html","source":"` + strings.ReplaceAll(hostile, `"`, `\"`) + `"}`),
		Meta: &mcp.CallMeta{ToolCallID: `call"1`, SessionID: "s1", Source: "model", Mode: "agent"}}
	e := audit.Started(req, audit.NewProvenance("test"), t0)
	tr.Observe(e)
	tr.Observe(e.Finished(mcp.ErrorResult(e.ToolCallID, mcp.NewError(mcp.CodeWorkspaceRevisionConflict, true, nil, "stale")), e.Provenance, t0.Add(12*time.Millisecond)))
	e2 := audit.Started(mcp.CallToolParams{Name: "workspace.getStatus", Arguments: json.RawMessage(`{}`),
		Meta: &mcp.CallMeta{ToolCallID: "c2", Source: "local", Mode: "direct"}}, audit.NewProvenance("test"), t0)
	tr.Observe(e2)
	tr.Discovery(23, t0, 3*time.Millisecond)
	rows := tr.Rows(trace.Filter{})
	return TraceView{Rows: rows, Expanded: map[string]bool{rows[0].TraceID: true}, Total: len(rows), Sessions: tr.Sessions(), Session: "s:s1", Running: tr.Running() > 0}
}

// goldenCases: name → view output. Every file under testdata/ belongs to one case.
func goldenCases() map[string]markup.HTML {
	tree := BuildTree([]TreeFile{{Path: "index.html"}, {Path: "src/app.js", Dirty: true}, {Path: "src/lib/" + hostile + ".js"},
		{Path: "B.css"}, {Path: "docs/readme.md"}}, "src/app.js", map[string]bool{"docs": true})
	return map[string]markup.HTML{
		"status-loading": StatusHTML(Status{Text: "Loading…"}),
		"status-ready":   StatusHTML(Status{Text: "Ready", Ready: true, Tools: 23, Revision: 7}),
		"storage":        StorageHTML("memory", hostile, false) + "|" + StorageHTML("indexed-db", "", false) + "|" + StorageHTML("indexed-db", "", true) + "|" + StorageHTML("memory", "", true) + "|" + StorageHTML("", "", false),
		"notice":         NoticeHTML(hostile, true),
		"recipes":        RecipesHTML([]Recipe{{Label: "Make it emerald", Prompt: "Make it emerald"}, {Label: hostile, Prompt: hostile}}),
		"transcript": TranscriptHTML([]Entry{{Kind: "user", Text: hostile}, {Kind: "error", Text: "✗ workspace.writeFile [WORKSPACE_REVISION_CONFLICT] stale",
			Details: `{"expected": 3}`, Actions: []EntryAction{{Label: "Re-read & retry", Action: "recovery", Arg: "r1"}, {Label: "Retry", Action: "recovery", Arg: hostile}}},
			{Kind: "agent", Text: "streamed", Key: "m-42"}, {Kind: "reasoning", Text: "Reasoning", Details: hostile}}),
		"console":      ConsoleHTML([]ConsoleLine{{Level: "log", Text: "hi"}, {Level: "error", Text: hostile}}),
		"diagnostics":  DiagnosticsHTML([]Diagnostic{{Message: "missing " + hostile, SourcePath: "index.html"}}),
		"no-diag":      DiagnosticsHTML(nil) + PreviewErrorHTML("") + RuntimeReportsHTML(nil),
		"reports":      RuntimeReportsHTML([]RuntimeReport{{Kind: "blocked", URL: "http://127.0.0.1:9/x?" + hostile, Detail: "connect-src"}, {Kind: "missing", URL: "https://workspace.invalid/a.json"}}),
		"previewError": PreviewErrorHTML("TypeError: " + hostile),
		"context-chips": ContextChipsHTML([]ContextChip{{Kind: "element", Label: "#hero-title · " + hostile, Context: "[context: element]\ntext: " + hostile},
			{Kind: "error", Label: "Error: boom (app.js:7)", Context: "[context: error]"},
			{Kind: "audit", Label: "image-alt · #noalt", Context: "[context: audit]\nhelp: " + hostile}}) + "|" + ContextChipsHTML(nil),
		"approvals": ApprovalsHTML([]Approval{{ID: "ap-1", Name: "workspace.writeFile", Description: "Write a file", Source: "agent",
			SafeArgumentPreview: "path=" + hostile, ApproveAll: true, Diff: ApprovalDiff{Done: true, Files: sampleDiff(), Truncated: true}},
			{ID: "ap-2", Name: "workspace.undo", Source: "agent", Diff: ApprovalDiff{}},
			{ID: "ap-3", Name: "workspace.deleteFile", Source: "agent", Diff: ApprovalDiff{Done: true, Note: "If approved now, this call would fail: [X] " + hostile}}}),
		"tabs": TabsHTML([]Tab{{ID: TabID("index.html"), Path: "index.html", Name: "index.html"},
			{ID: TabID("src/app.js"), Path: "src/app.js", Name: "app.js", Active: true, Dirty: true}, {ID: TabID(hostile), Path: hostile, Name: hostile}}),
		"tabs-empty":     TabsHTML(nil),
		"tree":           TreeHTML(tree),
		"catalog-scopes": CatalogScopesHTML([]CatalogScope{{ID: "all", Label: "All", Count: 23, On: true}, {ID: "read-only", Label: "Read-only", Count: 9}}),
		"catalog-list": CatalogListHTML([]CatalogTool{{Name: "workspace.readFile", Hints: []string{"read-only"}},
			{Name: "workspace.deleteFile", Hints: []string{"destructive"}}}, "workspace.deleteFile", ""),
		"catalog-list-empty": CatalogListHTML(nil, "", "") + "|" + CatalogListHTML(nil, "", "tools/list: "+hostile),
		"catalog-definition": CatalogDefinitionHTML(&CatalogDefinition{Name: "workspace.writeFile", Description: hostile, Policy: "Changes files",
			Hints: []string{"idempotent", "open-world"}, Input: "{\n  \"type\": \"object\"\n}", Output: "{}"}),
		"catalog-definition-none": CatalogDefinitionHTML(nil),
		"history": HistoryHTML(History{Revision: 9, Rows: []HistoryRow{{Revision: 9, Tool: "workspace.writeFile", At: t0, Current: true},
			{Revision: 8, Tool: hostile, At: t0.Add(-time.Minute), Selected: true}}, Selected: 8, DiffAt: 7, Busy: true,
			Diff: HistoryDiff{Files: sampleDiff()}}),
		"history-empty": HistoryHTML(History{Revision: 1, Rows: []HistoryRow{{Revision: 1, Tool: "workspace.load", At: t0, Current: true}},
			Err: "history: " + hostile, Selected: 1, DiffAt: 1, Diff: HistoryDiff{Err: "checkpoint gone"}}),
		"palette-dialog": PaletteDialogHTML(PaletteDialog{Kind: "search", Dialog: "search-dialog", Input: "search-input", List: "search-list",
			Status: "search-status", Label: "Search workspace files", Heading: "Search workspace"}),
		"palette-items":     PaletteItemsHTML([]PaletteItem{{ID: "qo-0", Path: "index.html"}, {ID: "s-1", Path: "a.js", Line: 3, Preview: hostile, Draft: true}}, 1),
		"palette-buttons":   PaletteButtonsHTML(),
		"folder-linked":     FolderInfoHTML(Folder{Linked: true, Name: hostile, Perm: "granted", Sync: "2 change(s) not yet written", Unsaved: true}) + "|" + FolderActionsHTML(Folder{Linked: true, Picker: true}, true),
		"folder-lost":       FolderInfoHTML(Folder{Lost: "site"}) + "|" + FolderActionsHTML(Folder{Lost: "site", Picker: true}, false),
		"folder-none":       FolderInfoHTML(Folder{Name: "old"}) + "|" + FolderActionsHTML(Folder{}, false),
		"model-options":     ModelOptionsHTML([]ModelOption{{ID: "a/b:free", Label: "A B (free)"}, {ID: hostile, Label: hostile}}, hostile),
		"trace-toolbar":     TraceToolbarHTML(sampleTrace()),
		"trace-toolbar-all": TraceToolbarHTML(TraceView{ShowAll: true, Total: 3}),
		"trace-list":        TraceListHTML(sampleTrace()),
		"trace-empty":       TraceListHTML(TraceView{}),
		"device-desktop":    DeviceBarHTML(Device{}, ""),
		"device-phone":      DeviceBarHTML(Device{Kind: DevicePhone, Rotated: true}, ""),
		"device-custom":     DeviceBarHTML(Device{Kind: DeviceCustom, Width: 99999, Height: 700}, ""),
		"device-refused":    DeviceBarHTML(Device{Kind: DeviceCustom, Width: 390, Height: 700}, "Width -5 is out of range; enter a number from 200 to 4000 CSS pixels."),
		"audit-idle":        AuditHTML(AuditView{}) + "|" + AuditHTML(AuditView{Running: true}) + "|" + AuditHTML(AuditView{Err: "[PREVIEW_NEEDS_BROWSER] " + hostile}),
		"audit-clean":       AuditHTML(AuditView{Done: true, Revision: 4}),
		"audit-result": AuditHTML(AuditView{Done: true, Revision: 7, Truncated: true, Violations: []AuditViolation{
			{ID: "image-alt", Impact: "critical", Help: "Images must have alternative text", HelpURL: "https://dequeuniversity.com/rules/axe/4.14/image-alt", Count: 1, Selectors: []string{"img"}},
			{ID: hostile, Impact: "serious", Help: hostile, HelpURL: "javascript:alert(1)", Count: 9, Selectors: []string{hostile, ".faint"}}}}),
	}
}

// TestGolden compares every view with testdata/<case>.html and checks that the output
// parses into exactly what the view wrote: no <script>, <img> or on* attribute from data.
func TestGolden(t *testing.T) {
	cases := goldenCases()
	for name, out := range cases {
		t.Run(name, func(t *testing.T) {
			checkNoInjection(t, string(out))
			file := filepath.Join("testdata", name+".html")
			got := []byte(strings.ReplaceAll(string(out), "><", ">\n<")) // one tag per line: readable diffs
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./wasm/ui/views -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs; inspect the diff after go test -update\n--- got ---\n%s", file, got)
			}
		})
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := cases[strings.TrimSuffix(e.Name(), ".html")]; !ok || !strings.HasSuffix(e.Name(), ".html") {
			t.Errorf("orphaned golden file testdata/%s: no case in goldenCases writes it", e.Name())
		}
	}
}

// checkNoInjection parses out in a <body> and fails on any element or attribute that only
// the hostile data could have produced.
func checkNoInjection(t *testing.T, out string) {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(out), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.Data == "script" || n.Data == "img" {
				t.Errorf("<%s> element in output %s", n.Data, out)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") || a.Key == "src" {
					t.Errorf("attribute %s on <%s> in output %s", a.Key, n.Data, out)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
}

func TestTraceListKeepsDetails(t *testing.T) {
	v := sampleTrace()
	out := string(TraceListHTML(v))
	for _, want := range []string{`aria-expanded="true"`, "WORKSPACE_REVISION_CONFLICT", "retryable", "trace-arguments", v.Rows[0].TraceID} {
		if !strings.Contains(out, want) {
			t.Errorf("trace list lacks %q", want)
		}
	}
	tb := string(TraceToolbarHTML(TraceView{Sessions: []string{"", "s1"}, Running: true, Total: 3}))
	for _, want := range []string{`id="trace-session"`, "UI (direct)", `aria-label="Clear execution trace" disabled`, "Show all (3)"} {
		if !strings.Contains(tb, want) {
			t.Errorf("toolbar lacks %q: %s", want, tb)
		}
	}
}

// BenchmarkTraceRender: the trace panel's HTML (toolbar + every row, two expanded) for 24 /
// 256 rows, as the browser renders it on a change (it used html/template before issue 15).
func BenchmarkTraceRender(b *testing.B) {
	for _, n := range []int{24, 256} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			tr := trace.New(trace.Options{})
			for i := 0; tr.Len() < n; i++ {
				req := mcp.CallToolParams{Name: "workspace.writeFile", Arguments: json.RawMessage(`{"path":"index.html","source":"<h1>hello</h1>"}`),
					Meta: &mcp.CallMeta{ToolCallID: "call-" + strconv.Itoa(i), SessionID: "studio", Source: "model", Mode: "agent"}}
				e := audit.Started(req, audit.NewProvenance("bench"), t0)
				tr.Observe(e)
				tr.Observe(e.Finished(&mcp.CallToolResult{StructuredContent: json.RawMessage(`{"path":"index.html","revision":1}`)}, e.Provenance, t0))
			}
			rows := tr.Rows(trace.Filter{})
			v := TraceView{Rows: rows, Expanded: map[string]bool{rows[0].TraceID: true, rows[len(rows)-1].TraceID: true}, ShowAll: true, Total: len(rows), Sessions: tr.Sessions()}
			size := 0
			b.ReportAllocs()
			for b.Loop() {
				size = len(TraceToolbarHTML(v)) + len(TraceListHTML(v))
			}
			b.ReportMetric(float64(size), "html-bytes")
		})
	}
}

// TestNoBadgeForStatesThatNeverExisted: with no folder ever linked the folder info is empty
// (no "disconnected" badge); a folder linked before and now unlinked keeps its badge.
func TestNoBadgeForStatesThatNeverExisted(t *testing.T) {
	if got := string(FolderInfoHTML(Folder{})); got != "" {
		t.Errorf("no folder ever linked: %q, want nothing", got)
	}
	if got := string(FolderInfoHTML(Folder{Name: "proj"})); !strings.Contains(got, ">disconnected<") {
		t.Errorf("a folder linked before: %q, want the disconnected badge", got)
	}
}
