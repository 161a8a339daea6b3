package workspace

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/webcoding/studio/wasm/mcp"
)

// NameKey is the one comparison of file names across the path boundary (issue 14 item 12):
// the path in Unicode NFC, lower-cased. Two paths with the same key name one file in a macOS
// or Windows folder ("café.html" in NFC and in NFD, "CAFÉ.html"), so the workspace never
// creates or renames a file onto a key another file already has. Paths themselves are kept as
// given (on-disk names are never rewritten).
func NameKey(p string) string { return strings.ToLower(norm.NFC.String(p)) }

// ReasonNameCollision is details.reason of a WORKSPACE_FILE_CONFLICT refused because the
// name collides with another file's under NameKey.
const ReasonNameCollision = "name-collision"

// NameCollisionError is WORKSPACE_FILE_CONFLICT for creating or renaming to p when other
// (a different path with the same NameKey) exists: details {path, operation, conflictsWith,
// reason:"name-collision"}.
//
// Names that differ only in Unicode normalization print alike, so the message then spells
// both with \u escapes (Go's %+q), e.g. "caf\u00e9.html" and "cafe\u0301.html".
func NameCollisionError(p, other, operation string) *mcp.ToolError {
	verb := "%q"
	if norm.NFC.String(p) == norm.NFC.String(other) {
		verb = "%+q"
	}
	return mcp.NewError(mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": p, "operation": operation, "conflictsWith": other, "reason": ReasonNameCollision},
		"Cannot %s "+verb+": it names the same file as the existing "+verb+" in macOS and Windows folders (names are compared ignoring case and Unicode normalization). Choose another name.", operation, p, other)
}

// collisionLocked returns the path of a file other than the one at index except whose NameKey
// equals p's, or "". Caller holds m.mu.
func (m *Manager) collisionLocked(p string, except int) string {
	k := NameKey(p)
	for i, f := range m.files {
		if i != except && f.Path != p && NameKey(f.Path) == k {
			return f.Path
		}
	}
	return ""
}

// NameCollision is a pair of imported paths that name one file under NameKey:
// {"path", "collidesWith"}. The import keeps both (as they are on disk) and reports the pair.
type NameCollision struct {
	Path         string `json:"path"`
	CollidesWith string `json:"collidesWith"`
}

// FindNameCollisions lists, in file order, each file whose NameKey an earlier file already has.
func FindNameCollisions(files []*File) []NameCollision {
	first := map[string]string{}
	var out []NameCollision
	for _, f := range files {
		k := NameKey(f.Path)
		if o, ok := first[k]; ok {
			out = append(out, NameCollision{Path: f.Path, CollidesWith: o})
			continue
		}
		first[k] = f.Path
	}
	return out
}

// CollisionNote is the log line for an import's name collisions ("" when none).
func CollisionNote(cs []NameCollision) string {
	if len(cs) == 0 {
		return ""
	}
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%q and %q", c.Path, c.CollidesWith))
	}
	slices.Sort(parts)
	return "these files name the same file in macOS and Windows folders (case or Unicode normalization): " + strings.Join(parts, ", ")
}
