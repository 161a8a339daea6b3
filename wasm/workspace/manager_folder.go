package workspace

import (
	"context"
	"errors"
	"iter"
	"slices"

	"github.com/webcoding/studio/wasm/mcp"
)

// ImportResult is the result of an import, reset or reload: {"rootName", "activePath",
// "fileCount", "skipped", "revision"}.
type ImportResult struct {
	RootName   string    `json:"rootName"`
	ActivePath string    `json:"activePath"`
	FileCount  int       `json:"fileCount"`
	Skipped    []Skipped `json:"skipped"`
	Revision   int64     `json:"revision"`
	// NameCollisions lists imported files whose names collide under NameKey (kept as on
	// disk, flagged; issue 14 item 12). Absent when there are none.
	NameCollisions []NameCollision `json:"nameCollisions,omitempty"`
}

// replaceLocked installs an import: revision+1, files and active path from imp, history reset to
// one checkpoint, baseline = the imported files, deletions cleared, folder link set, and the
// Repository replaced by a whole snapshot (memory mode with storageError when it fails).
func (m *Manager) replaceLocked(ctx context.Context, call Call, imp Imported, folder FolderAdapter) ImportResult {
	m.setFolderLocked(folder)
	if folder != nil {
		m.onDisk = make(map[string]string, len(imp.Files))
		for _, f := range imp.Files {
			m.onDisk[f.Path] = SourceHash(f.bytes())
		}
	}
	m.loadLocked(Snapshot{Metadata: Metadata{RootName: imp.RootName, ActivePath: imp.ActivePath, NotImported: imp.NotImported()}, Files: imp.Files},
		m.revision+1, call)
	m.persistSnapshot(ctx)
	skipped := imp.Skipped
	if skipped == nil {
		skipped = []Skipped{}
	}
	return ImportResult{RootName: m.rootName, ActivePath: m.active, FileCount: len(m.files), Skipped: skipped, Revision: m.revision,
		NameCollisions: FindNameCollisions(m.files)}
}

// ImportUpload replaces the workspace with uploaded files (no folder link; a linked folder is
// forgotten). The entries are read before the lock is taken; nothing changes on error.
//
// # Errors
//   - WORKSPACE_NO_SUPPORTED_FILES {operation:"import", rootName, skippedCount}
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision (checked after reading)
//   - TOOL_CANCELLED (retryable): ctx ended while reading
func (m *Manager) ImportUpload(ctx context.Context, call Call, rootName string, entries iter.Seq[ImportEntry]) (ImportResult, error) {
	imp, err := ImportFiles(ctx, rootName, entries)
	if err != nil {
		return ImportResult{}, err
	}
	return m.replace(ctx, call, imp, nil)
}

// ImportFolder links folder and replaces the workspace with its files (the UI's pick-a-folder
// operation, SPEC §2.11). The root name is folder.Name().
//
// # Errors
//   - WORKSPACE_FOLDER_PERMISSION_DENIED (retryable): {operation:"import", permission}
//   - WORKSPACE_FOLDER_STALE (retryable): the folder vanished
//   - WORKSPACE_NO_SUPPORTED_FILES, WORKSPACE_REVISION_CONFLICT, TOOL_CANCELLED: as ImportUpload
func (m *Manager) ImportFolder(ctx context.Context, call Call, folder FolderAdapter) (ImportResult, error) {
	imp, err := m.readFolder(ctx, folder, "import")
	if err != nil {
		return ImportResult{}, err
	}
	return m.replace(ctx, call, imp, folder)
}

// replace takes the lock and, once call's guard passes, replaces the workspace with imp
// (replaceLocked; folder nil forgets the link).
func (m *Manager) replace(ctx context.Context, call Call, imp Imported, folder FolderAdapter) (ImportResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.guard(call, "import"); err != nil {
		return ImportResult{}, err
	}
	return m.replaceLocked(ctx, call, imp, folder), nil
}

func (m *Manager) readFolder(ctx context.Context, folder FolderAdapter, operation string) (Imported, error) {
	if perm := folder.Permission(ctx); refused(perm) {
		return Imported{}, FolderPermissionDenied(operation, perm)
	}
	entries, err := folder.ReadTree(ctx)
	if err != nil {
		return Imported{}, m.folderError(ctx, folder, operation, err)
	}
	return ImportFiles(ctx, folder.Name(), slices.Values(entries))
}

// refused reports whether a permission state rules folder access out before trying: prompt and
// denied do; unknown does not (the operation itself then reports what is wrong, e.g. stale).
func refused(p Permission) bool { return p == PermissionPrompt || p == PermissionDenied }

// folderError maps a FolderAdapter error of a read (or of a failure confirmed before writing).
func (m *Manager) folderError(ctx context.Context, folder FolderAdapter, operation string, err error) *mcp.ToolError {
	var te *mcp.ToolError
	switch {
	case errors.As(err, &te):
		return te
	case errors.Is(err, ErrFolderStale):
		m.mu.Lock()
		if m.folder == folder {
			m.setFolderLocked(nil)
		}
		m.mu.Unlock()
		return FolderStale(operation, folder.Name(), err)
	case errors.Is(err, ErrFolderPermission):
		return FolderPermissionDenied(operation, folder.Permission(ctx))
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return mcp.NewError(mcp.CodeToolCancelled, true, nil, "Folder %s cancelled.", operation)
	}
	return mcp.NewError(mcp.CodeToolExecutionFailed, false, map[string]any{"operation": operation,
		"reason": boundText(err.Error(), MaxMessageChars)}, "Reading the linked folder failed: %s", boundText(err.Error(), MaxMessageChars))
}

// ReloadFolder re-reads the linked folder and replaces the workspace with it (REFERENCE §2.1
// reloadFolder): new revision, history and baseline reset, deletions cleared, the folder stays
// linked. The revision is checked before the read and again after it: an edit made while the
// folder was being read fails the reload instead of being overwritten.
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision; or the revision
//     moved during the read (details operation "reload")
//   - WORKSPACE_FOLDER_NOT_CONNECTED (retryable): {operation:"reload"}
//   - WORKSPACE_FOLDER_PERMISSION_DENIED, WORKSPACE_FOLDER_STALE (the link is dropped)
//   - WORKSPACE_NO_SUPPORTED_FILES, TOOL_CANCELLED
func (m *Manager) ReloadFolder(ctx context.Context, call Call) (ImportResult, error) {
	m.mu.Lock()
	if err := m.guard(call, ""); err != nil {
		m.mu.Unlock()
		return ImportResult{}, err
	}
	folder, start := m.folder, m.revision
	m.mu.Unlock()
	if folder == nil {
		return ImportResult{}, FolderNotConnected("reload")
	}
	imp, err := m.readFolder(ctx, folder, "reload")
	if err != nil {
		return ImportResult{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.revision != start {
		return ImportResult{}, RevisionConflict(start, m.revision, "reload")
	}
	if m.folder != folder {
		return ImportResult{}, FolderNotConnected("reload")
	}
	return m.replaceLocked(ctx, call, imp, folder), nil
}

// DisconnectFolder forgets the linked folder (and an unreconciled save); files, revision and
// history are untouched. It returns the active path and revision.
func (m *Manager) DisconnectFolder(ctx context.Context) Result {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.setFolderLocked(nil)
	return Result{ActivePath: m.active, Revision: m.revision}
}

// setFolderLocked replaces the linked folder (nil: none), forgetting an unreconciled save and
// the on-disk hashes; a previous adapter that implements FolderUnlinker is told it was
// dropped (mu held).
func (m *Manager) setFolderLocked(folder FolderAdapter) {
	old := m.folder
	m.folder, m.unknown, m.onDisk = folder, nil, nil
	if old != nil && old != folder {
		if u, ok := old.(FolderUnlinker); ok {
			u.Unlinked()
		}
	}
}

// OnDiskHash returns the SourceHash of the bytes the linked folder is known to hold at path
// ("" when unknown or no folder is linked).
func (m *Manager) OnDiskHash(path string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.onDisk[path]
}

// Folder returns the linked folder adapter, nil when none.
func (m *Manager) Folder() FolderAdapter {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.folder
}

// LinkResult is the result of LinkFolder: {"rootName", "permission", "linked", "read",
// "dirtyPaths", "revision"}. Read says whether the folder was read (permission granted);
// DirtyPaths are the workspace paths that differ from the folder afterwards.
type LinkResult struct {
	RootName   string     `json:"rootName"`
	Permission Permission `json:"permission"`
	Linked     bool       `json:"linked"`
	Read       bool       `json:"read"`
	DirtyPaths []string   `json:"dirtyPaths"`
	Revision   int64      `json:"revision"`
}

// LinkFolder links folder to the CURRENT workspace without replacing its files (SPEC §2.11:
// reconnect after a page reload, Grant folder access, Reconnect folder after a stale root).
//
// With permission granted the folder is read through the import rules (ImportFiles) and
// becomes the saved baseline: a workspace file whose bytes equal the folder's file is clean,
// a file that differs or is absent from the folder is dirty (the next SaveAll writes it, and
// only it); pending deletions stay pending. Nothing else changes: files, revision, history and
// the preview are untouched. A folder that yields no supported file is linked with an empty
// baseline (every file dirty).
//
// Without permission (prompt, denied) nothing is read: the link is recorded so getStatus shows
// the folder and its permission, and SaveAll/ReloadFolder answer
// WORKSPACE_FOLDER_PERMISSION_DENIED until LinkFolder runs again after a grant. The dirty
// state is left as it is.
//
// # Errors
//   - WORKSPACE_FOLDER_STALE (retryable): the folder root is gone; nothing is linked (and a
//     FolderUnlinker is told, so a persisted copy is forgotten)
//   - TOOL_EXECUTION_FAILED: the folder could not be read; nothing is linked
//   - TOOL_CANCELLED (retryable): ctx ended during the read
func (m *Manager) LinkFolder(ctx context.Context, folder FolderAdapter) (LinkResult, error) {
	perm := folder.Permission(ctx)
	if refused(perm) {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.setFolderLocked(folder)
		return LinkResult{RootName: folder.Name(), Permission: perm, Linked: true, DirtyPaths: m.dirtyLocked(), Revision: m.revision}, nil
	}
	entries, err := folder.ReadTree(ctx)
	if err != nil {
		terr := m.folderError(ctx, folder, "link", err)
		if terr.Code == mcp.CodeWorkspaceFolderStale {
			// A vanished root is never linked again: its persisted copy is forgotten too.
			if u, ok := folder.(FolderUnlinker); ok && m.Folder() != folder {
				u.Unlinked()
			}
		}
		return LinkResult{}, terr
	}
	imp, ierr := ImportFiles(ctx, folder.Name(), slices.Values(entries))
	if ierr != nil && mcp.ToolErrorOf(ierr).Code != mcp.CodeWorkspaceNoSupportedFiles {
		return LinkResult{}, ierr
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.setFolderLocked(folder)
	m.onDisk = make(map[string]string, len(imp.Files))
	m.baseline = make(map[string]*File, len(imp.Files))
	for _, f := range imp.Files {
		m.onDisk[f.Path] = SourceHash(f.bytes())
		m.baseline[f.Path] = f
	}
	for _, f := range m.files {
		if b := m.baseline[f.Path]; b != nil && sameContent(b, f) {
			m.baseline[f.Path] = f // share the body
		}
	}
	return LinkResult{RootName: folder.Name(), Permission: perm, Linked: true, Read: true, DirtyPaths: m.dirtyLocked(), Revision: m.revision}, nil
}

// dirtyLocked lists the dirty paths in workspace order (mu held).
func (m *Manager) dirtyLocked() []string {
	out := []string{}
	for _, f := range m.files {
		if m.dirty(f) {
			out = append(out, f.Path)
		}
	}
	return out
}

// FolderLinked reports whether a folder is linked.
func (m *Manager) FolderLinked() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.folder != nil
}

// Reset restores the 4-file seed through the import path (REFERENCE §2.1 reset): new revision,
// history reset to one checkpoint, deletions cleared, baseline = seed, root "canvas-landing".
//
// # Errors
//   - WORKSPACE_FOLDER_STATE_CONFLICT: a folder is linked; {operation:"reset", folderLinked:true}
//     (checked before the revision guard)
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision
func (m *Manager) Reset(ctx context.Context, call Call) (ImportResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.folder != nil {
		return ImportResult{}, FolderStateConflict("reset")
	}
	if err := m.guard(call, ""); err != nil {
		return ImportResult{}, err
	}
	s := m.seed()
	imp, err := ImportFiles(ctx, s.RootName, snapshotEntries(s))
	if err != nil {
		return ImportResult{}, err
	}
	return m.replaceLocked(ctx, call, imp, nil), nil
}

// snapshotEntries offers a snapshot's files to the importer.
func snapshotEntries(s Snapshot) iter.Seq[ImportEntry] {
	return func(yield func(ImportEntry) bool) {
		for _, f := range s.Files {
			data := f.Data
			if f.Kind != KindAsset {
				data = []byte(f.Source)
			}
			if !yield(ImportEntry{Path: f.Path, Size: int64(len(data)),
				Read: func(context.Context) ([]byte, error) { return data, nil }}) {
				return
			}
		}
	}
}
