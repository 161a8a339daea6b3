package planner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/webcoding/studio/wasm/mcp"
)

// TestEverydayRequests (issue 14 item 6): the requests a user types first plan the registry
// calls that do them, in English and Korean; colours honour negation and alternatives.
func TestEverydayRequests(t *testing.T) {
	type want struct {
		tools   []string
		args    map[string]any // arguments of the last call (subset)
		element string
	}
	status := ToolGetStatus
	tests := []struct {
		prompt string
		want   want
	}{
		{"Change the heading text to Hello World", want{[]string{status, ToolListFiles, ToolReadFile, ToolApplyPatch},
			map[string]any{"path": "index.html", "replace": "Hello World"}, "heading"}},
		{"Change the button text to \"Sign up\"", want{[]string{status, ToolListFiles, ToolReadFile, ToolApplyPatch},
			map[string]any{"replace": "Sign up"}, "button"}},
		{"change the paragraph to Welcome aboard.", want{[]string{status, ToolListFiles, ToolReadFile, ToolApplyPatch},
			map[string]any{"replace": "Welcome aboard"}, "paragraph"}},
		{"버튼 텍스트를 '시작하기'로 바꿔줘", want{[]string{status, ToolListFiles, ToolReadFile, ToolApplyPatch},
			map[string]any{"replace": "시작하기"}, "button"}},
		{"버튼 텍스트를 시작하기로 바꿔줘", want{[]string{status, ToolListFiles, ToolReadFile, ToolApplyPatch},
			map[string]any{"replace": "시작하기"}, "button"}},
		{"delete app.js", want{[]string{status, ToolListFiles, ToolDeleteFile}, map[string]any{"path": "app.js"}, ""}},
		{"app.js 삭제해줘", want{[]string{status, ToolListFiles, ToolDeleteFile}, map[string]any{"path": "app.js"}, ""}},
		{"rename app.js to main.js", want{[]string{status, ToolListFiles, ToolRenameFile}, map[string]any{"fromPath": "app.js", "toPath": "main.js"}, ""}},
		{"create about.html", want{[]string{status, ToolCreateFile}, map[string]any{"path": "about.html"}, ""}},
		{"about.html 만들어줘", want{[]string{status, ToolCreateFile}, map[string]any{"path": "about.html"}, ""}},
		{"rose, not emerald", want{[]string{status, ToolSetTheme}, map[string]any{"theme": "rose"}, ""}},
		{"Make it rose instead of emerald", want{[]string{status, ToolSetTheme}, map[string]any{"theme": "rose"}, ""}},
		{"not green, make it violet", want{[]string{status, ToolSetTheme}, map[string]any{"theme": "violet"}, ""}},
		{"에메랄드 대신 로즈 색으로", want{[]string{status, ToolSetTheme}, map[string]any{"theme": "rose"}, ""}},
		{"초록 말고 보라색으로 해줘", want{[]string{status, ToolSetTheme}, map[string]any{"theme": "violet"}, ""}},
		{"Change the accent color to emerald", want{[]string{status, ToolSetTheme}, map[string]any{"theme": "emerald"}, ""}},
	}
	for _, tt := range tests {
		p := Build(tt.prompt, false, "index.html")
		if p.Ambiguous != NotAmbiguous {
			t.Errorf("%q: %q", tt.prompt, p.Ambiguous)
			continue
		}
		if diff := cmp.Diff(tt.want.tools, ToolNames(p.Calls)); diff != "" {
			t.Errorf("%q tools (-want +got):\n%s", tt.prompt, diff)
			continue
		}
		last := p.Calls[len(p.Calls)-1]
		for k, v := range tt.want.args {
			if last.Arguments[k] != v {
				t.Errorf("%q: %s = %v, want %v", tt.prompt, k, last.Arguments[k], v)
			}
		}
		if last.Element != tt.want.element {
			t.Errorf("%q: element %q, want %q", tt.prompt, last.Element, tt.want.element)
		}
	}
}

// TestNotUnderstood (issue 14 item 6): a request the planner does not understand runs nothing
// and is reported as not understood (never a ✓), naming what the agent can do.
func TestNotUnderstood(t *testing.T) {
	for _, prompt := range []string{"hello", "Make the layout feel more premium", "이거 좀 예쁘게 해줘"} {
		ran := 0
		rep := Run(context.Background(), func(context.Context, mcp.CallToolParams) *mcp.CallToolResult {
			ran++
			return &mcp.CallToolResult{}
		}, prompt, RunOptions{Revision: 2})
		if ran != 0 || !rep.NotUnderstood || !rep.Failed || len(rep.Calls) != 0 {
			t.Errorf("%q: ran %d, report %+v", prompt, ran, rep)
		}
		if !strings.Contains(rep.Summary, "did not understand") || !strings.Contains(rep.Summary, "It can:") {
			t.Errorf("%q: summary %q", prompt, rep.Summary)
		}
	}
}

// TestElementTextRun: the element-text patch takes its search from the file just read; a file
// without such an element fails the run (nothing changed), never a ✓.
func TestElementTextRun(t *testing.T) {
	page := "<main><h1 id=\"t\">Old title</h1><p class=\"x\"><span>nested</span></p><p>Plain para</p><button type=\"button\">Go</button></main>"
	for _, tt := range []struct{ prompt, search, replace string }{
		{"Change the heading text to Hello World", "Old title", "Hello World"},
		{"Change the paragraph text to New para", "Plain para", "New para"},
		{"Change the button text to \"Start\"", "Go", "Start"},
	} {
		var patch map[string]any
		exec := func(_ context.Context, p mcp.CallToolParams) *mcp.CallToolResult {
			switch p.Name {
			case ToolReadFile:
				b, _ := json.Marshal(map[string]any{"path": "index.html", "source": page, "revision": 2})
				return &mcp.CallToolResult{StructuredContent: b}
			case ToolApplyPatch:
				_ = json.Unmarshal(p.Arguments, &patch)
			}
			return &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"revision":2}`)}
		}
		rep := Run(context.Background(), exec, tt.prompt, RunOptions{Revision: 2})
		if rep.Failed || patch["search"] != tt.search || patch["replace"] != tt.replace {
			t.Errorf("%q: patch %v, report %+v", tt.prompt, patch, rep)
		}
	}
	exec := func(_ context.Context, p mcp.CallToolParams) *mcp.CallToolResult {
		if p.Name == ToolApplyPatch {
			t.Fatal("a patch ran without an element to change")
		}
		b, _ := json.Marshal(map[string]any{"source": "<main>no button</main>"})
		return &mcp.CallToolResult{StructuredContent: b}
	}
	if rep := Run(context.Background(), exec, "Change the button text to Go", RunOptions{}); !rep.Failed || !strings.Contains(rep.Summary, "no button") {
		t.Errorf("missing element: %+v", rep)
	}
}

// TestStatusInWords (issue 14 items 7, 8): the status recipes answer with the fetched status in
// words, the preview status claims no refresh, and "Save to folder" without a folder says that
// it saved a checkpoint instead.
func TestStatusInWords(t *testing.T) {
	results := map[string]string{
		ToolGetStatus:      `{"rootName":"canvas-landing","activePath":"index.html","revision":7,"fileCount":5,"dirtyPaths":["styles.css"],"deletedPaths":[],"storageMode":"indexed-db","filesystem":{"folderLinked":false,"permission":"disconnected"}}`,
		ToolPreviewStatus:  `{"revision":7,"status":"synced","runtime":"sandbox iframe","storageMode":"indexed-db"}`,
		ToolSaveCheckpoint: `{"revision":7,"saved":true}`,
	}
	exec := func(_ context.Context, p mcp.CallToolParams) *mcp.CallToolResult {
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(results[p.Name])}
	}
	for _, tt := range []struct{ prompt, want, not string }{
		{"Show workspace status", "Workspace canvas-landing at revision 7: 5 files, index.html open; saved in this browser (IndexedDB); no folder linked.", ""},
		{"Show preview status", "Preview at revision 7: acknowledged (runtime: sandbox iframe).", "refreshed"},
		{"Save to folder", "No folder is linked, so nothing was written to a folder: saved a checkpoint in this browser instead (workspace.saveCheckpoint).", ""},
	} {
		rep := Run(context.Background(), exec, tt.prompt, RunOptions{Revision: 7})
		if rep.Failed || !strings.HasPrefix(rep.Summary, tt.want) || tt.not != "" && strings.Contains(rep.Summary, tt.not) {
			t.Errorf("%q: summary %q, want %q", tt.prompt, rep.Summary, tt.want)
		}
	}
	for _, r := range Recipes() {
		want := r.ID == "save-to-folder" || r.ID == "reload-folder" || r.ID == "disconnect-folder"
		if r.NeedsFolder() != want {
			t.Errorf("%s: NeedsFolder %v", r.ID, r.NeedsFolder())
		}
	}
}
