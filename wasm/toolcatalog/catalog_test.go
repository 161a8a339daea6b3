package toolcatalog

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
)

// studioTools is the canonical tools/list of the studio catalog (every page).
func studioTools(t testing.TB) ([]mcp.Tool, *rpcsession.Session) {
	s, err := studio.Builder(studio.Ports{})(context.Background(), rpcsession.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var tools []mcp.Tool
	cursor := ""
	for {
		res, terr := s.Registry.ListTools(context.Background(), mcp.ListToolsParams{Cursor: cursor})
		if terr != nil {
			t.Fatal(terr)
		}
		tools = append(tools, res.Tools...)
		if cursor = res.NextCursor; cursor == "" {
			return tools, s
		}
	}
}

func TestCountsAndFilters(t *testing.T) {
	tools, _ := studioTools(t)
	c := Counts(tools, "")
	if c[ScopeAll] != 26 || c[ScopeReadOnly] != 8 || c[ScopeWorkspace] != 18 || c[ScopePreview] != 8 {
		t.Fatalf("counts %v", c)
	}
	for _, s := range Scopes {
		if got := len(Filter(tools, "", s)); got != c[s] {
			t.Errorf("%s: filter %d, count %d", s, got, c[s])
		}
	}
	if got := Filter(tools, "THEME", ScopeAll); len(got) != 1 || got[0].Name != "preview.setTheme" {
		t.Fatalf("search theme: %v", got)
	}
	if c := Counts(tools, "file"); c[ScopePreview] != 0 || c[ScopeAll] != c[ScopeWorkspace] || c[ScopeAll] == 0 {
		t.Fatalf("counts for 'file': %v", c)
	}
	if ParseScope("bogus") != ScopeAll || ParseScope("preview") != ScopePreview {
		t.Fatal("ParseScope")
	}
	var destructive []string
	for _, tool := range tools {
		if Destructive(tool) {
			destructive = append(destructive, tool.Name)
			if !strings.Contains(PolicySummary(tool), "Destructive") {
				t.Errorf("%s policy %q", tool.Name, PolicySummary(tool))
			}
		}
	}
	if len(destructive) == 0 || !strings.Contains(strings.Join(destructive, ","), "workspace.deleteFile") {
		t.Fatalf("destructive tools %v", destructive)
	}
}

// TestSamplesAreValidArguments: the generated sample of every studio tool passes the tool's
// own schema validation (a direct run reaches the handler, not TOOL_VALIDATION_FAILED).
func TestSamplesAreValidArguments(t *testing.T) {
	tools, s := studioTools(t)
	for _, tool := range tools {
		sample, err := Sample(tool.InputSchema, SampleOptions{ActivePath: "styles.css", Revision: 1 << 40, HasRevision: true})
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		args, err := ParseArguments(json.RawMessage(sample))
		if err != nil {
			t.Fatalf("%s: sample %s: %v", tool.Name, sample, err)
		}
		// A revision far ahead: every guarded mutation stops at the revision check, after
		// validation, so nothing changes while the schema is exercised.
		res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: tool.Name, Arguments: args,
			Meta: &mcp.CallMeta{Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
		if res.IsError && res.Error.Code == mcp.CodeToolValidationFailed {
			t.Errorf("%s: sample %s invalid: %s", tool.Name, sample, res.Error.Message)
		}
		if strings.Contains(string(tool.InputSchema), "expectedRevision") && !strings.Contains(sample, `"expectedRevision": 1099511627776`) {
			t.Errorf("%s: sample without expectedRevision: %s", tool.Name, sample)
		}
	}
	if got, _ := Sample(json.RawMessage(`{"type":"object","properties":{"toPath":{"type":"string"}},"required":["toPath"]}`), SampleOptions{ActivePath: "css/site.css"}); !strings.Contains(got, `"css/copy-of-site.css"`) {
		t.Fatalf("toPath sample %s", got)
	}
	if _, err := Sample(json.RawMessage(`[1]`), SampleOptions{}); !errors.Is(err, ErrSchema) {
		t.Fatalf("array schema: %v", err)
	}
}

func TestEditorKeepsEdits(t *testing.T) {
	var e Editor
	e.Refresh("workspace.writeFile", `{"expectedRevision": 1}`)
	if e.Text() != `{"expectedRevision": 1}` || e.Edited() {
		t.Fatal("initial")
	}
	if !e.Refresh("workspace.writeFile", `{"expectedRevision": 2}`) || e.Text() != `{"expectedRevision": 2}` {
		t.Fatal("a revision change refreshes an unedited sample")
	}
	e.Edit(`{"expectedRevision": 0}`)
	if e.Refresh("workspace.writeFile", `{"expectedRevision": 3}`) || e.Text() != `{"expectedRevision": 0}` {
		t.Fatal("a revision change must keep the edit")
	}
	e.Refresh("preview.setTheme", `{"theme": "violet"}`)
	if e.Text() != `{"theme": "violet"}` {
		t.Fatal("another tool shows its own sample")
	}
	e.Refresh("workspace.writeFile", `{"expectedRevision": 4}`)
	if e.Text() != `{"expectedRevision": 0}` {
		t.Fatal("coming back keeps the edit")
	}
	e.Reset()
	if e.Text() != `{"expectedRevision": 4}` || e.Edited() {
		t.Fatal("reset")
	}
}

func TestCallRequest(t *testing.T) {
	b, err := CallRequest("workspace.readFile", json.RawMessage(` {"path":"index.html"} `))
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
			Meta      mcp.CallMeta    `json:"_meta"`
		} `json:"params"`
	}
	if err := json.Unmarshal(b, &req); err != nil || req.Method != "tools/call" || req.Params.Meta.Mode != "direct" || req.Params.Meta.Source != "local" || !strings.Contains(string(req.Params.Arguments), `"path": "index.html"`) {
		t.Fatalf("%s %v", b, err)
	}
	for _, bad := range []string{`[1]`, `{"a":1} x`, `{"a":`, `"s"`} {
		var ae *ArgumentsError
		if _, err := CallRequest("x", json.RawMessage(bad)); !errors.As(err, &ae) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
