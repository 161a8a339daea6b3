package studio

import (
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
)

// Studio tool names (REFERENCE §2), in tools/list order. ToolNames lists them.
const (
	ToolWorkspaceGetStatus        = "workspace.getStatus"
	ToolWorkspaceReset            = "workspace.reset"
	ToolWorkspaceListFiles        = "workspace.listFiles"
	ToolWorkspaceReadFile         = "workspace.readFile"
	ToolWorkspaceDownloadFile     = "workspace.downloadFile"
	ToolWorkspaceOpenFile         = "workspace.openFile"
	ToolWorkspaceCreateFile       = "workspace.createFile"
	ToolWorkspaceRenameFile       = "workspace.renameFile"
	ToolWorkspaceDeleteFile       = "workspace.deleteFile"
	ToolWorkspaceWriteFile        = "workspace.writeFile"
	ToolWorkspaceSaveAll          = "workspace.saveAll"
	ToolWorkspaceSaveCheckpoint   = "workspace.saveCheckpoint"
	ToolWorkspaceReloadFolder     = "workspace.reloadFolder"
	ToolWorkspaceDisconnectFolder = "workspace.disconnectFolder"
	ToolWorkspaceApplyPatch       = "workspace.applyPatch"
	ToolWorkspaceRevertFile       = "workspace.revertFile"
	ToolWorkspaceUndo             = "workspace.undo"
	ToolWorkspaceRedo             = "workspace.redo"
	ToolPreviewSetTheme           = "preview.setTheme"
	ToolPreviewAddFeature         = "preview.addFeature"
	ToolPreviewUpdateHero         = "preview.updateHero"
	ToolPreviewGetStatus          = "preview.getStatus"
	ToolPreviewRefresh            = "preview.refresh"
	// The preview as context (issue 17), after the 23 tools of REFERENCE §2.
	ToolPreviewGetConsole = "preview.getConsole"
	ToolPreviewInspect    = "preview.inspect"
	ToolPreviewAudit      = "preview.audit"
)

// ToolNames returns the 26 studio tool names in tools/list order (a fresh slice): the 23 of
// REFERENCE §2, then preview.getConsole, preview.inspect and preview.audit (issue 17).
func ToolNames() []string {
	return []string{
		ToolWorkspaceGetStatus, ToolWorkspaceReset, ToolWorkspaceListFiles, ToolWorkspaceReadFile,
		ToolWorkspaceDownloadFile, ToolWorkspaceOpenFile, ToolWorkspaceCreateFile, ToolWorkspaceRenameFile,
		ToolWorkspaceDeleteFile, ToolWorkspaceWriteFile, ToolWorkspaceSaveAll, ToolWorkspaceSaveCheckpoint,
		ToolWorkspaceReloadFolder, ToolWorkspaceDisconnectFolder, ToolWorkspaceApplyPatch, ToolWorkspaceRevertFile,
		ToolWorkspaceUndo, ToolWorkspaceRedo, ToolPreviewSetTheme, ToolPreviewAddFeature, ToolPreviewUpdateHero,
		ToolPreviewGetStatus, ToolPreviewRefresh, ToolPreviewGetConsole, ToolPreviewInspect, ToolPreviewAudit,
	}
}

// MaxPathChars bounds every path argument in code points (REFERENCE §2 common definitions:
// path 1..160). The workspace package has no constant for it; the schema is the guard.
const MaxPathChars = 160

// maxMessageChars bounds storageError in output schemas.
const maxMessageChars = workspace.MaxMessageChars

// ThemeNames are the preview.setTheme values in REFERENCE order; each is a key of
// workspace.Themes (checked by a test).
var ThemeNames = []string{"violet", "emerald", "amber", "rose"}

// thousands is mcp.Thousands for an int: limits in model-facing descriptions (REFERENCE §2).
func thousands(n int) string { return mcp.Thousands(int64(n)) }

// Annotation sets of REFERENCE §2.
var (
	annReadOnly              = mcp.ToolAnnotations{ReadOnlyHint: true}
	annNone                  = mcp.ToolAnnotations{}
	annIdempotent            = mcp.ToolAnnotations{IdempotentHint: true}
	annDestructive           = mcp.ToolAnnotations{DestructiveHint: true}
	annDestructiveIdempotent = mcp.ToolAnnotations{DestructiveHint: true, IdempotentHint: true}
	annOpenWorld             = mcp.ToolAnnotations{OpenWorldHint: true}
)

// Shared input properties.
var (
	inPath     = str(1, MaxPathChars)
	inSource   = str(0, workspace.MaxSourceChars)
	inRevision = sRev
)

// Shared output fragments.
var (
	outPreviewSynced = constant(workspace.PreviewSynced)
	outPreviewState  = object([]prop{
		p("revision", sRev),
		p("status", enum(workspace.PreviewWaiting, workspace.PreviewSynced, workspace.PreviewError)),
		p("message", str(0, workspace.MaxMessageChars)),
	}, "revision", "status")
	outPermission = enum(string(workspace.PermissionGranted), string(workspace.PermissionPrompt),
		string(workspace.PermissionDenied), string(workspace.PermissionUnknown), string(workspace.PermissionDisconnected))
	outFilesystem = object([]prop{
		p("mode", enum(workspace.FilesystemLocalFolder, workspace.FilesystemBrowserOnly)),
		p("folderLinked", sBool),
		p("permission", outPermission),
		p("saveAllAvailable", sBool),
		p("reloadAvailable", sBool),
	}, "mode", "folderLinked", "permission", "saveAllAvailable", "reloadAvailable")
	outSkipped = arrayOf(object([]prop{p("path", sString), p("reason", sString), p("message", sString), p("count", sInt)}, "path", "reason"))
	outKind    = enum(workspace.KindText, workspace.KindAsset)
	// Console levels of preview.getConsole (input filter and output).
	outConsoleLevel = enum(preview.ConsoleLevelLog, preview.ConsoleLevelWarn, preview.ConsoleLevelError)
	inConsoleLevels = `{"type":"array","items":` + outConsoleLevel + `,"minItems":1,"maxItems":3,"uniqueItems":true}`
	// outCollisions: imported files whose names collide under workspace.NameKey (issue 14).
	outCollisions = arrayOf(object([]prop{p("path", sString), p("collidesWith", sString)}, "path", "collidesWith"))
)
