package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRecipes(t *testing.T) {
	recipes := Recipes()
	wantIDs := []string{"make-emerald", "add-feature-card", "update-hero", "show-workspace-status",
		"show-preview-status", "refresh-preview", "create-notes", "rename-index", "undo-latest-edit",
		"download-current-file", "save-to-folder", "reload-folder", "disconnect-folder", "reset-demo-workspace"}
	var ids []string
	for _, r := range recipes {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff(wantIDs, ids); diff != "" {
		t.Fatalf("recipe ids mismatch (-want +got):\n%s", diff)
	}

	for _, r := range recipes {
		if r.Label == "" || r.Prompt == "" {
			t.Errorf("%s: empty label or prompt", r.ID)
		}
		for _, name := range r.Tools {
			if !IsTool(name) {
				t.Errorf("%s: declared tool %q is not a catalog tool", r.ID, name)
			}
		}
		unlinked := ToolNames(BuildPlan(r.Prompt, false, "index.html"))
		linked := ToolNames(BuildPlan(r.Prompt, true, "index.html"))
		if r.ID == "save-to-folder" {
			// Both plans stay within the declared list, and differ only in the save tool.
			for _, plan := range [][]string{unlinked, linked} {
				for _, name := range plan {
					if !contains(r.Tools, name) {
						t.Errorf("%s: planned %q outside the declared %v", r.ID, name, r.Tools)
					}
				}
			}
			if !cmp.Equal(unlinked, []string{ToolGetStatus, ToolSaveCheckpoint}) ||
				!cmp.Equal(linked, []string{ToolGetStatus, ToolSaveAll}) {
				t.Errorf("%s: plans %v (browser-only) and %v (linked)", r.ID, unlinked, linked)
			}
			continue
		}
		if diff := cmp.Diff(r.Tools, unlinked); diff != "" {
			t.Errorf("%s: declared tools differ from the plan of %q (-declared +planned):\n%s", r.ID, r.Prompt, diff)
		}
		if diff := cmp.Diff(unlinked, linked); diff != "" {
			t.Errorf("%s: plan depends on the folder link (-unlinked +linked):\n%s", r.ID, diff)
		}
	}

	// Recipes returns a fresh copy.
	recipes[0].Tools[0] = "changed"
	if Recipes()[0].Tools[0] != ToolGetStatus {
		t.Error("Recipes shares its slices between calls")
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
