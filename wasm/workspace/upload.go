package workspace

import (
	"context"

	"github.com/webcoding/studio/wasm/mcp"
)

// AddedFile is one file an AddFiles call placed: {"path", "kind", "size", "replaced"}. Size is
// File.Size (UTF-16 code units for text, bytes for assets); Replaced says a file already held
// that path (its content was replaced; an identical body counts as replaced and unchanged).
type AddedFile struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Size     int    `json:"size"`
	Replaced bool   `json:"replaced"`
}

// AddResult is the result of AddFiles: {"added", "skipped", "activePath", "revision",
// "changed"}. Skipped lists every refused file with its reason (never a summary entry).
type AddResult struct {
	Added      []AddedFile `json:"added"`
	Skipped    []Skipped   `json:"skipped"`
	ActivePath string      `json:"activePath"`
	Revision   int64       `json:"revision"`
	Changed    bool        `json:"changed"`
}

// AddFiles adds or replaces files in the workspace in one revision and one history checkpoint
// (SPEC §2.11 upload: undo removes every added file and restores every replaced one). Other
// files are never removed; the active path is kept (ChooseActivePath picks one only when
// nothing was active). An added path leaves the pending folder deletions, a replaced
// file keeps its RenamedFrom, and the dirty state follows the saved baseline as for any edit.
//
// files are expected from ImportFiles (normalized paths, kinds from the extension, sizes
// checked). AddFiles re-checks what depends on the workspace, in order, and refuses a file
// with a Skipped entry instead of failing the call:
//   - SkipInvalidPath: the path does not normalize to itself, or is hidden/ignored
//     (ExcludedPathReason; Message names the reason), or its kind does not match its extension
//   - SkipDuplicate: a path already placed by this call
//   - ReasonNameCollision, ReasonFileFolderCollision, ReasonFolderNameCollision: a new path
//     that collides with a file already there or placed by this call (FindPathCollision;
//     Message says which)
//   - SkipFileLimit: the workspace would hold more than MaxImportFiles files
//   - SkipTotalLimit: the workspace's bytes (text as UTF-8, assets as bytes) would pass
//     MaxImportTotalBytes and grow
//
// A call where nothing changes (every file refused or identical) keeps the revision and adds
// no checkpoint (Changed false).
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision
//   - TOOL_CANCELLED (retryable): ctx already ended
func (m *Manager) AddFiles(ctx context.Context, call Call, files []*File) (AddResult, error) {
	if ctx.Err() != nil {
		return AddResult{}, mcp.NewError(mcp.CodeToolCancelled, true, nil, "Upload cancelled.")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.guard(call, "upload"); err != nil {
		return AddResult{}, err
	}
	out := AddResult{Added: []AddedFile{}, Skipped: []Skipped{}}
	total, count := 0, len(m.files)
	for _, f := range m.files {
		total += len(f.bytes())
	}
	next := m.files
	cloned := false
	deleted := m.deleted
	var put []*File
	placed := map[string]bool{}
	for _, f := range files {
		if f == nil {
			continue
		}
		if n, err := normalizeNewPath(f.Path); err != nil || n != f.Path {
			reason := "not a normalized path"
			if err != nil {
				reason = mcp.ToolErrorOf(err).Details.(map[string]any)["reason"].(string)
			}
			out.Skipped = append(out.Skipped, Skipped{Path: f.Path, Reason: SkipInvalidPath, Message: reason})
			continue
		}
		if (f.Kind == KindAsset) != IsAssetPath(f.Path) {
			out.Skipped = append(out.Skipped, Skipped{Path: f.Path, Reason: SkipInvalidPath, Message: "kind does not match the extension"})
			continue
		}
		if placed[f.Path] {
			out.Skipped = append(out.Skipped, Skipped{Path: f.Path, Reason: SkipDuplicate})
			continue
		}
		i := -1
		for k, g := range next {
			if g.Path == f.Path {
				i = k
				break
			}
		}
		if i < 0 {
			if c, ok := FindPathCollision(next, f.Path, -1); ok {
				out.Skipped = append(out.Skipped, Skipped{Path: f.Path, Reason: c.Reason,
					Message: PathCollisionError(f.Path, "upload", c).Message})
				continue
			}
		}
		old := 0
		if i >= 0 {
			old = len(next[i].bytes())
		} else if count+1 > MaxImportFiles {
			out.Skipped = append(out.Skipped, Skipped{Path: f.Path, Reason: SkipFileLimit,
				Message: "the workspace already holds 200 files"})
			continue
		}
		size := len(f.bytes())
		if grown := total - old + size; grown > MaxImportTotalBytes && grown > total {
			out.Skipped = append(out.Skipped, Skipped{Path: f.Path, Reason: SkipTotalLimit,
				Message: "the workspace would be larger than 12 MB"})
			continue
		}
		placed[f.Path] = true
		total += size - old
		out.Added = append(out.Added, AddedFile{Path: f.Path, Kind: f.Kind, Size: f.Size, Replaced: i >= 0})
		if i >= 0 && sameContent(next[i], f) {
			continue
		}
		nf := f
		if i >= 0 && next[i].RenamedFrom != "" {
			c := *f
			c.RenamedFrom = next[i].RenamedFrom
			nf = &c
		}
		if !cloned {
			next = append([]*File(nil), next...)
			cloned = true
		}
		if i >= 0 {
			next[i] = nf
		} else {
			next = append(next, nf)
			count++
		}
		deleted = withoutPath(deleted, f.Path)
		put = append(put, nf)
	}
	out.ActivePath, out.Revision = m.active, m.revision
	if len(put) == 0 {
		return out, nil
	}
	active := m.active
	if active == "" || m.find(active) < 0 {
		active = ChooseActivePath(next)
	}
	out.Revision = m.apply(ctx, call, edit{files: next, active: active, deleted: deleted, put: put, preserveActive: true})
	out.ActivePath, out.Changed = active, true
	return out, nil
}
