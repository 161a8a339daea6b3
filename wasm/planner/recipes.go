package planner

// Recipe is one entry of the built-in prompt-recipe catalog shown beside the composer
// (REFERENCE §7.4): a prompt and the tools its local plan calls. Tools is the declared
// list; for every recipe except save-to-folder it equals BuildPlan(Prompt, false,
// "index.html")'s tool names. save-to-folder declares [getStatus, saveAll, saveCheckpoint]:
// its plan is getStatus + saveAll with a linked folder, getStatus + saveCheckpoint without.
type Recipe struct {
	ID     string
	Label  string
	Prompt string
	Tools  []string
}

// NeedsFolder reports whether the recipe acts on a linked folder (save-to-folder, reload-folder,
// disconnect-folder): the studio offers it only while a folder is linked (issue 14 item 8).
func (r Recipe) NeedsFolder() bool {
	for _, t := range r.Tools {
		if t == ToolSaveAll || t == ToolReloadFolder || t == ToolDisconnectFolder {
			return true
		}
	}
	return false
}

// Recipes returns the 14 recipes in display order. The result is a fresh copy.
func Recipes() []Recipe {
	return []Recipe{
		{"make-emerald", "Make it emerald", "Make it emerald",
			[]string{ToolGetStatus, ToolSetTheme}},
		{"add-feature-card", "Add a feature card", "Add a feature card",
			[]string{ToolGetStatus, ToolAddFeature}},
		{"update-hero", "Update the hero", "Update the hero",
			[]string{ToolGetStatus, ToolUpdateHero}},
		{"show-workspace-status", "Show workspace status", "Show workspace status",
			[]string{ToolGetStatus}},
		{"show-preview-status", "Show preview status", "Show preview status",
			[]string{ToolPreviewStatus}},
		{"refresh-preview", "Refresh preview", "Refresh the preview",
			[]string{ToolGetStatus, ToolPreviewRefresh}},
		{"create-notes", "Create notes.md", "Create notes.md",
			[]string{ToolGetStatus, ToolCreateFile}},
		{"rename-index", "Rename index.html to landing.html", "Rename index.html to landing.html",
			[]string{ToolGetStatus, ToolListFiles, ToolRenameFile}},
		{"undo-latest-edit", "Undo latest edit", "Undo latest edit",
			[]string{ToolGetStatus, ToolUndo}},
		{"download-current-file", "Download current file", "Download current file",
			[]string{ToolGetStatus, ToolListFiles, ToolDownloadFile}},
		{"save-to-folder", "Save to folder", "Save to folder",
			[]string{ToolGetStatus, ToolSaveAll, ToolSaveCheckpoint}},
		{"reload-folder", "Reload folder", "Reload folder",
			[]string{ToolGetStatus, ToolReloadFolder}},
		{"disconnect-folder", "Disconnect folder", "Disconnect folder",
			[]string{ToolGetStatus, ToolDisconnectFolder}},
		{"reset-demo-workspace", "Reset demo workspace", "Reset demo workspace",
			[]string{ToolGetStatus, ToolReset}},
	}
}
