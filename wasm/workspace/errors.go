package workspace

import (
	"fmt"

	"github.com/webcoding/studio/wasm/mcp"
)

// Constructors for the workspace tool errors of REFERENCE §3.2. Each sets the code, the
// retryability of the table and details whose keys are the wire names; details never carry
// source text.

// RevisionConflict is WORKSPACE_REVISION_CONFLICT (retryable), details {expectedRevision,
// currentRevision[, operation]}; operation is omitted when empty.
func RevisionConflict(expected, current int64, operation string) *mcp.ToolError {
	d := map[string]any{"expectedRevision": expected, "currentRevision": current}
	if operation != "" {
		d["operation"] = operation
	}
	return mcp.NewError(mcp.CodeWorkspaceRevisionConflict, true, d,
		"Workspace revision mismatch: expected %d, current %d. Re-read the workspace status and retry with the current revision.",
		expected, current)
}

// ReadOnly is WORKSPACE_READ_ONLY (retryable: it passes once the workspace becomes writable),
// details {reason[, operation]}: the Repository's WriteGate refused writes (issue 14: a second
// browser tab shows the workspace read-only and accepts no edit of any kind).
func ReadOnly(reason error, operation string) *mcp.ToolError {
	d := map[string]any{"reason": boundText(reason.Error(), MaxMessageChars)}
	if operation != "" {
		d["operation"] = operation
	}
	return mcp.NewError(mcp.CodeWorkspaceReadOnly, true, d,
		"The workspace is read-only here: %s. Nothing was changed.", boundText(reason.Error(), MaxMessageChars))
}

// SourceLimit is WORKSPACE_SOURCE_LIMIT, details {limit: 80000}; label names the text
// ("Source", "Patched source").
func SourceLimit(label string, chars int) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceSourceLimit, false, map[string]any{"limit": MaxSourceChars},
		"%s is %s characters; the limit is %s characters.", label, mcp.Thousands(int64(chars)), mcp.Thousands(MaxSourceChars))
}

// PathInvalid is WORKSPACE_PATH_INVALID, details {path, reason}; reason is one of the
// PathReason constants and picks the message.
func PathInvalid(p, reason string) *mcp.ToolError {
	msg := map[string]string{
		PathReasonNUL:             "Workspace path must not contain NUL characters.",
		PathReasonParentTraversal: "Workspace path must not contain \"..\" segments.",
		PathReasonEmpty:           "Workspace path must name a file.",
		PathReasonHidden: "Workspace path must not contain a segment starting with \".\" (like .env or .git/): " +
			"such paths are never imported from a folder, so saving could overwrite a file the workspace cannot see.",
		PathReasonIgnored: "Workspace path must not contain a node_modules segment: " +
			"such paths are never imported from a folder, so saving could overwrite a file the workspace cannot see.",
		PathReasonEscapesFolder: "Workspace path leads outside the linked folder (through a symbolic link); " +
			"the studio does not read or write files outside the folder.",
	}[reason]
	return mcp.NewError(mcp.CodeWorkspacePathInvalid, false, map[string]any{"path": p, "reason": reason}, "%s", msg)
}

// FileNotFound is WORKSPACE_FILE_NOT_FOUND, details {path}.
func FileNotFound(p string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFileNotFound, false, map[string]any{"path": p},
		"Workspace file %q does not exist.", p)
}

// missingLocked is WORKSPACE_FILE_NOT_FOUND for p, saying why when the folder holds p but the
// last import or reload left it out (Metadata.NotImported): the message continues "…: it is
// in the folder but was not imported: <NotImportedReason>." and details gain {notImported:
// that reason}, the words the preview uses for a reference to it (docs/preview.md, "Files
// the import left out"). Called with m.mu held.
func (m *Manager) missingLocked(p string) *mcp.ToolError {
	for _, s := range m.notImported {
		if s.Path == p {
			why := NotImportedReason(s)
			return mcp.NewError(mcp.CodeWorkspaceFileNotFound, false, map[string]any{"path": p, "notImported": why},
				"Workspace file %q does not exist: it is in the folder but was not imported: %s.", p, why)
		}
	}
	return FileNotFound(p)
}

// FileConflict is WORKSPACE_FILE_CONFLICT for create/rename onto an existing path, details
// {path, operation}.
func FileConflict(p, operation string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFileConflict, false, map[string]any{"path": p, "operation": operation},
		"Workspace file %q already exists.", p)
}

// Reasons carried in WORKSPACE_FILE_CONFLICT details of a folder save (operation "save").
const (
	// SaveConflictExists: the path is not in the saved baseline (new or renamed-to) but a file
	// already exists there in the folder.
	SaveConflictExists = "exists-in-folder"
	// SaveConflictChanged: the folder's file differs from what was loaded or last saved.
	SaveConflictChanged = "changed-in-folder"
	// SaveConflictDirectory: a directory (or other non-file) occupies the path; nothing was written.
	SaveConflictDirectory = "directory-in-the-way"
)

// SaveFileFolderConflict is WORKSPACE_FILE_CONFLICT for a save refused before anything was
// written because the workspace holds both the file folder and a file under it (a workspace
// stored before createFile refused that, issue 14): no folder can hold both. Details {path,
// operation:"save", conflictsWith: folder, reason: ReasonFileFolderCollision}.
func SaveFileFolderConflict(p, folder string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": p, "operation": "save", "conflictsWith": folder, "reason": ReasonFileFolderCollision},
		"Cannot save: the workspace has both the file %q and %q, which needs %q to be a folder; no folder can hold both, so nothing was written. "+
			"Rename or delete one of them (workspace.renameFile) and save again.", folder, p, folder)
}

// SaveConflict is WORKSPACE_FILE_CONFLICT for a save item refused before anything was written
// for it, details {path, operation:"save", reason}; op is SaveOpWrite or SaveOpDelete and
// picks the wording; reason is a SaveConflict constant.
func SaveConflict(p, op, reason string) *mcp.ToolError {
	var msg string
	switch reason {
	case SaveConflictExists:
		msg = fmt.Sprintf("%q already exists in the linked folder but was never loaded into the workspace; "+
			"saving would overwrite it. Rename the workspace file, or move the folder's file away and save again.", p)
	case SaveConflictDirectory:
		msg = fmt.Sprintf("%q cannot be written: in the linked folder that path is a folder, or one of its "+
			"folders is a file; nothing was written for it. Rename the workspace file, or move the one in the way, and save again.", p)
	default:
		what := "saving would overwrite those changes"
		if op == SaveOpDelete {
			what = "deleting it would lose those changes"
		}
		msg = fmt.Sprintf("%q changed in the linked folder after it was loaded; %s. "+
			"Reload the folder (workspace.reloadFolder) to take the folder's version, "+
			"or revert the file (workspace.revertFile) and save again.", p, what)
	}
	return mcp.NewError(mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": p, "operation": "save", "reason": reason}, "%s", msg)
}

// TypeConflict is WORKSPACE_FILE_TYPE_CONFLICT, details {path, operation, actualKind?,
// expectedKind?} (empty kinds omitted).
func TypeConflict(p, operation, actualKind, expectedKind string) *mcp.ToolError {
	d := map[string]any{"path": p, "operation": operation}
	if actualKind != "" {
		d["actualKind"] = actualKind
	}
	if expectedKind != "" {
		d["expectedKind"] = expectedKind
	}
	article := "a"
	if expectedKind == "asset" {
		article = "an"
	}
	msg := fmt.Sprintf("Workspace file %q cannot be used for %s: it is not %s %s file.", p, operation, article, expectedKind)
	if actualKind == "" {
		msg = fmt.Sprintf("Workspace path %q would change the file kind; %s needs a %s file.", p, operation, expectedKind)
	}
	return mcp.NewError(mcp.CodeWorkspaceFileTypeConflict, false, d, "%s", msg)
}

// FolderNotConnected is WORKSPACE_FOLDER_NOT_CONNECTED (retryable), details {operation}.
func FolderNotConnected(operation string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFolderNotConnected, true, map[string]any{"operation": operation},
		"No writable local folder is linked; link a folder before %s.", operation)
}

// FolderPermissionDenied is WORKSPACE_FOLDER_PERMISSION_DENIED (retryable), details
// {operation, permission}.
func FolderPermissionDenied(operation string, perm Permission) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFolderPermissionDenied, true,
		map[string]any{"operation": operation, "permission": string(perm)},
		"Read/write access to the linked folder is %s; grant folder access and retry.", perm)
}

// FolderStale is WORKSPACE_FOLDER_STALE (retryable), details {operation, folderName, cause}.
func FolderStale(operation, folderName string, cause error) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFolderStale, true,
		map[string]any{"operation": operation, "folderName": folderName, "cause": boundText(cause.Error(), MaxMessageChars)},
		"The linked folder %q is no longer available; reconnect the folder.", folderName)
}

// FolderStateConflict is WORKSPACE_FOLDER_STATE_CONFLICT, details {operation, folderLinked: true}.
func FolderStateConflict(operation string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFolderStateConflict, false,
		map[string]any{"operation": operation, "folderLinked": true},
		"Cannot %s while a writable local folder is linked; disconnect the folder first.", operation)
}

// PreviewTargetNotFound is PREVIEW_TARGET_NOT_FOUND, details {target, path?}.
func PreviewTargetNotFound(target, p string) *mcp.ToolError {
	d := map[string]any{"target": target}
	if p != "" {
		d["path"] = p
	}
	what := map[string]string{
		"stylesheet":    "No stylesheet found (styles.css or any CSS file).",
		"theme-tokens":  "The stylesheet has no --accent or --accent-soft color declaration.",
		"html-entry":    "No HTML entry file found.",
		"feature-slot":  "The HTML entry has no <!-- feature-slot --> marker.",
		"hero-title":    "The HTML entry has no h1 with id \"hero-title\".",
		"hero-subtitle": "The HTML entry has no p with id \"hero-subtitle\".",
	}[target]
	return mcp.NewError(mcp.CodePreviewTargetNotFound, false, d, "%s", what)
}

func withPrefix(e *mcp.ToolError, prefix string) *mcp.ToolError {
	c := *e
	c.Message = prefix + e.Message
	return &c
}
