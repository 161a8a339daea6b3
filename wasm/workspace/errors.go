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

// SourceLimit is WORKSPACE_SOURCE_LIMIT, details {limit: 80000}; label names the text
// ("Source", "Patched source").
func SourceLimit(label string, chars int) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceSourceLimit, false, map[string]any{"limit": MaxSourceChars},
		"%s is %d characters; the limit is 80,000 characters.", label, chars)
}

// PathInvalid is WORKSPACE_PATH_INVALID, details {path, reason}.
func PathInvalid(p, reason string) *mcp.ToolError {
	msg := map[string]string{
		PathReasonNUL:             "Workspace path must not contain NUL characters.",
		PathReasonParentTraversal: "Workspace path must not contain \"..\" segments.",
		PathReasonEmpty:           "Workspace path must name a file.",
	}[reason]
	return mcp.NewError(mcp.CodeWorkspacePathInvalid, false, map[string]any{"path": p, "reason": reason}, "%s", msg)
}

// FileNotFound is WORKSPACE_FILE_NOT_FOUND, details {path}.
func FileNotFound(p string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFileNotFound, false, map[string]any{"path": p},
		"Workspace file %q does not exist.", p)
}

// FileConflict is WORKSPACE_FILE_CONFLICT for create/rename onto an existing path, details
// {path, operation}.
func FileConflict(p, operation string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceFileConflict, false, map[string]any{"path": p, "operation": operation},
		"Workspace file %q already exists.", p)
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
