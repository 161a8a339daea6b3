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

// TestStdioBinaryRealtimeSurface: `webcoding mcp --surface realtime`, started the way an MCP
// client starts it, lists the eight web.* tools and says so in its instructions.
func TestStdioBinaryRealtimeSurface(t *testing.T) {
	cmd, stderr := mcpCommand(t, "--surface", "realtime", "--approve", "web_addFeature")
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "stdio-test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr)
	}
	defer cs.Close()
	if info := cs.InitializeResult(); info == nil || info.Instructions != realtimeInstructions {
		t.Fatalf("initialize result %+v", info)
	}
	var names []string
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tl.Name)
	}
	want := []string{"web_addFeature", "web_applyPatch", "web_getWorkspace", "web_readFile", "web_runPreview",
		"web_setTheme", "web_updateHero", "web_writeFile"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "web_addFeature", Arguments: map[string]any{"title": "t", "description": "d", "expectedRevision": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if out := mustSucceed(t, r); out["revision"] != float64(3) {
		t.Fatalf("addFeature %v", out)
	}
}
