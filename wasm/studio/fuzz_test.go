package studio

import (
	"context"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// FuzzToolCalls sends arbitrary argument objects to two tools (picked by index) in direct
// mode and checks the invariants that must survive any input: a result is always a valid
// canonical result, a failure carries a code, the revision never goes backwards, the
// workspace keeps at least one HTML file, and every text file stays within the budget unless
// it was imported over it.
func FuzzToolCalls(f *testing.F) {
	f.Add(uint8(9), []byte(`{"path":"index.html"}`), uint8(14), []byte(`{"path":"index.html","search":"<","replace":"</script>","occurrence":"all"}`))
	f.Add(uint8(6), []byte(`{"path":"a b/%20c.js","source":"import './x.js'"}`), uint8(7), []byte(`{"fromPath":"a b/%20c.js","toPath":"index.html"}`))
	f.Add(uint8(18), []byte(`{"theme":"emerald"}`), uint8(16), []byte(`{}`))
	f.Add(uint8(19), []byte(`{"title":"<!--","description":"-->"}`), uint8(20), []byte(`{"title":"x","subtitle":"\u0000"}`))
	f.Add(uint8(3), []byte(`{"path":"..\\x"}`), uint8(1), []byte(`{"expectedRevision":2}`))
	f.Add(uint8(8), []byte(`{"path":"README.md"}`), uint8(15), []byte(`{"path":"README.md","expectedRevision":3}`))
	names := ToolNames()
	// One session per fuzz worker (a build compiles 23 schemas); each input starts from a
	// workspace.reset, so inputs stay independent.
	s, err := Builder(Ports{Downloads: func(string, string, []byte) error { return nil }})(context.Background(), rpcsession.Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, i1 uint8, a1 []byte, i2 uint8, a2 []byte) {
		ok(t, call(t, s.Registry, ToolWorkspaceReset, nil))
		last := int64(0)
		for _, c := range []struct {
			i    uint8
			args []byte
		}{{i1, a1}, {i2, a2}} {
			name := names[int(c.i)%len(names)]
			res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: name, Arguments: c.args,
				Meta: &mcp.CallMeta{Mode: mcp.ModeDirect}})
			if err := mcp.ValidateCallToolResult(res); err != nil {
				t.Fatalf("%s: invalid result: %v", name, err)
			}
			if res.IsError && (res.Error == nil || res.Error.Code == "") {
				t.Fatalf("%s: failure without a code", name)
			}
			if res.IsError && res.Error.Code == mcp.CodeToolOutputValidationFailed {
				t.Fatalf("%s: handler broke its output schema: %s", name, res.Error.Message)
			}
			st := ok(t, call(t, s.Registry, ToolWorkspaceGetStatus, nil))
			rev := int64(st["revision"].(float64))
			if rev < last {
				t.Fatalf("revision went back %d → %d", last, rev)
			}
			last = rev
		}
		html := 0
		for _, f := range filesOf(t, s) {
			if f.Language == "html" {
				html++
			}
			if f.Kind == workspace.KindText && f.OverBudget() {
				t.Fatalf("%s is over the budget", f.Path)
			}
		}
		if html == 0 {
			t.Fatal("the last HTML file was removed")
		}
	})
}

// filesOf reads every file through the tools (listFiles + readFile).
func filesOf(t *testing.T, s *rpcsession.Session) []*workspace.File {
	l := ok(t, call(t, s.Registry, ToolWorkspaceListFiles, nil))
	var out []*workspace.File
	for _, x := range l["files"].([]any) {
		m := x.(map[string]any)
		f := &workspace.File{Path: m["path"].(string), Language: m["language"].(string), Kind: m["kind"].(string)}
		if f.Kind == workspace.KindText {
			src := ok(t, call(t, s.Registry, ToolWorkspaceReadFile, map[string]any{"path": f.Path}))["source"].(string)
			f.Source = src
		}
		out = append(out, f)
	}
	return out
}

// FuzzAgentRun runs arbitrary prompts through agent/run with every tool approved and checks
// the report: at least one call, ids local-model-run-<i>-<tool>, a failure is the last call,
// and the summary is never empty.
func FuzzAgentRun(f *testing.F) {
	for _, p := range []string{"Make it emerald", `Replace "a" with "b" in index.html`, "Delete file README.md",
		"Rename index.html to a.html", "undo", "작업공간 초기화", `Add a feature card "</script>" "<!--"`, "Reset demo workspace then save"} {
		f.Add(p)
	}
	s, err := Builder(Ports{Downloads: func(string, string, []byte) error { return nil }})(
		context.Background(), rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, prompt string) {
		ok(t, call(t, s.Registry, ToolWorkspaceReset, nil))
		params, _ := jsonMarshal(map[string]string{"prompt": prompt})
		v, rerr := s.Methods[MethodAgentRun](context.Background(), params)
		if rerr != nil {
			return // blank prompt
		}
		rep := v.(agentReport)
		if len(rep.Calls) == 0 || rep.Summary == "" {
			t.Fatalf("empty report for %q", prompt)
		}
		for i, c := range rep.Calls {
			if want := agentCallID("", i, c.Request.Name); c.Request.Meta.ToolCallID != want || c.Result.ToolCallID != want {
				t.Fatalf("call %d id %s, want %s", i, c.Request.Meta.ToolCallID, want)
			}
			if c.Result.IsError && i != len(rep.Calls)-1 {
				t.Fatalf("ran on after a failure at %d", i)
			}
		}
		if rep.Failed != rep.Calls[len(rep.Calls)-1].Result.IsError {
			t.Fatalf("failed flag %v disagrees with the last result", rep.Failed)
		}
	})
}
