package planner

// ArgExpectedRevision is the input field of the revision guard (REFERENCE §2.1).
const ArgExpectedRevision = "expectedRevision"

// GuardedTools returns the revision-guarded tools of REFERENCE §7.3 in catalog order: reset,
// createFile, renameFile, deleteFile, writeFile, saveAll, saveCheckpoint, reloadFolder,
// applyPatch, revertFile, undo, redo. The slice is a fresh copy.
func GuardedTools() []string {
	var out []string
	for _, t := range AllTools {
		if guardedTools[t] {
			out = append(out, t)
		}
	}
	return out
}

// ThreadRevision sets call.Arguments["expectedRevision"] to plannedRevision when call is a
// revision-guarded tool (IsGuarded) and the argument is absent; an expectedRevision already
// present is left alone, and other tools are not touched. A nil Arguments map is allocated.
// See REFERENCE §7.3.
func ThreadRevision(call *Call, plannedRevision int64) {
	if call == nil || !IsGuarded(call.Name) {
		return
	}
	if _, ok := call.Arguments[ArgExpectedRevision]; ok {
		return
	}
	if call.Arguments == nil {
		call.Arguments = map[string]any{}
	}
	call.Arguments[ArgExpectedRevision] = plannedRevision
}

// NextPlannedRevision returns the planned revision after tool succeeded (REFERENCE §7.3):
// the result's revision when it reported one (resultRevision non-nil); otherwise the live
// workspace revision for a revision-producing tool (IsRevisionProducing), else planned
// unchanged.
func NextPlannedRevision(tool string, resultRevision *int64, liveRevision, planned int64) int64 {
	switch {
	case resultRevision != nil:
		return *resultRevision
	case IsRevisionProducing(tool):
		return liveRevision
	default:
		return planned
	}
}
