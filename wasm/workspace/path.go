package workspace

import (
	"strings"
)

// Reasons carried in WORKSPACE_PATH_INVALID details (REFERENCE §2.2).
const (
	PathReasonNUL             = "nul"
	PathReasonParentTraversal = "parent-traversal"
	PathReasonEmpty           = "empty"
	// PathReasonHidden: a segment starts with "." (".env", ".git/config"): the importer never
	// loads such paths, so a workspace file there could overwrite a file it cannot see.
	PathReasonHidden = "hidden"
	// PathReasonIgnored: a segment is "node_modules", never imported for the same reason.
	PathReasonIgnored = "ignored"
	// PathReasonEscapesFolder: the linked folder refused the path because it leads outside
	// the folder (a symbolic link pointing elsewhere). Never produced by NormalizePath.
	PathReasonEscapesFolder = "escapes-folder"
)

// ExcludedPathReason reports why a normalized path is one the importer never loads:
// PathReasonHidden when any segment starts with ".", PathReasonIgnored when any segment is
// "node_modules", "" when the path may be held. Every boundary that creates or renames a file
// refuses such paths (WORKSPACE_PATH_INVALID with that reason), so the workspace never holds a
// path it could not have read from the folder, and a save can never overwrite a file it did
// not load (".env", ".git/config", "node_modules/x/index.js").
func ExcludedPathReason(p string) string {
	for s := range strings.SplitSeq(p, "/") {
		switch {
		case strings.HasPrefix(s, "."):
			return PathReasonHidden
		case s == "node_modules":
			return PathReasonIgnored
		}
	}
	return ""
}

// normalizeNewPath is NormalizePath plus ExcludedPathReason: the check for a path a file is
// created at or renamed to.
func normalizeNewPath(p string) (string, error) {
	n, err := NormalizePath(p)
	if err != nil {
		return "", err
	}
	if reason := ExcludedPathReason(n); reason != "" {
		return "", PathInvalid(n, reason)
	}
	return n, nil
}

// NormalizePath turns a caller-supplied path into the workspace's canonical relative form:
// backslashes become "/", empty and "." segments are dropped ("./a//b/" → "a/b"). Every
// boundary (tool arguments, imports, folder entries) passes paths through it.
//
// # Errors
//   - WORKSPACE_PATH_INVALID, details {path, reason}: reason "nul" when p contains NUL,
//     "parent-traversal" when any segment is "..", "empty" when nothing is left.
//
// See REFERENCE §2.2 (path normalization).
func NormalizePath(p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", PathInvalid(p, PathReasonNUL)
	}
	segs := strings.Split(strings.ReplaceAll(p, "\\", "/"), "/")
	out := segs[:0]
	for _, s := range segs {
		switch s {
		case "", ".":
			continue
		case "..":
			return "", PathInvalid(p, PathReasonParentTraversal)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return "", PathInvalid(p, PathReasonEmpty)
	}
	return strings.Join(out, "/"), nil
}
