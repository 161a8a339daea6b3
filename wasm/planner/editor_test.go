package planner

import (
	"reflect"
	"testing"
)

func TestEditorPlan(t *testing.T) {
	names := func(calls []Call) []string {
		var out []string
		for _, c := range calls {
			out = append(out, c.Name)
		}
		return out
	}
	cases := []struct {
		prompt string
		want   []string
	}{
		{"Show the status", []string{EditorGetStatus}},
		{"List the files", []string{EditorGetStatus, EditorListFiles}},
		{"Open cart-store.ts", []string{EditorGetDocument, EditorOpenFile}},
		{`Change "a" to "b"`, []string{EditorGetDocument, EditorApplyPatch}},
		{`Write "<p>hi</p>" as the document`, []string{EditorGetDocument, EditorSetDocument}},
		{"Use the invalid scenario", []string{EditorGetDocument, EditorSetScenario}},
		{"차단 시나리오로 바꿔", []string{EditorGetDocument, EditorSetScenario}},
		{"Reset the document and show the preview", []string{EditorGetDocument, EditorResetDocument, EditorGetPreviewStatus}},
		{"Save all files", []string{EditorSaveAll}},
		{"Save style.css", []string{EditorSaveFile}},
		{"Save", []string{EditorGetDocument, EditorSaveFile}},
		{"Run the scenario", []string{EditorGetPreviewStatus}},
	}
	for _, c := range cases {
		calls, ok := EditorPlan(c.prompt)
		if !ok || !reflect.DeepEqual(names(calls), c.want) {
			t.Errorf("%q: planned %v (ok %v), want %v", c.prompt, names(calls), ok, c.want)
		}
	}
	if calls, _ := EditorPlan("Save style.css"); calls[0].Arguments["path"] != "style.css" {
		t.Errorf("save path: %v", calls[0].Arguments)
	}
	if calls, ok := EditorPlan("Make the button bigger"); ok || len(calls) != 0 {
		t.Errorf("not understood: %v", calls)
	}
}
