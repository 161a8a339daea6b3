package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// c builds an expected call.
func c(name string, kv ...any) Call { return newCall(name, kv...) }

// TestReferenceTable is the prompt → tool sequence table of REFERENCE §7.4 (folder not
// linked unless noted; active path index.html), with exact arguments.
func TestReferenceTable(t *testing.T) {
	status := c(ToolGetStatus)
	list := c(ToolListFiles)
	tests := []struct {
		prompt string
		linked bool
		want   []Call
	}{
		{"Show workspace status", false, []Call{status}},
		{"Show preview status", false, []Call{c(ToolPreviewStatus)}},
		{"Make it emerald", false, []Call{status, c(ToolSetTheme, "theme", "emerald")}},
		{"Make it amber", false, []Call{status, c(ToolSetTheme, "theme", "amber")}},
		{"Add a feature card", false, []Call{status,
			c(ToolAddFeature, "title", DefaultFeatureTitle, "description", DefaultFeatureDescription)}},
		{`Add a feature card "Inspectable tools" "Every call leaves a trace."`, false, []Call{status,
			c(ToolAddFeature, "title", "Inspectable tools", "description", "Every call leaves a trace.")}},
		{"Update the hero", false, []Call{status,
			c(ToolUpdateHero, "title", DefaultHeroTitle, "subtitle", DefaultHeroSubtitle)}},
		{`Update the hero title to "Ship from context" with subtitle "Typed tools keep the preview honest."`, false,
			[]Call{status, c(ToolUpdateHero, "title", "Ship from context", "subtitle", "Typed tools keep the preview honest.")}},
		{`Replace "old copy" with "new copy" in index.html`, false, []Call{status, list,
			c(ToolReadFile, "path", "index.html"),
			c(ToolApplyPatch, "path", "index.html", "search", "old copy", "replace", "new copy", "occurrence", "first")}},
		{`Change missing.md from "old" to "new"`, false, []Call{status, list,
			c(ToolReadFile, "path", "missing.md"),
			c(ToolApplyPatch, "path", "missing.md", "search", "old", "replace", "new", "occurrence", "first")}},
		// The quirk fix: no createFile after the patch.
		{`Change index.html from "text that is not in this file" to "new text"`, false, []Call{status, list,
			c(ToolReadFile, "path", "index.html"),
			c(ToolApplyPatch, "path", "index.html", "search", "text that is not in this file", "replace", "new text", "occurrence", "first")}},
		{"Delete file index.html", false, []Call{status, list, c(ToolDeleteFile, "path", "index.html")}},
		{"Delete the file", false, []Call{list}},
		{"Create notes.md", false, []Call{status, c(ToolCreateFile, "path", "notes.md", "source", DefaultCreateSource)}},
		{"Rename index.html to landing.html", false, []Call{status, list,
			c(ToolRenameFile, "fromPath", "index.html", "toPath", "landing.html")}},
		{"Undo latest edit", false, []Call{status, c(ToolUndo)}},
		{"Download current file", false, []Call{status, list, c(ToolDownloadFile, "path", "index.html")}},
		{"Save to folder", false, []Call{status, c(ToolSaveCheckpoint)}},
		{"Save the changes", false, []Call{status, c(ToolSaveCheckpoint)}},
		{"Save to folder", true, []Call{status, c(ToolSaveAll)}},
		{"Save the changes", true, []Call{status, c(ToolSaveAll)}},
		{"Reload folder", false, []Call{status, c(ToolReloadFolder)}},
		{"Disconnect folder", false, []Call{status, c(ToolDisconnectFolder)}},
		{"Refresh the preview", false, []Call{status, c(ToolPreviewRefresh)}},
		{"Reset demo workspace", false, []Call{status, c(ToolReset)}},
		{"hello", false, []Call{}}, // not understood: nothing runs (issue 14)
	}
	for _, tt := range tests {
		got := BuildPlan(tt.prompt, tt.linked, "index.html")
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("BuildPlan(%q, linked=%v) mismatch (-want +got):\n%s", tt.prompt, tt.linked, diff)
		}
	}
}

func TestAmbiguity(t *testing.T) {
	tests := []struct {
		prompt, active string
		want           Ambiguity
	}{
		{"Delete the file", "index.html", AmbiguousDelete},
		{"파일 삭제해줘", "index.html", AmbiguousDelete},
		{"Download current file", "", AmbiguousDownload},
		{"Download current file", "../secret.md", AmbiguousDownload},
		{"Download current file", "index.html", NotAmbiguous},
		{"Download app.js", "", NotAmbiguous},
		{"Delete file index.html", "index.html", NotAmbiguous},
		{"hello", "index.html", NotUnderstood},
	}
	for _, tt := range tests {
		p := Build(tt.prompt, false, tt.active)
		if p.Ambiguous != tt.want {
			t.Errorf("Build(%q, active %q).Ambiguous = %q, want %q", tt.prompt, tt.active, p.Ambiguous, tt.want)
		}
		if tt.want != NotAmbiguous && tt.want != NotUnderstood && !cmp.Equal(ToolNames(p.Calls), []string{ToolListFiles}) {
			t.Errorf("Build(%q): ambiguous plan is %v, want [listFiles]", tt.prompt, ToolNames(p.Calls))
		}
	}
}

func TestPromptToToolCallsDownloadWithoutActivePath(t *testing.T) {
	got := PromptToToolCalls("Download current file")
	if diff := cmp.Diff([]Call{c(ToolListFiles)}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	got = PromptToToolCallsWithActive("Download current file", "styles.css")
	if diff := cmp.Diff([]Call{c(ToolDownloadFile, "path", "styles.css")}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestPlanPreflight covers the plan-building rules of REFERENCE §7.2 beyond the table.
func TestPlanPreflight(t *testing.T) {
	tests := []struct {
		prompt string
		want   []string
	}{
		// Read-only plans are unchanged.
		{"Open app.js", []string{ToolOpenFile}},
		{"hello", []string{}},
		// The first file-targeting call decides the preflight: the rename (no readFile), even
		// though a download follows.
		{"Rename a.md to b.md and download it", []string{ToolGetStatus, ToolListFiles, ToolRenameFile, ToolDownloadFile}},
		// A mutation without a file-targeting call: getStatus only.
		{"Make it pink and save", []string{ToolGetStatus, ToolSetTheme, ToolSaveCheckpoint}},
		// Undo and redo in order.
		{"undo then redo", []string{ToolGetStatus, ToolUndo, ToolRedo}},
	}
	for _, tt := range tests {
		got := ToolNames(BuildPlan(tt.prompt, false, "index.html"))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("BuildPlan(%q) tools mismatch (-want +got):\n%s", tt.prompt, diff)
		}
	}
}

// TestBuildReturnsIndependentArguments checks that mutating one plan's arguments (as
// ThreadRevision does) cannot leak into another plan.
func TestBuildReturnsIndependentArguments(t *testing.T) {
	a := BuildPlan("Create notes.md", false, "index.html")
	ThreadRevision(&a[1], 7)
	b := BuildPlan("Create notes.md", false, "index.html")
	if _, ok := b[1].Arguments[ArgExpectedRevision]; ok {
		t.Fatalf("second plan carries the first plan's expectedRevision: %v", b[1].Arguments)
	}
	if a[0].Arguments == nil || len(a[0].Arguments) != 0 {
		t.Fatalf("getStatus arguments = %#v, want an empty non-nil map", a[0].Arguments)
	}
}

// TestDefaultsFitSchemaLimits: the planner's own default values satisfy REFERENCE §4.
func TestDefaultsFitSchemaLimits(t *testing.T) {
	limits := []struct {
		name     string
		value    string
		min, max int
	}{
		{"feature title", DefaultFeatureTitle, 1, 70},
		{"feature description", DefaultFeatureDescription, 1, 160},
		{"hero title", DefaultHeroTitle, 1, 90},
		{"hero subtitle", DefaultHeroSubtitle, 1, 180},
		{"create path", DefaultCreatePath, 1, 160},
		{"patch path", DefaultPatchPath, 1, 160},
		{"create source", DefaultCreateSource, 0, 80_000},
	}
	for _, l := range limits {
		if n := len([]rune(l.value)); n < l.min || n > l.max {
			t.Errorf("%s has %d characters, want %d..%d", l.name, n, l.min, l.max)
		}
	}
	if n := strings.Count(DefaultCreateSource, "\n"); n != 3 {
		t.Errorf("create source has %d lines, want 3", n)
	}
}
