package planner

import "strings"

// Plan is a built local-agent plan.
type Plan struct {
	// Calls are executed in order; empty only when Ambiguous is NotUnderstood.
	Calls []Call
	// Ambiguous is set when Calls is the lone workspace.listFiles that answers a delete or
	// download request without a target; the run then ends with AmbiguitySummary's question.
	Ambiguous Ambiguity
}

// Build plans prompt for execution (REFERENCE §7.2):
//
//   - folderLinked reports a linked, writable folder; without one, workspace.saveAll is
//     replaced by workspace.saveCheckpoint (same arguments).
//   - activePath is the workspace's active file; a download request without a path targets
//     it (ignored when blank or when it has a ".." segment).
//   - A plan with a mutation (IsMutation) gets workspace.getStatus first. When the first
//     file-targeting call (applyPatch, renameFile, deleteFile, writeFile, revertFile,
//     downloadFile) names a non-blank path (renameFile: fromPath), workspace.listFiles
//     follows, and for applyPatch, writeFile and revertFile also workspace.readFile{path}.
//   - A read-only plan is returned unchanged.
//
// Every returned Call has its own Arguments map.
func Build(prompt string, folderLinked bool, activePath string) Plan {
	requested, ambiguous := plan(prompt, activePath)
	if ambiguous == NotUnderstood { // nothing to run: the run says so (issue 14)
		return Plan{Calls: []Call{}, Ambiguous: NotUnderstood}
	}
	calls := make([]Call, 0, len(requested)+3)
	mutation := false
	var fileCall *Call
	for _, c := range requested {
		c = c.clone()
		if !folderLinked && c.Name == ToolSaveAll {
			c.Name = ToolSaveCheckpoint
		}
		calls = append(calls, c)
		if IsMutation(c.Name) {
			mutation = true
			if fileCall == nil && fileListingTools[c.Name] {
				fileCall = &calls[len(calls)-1]
			}
		}
	}
	if !mutation {
		return Plan{Calls: calls, Ambiguous: ambiguous}
	}

	pre := []Call{newCall(ToolGetStatus)}
	if fileCall != nil {
		path, _ := fileCall.Arguments["path"].(string)
		if fileCall.Name == ToolRenameFile {
			path, _ = fileCall.Arguments["fromPath"].(string)
		}
		if strings.TrimSpace(path) != "" {
			pre = append(pre, newCall(ToolListFiles))
			if textInspectionTools[fileCall.Name] {
				pre = append(pre, newCall(ToolReadFile, "path", path))
			}
		}
	}
	return Plan{Calls: append(pre, calls...), Ambiguous: ambiguous}
}

// BuildPlan is Build without the ambiguity flag: the calls to execute for prompt.
func BuildPlan(prompt string, folderLinked bool, activePath string) []Call {
	return Build(prompt, folderLinked, activePath).Calls
}

// ToolNames returns the names of calls, in order.
func ToolNames(calls []Call) []string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	return names
}
