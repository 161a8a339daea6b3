package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// Issue 14 item 5: a failed autosave turns the mutation's success into a canonical error result
// (isError, the save's code and retryability, details.applied), never a success with a note.
func TestAutosaveFailedIsACanonicalError(t *testing.T) {
	ok := mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent(`{"path":"a.js","revision":7}`)},
		StructuredContent: json.RawMessage(`{"path":"a.js","revision":7}`), ToolCallID: "c1"}
	raw, _ := json.Marshal(ok)
	terr := mcp.NewError(mcp.CodeWorkspaceFolderStale, true, map[string]any{"operation": "save"}, "The linked folder is gone.")
	out := AutosaveFailed(raw, terr)
	r, err := mcp.ParseCallToolResult(out)
	if err != nil {
		t.Fatalf("not canonical: %v\n%s", err, out)
	}
	d, _ := r.Error.Details.(map[string]any)
	if !r.IsError || r.ToolCallID != "c1" || r.Error.Code != mcp.CodeWorkspaceFolderStale || !r.Error.Retryable ||
		d["applied"] != true || d["revision"] != float64(7) || d["autosave"] == nil {
		t.Fatalf("%s", out)
	}
}
