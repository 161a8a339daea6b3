package workspace

import (
	"context"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// checkSource is the one MaxSourceChars guard (SPEC §2.14: code points).
func checkSource(label, source string) error {
	if n := CharCount(source); n > MaxSourceChars {
		return SourceLimit(label, n)
	}
	return nil
}

// CreateFile adds a new text file, makes it active and removes its path from the pending
// deletions; revision+1 and a checkpoint (REFERENCE §2.1 createFile).
//
// Limit: source ≤ MaxSourceChars code points.
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision
//   - WORKSPACE_PATH_INVALID: see NormalizePath; also reason "hidden" or "ignored" (see
//     ExcludedPathReason)
//   - WORKSPACE_FILE_TYPE_CONFLICT: binary extension; {path, operation:"create", expectedKind:"text"}
//   - WORKSPACE_FILE_CONFLICT: path exists; {path, operation:"create"}; another file's name
//     is the same under NameKey: {path, operation, conflictsWith, reason:"name-collision"};
//     a file and a folder would share a name, or two folders differ only under NameKey:
//     {path, operation, conflictsWith, folder, reason:"file-folder-collision"|"folder-name-collision"}
//     (FindPathCollision)
//   - WORKSPACE_SOURCE_LIMIT: {limit: 80000}
func (m *Manager) CreateFile(ctx context.Context, call Call, path, source string) (Result, error) {
	return m.mutate(call, func() (Result, error) {
		p, err := normalizeNewPath(path)
		if err != nil {
			return Result{}, err
		}
		if IsAssetPath(p) {
			return Result{}, TypeConflict(p, "create", "", KindText)
		}
		if m.find(p) >= 0 {
			return Result{}, FileConflict(p, "create")
		}
		if c, ok := FindPathCollision(m.files, p, -1); ok {
			return Result{}, PathCollisionError(p, "create", c)
		}
		if err := checkSource("Source", source); err != nil {
			return Result{}, err
		}
		f := NewTextFile(p, source)
		files := append(m.files[:len(m.files):len(m.files)], f)
		rev := m.apply(ctx, call, edit{files: files, active: p, deleted: withoutPath(m.deleted, p), put: []*File{f}})
		return Result{Path: p, ActivePath: p, Revision: rev, Changed: true, Language: f.Language}, nil
	})
}

// RenameFile moves a file (REFERENCE §2.1 renameFile): language and MIME type are recomputed,
// RenamedFrom remembers the saved path the file came from (cleared when renamed back), the
// active path follows the file, the old path is queued for deletion when it is in the saved
// baseline, and the new path leaves the deletion queue. Result.FromPath and Result.Path are the
// normalized paths.
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable), WORKSPACE_PATH_INVALID (toPath also with reason
//     "hidden" or "ignored", see ExcludedPathReason)
//   - WORKSPACE_FILE_CONFLICT: from == to {fromPath, toPath}; target exists {path: to, operation:"rename"};
//     another file's name is the same under NameKey {path, operation, conflictsWith, reason:"name-collision"}
//     (renaming a file to another case of its own name is allowed); a file-folder or
//     folder-name collision {path, operation, conflictsWith, folder, reason} (FindPathCollision)
//   - WORKSPACE_FILE_NOT_FOUND: {path: from}
//   - WORKSPACE_FILE_TYPE_CONFLICT: kind-changing extension; {path: to, operation:"rename",
//     actualKind, expectedKind}
//   - WORKSPACE_PREVIEW_ENTRY_REQUIRED: the last HTML file would lose its HTML extension;
//     {operation:"rename", path: from}
func (m *Manager) RenameFile(ctx context.Context, call Call, fromPath, toPath string) (Result, error) {
	return m.mutate(call, func() (Result, error) {
		from, err := NormalizePath(fromPath)
		if err != nil {
			return Result{}, err
		}
		to, err := normalizeNewPath(toPath)
		if err != nil {
			return Result{}, err
		}
		if from == to {
			return Result{}, mcp.NewError(mcp.CodeWorkspaceFileConflict, false,
				map[string]any{"fromPath": from, "toPath": to}, "Rename source and target are the same path %q.", from)
		}
		i := m.find(from)
		if i < 0 {
			return Result{}, m.missingLocked(from)
		}
		if m.find(to) >= 0 {
			return Result{}, FileConflict(to, "rename")
		}
		if c, ok := FindPathCollision(m.files, to, i); ok {
			return Result{}, PathCollisionError(to, "rename", c)
		}
		f := m.files[i]
		if f.Kind == KindAsset && !IsAssetPath(to) {
			return Result{}, TypeConflict(to, "rename", KindText, KindAsset)
		}
		if f.Kind != KindAsset && IsAssetPath(to) {
			return Result{}, TypeConflict(to, "rename", KindAsset, KindText)
		}
		if f.Language == "html" && LanguageFor(to) != "html" && m.htmlCount() == 1 {
			return Result{}, entryRequired("rename", from)
		}
		nf := f.withPath(to)
		switch {
		case nf.RenamedFrom == to:
			nf.RenamedFrom = ""
		case nf.RenamedFrom != "" && m.baseline[nf.RenamedFrom] != nil:
			// keep the nearest saved origin
		case m.baseline[from] != nil:
			nf.RenamedFrom = from
		}
		return m.moveLocked(ctx, call, i, from, to, nf), nil
	})
}

// moveLocked replaces the file at index i (stored at from) with nf stored at to: the active
// path follows, to leaves the pending deletions and from joins them when it was saved. It is
// the one bookkeeping of a rename and of reverting a rename. Caller holds m.mu.
func (m *Manager) moveLocked(ctx context.Context, call Call, i int, from, to string, nf *File) Result {
	active := m.active
	if active == from {
		active = to
	}
	deleted := withoutPath(m.deleted, to)
	if m.baseline[from] != nil {
		deleted = withPath(deleted, from)
	}
	rev := m.apply(ctx, call, edit{files: replaceFile(m.files, i, nf), active: active, deleted: deleted,
		put: []*File{nf}, del: []string{from}})
	return Result{Path: to, FromPath: from, ActivePath: active, Revision: rev, Changed: true}
}

func (m *Manager) htmlCount() int {
	n := 0
	for _, f := range m.files {
		if f.Language == "html" {
			n++
		}
	}
	return n
}

func entryRequired(operation, p string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspacePreviewEntryRequired, false, map[string]any{"operation": operation, "path": p},
		"Cannot %s %q: the workspace needs at least one HTML file as the preview entry.", operation, p)
}

// DeleteFile removes a file (REFERENCE §2.1 deleteFile). When the active file is deleted the
// preview entry (index.html, else the first HTML file) becomes active, else the first file. The
// path joins the deletion queue only when it is in the saved baseline.
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable), WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND
//   - WORKSPACE_EMPTY: the last file; {operation:"delete", path}
//   - WORKSPACE_PREVIEW_ENTRY_REQUIRED: the only HTML file; {operation:"delete", path}
//   - WORKSPACE_ACTIVE_FILE_NOT_FOUND: no file could become active; {operation:"delete", path}
func (m *Manager) DeleteFile(ctx context.Context, call Call, path string) (Result, error) {
	return m.mutate(call, func() (Result, error) {
		p, err := NormalizePath(path)
		if err != nil {
			return Result{}, err
		}
		return m.deleteLocked(ctx, call, p, "delete")
	})
}

func (m *Manager) deleteLocked(ctx context.Context, call Call, p, operation string) (Result, error) {
	i := m.find(p)
	if i < 0 {
		return Result{}, m.missingLocked(p)
	}
	if len(m.files) == 1 {
		return Result{}, mcp.NewError(mcp.CodeWorkspaceEmpty, false, map[string]any{"operation": operation, "path": p},
			"Cannot %s %q: it is the last file in the workspace.", operation, p)
	}
	if m.files[i].Language == "html" && m.htmlCount() == 1 {
		return Result{}, entryRequired(operation, p)
	}
	files := removeFile(m.files, i)
	active := m.active
	if active == p || m.find(active) < 0 {
		active = htmlEntry(files)
		if active == "" && len(files) > 0 {
			active = files[0].Path
		}
		if active == "" {
			return Result{}, mcp.NewError(mcp.CodeWorkspaceActiveFileNotFound, false,
				map[string]any{"operation": operation, "path": p}, "No file can become active after deleting %q.", p)
		}
	}
	deleted := withoutPath(m.deleted, p)
	if m.baseline[p] != nil {
		deleted = withPath(deleted, p)
	}
	rev := m.apply(ctx, call, edit{files: files, active: active, deleted: deleted, del: []string{p}})
	return Result{Path: p, ActivePath: active, Revision: rev, Changed: true}, nil
}

// WriteFile replaces a text file's source; revision+1 and a new checkpoint (a source edit:
// undo/redo keep the current tab). Tool calls never coalesce; a direct typing burst sets
// call.CoalesceKey (see Call) and an unchanged source is then a no-op. The active path is not
// changed.
//
// Limit: source ≤ MaxSourceChars code points (an over-budget imported file must be shrunk).
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable), WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND
//   - WORKSPACE_FILE_TYPE_CONFLICT: asset; {path, operation:"write", actualKind:"asset", expectedKind:"text"}
//   - WORKSPACE_SOURCE_LIMIT: {limit: 80000}
func (m *Manager) WriteFile(ctx context.Context, call Call, path, source string) (Result, error) {
	return m.mutate(call, func() (Result, error) {
		p, i, err := m.textFile(path, "write")
		if err != nil {
			return Result{}, err
		}
		if err := checkSource("Source", source); err != nil {
			return Result{}, err
		}
		if call.CoalesceKey != "" && m.files[i].Source == source {
			return Result{Path: p, ActivePath: m.active, Revision: m.revision}, nil
		}
		rev := m.setSource(ctx, call, i, source)
		return Result{Path: p, ActivePath: m.active, Revision: rev, Changed: true}, nil
	})
}

func (m *Manager) setSource(ctx context.Context, call Call, i int, source string) int64 {
	nf := m.files[i].withSource(source)
	return m.apply(ctx, call, edit{files: replaceFile(m.files, i, nf), active: m.active, deleted: m.deleted,
		put: []*File{nf}, preserveActive: true})
}

// textFile resolves path to an existing text file's index.
func (m *Manager) textFile(path, operation string) (string, int, error) {
	p, err := NormalizePath(path)
	if err != nil {
		return "", -1, err
	}
	i := m.find(p)
	if i < 0 {
		return p, -1, m.missingLocked(p)
	}
	if m.files[i].Kind == KindAsset {
		return p, -1, TypeConflict(p, operation, KindAsset, KindText)
	}
	return p, i, nil
}

// Patch occurrences.
const (
	OccurrenceFirst = "first"
	OccurrenceAll   = "all"
)

// ApplyPatch replaces the first or every literal (non-regex) match of search in a text file
// (REFERENCE §2.1 applyPatch). Result.Replacements is 1 for "first", the match count for "all".
//
// Limits: search 1..MaxPatchSearchChars, replace 0..MaxPatchReplaceChars code points; the
// patched text must stay within MaxSourceChars.
//
// # Errors
//   - TOOL_VALIDATION_FAILED: occurrence not first/all, or search/replace length out of range
//   - WORKSPACE_REVISION_CONFLICT (retryable), WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND
//   - WORKSPACE_FILE_TYPE_CONFLICT: asset; operation "patch"
//   - WORKSPACE_PATCH_NOT_FOUND: no match; details {path, occurrence, searchLength}, never the text
//   - WORKSPACE_SOURCE_LIMIT: patched text too long; details {limit}
func (m *Manager) ApplyPatch(ctx context.Context, call Call, path, search, replace, occurrence string) (Result, error) {
	if occurrence != OccurrenceFirst && occurrence != OccurrenceAll {
		return Result{}, mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"field": "occurrence"},
			"occurrence must be \"first\" or \"all\".")
	}
	if n := CharCount(search); n < 1 || n > MaxPatchSearchChars {
		return Result{}, mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"field": "search"},
			"search must be 1..20,000 characters.")
	}
	if CharCount(replace) > MaxPatchReplaceChars {
		return Result{}, mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"field": "replace"},
			"replace must be at most 20,000 characters.")
	}
	return m.mutate(call, func() (Result, error) {
		p, i, err := m.textFile(path, "patch")
		if err != nil {
			return Result{}, err
		}
		src := m.files[i].Source
		count := strings.Count(src, search)
		if count == 0 {
			return Result{}, mcp.NewError(mcp.CodeWorkspacePatchNotFound, false,
				map[string]any{"path": p, "occurrence": occurrence, "searchLength": CharCount(search)},
				"The search text was not found in %q.", p)
		}
		var out string
		if occurrence == OccurrenceFirst {
			out, count = strings.Replace(src, search, replace, 1), 1
		} else {
			out = strings.ReplaceAll(src, search, replace)
		}
		if err := checkSource("Patched source", out); err != nil {
			return Result{}, err
		}
		rev := m.setSource(ctx, call, i, out)
		return Result{Path: p, ActivePath: m.active, Revision: rev, Changed: true, Replacements: count}, nil
	})
}

// RevertFile returns a file to its saved state (REFERENCE §2.1 revertFile), in this order:
//
//	(a) the file was renamed from a saved path that is free again → it moves back there (and
//	    takes the saved source when different);
//	(b) the path is not in the saved baseline → it is deleted (delete rules and errors apply,
//	    with operation "revert");
//	(c) the source equals the saved source → nothing changes (Changed false, same revision);
//	(d) otherwise the saved content is restored (the saved body is shared, not copied).
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable), WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND
//   - case (a): WORKSPACE_PREVIEW_ENTRY_REQUIRED when moving back would leave no HTML file
//     (README.md renamed to b.html, index.html deleted, b.html reverted); {operation:"revert", path}
//   - case (b): WORKSPACE_EMPTY, WORKSPACE_PREVIEW_ENTRY_REQUIRED, WORKSPACE_ACTIVE_FILE_NOT_FOUND
func (m *Manager) RevertFile(ctx context.Context, call Call, path string) (Result, error) {
	return m.mutate(call, func() (Result, error) {
		p, err := NormalizePath(path)
		if err != nil {
			return Result{}, err
		}
		i := m.find(p)
		if i < 0 {
			return Result{}, m.missingLocked(p)
		}
		if orig := m.files[i].RenamedFrom; orig != "" && m.find(orig) < 0 && m.baseline[orig] != nil {
			nf := m.baseline[orig] // rename back + saved source = the saved file itself
			if m.files[i].Language == "html" && nf.Language != "html" && m.htmlCount() == 1 {
				return Result{}, entryRequired("revert", p)
			}
			return m.moveLocked(ctx, call, i, p, orig, nf), nil
		}
		saved := m.baseline[p]
		if saved == nil {
			return m.deleteLocked(ctx, call, p, "revert")
		}
		if sameContent(saved, m.files[i]) {
			return Result{Path: p, ActivePath: m.active, Revision: m.revision}, nil
		}
		rev := m.apply(ctx, call, edit{files: replaceFile(m.files, i, saved), active: m.active, deleted: m.deleted,
			put: []*File{saved}, preserveActive: true})
		return Result{Path: p, ActivePath: m.active, Revision: rev, Changed: true}, nil
	})
}

// mutate is the one prologue of the editing methods: it runs f with the lock held, after the
// expectedRevision guard (WORKSPACE_REVISION_CONFLICT).
func (m *Manager) mutate(call Call, f func() (Result, error)) (Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.guard(call, ""); err != nil {
		return Result{}, err
	}
	return f()
}
