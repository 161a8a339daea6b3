package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLiveCatalogOverMCP: with Options.Catalog "live" the server serves the Live Code Editor's
// eleven editor.* tools over --dir's folder. An MCP client's save is held for approval, and an
// approved save needs AllowDestructive too (the saves are destructive); then it lands on disk.
// Document mutations carry both clocks; a stale document revision is refused.
func TestLiveCatalogOverMCP(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>hi</p>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		destructive bool
		want        string
	}{{false, "TOOL_APPROVAL_REQUIRED"}, {true, ""}} {
		cs, _ := moduleServer(t, dir, Options{Catalog: CatalogLive, AllowDestructive: c.destructive,
			Approval: Approval{Tools: []string{"editor_setDocument", "editor_saveFile"}}})
		if info := cs.InitializeResult(); info == nil || info.Instructions != liveInstructions {
			t.Fatalf("instructions %+v", info)
		}
		res, err := cs.ListTools(ctx, nil)
		if err != nil || len(res.Tools) != 11 {
			t.Fatalf("tools/list: %v %v", res, err)
		}
		call := func(name string, args map[string]any) *sdk.CallToolResult {
			t.Helper()
			r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		st := mustSucceed(t, call("editor_getStatus", map[string]any{}))
		if st["workspaceRevision"] != float64(3) || st["documentRevision"] != float64(1) {
			t.Fatalf("status %v", st)
		}
		out := mustSucceed(t, call("editor_setDocument", map[string]any{"source": "<p>saved over MCP</p>\n", "expectedRevision": 1}))
		if out["workspaceRevision"] != float64(4) || out["documentRevision"] != float64(2) {
			t.Fatalf("setDocument %v", out)
		}
		mustFail(t, call("editor_setDocument", map[string]any{"source": "x", "expectedRevision": 1}), "WORKSPACE_REVISION_CONFLICT")
		mustFail(t, call("editor_setScenario", map[string]any{"scenario": "blocked"}), "TOOL_APPROVAL_REQUIRED")
		save := call("editor_saveFile", map[string]any{"path": "index.html"})
		b, _ := os.ReadFile(filepath.Join(dir, "index.html"))
		if c.want != "" {
			mustFail(t, save, c.want)
			if string(b) != "<p>hi</p>\n" {
				t.Fatalf("an unapproved save wrote %q", b)
			}
			continue
		}
		if saved := mustSucceed(t, save); saved["savedTo"] != "filesystem" || string(b) != "<p>saved over MCP</p>\n" {
			t.Fatalf("save %v; disk %q", saved, b)
		}
	}
}
