package browser

import (
	"strings"
	"testing"
)

// TestApprovalDiffAddsNoTraceRows: the approval card's diff reads the files through the
// untraced workspace/files read, so the card adds no workspace.readFile row per file (the
// trace used to show one local · direct readFile row for each of the seed's files).
func TestApprovalDiffAddsNoTraceRows(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	sendPrompt(t, tab, "Make it emerald")
	waitApproval(t, tab, "preview.setTheme")
	paletteWait(t, tab, "diff shown", `!!document.querySelector(".approval-card .diff-path")`)
	for _, r := range traceRows(t, tab) {
		if r.Name == "workspace.readFile" && r.Parent == "" && !strings.HasPrefix(r.Summary, "index.html") {
			// index.html is the active file the editor itself shows; any other file read
			// outside the run is the card's diff.
			t.Errorf("a UI read of another file in the trace: %+v", r)
		}
	}
	noConsoleErrors(t, tab)
}
