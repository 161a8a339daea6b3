package planner

// Tool names of the studio catalog (REFERENCE §2). They are kept in this one file so that
// they can later be replaced by the studio package's constants without touching the planner.
const (
	ToolGetStatus        = "workspace.getStatus"
	ToolReset            = "workspace.reset"
	ToolListFiles        = "workspace.listFiles"
	ToolReadFile         = "workspace.readFile"
	ToolDownloadFile     = "workspace.downloadFile"
	ToolOpenFile         = "workspace.openFile"
	ToolCreateFile       = "workspace.createFile"
	ToolRenameFile       = "workspace.renameFile"
	ToolDeleteFile       = "workspace.deleteFile"
	ToolWriteFile        = "workspace.writeFile"
	ToolSaveAll          = "workspace.saveAll"
	ToolSaveCheckpoint   = "workspace.saveCheckpoint"
	ToolReloadFolder     = "workspace.reloadFolder"
	ToolDisconnectFolder = "workspace.disconnectFolder"
	ToolApplyPatch       = "workspace.applyPatch"
	ToolRevertFile       = "workspace.revertFile"
	ToolUndo             = "workspace.undo"
	ToolRedo             = "workspace.redo"
	ToolSetTheme         = "preview.setTheme"
	ToolAddFeature       = "preview.addFeature"
	ToolUpdateHero       = "preview.updateHero"
	ToolPreviewStatus    = "preview.getStatus"
	ToolPreviewRefresh   = "preview.refresh"
)

// AllTools lists the 23 catalog names in REFERENCE §2 table order. Callers must not modify it.
var AllTools = []string{
	ToolGetStatus, ToolReset, ToolListFiles, ToolReadFile, ToolDownloadFile, ToolOpenFile,
	ToolCreateFile, ToolRenameFile, ToolDeleteFile, ToolWriteFile, ToolSaveAll, ToolSaveCheckpoint,
	ToolReloadFolder, ToolDisconnectFolder, ToolApplyPatch, ToolRevertFile, ToolUndo, ToolRedo,
	ToolSetTheme, ToolAddFeature, ToolUpdateHero, ToolPreviewStatus, ToolPreviewRefresh,
}

// IsTool reports whether name is one of the 23 catalog tool names.
func IsTool(name string) bool {
	for _, t := range AllTools {
		if t == name {
			return true
		}
	}
	return false
}

// Theme values accepted by preview.setTheme (REFERENCE §2, tool 19).
const (
	ThemeViolet  = "violet"
	ThemeEmerald = "emerald"
	ThemeAmber   = "amber"
	ThemeRose    = "rose"
)

// guardedTools are the tools whose calls the local agent threads expectedRevision into
// (REFERENCE §7.3).
var guardedTools = map[string]bool{
	ToolReset: true, ToolCreateFile: true, ToolRenameFile: true, ToolDeleteFile: true,
	ToolWriteFile: true, ToolApplyPatch: true, ToolRevertFile: true, ToolUndo: true,
	ToolRedo: true, ToolSaveCheckpoint: true, ToolSaveAll: true, ToolReloadFolder: true,
}

// mutationTools are the tools whose presence in a plan makes BuildPlan prepend
// workspace.getStatus (REFERENCE §7.2).
var mutationTools = map[string]bool{
	ToolReset: true, ToolCreateFile: true, ToolRenameFile: true, ToolDeleteFile: true,
	ToolWriteFile: true, ToolApplyPatch: true, ToolRevertFile: true, ToolUndo: true,
	ToolRedo: true, ToolSaveCheckpoint: true, ToolSaveAll: true, ToolReloadFolder: true,
	ToolDisconnectFolder: true, ToolDownloadFile: true, ToolPreviewRefresh: true,
	ToolSetTheme: true, ToolAddFeature: true, ToolUpdateHero: true,
}

// fileListingTools are the file-targeting tools: when the first of them in a plan names a
// path, BuildPlan adds workspace.listFiles (REFERENCE §7.2).
var fileListingTools = map[string]bool{
	ToolApplyPatch: true, ToolRenameFile: true, ToolDeleteFile: true,
	ToolWriteFile: true, ToolRevertFile: true, ToolDownloadFile: true,
}

// textInspectionTools additionally get a workspace.readFile of their path (REFERENCE §7.2).
var textInspectionTools = map[string]bool{
	ToolApplyPatch: true, ToolWriteFile: true, ToolRevertFile: true,
}

// IsGuarded reports whether tool is in the revision-guarded set of REFERENCE §7.3: reset,
// createFile, renameFile, deleteFile, writeFile, applyPatch, revertFile, undo, redo,
// saveCheckpoint, saveAll, reloadFolder.
func IsGuarded(tool string) bool { return guardedTools[tool] }

// IsRevisionProducing reports whether tool is revision-guarded and not a save (saveAll,
// saveCheckpoint): such a tool produces a new workspace revision when it succeeds
// (REFERENCE §7.3).
func IsRevisionProducing(tool string) bool {
	return guardedTools[tool] && tool != ToolSaveAll && tool != ToolSaveCheckpoint
}

// IsMutation reports whether tool counts as a mutation for plan building (REFERENCE §7.2).
func IsMutation(tool string) bool { return mutationTools[tool] }
