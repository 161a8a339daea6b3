package workspace

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
)

// Import limits (REFERENCE §4, folder import). Sizes are bytes.
const (
	MaxImportFiles          = 200
	MaxImportScannedEntries = 2_000
	MaxImportTextBytes      = 512 << 10
	MaxImportAssetBytes     = 4 << 20
	MaxImportTotalBytes     = 12 << 20
)

// Reasons in Skipped entries.
const (
	SkipInvalidPath = "invalid-path" // NUL or ".." in the path, or nothing left; Message names the path reason
	SkipHidden      = "hidden"       // a dot-file ("name" starting with ".")
	SkipIgnored     = "ignored"      // a file named "node_modules" (folders of that name are dropped silently)
	SkipNotText     = "not-text"     // not an asset extension, but the bytes are not UTF-8 text (invalid UTF-8 or NUL)
	SkipDuplicate   = "duplicate"    // same normalized path as an earlier entry
	SkipTooLarge    = "too-large"    // text > 512 KiB or asset > 4 MiB
	SkipTotalLimit  = "total-limit"  // would push the import over 12 MiB
	SkipReadFailed  = "read-failed"  // the entry's Read failed
	SkipFileLimit   = "file-limit"   // summary: 200 files accepted, traversal stopped
	SkipScanLimit   = "scan-limit"   // summary: 2,000 entries scanned, traversal stopped
)

// Skipped is one entry the importer left out: {"path", "reason", "message"?, "count"?}. A
// traversal stopped by a limit adds exactly one summary entry with an empty path and reason
// SkipFileLimit or SkipScanLimit; a SkipFileLimit summary's Count is how many entries were left
// out (counted up to the scan limit, without reading them).
type Skipped struct {
	Path    string `json:"path"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
	Count   int    `json:"count,omitempty"`
}

// Imported is the importer's product: accepted files in entry order, what was skipped, and the
// active path chosen by ChooseActivePath.
type Imported struct {
	RootName   string
	Files      []*File
	Skipped    []Skipped
	ActivePath string
}

// ImportFiles applies the folder-import rules of REFERENCE §2.2 and §4 to a stream of entries.
//
// Order of checks per entry: an entry inside a dot-folder (".git/", ".cache/", …) or
// "node_modules/" is dropped silently and does not count against the scan limit; then the entry
// counts as scanned (more than MaxImportScannedEntries stops traversal with one SkipScanLimit
// summary); the path is normalized (failure → SkipInvalidPath); dot-files → SkipHidden; a file
// named node_modules → SkipIgnored; repeated normalized paths → SkipDuplicate; a 201st
// acceptable file stops traversal with one SkipFileLimit summary; text over MaxImportTextBytes
// or an asset over MaxImportAssetBytes → SkipTooLarge (checked on the claimed size before
// reading and on the bytes read); a file that would push the total over MaxImportTotalBytes →
// SkipTotalLimit; a non-asset whose bytes are not valid UTF-8 or hold a NUL byte →
// SkipNotText (it is never loaded, so a save can never rewrite it with replacement
// characters). A text file over
// MaxSourceChars is kept in full and reported OverBudget.
//
// # Errors
//   - WORKSPACE_NO_SUPPORTED_FILES: nothing accepted; details {operation:"import", rootName,
//     skippedCount}; the returned Imported then holds only RootName and Skipped (every reason)
//   - TOOL_CANCELLED (retryable): ctx ended during the walk
func ImportFiles(ctx context.Context, rootName string, entries iter.Seq[ImportEntry]) (Imported, error) {
	out := Imported{RootName: rootName}
	seen := map[string]bool{}
	scanned, total := 0, 0
	var skippedDirs []string
	next, stop := iter.Pull(entries)
	defer stop()
	for {
		e, ok := next()
		if !ok {
			break
		}
		if err := ctx.Err(); err != nil {
			return Imported{}, mcp.NewError(mcp.CodeToolCancelled, true, nil, "Import cancelled.")
		}
		if dir := SkippedFolder(e.Path); dir != "" {
			if !slices.Contains(skippedDirs, dir) && len(skippedDirs) < maxNamedSkips {
				skippedDirs = append(skippedDirs, dir)
			}
			continue
		}
		scanned++
		if scanned > MaxImportScannedEntries {
			out.Skipped = append(out.Skipped, Skipped{Reason: SkipScanLimit,
				Message: "Stopped after scanning 2,000 entries; the rest of the folder was not imported."})
			break
		}
		shown := strings.ToValidUTF8(strings.ReplaceAll(e.Path, "\x00", "\uFFFD"), "\uFFFD")
		p, perr := NormalizePath(e.Path)
		if perr != nil {
			out.Skipped = append(out.Skipped, Skipped{Path: shown, Reason: SkipInvalidPath,
				Message: mcp.ToolErrorOf(perr).Details.(map[string]any)["reason"].(string)})
			continue
		}
		switch ExcludedPathReason(p) {
		case PathReasonHidden:
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipHidden})
			continue
		case PathReasonIgnored:
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipIgnored})
			continue
		}
		if seen[p] {
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipDuplicate})
			continue
		}
		seen[p] = true
		if len(out.Files) >= MaxImportFiles {
			// Count what is left out (without reading it) so the summary tells the real number.
			left := 1
			for {
				e, ok := next()
				if !ok {
					break
				}
				if ctx.Err() != nil {
					return Imported{}, mcp.NewError(mcp.CodeToolCancelled, true, nil, "Import cancelled.")
				}
				if inSkippedFolder(e.Path) {
					continue
				}
				if scanned++; scanned > MaxImportScannedEntries {
					break
				}
				left++
			}
			out.Skipped = append(out.Skipped, Skipped{Reason: SkipFileLimit, Count: left,
				Message: fmt.Sprintf("Stopped after 200 files; %d more file(s) of the folder were not imported.", left)})
			break
		}
		asset := IsAssetPath(p)
		limit, label := int64(MaxImportTextBytes), "larger than 512 KB"
		if asset {
			limit, label = MaxImportAssetBytes, "larger than 4 MB"
		}
		if e.Size > limit {
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipTooLarge, Message: label})
			continue
		}
		if int64(total)+max(e.Size, 0) > MaxImportTotalBytes {
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipTotalLimit, Message: "import larger than 12 MB"})
			continue
		}
		if e.Read == nil {
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipReadFailed, Message: "no content"})
			continue
		}
		data, err := e.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return Imported{}, mcp.NewError(mcp.CodeToolCancelled, true, nil, "Import cancelled.")
			}
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipReadFailed, Message: boundText(err.Error(), MaxMessageChars)})
			continue
		}
		if int64(len(data)) > limit {
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipTooLarge, Message: label})
			continue
		}
		if total+len(data) > MaxImportTotalBytes {
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipTotalLimit, Message: "import larger than 12 MB"})
			continue
		}
		if !asset && !isText(data) {
			out.Skipped = append(out.Skipped, Skipped{Path: p, Reason: SkipNotText, Message: "binary or not UTF-8 text"})
			continue
		}
		total += len(data)
		if asset {
			out.Files = append(out.Files, NewAssetFile(p, data))
		} else {
			out.Files = append(out.Files, NewTextFile(p, string(data)))
		}
	}
	if len(out.Files) == 0 {
		details := map[string]any{"operation": "import", "rootName": rootName, "skippedCount": len(out.Skipped)}
		msg := fmt.Sprintf("No supported files were found in %q.", rootName)
		var named []string
		for _, sk := range out.Skipped[:min(len(out.Skipped), maxNamedSkips)] {
			if sk.Path != "" {
				named = append(named, sk.Path+" ("+sk.Reason+")")
			}
		}
		if len(named) > 0 {
			details["skipped"] = named
			msg += " Skipped: " + strings.Join(named, ", ") + "."
		}
		if len(skippedDirs) > 0 {
			details["skippedFolders"] = skippedDirs
			msg += " Folders not entered (hidden or node_modules): " + strings.Join(skippedDirs, ", ") + "."
		}
		return Imported{RootName: rootName, Skipped: out.Skipped}, mcp.NewError(mcp.CodeWorkspaceNoSupportedFiles, false,
			details, "%s", boundText(msg, MaxMessageChars))
	}
	out.ActivePath = ChooseActivePath(out.Files)
	return out, nil
}

// isText reports whether data can be held as a text file and saved back byte for byte: valid
// UTF-8 without NUL bytes.
func isText(data []byte) bool {
	return utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
}

// inSkippedFolder reports whether a raw entry path lies inside a dot-folder or node_modules.
// Only directory segments count (the last segment is the file name).
func inSkippedFolder(raw string) bool { return SkippedFolder(raw) != "" }

// maxNamedSkips bounds the skipped names an empty-import error lists.
const maxNamedSkips = 20

// SkippedFolder returns the folder of raw (a relative entry path, "/" or "\\" separated) that
// the importer does not enter — the first dot-folder (".git") or "node_modules" segment
// before the file name, with its parents ("a/.cache") — or "" when the entry is imported.
func SkippedFolder(raw string) string {
	segs := strings.Split(strings.ReplaceAll(raw, "\\", "/"), "/")
	for i, s := range segs[:len(segs)-1] {
		if s == "node_modules" || (strings.HasPrefix(s, ".") && s != "." && s != "..") {
			return strings.Join(segs[:i+1], "/")
		}
	}
	return ""
}

// SkippedFolders lists, in first-seen order without repeats, the folders SkippedFolder finds
// in paths (for a file list such as a directory upload's, which the walk never saw).
func SkippedFolders(paths []string) []string {
	var out []string
	for _, p := range paths {
		if d := SkippedFolder(p); d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// boundText trims s and cuts it to at most n code points (adding "…" when cut).
func boundText(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
