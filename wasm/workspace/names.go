package workspace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// NameKey is the one comparison of file names across the path boundary (issue 14 item 12):
// the path in Unicode NFC (nfc), lower-cased. Two paths with the same key name one file in a macOS
// or Windows folder ("café.html" in NFC and in NFD, "CAFÉ.html"), so the workspace never
// creates or renames a file onto a key another file already has. Paths themselves are kept as
// given (on-disk names are never rewritten).
func NameKey(p string) string { return strings.ToLower(nfc(p)) }

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
	if nfc(p) == nfc(other) {
		verb = "%+q"
	}
	return mcp.NewError(mcp.CodeWorkspaceFileConflict, false,
		map[string]any{"path": p, "operation": operation, "conflictsWith": other, "reason": ReasonNameCollision},
		"Cannot %s "+verb+": it names the same file as the existing "+verb+" in macOS and Windows folders (names are compared ignoring case and Unicode normalization). Choose another name.", operation, p, other)
}

// Reasons of a WORKSPACE_FILE_CONFLICT for a new path that does not fit the folder tree the
// other files make (compared under NameKey, like ReasonNameCollision):
const (
	// ReasonFileFolderCollision: a folder of the new path is an existing file ("notes" and
	// "notes/a.css"), or the new path is a folder of an existing file. A folder cannot hold
	// both, so no save could ever write them.
	ReasonFileFolderCollision = "file-folder-collision"
	// ReasonFolderNameCollision: a folder of the new path and a folder of an existing file
	// differ only in case or Unicode normalization ("sub/A.css" and "Sub/b.css"): one folder
	// in macOS and Windows folders, two on Linux.
	ReasonFolderNameCollision = "folder-name-collision"
)

// PathCollision is why a new path p cannot join files: the other file's path and the reason
// (ReasonNameCollision, ReasonFileFolderCollision, ReasonFolderNameCollision). For the folder
// reasons Folder is the folder of p concerned (p itself when p would be a folder) and
// OtherFolder the same folder as the other path spells it (Other itself when it is a file
// used as a folder).
type PathCollision struct {
	Other, Reason, Folder, OtherFolder string
}

// FindPathCollision is the one check of a new path against the files already there (issue 14):
// the first file, other than files[except] and p itself, that names the same file as p, is a
// folder of p, lies under p as a folder, or whose folder differs from p's only under NameKey.
// ok is false when p fits.
func FindPathCollision(files []*File, p string, except int) (c PathCollision, ok bool) {
	k := NameKey(p)
	for i, f := range files {
		if i == except || f.Path == p {
			continue
		}
		fk := NameKey(f.Path)
		switch {
		case fk == k:
			return PathCollision{Other: f.Path, Reason: ReasonNameCollision}, true
		case strings.HasPrefix(k, fk+"/"): // f is a folder of p
			return PathCollision{Other: f.Path, Reason: ReasonFileFolderCollision,
				Folder: leadingSegments(p, strings.Count(f.Path, "/")+1), OtherFolder: f.Path}, true
		case strings.HasPrefix(fk, k+"/"): // p is a folder of f
			return PathCollision{Other: f.Path, Reason: ReasonFileFolderCollision,
				Folder: p, OtherFolder: leadingSegments(f.Path, strings.Count(p, "/")+1)}, true
		}
		if n, ok := folderCaseMismatch(p, f.Path); ok {
			return PathCollision{Other: f.Path, Reason: ReasonFolderNameCollision,
				Folder: leadingSegments(p, n), OtherFolder: leadingSegments(f.Path, n)}, true
		}
	}
	return PathCollision{}, false
}

// folderCaseMismatch reports the depth n (segments) of the first folder of p whose counterpart
// in q differs from it but has the same NameKey; the folders above it are equal.
func folderCaseMismatch(p, q string) (int, bool) {
	ps, qs := strings.Split(p, "/"), strings.Split(q, "/")
	for i := 0; i < len(ps)-1 && i < len(qs)-1; i++ {
		if ps[i] == qs[i] {
			continue
		}
		return i + 1, NameKey(ps[i]) == NameKey(qs[i])
	}
	return 0, false
}

// leadingSegments is the first n "/"-separated segments of p.
func leadingSegments(p string, n int) string {
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			if n--; n == 0 {
				return p[:i]
			}
		}
	}
	return p
}

// PathCollisionError is WORKSPACE_FILE_CONFLICT for creating or renaming to p when c says it
// collides: details {path, operation, conflictsWith, reason[, folder]}.
func PathCollisionError(p, operation string, c PathCollision) *mcp.ToolError {
	if c.Reason == ReasonNameCollision {
		return NameCollisionError(p, c.Other, operation)
	}
	details := map[string]any{"path": p, "operation": operation, "conflictsWith": c.Other, "reason": c.Reason, "folder": c.Folder}
	folded := " (names are compared ignoring case and Unicode normalization)"
	switch {
	case c.Reason == ReasonFolderNameCollision:
		other := c.OtherFolder
		if nfc(other) == nfc(c.Folder) {
			return mcp.NewError(mcp.CodeWorkspaceFileConflict, false, details,
				"Cannot %s %+q: its folder %+q and the folder %+q of the existing %+q are the same folder in macOS and Windows folders"+folded+". Use the folder %+q or another name.",
				operation, p, c.Folder, other, c.Other, other)
		}
		return mcp.NewError(mcp.CodeWorkspaceFileConflict, false, details,
			"Cannot %s %q: its folder %q and the folder %q of the existing %q are the same folder in macOS and Windows folders"+folded+". Use the folder %q or another name.",
			operation, p, c.Folder, other, c.Other, other)
	case c.Folder != p: // an existing file is a folder of p
		if c.Folder != c.Other {
			return mcp.NewError(mcp.CodeWorkspaceFileConflict, false, details,
				"Cannot %s %q: its folder %q is the existing file %q"+folded+", and a file cannot also be a folder. Rename or delete %q first, or choose another path.",
				operation, p, c.Folder, c.Other, c.Other)
		}
		return mcp.NewError(mcp.CodeWorkspaceFileConflict, false, details,
			"Cannot %s %q: %q is an existing file, and a file cannot also be a folder. Rename or delete %q first, or choose another path.",
			operation, p, c.Other, c.Other)
	default: // p is a folder of an existing file
		note := ""
		if !strings.HasPrefix(c.Other, p+"/") {
			note = folded
		}
		return mcp.NewError(mcp.CodeWorkspaceFileConflict, false, details,
			"Cannot %s %q: it is the folder of the existing %q"+note+", and a folder cannot also be a file. Choose another name.",
			operation, p, c.Other)
	}
}

// NameCollision is a pair of imported paths that name one file under NameKey:
// {"path", "collidesWith"}. The import keeps both (as they are on disk) and reports the pair.
type NameCollision struct {
	Path         string `json:"path"`
	CollidesWith string `json:"collidesWith"`
}

// FindNameCollisions lists, in file order, each file that collides (FindPathCollision) with an
// earlier file: the same NameKey, a file used as a folder ("notes" and "notes/a.css", from an
// upload), or folders that differ only in case ("sub/A.css" and "Sub/b.css" from a
// case-sensitive disk).
func FindNameCollisions(files []*File) []NameCollision {
	var out []NameCollision
	for i, f := range files {
		if c, ok := FindPathCollision(files[:i], f.Path, -1); ok {
			out = append(out, NameCollision{Path: f.Path, CollidesWith: c.Other})
		}
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
	return "these files cannot all be saved to one folder (the same name in macOS and Windows folders, ignoring case and Unicode normalization, or a file where a folder is needed): " + strings.Join(parts, ", ")
}
