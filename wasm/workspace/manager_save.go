// Saving the workspace: the browser-only checkpoint save (SaveCheckpoint) and the folder save
// (SaveAll: its plan, per-item durable keys, conflict checks, unknown outcomes and their
// reconciliation). Importing and linking folders is in manager_folder.go.

package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// SaveResult is the saveAll/saveCheckpoint result: {"savedPaths", "deletedPaths",
// "activePath", "revision", "checkpointUpdated"?}.
type SaveResult struct {
	SavedPaths        []string `json:"savedPaths"`
	DeletedPaths      []string `json:"deletedPaths"`
	ActivePath        string   `json:"activePath"`
	Revision          int64    `json:"revision"`
	CheckpointUpdated *bool    `json:"checkpointUpdated,omitempty"`
}

// SaveCheckpoint marks the current state as saved without a folder (the browser-only save,
// REFERENCE §2.1 saveCheckpoint): it returns the previously dirty paths and the cleared
// deletions, with checkpointUpdated true.
//
// # Errors
//   - WORKSPACE_FOLDER_STATE_CONFLICT: a folder is linked; {operation:"checkpoint", folderLinked:true}
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision
//   - TOOL_EXECUTION_FAILED: the Repository failed while clearing the deletions (the manager
//     is then in memory mode with a storageError)
func (m *Manager) SaveCheckpoint(ctx context.Context, call Call) (SaveResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.folder != nil {
		return SaveResult{}, FolderStateConflict("checkpoint")
	}
	if err := m.guard(call, ""); err != nil {
		return SaveResult{}, err
	}
	res := SaveResult{SavedPaths: []string{}, DeletedPaths: append([]string{}, m.deleted...),
		ActivePath: m.active, Revision: m.revision, CheckpointUpdated: new(true)}
	for _, f := range m.files {
		if m.dirty(f) {
			res.SavedPaths = append(res.SavedPaths, f.Path)
		}
	}
	m.markAllSavedLocked()
	if m.repo != nil && m.storageMode == StorageIndexedDB {
		if err := m.repo.SaveChanges(ctx, m.metaLocked(), nil, nil); err != nil {
			m.fail(err, FallbackPersistError)
			return SaveResult{}, mcp.NewError(mcp.CodeToolExecutionFailed, false, map[string]any{"operation": "checkpoint"},
				"%s", m.storageError)
		}
	}
	return res, nil
}

func (m *Manager) markAllSavedLocked() {
	m.baseline = make(map[string]*File, len(m.files))
	for _, f := range m.files {
		m.baseline[f.Path] = f
	}
	m.deleted = nil
}

// Save operations.
const (
	SaveOpWrite  = "write"
	SaveOpDelete = "delete"
)

// SaveItem is one planned folder operation of SaveAll: {"op", "path", "revision", "scopeId",
// "sourceHash"?, "sourceLength"?}. SourceHash is "sha256:<hex>" of the bytes written and
// SourceLength the file's Size (UTF-16 code units for text, bytes for assets), as in the save
// plan of REFERENCE §6.6; both are empty for deletions. Data is the bytes to write.
type SaveItem struct {
	Op           string `json:"op"`
	Path         string `json:"path"`
	Revision     int64  `json:"revision"`
	ScopeID      string `json:"scopeId"`
	SourceHash   string `json:"sourceHash,omitempty"`
	SourceLength int    `json:"sourceLength,omitempty"`
	Data         []byte `json:"-"`
	// Temp marks the temporary copy of a case-only rename (caseRenames): written before the
	// old name is deleted and removed after the new name is written; never reported.
	Temp bool `json:"-"`
}

// CaseRenameSuffix is appended to the new name of a case-only rename for its temporary copy.
const CaseRenameSuffix = ".webcoding-rename"

// caseRenames reorders the plan for renames that change only letter case ("a.js" → "A.js": a
// write of A.js and a deletion of a.js). On a case-insensitive file system both names are one
// file, so "write A.js, then delete a.js" would delete what was just written. Such a pair runs
// as: write the new bytes to "A.js"+CaseRenameSuffix (a temporary copy, so a crash never leaves
// the folder without the file), delete a.js, write A.js, delete the temporary copy. Every other
// item keeps its place (writes in workspace order, then deletions).
func caseRenames(items []SaveItem, planned []*File) ([]SaveItem, []*File) {
	type pair struct{ write, del int }
	var pairs []pair
	used := map[int]bool{}
	for i, it := range items {
		if it.Op != SaveOpWrite {
			continue
		}
		for j, d := range items {
			if d.Op == SaveOpDelete && !used[j] && d.Path != it.Path && strings.EqualFold(d.Path, it.Path) {
				pairs = append(pairs, pair{i, j})
				used[j] = true
				break
			}
		}
	}
	if len(pairs) == 0 {
		return items, planned
	}
	byWrite := map[int]int{}
	for _, p := range pairs {
		byWrite[p.write] = p.del
	}
	var outItems []SaveItem
	var outPlanned []*File
	for i, it := range items {
		if used[i] {
			continue // the deletion moved next to its write
		}
		j, ok := byWrite[i]
		if !ok {
			outItems, outPlanned = append(outItems, it), append(outPlanned, planned[i])
			continue
		}
		tmp := it
		tmp.Path, tmp.Temp = it.Path+CaseRenameSuffix, true
		delTmp := SaveItem{Op: SaveOpDelete, Path: tmp.Path, Revision: it.Revision, ScopeID: it.ScopeID, Temp: true}
		outItems = append(outItems, tmp, items[j], it, delTmp)
		outPlanned = append(outPlanned, planned[i], nil, planned[i], nil)
	}
	return outItems, outPlanned
}

// OperationKey is the durable key of the item, "workspace.saveAll:<scopeId>:<revision>:<op>:<path>",
// and Fingerprint its fingerprint, "workspace.saveAll:<op>:<path>:<sourceHash|delete>"
// (REFERENCE §2.1 saveAll, durable variant).
func (it SaveItem) OperationKey() string {
	return fmt.Sprintf("workspace.saveAll:%s:%d:%s:%s", it.ScopeID, it.Revision, it.Op, it.Path)
}

// Fingerprint: see OperationKey.
func (it SaveItem) Fingerprint() string {
	h := it.SourceHash
	if it.Op == SaveOpDelete {
		h = "delete"
	}
	return "workspace.saveAll:" + it.Op + ":" + it.Path + ":" + h
}

// SourceHash returns "sha256:<hex>" of data (REFERENCE §6.6 save plan).
func SourceHash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// SaveOptions adjust SaveAll. Perform, when set, runs each folder operation: it receives the
// item and do (the actual folder write/delete) and must either call do once and return its
// error, or return an error of its own without calling it (a durable side-effect runner plugs
// in here). A *mcp.ToolError it returns is passed through unchanged.
type SaveOptions struct {
	Perform func(ctx context.Context, item SaveItem, do func(context.Context) error) error
}

type unknownSave struct {
	item SaveItem
	path string
}

// SaveAll writes the dirty files, then the pending deletions, to the linked folder, in
// workspace (snapshot) order (REFERENCE §2.1 saveAll, SPEC §2.4). Before each item the revision
// must still be the one the save started at; each path is marked saved as soon as it is
// written; only when every item succeeded is the whole state marked saved (deletions cleared,
// checkpointUpdated true). Nothing to save → empty lists, no checkpointUpdated. The lock is
// released during folder I/O.
//
// A write or delete that fails with an error other than stale/permission/path-escape has an
// unknown outcome: it is reported as WORKSPACE_SIDE_EFFECT_UNKNOWN and further saves are
// blocked until it is reconciled — the next SaveAll first re-reads that path and compares its
// hash (SPEC §2.4); only a failed re-read keeps the block.
//
// # Errors
// Failures after N>0 completed items keep their code, retryability and details, with the
// message prefixed "Folder save completed N item(s): a, b. Remaining changes stay in the
// browser workspace. ".
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision; or the revision moved
//     during the save (details operation "save")
//   - WORKSPACE_FOLDER_NOT_CONNECTED (retryable): {operation:"save"}
//   - WORKSPACE_FOLDER_PERMISSION_DENIED (retryable): permission "prompt" or "denied"; {operation:"save", permission}
//   - WORKSPACE_FOLDER_STALE (retryable): {operation:"save", folderName, cause}; the link is dropped
//   - WORKSPACE_SIDE_EFFECT_UNKNOWN (not retryable): {operation:"save", path, revision,
//     state:"unknown", reason, diagnostic{operation, path, scopeId, revision, sourceLength?,
//     sourceHash?}, operationKey}
//   - WORKSPACE_PATH_INVALID: the folder refused a path escaping its root
//   - WORKSPACE_FILE_CONFLICT {path, operation:"save", conflictsWith, reason:"file-folder-collision"}:
//     the workspace holds a file and another file under it as a folder (SaveFileFolderConflict);
//     checked before anything is written
//   - TOOL_CANCELLED (retryable): "Save cancelled." (ctx ended)
func (m *Manager) SaveAll(ctx context.Context, call Call, opts SaveOptions) (SaveResult, error) {
	m.saveMu.Lock()
	defer m.saveMu.Unlock()
	m.mu.Lock()
	if err := m.guard(call, ""); err != nil {
		m.mu.Unlock()
		return SaveResult{}, err
	}
	folder := m.folder
	m.mu.Unlock()
	if folder == nil {
		return SaveResult{}, FolderNotConnected("save")
	}
	if ctx.Err() != nil {
		return SaveResult{}, mcp.NewError(mcp.CodeToolCancelled, true, nil, "Save cancelled.")
	}
	if perm := folder.Permission(ctx); refused(perm) {
		return SaveResult{}, FolderPermissionDenied("save", perm)
	}
	if err := m.reconcile(ctx, folder); err != nil {
		return SaveResult{}, err
	}

	m.mu.Lock()
	if p, other, ok := fileUsedAsFolder(m.files); ok {
		m.mu.Unlock()
		return SaveResult{}, SaveFileFolderConflict(p, other)
	}
	rev, active, scope := m.revision, m.active, folder.ScopeID()
	var items []SaveItem
	var planned []*File
	for _, f := range m.files {
		if m.dirty(f) {
			data := f.bytes()
			items = append(items, SaveItem{Op: SaveOpWrite, Path: f.Path, Revision: rev, ScopeID: scope,
				SourceHash: SourceHash(data), SourceLength: f.Size, Data: data})
			planned = append(planned, f)
		}
	}
	for _, p := range m.deleted {
		items = append(items, SaveItem{Op: SaveOpDelete, Path: p, Revision: rev, ScopeID: scope})
		planned = append(planned, nil)
	}
	m.mu.Unlock()
	items, planned = caseRenames(items, planned)

	res := SaveResult{SavedPaths: []string{}, DeletedPaths: []string{}, ActivePath: active, Revision: rev}
	if len(items) == 0 {
		return res, nil
	}
	var done []string
	fail := func(e error) (SaveResult, error) {
		if len(done) == 0 {
			return SaveResult{}, e
		}
		return SaveResult{}, withPrefix(mcp.ToolErrorOf(e), fmt.Sprintf("Folder save completed %d item(s): %s. Remaining changes stay in the workspace, not yet written to the folder. ",
			len(done), strings.Join(done, ", ")))
	}
	for i, it := range items {
		if ctx.Err() != nil {
			return fail(mcp.NewError(mcp.CodeToolCancelled, true, nil, "Save cancelled."))
		}
		m.mu.Lock()
		cur, linked := m.revision, m.folder == folder
		expected, known := m.onDisk[it.Path]
		m.mu.Unlock()
		if cur != rev {
			return fail(RevisionConflict(rev, cur, "save"))
		}
		if !linked {
			return fail(FolderNotConnected("save"))
		}
		if err := m.checkFolderFile(ctx, folder, it, expected, known); err != nil {
			return fail(err)
		}
		do := func(ctx context.Context) error {
			if it.Op == SaveOpWrite {
				return folder.WriteFile(ctx, it.Path, it.Data)
			}
			return folder.DeleteFile(ctx, it.Path)
		}
		var err error
		if opts.Perform != nil {
			err = opts.Perform(ctx, it, do)
		} else {
			err = do(ctx)
		}
		if err != nil {
			return fail(m.saveFailure(ctx, folder, it, err))
		}
		m.mu.Lock()
		m.recordOnDisk(folder, it)
		if it.Temp {
			m.mu.Unlock()
			continue
		}
		if m.revision == rev {
			if it.Op == SaveOpWrite {
				m.baseline[it.Path] = planned[i]
			} else {
				delete(m.baseline, it.Path)
				m.deleted = withoutPath(m.deleted, it.Path)
				m.persistChanges(ctx, nil, nil)
			}
		}
		m.mu.Unlock()
		done = append(done, it.Path)
		if it.Op == SaveOpWrite {
			res.SavedPaths = append(res.SavedPaths, it.Path)
		} else {
			res.DeletedPaths = append(res.DeletedPaths, it.Path)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.revision != rev {
		return fail(RevisionConflict(rev, m.revision, "save"))
	}
	m.markAllSavedLocked()
	m.persistChanges(ctx, nil, nil)
	res.CheckpointUpdated = new(true)
	return res, nil
}

// fileUsedAsFolder finds a file p one of whose folders is another file of files (exactly:
// such a pair can be saved to no folder; pairs equal only under NameKey can be, to a
// case-sensitive one).
func fileUsedAsFolder(files []*File) (p, folder string, ok bool) {
	paths := make(map[string]bool, len(files))
	for _, f := range files {
		paths[f.Path] = true
	}
	for _, f := range files {
		for i := 0; i < len(f.Path); i++ {
			if f.Path[i] == '/' && paths[f.Path[:i]] {
				return f.Path, f.Path[:i], true
			}
		}
	}
	return "", "", false
}

// checkFolderFile is the pre-write check of one save item (one ReadFile): the save must never
// overwrite or delete bytes the workspace did not load. expected/known come from m.onDisk.
//   - a path the folder is known to hold (loaded, or written by an earlier save): its bytes
//     must still hash to expected; a write also refuses a file deleted from the folder since.
//     Otherwise SaveConflictChanged.
//   - any other path (new, renamed-to, or left out of the import by a limit): it must not
//     exist in the folder (SaveConflictExists); a directory there is SaveConflictDirectory.
//
// Bytes already equal to what a write would put there are never a conflict (nothing is lost);
// a deletion of an absent file neither.
func (m *Manager) checkFolderFile(ctx context.Context, folder FolderAdapter, it SaveItem, expected string, known bool) error {
	data, err := folder.ReadFile(ctx, it.Path)
	switch {
	case errors.Is(err, ErrFolderFileMissing):
		if known && it.Op == SaveOpWrite {
			return SaveConflict(it.Path, it.Op, SaveConflictChanged)
		}
		return nil
	case errors.Is(err, ErrFolderNotAFile):
		return SaveConflict(it.Path, it.Op, SaveConflictDirectory)
	case errors.Is(err, ErrFolderPathEscapes):
		return PathInvalid(it.Path, PathReasonEscapesFolder)
	case err != nil:
		return m.folderError(ctx, folder, "save", err)
	}
	h := SourceHash(data)
	switch {
	case it.Op == SaveOpWrite && h == it.SourceHash:
		return nil
	case !known:
		return SaveConflict(it.Path, it.Op, SaveConflictExists)
	case h != expected:
		return SaveConflict(it.Path, it.Op, SaveConflictChanged)
	}
	return nil
}

// recordOnDisk notes a completed save item in m.onDisk (mu held).
func (m *Manager) recordOnDisk(folder FolderAdapter, it SaveItem) {
	if m.folder != folder || m.onDisk == nil {
		return
	}
	if it.Op == SaveOpWrite {
		m.onDisk[it.Path] = it.SourceHash
	} else {
		delete(m.onDisk, it.Path)
	}
}

// saveFailure maps a folder write/delete error (SPEC §2.4): confirmed-before-write failures keep
// their code; anything else is an unknown outcome recorded for reconciliation.
func (m *Manager) saveFailure(ctx context.Context, folder FolderAdapter, it SaveItem, err error) *mcp.ToolError {
	var te *mcp.ToolError
	switch {
	case errors.As(err, &te):
		return te
	case errors.Is(err, ErrFolderStale), errors.Is(err, ErrFolderPermission):
		return m.folderError(ctx, folder, "save", err)
	case errors.Is(err, ErrFolderPathEscapes):
		return PathInvalid(it.Path, PathReasonEscapesFolder)
	case errors.Is(err, ErrFolderNotAFile):
		return SaveConflict(it.Path, it.Op, SaveConflictDirectory)
	}
	m.mu.Lock()
	if m.folder == folder {
		m.unknown = &unknownSave{item: it, path: it.Path}
	}
	m.mu.Unlock()
	return sideEffectUnknown(it, "unknown", err.Error())
}

func sideEffectUnknown(it SaveItem, state, reason string) *mcp.ToolError {
	diag := map[string]any{"operation": it.Op, "path": it.Path, "scopeId": it.ScopeID, "revision": it.Revision}
	if it.Op == SaveOpWrite {
		diag["sourceLength"] = it.SourceLength
		diag["sourceHash"] = it.SourceHash
	}
	reason = boundText(reason, 512)
	return mcp.NewError(mcp.CodeWorkspaceSideEffectUnknown, state == "pending", map[string]any{
		"operation": "save", "path": it.Path, "revision": it.Revision, "state": state, "reason": reason,
		"diagnostic": diag, "operationKey": it.OperationKey(),
	}, "The folder %s of %q did not reach a confirmed outcome (%s). Reconcile the folder before retrying.", it.Op, it.Path, reason)
}

// reconcile resolves an unknown save outcome by re-reading the path (SPEC §2.4). Any definite
// answer (content present — matching or not — or the file missing) resolves it: the following
// save rewrites whatever is still dirty. A failed read keeps the block.
func (m *Manager) reconcile(ctx context.Context, folder FolderAdapter) error {
	m.mu.Lock()
	u := m.unknown
	m.mu.Unlock()
	if u == nil {
		return nil
	}
	data, err := folder.ReadFile(ctx, u.path)
	if errors.Is(err, ErrFolderNotAFile) {
		err = ErrFolderFileMissing // no file there: as definite as a missing one
	}
	if err != nil && !errors.Is(err, ErrFolderFileMissing) {
		if errors.Is(err, ErrFolderStale) || errors.Is(err, ErrFolderPermission) {
			return m.folderError(ctx, folder, "save", err)
		}
		return sideEffectUnknown(u.item, "unknown", "reconcile read failed: "+err.Error())
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.unknown == u {
		m.unknown = nil
		// What the folder now holds is known again: our write landed, or the file is gone.
		switch {
		case err == nil && u.item.Op == SaveOpWrite && SourceHash(data) == u.item.SourceHash:
			m.recordOnDisk(folder, u.item)
		case err != nil && m.folder == folder && m.onDisk != nil:
			delete(m.onDisk, u.path)
		}
		// A write that did land, at the revision still current, is saved already.
		if err == nil && u.item.Op == SaveOpWrite && SourceHash(data) == u.item.SourceHash && m.revision == u.item.Revision {
			if f := m.get(u.path); f != nil {
				m.baseline[u.path] = f
			}
		}
	}
	return nil
}
