package planner_test

import (
	"fmt"

	"github.com/webcoding/studio/wasm/planner"
)

// The executor's loop, without the registry: thread the planned revision into each
// revision-guarded call and build the call ids.
func ExampleBuildPlan() {
	plan := planner.BuildPlan(`Change index.html from "text that is not in this file" to "new text"`, false, "index.html")
	planned := int64(3)
	for i, call := range plan {
		planner.ThreadRevision(&call, planned)
		fmt.Println(planner.CallID("s1", i, call.Name), call.Arguments)
	}
	// Output:
	// local-model-s1-0-workspace.getStatus map[]
	// local-model-s1-1-workspace.listFiles map[]
	// local-model-s1-2-workspace.readFile map[path:index.html]
	// local-model-s1-3-workspace.applyPatch map[expectedRevision:3 occurrence:first path:index.html replace:new text search:text that is not in this file]
}

func ExampleSuccessSummary() {
	p := planner.Build("Make it emerald", false, "index.html")
	fmt.Println(planner.SuccessSummary(p.Ambiguous, planner.ToolNames(p.Calls), true))  // the browser's sandbox iframe
	fmt.Println(planner.SuccessSummary(p.Ambiguous, planner.ToolNames(p.Calls), false)) // headless: compiled, not run
	p = planner.Build("Delete the file", false, "index.html")
	fmt.Println(planner.SuccessSummary(p.Ambiguous, planner.ToolNames(p.Calls), false))
	// Output:
	// Local agent inspected the workspace, called workspace.getStatus, preview.setTheme and refreshed the sandbox preview.
	// Local agent inspected the workspace, called workspace.getStatus, preview.setTheme and compiled the preview (not run headless).
	// Which file should I delete? Include a path such as README.md.
}
