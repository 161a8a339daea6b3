package workspace

import (
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Reasons carried in WORKSPACE_PATH_INVALID details (REFERENCE §2.2).
const (
	PathReasonNUL             = "nul"
	PathReasonParentTraversal = "parent-traversal"
	PathReasonEmpty           = "empty"
)

// NormalizePath turns a caller-supplied path into the workspace's canonical relative form:
// backslashes become "/", empty and "." segments are dropped ("./a//b/" → "a/b"). Every
// boundary (tool arguments, imports, folder entries) passes paths through it.
//
// # Errors
//   - WORKSPACE_PATH_INVALID, details {path, reason}: reason "nul" when p contains NUL,
//     "parent-traversal" when any segment is "..", "empty" when nothing is left.
//
// See REFERENCE §2.2 (path normalization).
func NormalizePath(p string) (string, *mcp.ToolError) {
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
