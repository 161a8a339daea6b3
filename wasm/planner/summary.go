package planner

import (
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Texts of the local agent's final response (REFERENCE §7.3).
const (
	// AskDeletePath answers a delete request without a path.
	AskDeletePath = "Which file should I delete? Include a path such as README.md."
	// AskDownloadPath answers a download request without a path or an active file.
	AskDownloadPath = "Which file should I download? Include a path such as README.md."

	successPrefix    = "Local agent inspected the workspace, called "
	successRefreshed = " and refreshed the sandbox preview."
	successCompiled  = " and compiled the preview (not run headless)."
	revisionMismatch = "Workspace revision mismatch:"
)

// SuccessSummary is the response after every planned call succeeded. called lists the
// executed tool names in order; executed says the session's preview runs the page (the
// browser's sandbox iframe, RunOptions.PreviewExecuted).
//
//   - AmbiguousDelete / AmbiguousDownload with called == [workspace.listFiles]:
//     AskDeletePath / AskDownloadPath.
//   - Otherwise "Local agent inspected the workspace, called t1, t2" followed by
//     " and refreshed the sandbox preview." when a preview.* tool other than preview.getStatus
//     or a revision-producing tool (IsRevisionProducing) ran, else "." (a status read refreshes nothing, issue 14).
//     Without executed (headless hosts, SPEC §2.6: no script runs there) the same calls end
//     " and compiled the preview (not run headless)." instead (issue 14: never a refresh that
//     did not happen).
func SuccessSummary(ambiguous Ambiguity, called []string, executed bool) string {
	if len(called) == 1 && called[0] == ToolListFiles {
		switch ambiguous {
		case AmbiguousDelete:
			return AskDeletePath
		case AmbiguousDownload:
			return AskDownloadPath
		}
	}
	refreshed := false
	for _, name := range called {
		// Reading the preview's status refreshes nothing (issue 14): only preview.refresh and
		// the calls that make a revision (which the preview then mounts) do.
		if strings.HasPrefix(name, "preview.") && name != ToolPreviewStatus || IsRevisionProducing(name) {
			refreshed = true
			break
		}
	}
	var b strings.Builder
	b.WriteString(successPrefix)
	b.WriteString(strings.Join(called, ", "))
	switch {
	case refreshed && executed:
		b.WriteString(successRefreshed)
	case refreshed:
		b.WriteString(successCompiled)
	default:
		b.WriteString(".")
	}
	return b.String()
}

// FailureSummary is the response when failedTool failed after the calls in completed
// succeeded: "Completed a, b before the failure. <failedTool> failed: <errorText>", without
// the first sentence when completed is empty. errorText is the failed result's text, for a
// tool error "[CODE] message" (mcp.ToolError.Error()).
func FailureSummary(completed []string, failedTool, errorText string) string {
	var b strings.Builder
	if len(completed) > 0 {
		b.WriteString("Completed ")
		b.WriteString(strings.Join(completed, ", "))
		b.WriteString(" before the failure. ")
	}
	b.WriteString(failedTool)
	b.WriteString(" failed: ")
	b.WriteString(errorText)
	return b.String()
}

// IsRevisionConflict reports whether a failure is a revision conflict: the code is
// WORKSPACE_REVISION_CONFLICT or the text contains "Workspace revision mismatch:". Such a
// failure is retryable whatever its retryable flag says (REFERENCE §7.3).
func IsRevisionConflict(code mcp.Code, errorText string) bool {
	return code == mcp.CodeWorkspaceRevisionConflict || strings.Contains(errorText, revisionMismatch)
}
