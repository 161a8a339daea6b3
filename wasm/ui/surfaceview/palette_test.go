package surfaceview

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/webcoding/studio/wasm/livesurface"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/websurface"
)

func TestFieldsFromSchema(t *testing.T) {
	schema := `{"type":"object","properties":{"path":{"type":"string","minLength":1,"maxLength":240},"source":{"type":"string","maxLength":80000},
		"occurrence":{"type":"string","enum":["first","all"]},"expectedRevision":{"type":"integer","minimum":0},"dry":{"type":"boolean"}},
		"required":["path","source","occurrence"]}`
	got := mustFields(t, schema, map[string]string{"path": "index.html"})
	want := []Field{
		{Name: "path", Kind: FieldText, Required: true, Value: "index.html", Max: "240"},
		{Name: "source", Kind: FieldTextarea, Required: true, Max: "80000"},
		{Name: "occurrence", Kind: FieldSelect, Options: []string{"first", "all"}, Required: true, Value: "first"},
		{Name: "expectedRevision", Kind: FieldNumber, Min: "0"},
		{Name: "dry", Kind: FieldCheckbox},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields:\n got %+v\nwant %+v", got, want)
	}
	args, err := Arguments(got)
	if err != nil {
		t.Fatal(err)
	}
	// Optional fields left empty are left out; required empty strings stay.
	if !reflect.DeepEqual(args, map[string]any{"path": "index.html", "source": "", "occurrence": "first"}) {
		t.Fatalf("arguments %v", args)
	}
	got[3].Value = "7"
	got[4].Value = "true"
	args, _ = Arguments(got)
	if args["expectedRevision"] != int64(7) || args["dry"] != true {
		t.Fatalf("arguments %v", args)
	}
	got[3].Value = "seven"
	if _, err := Arguments(got); err == nil {
		t.Fatal("a number field holding text was accepted")
	}
	if _, err := FieldsFromSchema([]byte(`[1]`), nil); err == nil {
		t.Fatal("a schema that is not an object was accepted")
	}
}

// TestEveryCardRuns: every tool of both catalogs, called with exactly the arguments its card
// starts with (FieldsFromSchema over its real inputSchema and the example table), succeeds
// on a fresh headless session — except the saves, which need a folder and say so with their
// typed error.
func TestEveryCardRuns(t *testing.T) {
	livesurface.Install()
	websurface.Install()
	needsFolder := map[string]bool{"editor.saveFile": true, "editor.saveAll": true}
	for _, catalog := range []string{livesurface.Catalog, websurface.Catalog} {
		s, err := studio.Builder(studio.Ports{})(context.Background(), rpcsession.Config{Catalog: catalog})
		if err != nil {
			t.Fatal(err)
		}
		tools, err := s.Registry.ListAll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(tools) < 8 {
			t.Fatalf("%s: %d tools", catalog, len(tools))
		}
		for _, tool := range tools {
			// A fresh session per card: each card must run as is on the seed.
			s, err := studio.Builder(studio.Ports{})(context.Background(), rpcsession.Config{Catalog: catalog})
			if err != nil {
				t.Fatal(err)
			}
			fields, err := FieldsFromSchema(tool.InputSchema, Example(tool.Name))
			if err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			args, err := Arguments(fields)
			if err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			raw, _ := json.Marshal(args)
			res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: tool.Name, Arguments: raw,
				Meta: &mcp.CallMeta{ToolCallID: "card-" + tool.Name, Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
			switch {
			case needsFolder[tool.Name]:
				if !res.IsError || res.Error == nil || res.Error.Code != mcp.CodeWorkspaceFolderNotConnected {
					t.Errorf("%s %s: want WORKSPACE_FOLDER_NOT_CONNECTED, got %+v", tool.Name, raw, res.Error)
				}
			case res.IsError:
				t.Errorf("%s %s: the card fails as is: %+v", tool.Name, raw, res.Error)
			}
		}
	}
}
