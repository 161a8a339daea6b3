package livesurface

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sort"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/workspace"
)

// ManifestEntry is one file of a save manifest (live reference, section 2.6): its path, the
// "sha256:<hex>" digest of its UTF-8 bytes and their length in bytes.
type ManifestEntry struct {
	Path         string `json:"path"`
	SourceHash   string `json:"sourceHash"`
	SourceLength int    `json:"sourceLength"`
}

// Manifest is a save's plan: its entries in path order, written in that order.
type Manifest struct {
	Operation string          `json:"operation"`
	Entries   []ManifestEntry `json:"entries"`
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func entryFor(path, source string) ManifestEntry {
	return ManifestEntry{Path: path, SourceHash: digest([]byte(source)), SourceLength: len(source)}
}

func sortEntries(files []FileEntry) {
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
}

// PlanKey is the durable key of the manifest a keyed save records before its first write:
// "editor.savePlan:" + registry.OperationKey(sessionId, tool, idempotencyKey). Recovery
// finds it from the same three values; the registry's own record of the call is never
// touched by it.
func PlanKey(sessionID, tool, idempotencyKey string) string {
	return "editor.savePlan:" + registry.OperationKey(sessionID, tool, idempotencyKey)
}

// recordPlan stores m under the call's plan key when the call has an idempotency key and the
// session a durable backend (otherwise there is no record to recover and it returns false).
// A store failure refuses the save before anything is written: TOOL_IDEMPOTENCY_STORE_FAILED
// (retryable).
func (s *surface) recordPlan(ctx context.Context, c *registry.Call, m Manifest) (bool, error) {
	if s.plans == nil || c.IdempotencyKey == "" {
		return false, nil
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return false, err
	}
	key := PlanKey(c.SessionID, c.Name, c.IdempotencyKey)
	claim, err := s.plans.Claim(ctx, key, digest(raw), s.owner, 0)
	if err == nil {
		switch claim.Outcome {
		case durable.ClaimOwner:
			_, err = s.plans.Complete(ctx, key, s.owner, claim.Fence, raw)
		case durable.ClaimReplay: // the same plan is already recorded
		default:
			err = errors.New("the save plan " + key + " is " + string(claim.Outcome))
		}
	}
	if err != nil {
		return false, mcp.NewError(mcp.CodeToolIdempotencyStoreFailed, true, map[string]any{"operationKey": key},
			"The save plan could not be recorded, so nothing was written: %s", err.Error())
	}
	return true, nil
}

// folderFor returns the linked folder or WORKSPACE_FOLDER_NOT_CONNECTED (retryable).
func (s *surface) folderFor(operation string) (workspace.FolderAdapter, error) {
	f := s.m.Folder()
	if f == nil {
		return nil, workspace.FolderNotConnected(operation)
	}
	return f, nil
}

// definiteWriteError maps a folder write error that proves nothing was written to its typed
// error; ok is false for any other error (the write's outcome is unknown).
func definiteWriteError(err error, folder workspace.FolderAdapter, path, operation string) (*mcp.ToolError, bool) {
	switch {
	case errors.Is(err, workspace.ErrFolderStale):
		return workspace.FolderStale(operation, folder.Name(), err), true
	case errors.Is(err, workspace.ErrFolderPermission):
		return workspace.FolderPermissionDenied(operation, workspace.PermissionDenied), true
	case errors.Is(err, workspace.ErrFolderPathEscapes):
		return workspace.PathInvalid(path, "escapes the linked folder"), true
	case errors.Is(err, workspace.ErrFolderNotAFile):
		return workspace.SaveConflict(path, "write", "directory-in-the-way"), true
	}
	return nil, false
}

// unknownSave is the error of a save whose outcome is not known (a write failed after others
// landed, or in a way that does not prove it did not happen): TOOL_EXECUTION_UNKNOWN,
// retryable, details {outcome: "unknown", operation, plannedFiles, completedCount,
// completedPaths (the first 32), pendingCount, planRecorded, reason}. The registry records a
// keyed call with this code as unknown; editor/recoverSave settles it by reading the folder
// back.
func unknownSave(operation string, planned []ManifestEntry, completed int, recorded bool, reason string) *mcp.ToolError {
	paths := []string{}
	for i := 0; i < completed && i < 32; i++ {
		paths = append(paths, planned[i].Path)
	}
	return mcp.NewError(mcp.CodeToolExecutionUnknown, true, map[string]any{
		"outcome": "unknown", "operation": operation, "plannedFiles": len(planned), "completedCount": completed,
		"completedPaths": paths, "pendingCount": len(planned) - completed, "planRecorded": recorded, "reason": mcp.Bound(reason, 240)},
		"%s wrote %d of %d files before it was interrupted; the outcome of the rest is unknown. Do not save again: recover the save by reading the folder back (editor/recoverSave).",
		operation, completed, len(planned))
}

// SaveFileResult is editor.saveFile's result.
type SaveFileResult struct {
	Path              string   `json:"path"`
	ActivePath        string   `json:"activePath"`
	SavedTo           string   `json:"savedTo"`
	DirtyPaths        []string `json:"dirtyPaths"`
	WorkspaceRevision int64    `json:"workspaceRevision"`
	DocumentRevision  int64    `json:"documentRevision"`
}

// SaveAllResult is editor.saveAll's result.
type SaveAllResult struct {
	SavedPaths        []string `json:"savedPaths"`
	ActivePath        string   `json:"activePath"`
	DirtyPaths        []string `json:"dirtyPaths"`
	WorkspaceRevision int64    `json:"workspaceRevision"`
	DocumentRevision  int64    `json:"documentRevision"`
}

// markWritten sets the baseline of path to what was written and reports whether the file still
// holds that text (a file edited during the save stays dirty).
func (s *surface) markWritten(path, written string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.baseline[path] = written
	f, err := s.m.File(path)
	return err == nil && f.Source == written
}

func (s *surface) clocks() (active string, ws, doc int64, dirty []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := s.m.Snapshot()
	return snap.ActivePath, snap.Revision, s.doc.revision, s.dirtyLocked(snap.Files)
}

func (s *surface) saveFile(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Path string `json:"path"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := checkChars("path", in.Path, 1, MaxPathChars); err != nil {
		return nil, err
	}
	folder, err := s.folderFor("save")
	if err != nil {
		return nil, err
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	f, err := s.m.File(in.Path)
	if err != nil {
		return nil, err
	}
	if f.Kind == workspace.KindAsset {
		return nil, workspace.TypeConflict(f.Path, "save", workspace.KindAsset, workspace.KindText)
	}
	plan := []ManifestEntry{entryFor(f.Path, f.Source)}
	recorded, err := s.recordPlan(ctx, c, Manifest{Operation: ToolSaveFile, Entries: plan})
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // nothing written
	}
	if werr := folder.WriteFile(ctx, f.Path, []byte(f.Source)); werr != nil {
		if te, ok := definiteWriteError(werr, folder, f.Path, "save"); ok {
			return nil, te
		}
		return nil, unknownSave(ToolSaveFile, plan, 0, recorded, werr.Error())
	}
	s.markWritten(f.Path, f.Source)
	active, ws, doc, dirty := s.clocks()
	return SaveFileResult{Path: f.Path, ActivePath: active, SavedTo: SavedToFilesystem, DirtyPaths: dirty,
		WorkspaceRevision: ws, DocumentRevision: doc}, nil
}

func (s *surface) saveAll(ctx context.Context, c *registry.Call) (any, error) {
	folder, err := s.folderFor("save all")
	if err != nil {
		return nil, err
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	files := s.m.Files()
	dirty := map[string]bool{}
	for _, p := range s.dirtyLocked(files) {
		dirty[p] = true
	}
	var plan []ManifestEntry
	sources := map[string]string{}
	for _, f := range files {
		if dirty[f.Path] {
			plan = append(plan, entryFor(f.Path, f.Source))
			sources[f.Path] = f.Source
		}
	}
	s.mu.Unlock()
	sort.Slice(plan, func(i, j int) bool { return plan[i].Path < plan[j].Path })
	if len(plan) > MaxSaveFiles {
		return nil, mcp.NewError(mcp.CodeToolExecutionFailed, false, map[string]any{"reason": "too-many-files", "limit": MaxSaveFiles, "count": len(plan)},
			"%d files are dirty; editor.saveAll saves at most %d at a time. Save single files with editor.saveFile.", len(plan), MaxSaveFiles)
	}
	saved := []string{}
	if len(plan) > 0 {
		recorded, err := s.recordPlan(ctx, c, Manifest{Operation: ToolSaveAll, Entries: plan})
		if err != nil {
			return nil, err
		}
		for i, e := range plan {
			if err := ctx.Err(); err != nil {
				if i == 0 {
					return nil, err // nothing written
				}
				return nil, unknownSave(ToolSaveAll, plan, i, recorded, "the call was cancelled: "+err.Error())
			}
			if werr := folder.WriteFile(ctx, e.Path, []byte(sources[e.Path])); werr != nil {
				if te, ok := definiteWriteError(werr, folder, e.Path, "save all"); ok && i == 0 {
					return nil, te
				}
				return nil, unknownSave(ToolSaveAll, plan, i, recorded, werr.Error())
			}
			if s.markWritten(e.Path, sources[e.Path]) {
				saved = append(saved, e.Path)
			}
		}
	}
	active, ws, doc, dirtyNow := s.clocks()
	return SaveAllResult{SavedPaths: saved, ActivePath: active, DirtyPaths: dirtyNow, WorkspaceRevision: ws, DocumentRevision: doc}, nil
}
