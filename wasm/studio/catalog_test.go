package studio

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/schema/schematest"
	"github.com/webcoding/studio/wasm/workspace"
)

// TestToolsListHas25InReferenceOrder: the 23 tools of REFERENCE §2 in table order (the local
// agent's planner knows exactly these), then the two context tools of issue 17.
func TestToolsListHas25InReferenceOrder(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	tools, err := s.Registry.ListAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 26 || len(planner.AllTools) != 23 {
		t.Fatalf("tools/list · %d, want 26; planner %d, want 23", len(tools), len(planner.AllTools))
	}
	for i, name := range ToolNames() {
		if tools[i].Name != name {
			t.Errorf("tool %d = %s, want %s", i, tools[i].Name, name)
		}
		if i < len(planner.AllTools) && tools[i].Name != planner.AllTools[i] {
			t.Errorf("tool %d = %s, agent planner has %s", i, tools[i].Name, planner.AllTools[i])
		}
		var in map[string]any
		if err := json.Unmarshal(tools[i].InputSchema, &in); err != nil {
			t.Fatal(err)
		}
		if in["additionalProperties"] != false || in["$schema"] != schemaDialect {
			t.Errorf("%s: input schema not closed 2020-12: %s", name, tools[i].InputSchema)
		}
		if len(tools[i].OutputSchema) == 0 {
			t.Errorf("%s: no output schema", name)
		}
		if !strings.Contains(string(tools[i].OutputSchema), `"storageMode"`) {
			t.Errorf("%s: output schema lacks storageMode", name)
		}
	}
}

func TestAnnotationsMatchReference(t *testing.T) {
	// readOnly, destructive, idempotent, openWorld per REFERENCE §2.
	want := map[string][4]bool{
		ToolWorkspaceGetStatus: {true, false, false, false}, ToolWorkspaceReset: {false, true, true, false},
		ToolWorkspaceListFiles: {true, false, false, false}, ToolWorkspaceReadFile: {true, false, false, false},
		ToolWorkspaceDownloadFile: {false, false, false, true}, ToolWorkspaceOpenFile: {true, false, false, false},
		ToolWorkspaceCreateFile: {}, ToolWorkspaceRenameFile: {false, false, true, false},
		ToolWorkspaceDeleteFile: {false, true, false, false}, ToolWorkspaceWriteFile: {false, false, true, false},
		ToolWorkspaceSaveAll: {false, true, true, false}, ToolWorkspaceSaveCheckpoint: {false, true, true, false},
		ToolWorkspaceReloadFolder: {false, true, true, false}, ToolWorkspaceDisconnectFolder: {false, false, true, false},
		ToolWorkspaceApplyPatch: {}, ToolWorkspaceRevertFile: {false, true, true, false},
		ToolWorkspaceUndo: {false, true, false, false}, ToolWorkspaceRedo: {false, true, false, false},
		ToolPreviewSetTheme: {false, false, true, false}, ToolPreviewAddFeature: {},
		ToolPreviewUpdateHero: {false, false, true, false}, ToolPreviewGetStatus: {true, false, false, false},
		ToolPreviewRefresh:    {false, false, true, false},
		ToolPreviewGetConsole: {true, false, false, false}, ToolPreviewInspect: {true, false, false, false},
		ToolPreviewAudit: {true, false, false, false},
	}
	s := session(t, Ports{}, rpcsession.Config{})
	tools, _ := s.Registry.ListAll(context.Background())
	for _, tl := range tools {
		a := tl.Annotations
		got := [4]bool{a.ReadOnlyHint, a.DestructiveHint, a.IdempotentHint, a.OpenWorldHint}
		if got != want[tl.Name] {
			t.Errorf("%s annotations %v, want %v", tl.Name, got, want[tl.Name])
		}
	}
}

func TestDescriptionsStateTheSourceLimit(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	for _, name := range []string{ToolWorkspaceCreateFile, ToolWorkspaceWriteFile, ToolWorkspaceApplyPatch} {
		d, _ := s.Registry.Definition(name)
		if !strings.Contains(d.Description, "80,000") {
			t.Errorf("%s description does not state 80,000: %q", name, d.Description)
		}
	}
	if thousands(1234567) != "1,234,567" || thousands(999) != "999" || thousands(1000) != "1,000" {
		t.Error("thousands separator")
	}
}

func TestThemeNamesAreWorkspaceThemes(t *testing.T) {
	if len(ThemeNames) != len(workspace.Themes) {
		t.Fatal("theme count differs")
	}
	for _, n := range ThemeNames {
		if _, ok := workspace.Themes[n]; !ok {
			t.Errorf("theme %s unknown to workspace", n)
		}
	}
}

// TestCatalogSchemasCompile: the registry compiles schemas on a tool's first call
// (docs/design.md §5.14), so every schema of both catalogs is compiled here instead; the
// reference validator checks each against the 2020-12 meta-schema and must report the same
// issues as wasm/schema on instances probing every assertion (§5.45).
func TestCatalogSchemasCompile(t *testing.T) {
	for _, c := range []string{"", CatalogDemo} {
		s := session(t, Ports{}, rpcsession.Config{Catalog: c})
		if err := s.Registry.Check(); err != nil {
			t.Errorf("catalog %q: %v", c, err)
		}
		tools, err := s.Registry.ListAll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := schematest.CheckTools(tools); err != nil {
			t.Errorf("catalog %q: %v", c, err)
		}
	}
}

func TestDefaultCatalogIsStudioAndDemoSelectable(t *testing.T) {
	h := Assemble(context.Background(), Ports{})
	resp := h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	if !strings.Contains(string(resp), ToolPreviewRefresh) {
		t.Fatalf("default catalog is not studio: %.200s", resp)
	}
	s := session(t, Ports{}, rpcsession.Config{Catalog: CatalogDemo})
	if _, ok := s.Registry.Definition(ToolDemoReadFile); !ok {
		t.Fatal("demo catalog lost")
	}
}

func TestPolicyAgentMutationNeedsApprovalReadOnlyAllowed(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	ok(t, callMode(t, s.Registry, ToolWorkspaceGetStatus, nil, mcp.ModeAgent))
	fails(t, callMode(t, s.Registry, ToolPreviewSetTheme, map[string]any{"theme": "emerald"}, mcp.ModeAgent), mcp.CodeToolApprovalRequired)
	ok(t, callMode(t, s.Registry, ToolPreviewSetTheme, map[string]any{"theme": "emerald"}, mcp.ModeDirect))
}
