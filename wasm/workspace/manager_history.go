package workspace

import (
	"context"
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

// CheckpointInfo describes one history checkpoint: the tool and call id that produced it
// (SPEC §2.12), when, and whether it is the current state.
type CheckpointInfo struct {
	Tool    string    `json:"tool"`
	CallID  string    `json:"callId,omitempty"`
	At      time.Time `json:"at"`
	Current bool      `json:"current"`
}

// History lists the checkpoints, oldest first (at most MaxHistory).
func (m *Manager) History() []CheckpointInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]CheckpointInfo, len(m.history))
	for i, c := range m.history {
		out[i] = CheckpointInfo{Tool: c.tool, CallID: c.callID, At: c.at, Current: i == m.histIndex}
	}
	return out
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
func (m *Manager) Undo(ctx context.Context, call Call) (HistoryResult, *mcp.ToolError) {
	return m.step(ctx, call, DirectionUndo)
}

// Redo is the inverse of Undo; see Undo.
func (m *Manager) Redo(ctx context.Context, call Call) (HistoryResult, *mcp.ToolError) {
	return m.step(ctx, call, DirectionRedo)
}

func (m *Manager) step(ctx context.Context, call Call, direction string) (HistoryResult, *mcp.ToolError) {
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
