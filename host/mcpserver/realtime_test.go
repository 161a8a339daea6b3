package mcpserver

import (
	"context"
	"reflect"
	"sort"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRealtimeCatalogOverMCP: with Options.Catalog "realtime" the server lists the eight web.*
// tools (provider names) of the realtime surface and serves them through the same approval:
// an approved mutation runs and a stale expectedRevision is refused with the typed conflict.
func TestRealtimeCatalogOverMCP(t *testing.T) {
	cs, _ := moduleServer(t, "", Options{Catalog: CatalogRealtime, Approval: Approval{Tools: []string{"web_setTheme"}}})
	ctx := context.Background()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	want := []string{"web_getWorkspace", "web_readFile", "web_writeFile", "web_applyPatch", "web_setTheme",
		"web_addFeature", "web_updateHero", "web_runPreview"}
	sort.Strings(want) // the SDK lists tools by name
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("tools/list %v, want %v", names, want)
	}
	for _, tl := range res.Tools {
		ro := tl.Name == "web_getWorkspace" || tl.Name == "web_readFile" || tl.Name == "web_runPreview"
		if tl.OutputSchema == nil || tl.Annotations == nil || tl.Annotations.ReadOnlyHint != ro {
			t.Fatalf("%s lost its output schema or annotations: %+v", tl.Name, tl)
		}
	}
	call := func(name string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if ws := mustSucceed(t, call("web_getWorkspace", map[string]any{})); ws["revision"] != float64(2) {
		t.Fatalf("workspace %v", ws)
	}
	if out := mustSucceed(t, call("web_setTheme", map[string]any{"theme": "sky", "expectedRevision": 2})); out["revision"] != float64(3) {
		t.Fatalf("setTheme %v", out)
	}
	mustFail(t, call("web_setTheme", map[string]any{"theme": "rose", "expectedRevision": 2}), "WORKSPACE_REVISION_CONFLICT")
	mustFail(t, call("web_addFeature", map[string]any{"title": "t", "description": "d"}), "TOOL_APPROVAL_REQUIRED")
}
