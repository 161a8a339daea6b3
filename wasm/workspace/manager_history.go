package workspace

import (
	"context"
	"slices"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
)

// History directions.
const (
	DirectionUndo = "undo"
	DirectionRedo = "redo"
)

// HistoryResult is the undo/redo result {"direction", "changed": true, "activePath", "revision"}.
type HistoryResult struct {
	Direction  string `json:"direction"`
	Changed    bool   `json:"changed"`
	ActivePath string `json:"activePath"`
	Revision   int64  `json:"revision"`
}

// CheckpointInfo describes one history checkpoint: the revision it was made at (unique within
// a session, so it names the checkpoint), the tool and call id that produced it (SPEC §2.12),
// when, its file count, and whether it is the current state (the one undo steps back from).
//
// Shape: {"revision": 7, "tool": "workspace.writeFile", "callId"?: "…", "at": RFC 3339,
// "files": 4, "current": true}.
type CheckpointInfo struct {
	Revision int64     `json:"revision"`
	Tool     string    `json:"tool"`
	CallID   string    `json:"callId,omitempty"`
	At       time.Time `json:"at"`
	Files    int       `json:"files"`
	Current  bool      `json:"current"`
}

// History lists the checkpoints, oldest first (at most MaxHistory).
func (m *Manager) History() []CheckpointInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]CheckpointInfo, len(m.history))
	for i, c := range m.history {
		out[i] = CheckpointInfo{Revision: c.revision, Tool: c.tool, CallID: c.callID, At: c.at, Files: len(c.files), Current: i == m.histIndex}
	}
	return out
}

// DirectionRestore is the direction named by RestoreCheckpoint's WORKSPACE_HISTORY_EMPTY.
const DirectionRestore = "restore"

// CheckpointFiles returns the files and active path of the checkpoint made at revision (the
// values are shared and must not be modified).
//
// # Errors
//   - WORKSPACE_HISTORY_EMPTY: no checkpoint of this session was made at revision (history
//     keeps MaxHistory checkpoints and starts again after a reload); details
//     {direction: "restore", revision}
func (m *Manager) CheckpointFiles(revision int64) ([]*File, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i, err := m.checkpointAt(revision)
	if err != nil {
		return nil, "", err
	}
	return append([]*File(nil), m.history[i].files...), m.history[i].active, nil
}

func (m *Manager) checkpointAt(revision int64) (int, error) {
	for i, c := range m.history {
		if c.revision == revision {
			return i, nil
		}
	}
	return -1, mcp.NewError(mcp.CodeWorkspaceHistoryEmpty, false, map[string]any{"direction": DirectionRestore, "revision": revision},
		"No checkpoint at revision %d: the history keeps the last %d changes of this session.", revision, MaxHistory)
}

// RestoreCheckpoint makes the checkpoint made at revision the current state (SPEC §2.11:
// "restore an arbitrary checkpoint", a core operation that is not a tool). It is a new change
// on top of the history, like an edit: revision+1, a new checkpoint recorded with call.Tool,
// the redo branch dropped, persisted — so undo returns to the state before the restore.
// Restoring a checkpoint whose files and active path are the current ones changes nothing
// (Changed false, same revision).
//
// Result: HistoryResult with Direction "restore".
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision
//   - WORKSPACE_HISTORY_EMPTY: no checkpoint at revision; details {direction: "restore", revision}
//   - WORKSPACE_SOURCE_LIMIT: the checkpoint holds an edited text over MaxSourceChars
func (m *Manager) RestoreCheckpoint(ctx context.Context, call Call, revision int64) (HistoryResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.guard(call, ""); err != nil {
		return HistoryResult{}, err
	}
	i, err := m.checkpointAt(revision)
	if err != nil {
		return HistoryResult{}, err
	}
	cp := m.history[i]
	current := make(map[string]*File, len(m.files))
	for _, f := range m.files {
		current[f.Path] = f
	}
	same := len(cp.files) == len(m.files) && cp.active == m.active && slices.Equal(cp.deleted, m.deleted)
	var put []*File
	keep := make(map[string]bool, len(cp.files))
	for _, f := range cp.files {
		keep[f.Path] = true
		if current[f.Path] == f {
			continue
		}
		same = false
		if f.OverBudget() && !sameContent(m.baseline[f.Path], f) {
			return HistoryResult{}, SourceLimit("Restored source of "+f.Path, CharCount(f.Source))
		}
		put = append(put, f)
	}
	if same {
		return HistoryResult{Direction: DirectionRestore, ActivePath: m.active, Revision: m.revision}, nil
	}
	var del []string
	for _, f := range m.files {
		if !keep[f.Path] {
			del = append(del, f.Path)
		}
	}
	call.CoalesceKey = "" // a restore never merges into the checkpoint before it
	rev := m.apply(ctx, call, edit{files: cp.files, active: cp.active, deleted: cp.deleted, put: put, del: del})
	return HistoryResult{Direction: DirectionRestore, Changed: true, ActivePath: cp.active, Revision: rev}, nil
}

// Undo steps back one checkpoint; Redo steps forward (REFERENCE §2.1 undo/redo). The step
// restores the checkpoint's files, deletions and active path — except that when the step
// crosses a source edit and the current active path exists in the restored files, the current
// tab is kept. Revision+1, preview waiting, and the whole state is persisted as a snapshot.
//
// # Errors
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision
//   - WORKSPACE_HISTORY_EMPTY: nothing to undo/redo; details {direction}
//   - WORKSPACE_SOURCE_LIMIT: the restored state holds an edited text over MaxSourceChars
//     (only an imported over-budget original is exempt)
func (m *Manager) Undo(ctx context.Context, call Call) (HistoryResult, error) {
	return m.step(ctx, call, DirectionUndo)
}

// Redo is the inverse of Undo; see Undo.
func (m *Manager) Redo(ctx context.Context, call Call) (HistoryResult, error) {
	return m.step(ctx, call, DirectionRedo)
}

func (m *Manager) step(ctx context.Context, call Call, direction string) (HistoryResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.guard(call, ""); err != nil {
		return HistoryResult{}, err
	}
	target, crossed := m.histIndex-1, m.histIndex
	if direction == DirectionRedo {
		target, crossed = m.histIndex+1, m.histIndex+1
	}
	if target < 0 || target >= len(m.history) {
		return HistoryResult{}, mcp.NewError(mcp.CodeWorkspaceHistoryEmpty, false, map[string]any{"direction": direction},
			"Nothing to %s.", direction)
	}
	cp := m.history[target]
	current := make(map[string]*File, len(m.files))
	for _, f := range m.files {
		current[f.Path] = f
	}
	for _, f := range cp.files {
		if current[f.Path] != f && f.OverBudget() && !sameContent(m.baseline[f.Path], f) {
			return HistoryResult{}, SourceLimit("Restored source of "+f.Path, CharCount(f.Source))
		}
	}
	active := cp.active
	if m.history[crossed].preserveActive {
		for _, f := range cp.files {
			if f.Path == m.active {
				active = m.active
				break
			}
		}
	}
	m.histIndex = target
	m.files, m.active, m.deleted = cp.files, active, cp.deleted
	m.revision++
	m.preview = PreviewState{Revision: m.revision, Status: PreviewWaiting}
	m.persistSnapshot(ctx)
	return HistoryResult{Direction: direction, Changed: true, ActivePath: active, Revision: m.revision}, nil
}
