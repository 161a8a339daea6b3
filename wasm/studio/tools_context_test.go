package studio

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// consolePort is a fakePort whose pages "ran": it keeps console entries (preview.ConsoleObserver).
type consolePort struct {
	fakePort
	entries []preview.ConsoleEntry
}

func (c *consolePort) ConsoleEntries() []preview.ConsoleEntry { return c.entries }

func synced(m preview.Mount) (preview.Ack, error) {
	return preview.Ack{Revision: m.Revision, Status: "synced", Runtime: preview.RuntimeSandboxIframe}, nil
}

func entries(t *testing.T, out map[string]any) []preview.ConsoleEntry {
	t.Helper()
	b, _ := json.Marshal(out["entries"])
	var es []preview.ConsoleEntry
	if err := json.Unmarshal(b, &es); err != nil {
		t.Fatal(err)
	}
	return es
}

// TestGetConsoleHeadless: a port without a runtime answers runtime false, no entries, a note.
func TestGetConsoleHeadless(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	out := ok(t, call(t, s.Registry, ToolPreviewGetConsole, nil))
	if out["runtime"] != false || len(entries(t, out)) != 0 || out["truncated"] != false || !strings.Contains(out["note"].(string), "headless") {
		t.Fatalf("headless getConsole %v", out)
	}
}

// TestGetConsoleCurrentRevisionOnly: entries of an earlier revision are never returned;
// sinceSequence, levels and limit select; truncated says when the limit left some out.
func TestGetConsoleCurrentRevisionOnly(t *testing.T) {
	port := &consolePort{fakePort: fakePort{answer: synced}}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	rev := int64(ok(t, call(t, s.Registry, ToolWorkspaceGetStatus, nil))["revision"].(float64))
	port.entries = []preview.ConsoleEntry{
		{Sequence: 1, Revision: rev, Level: "log", Kind: "console", Text: "old", Path: "app.js", Line: 1},
		{Sequence: 2, Revision: rev + 1, Level: "log", Kind: "console", Text: "hello", Path: "app.js", Line: 6},
		{Sequence: 3, Revision: rev + 1, Level: "error", Kind: "error", Text: "Uncaught Error: boom", Path: "app.js", Line: 7},
		{Sequence: 4, Revision: rev + 1, Level: "warn", Kind: "console", Text: "careful"},
	}
	// The page of rev+1 has not been made yet: the current revision has no entries.
	out := ok(t, call(t, s.Registry, ToolPreviewGetConsole, nil))
	if es := entries(t, out); len(es) != 1 || es[0].Text != "old" || out["runtime"] != true || out["note"] != nil {
		t.Fatalf("revision %d: %v", rev, out)
	}
	ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "x"}))
	out = ok(t, call(t, s.Registry, ToolPreviewGetConsole, nil))
	if es := entries(t, out); len(es) != 3 || es[0].Sequence != 2 || es[1].Path != "app.js" || es[1].Line != 7 || out["revision"].(float64) != float64(rev+1) {
		t.Fatalf("after the edit: %v", out)
	}
	out = ok(t, call(t, s.Registry, ToolPreviewGetConsole, map[string]any{"levels": []string{"error", "warn"}, "sinceSequence": 3}))
	if es := entries(t, out); len(es) != 1 || es[0].Text != "careful" || out["truncated"] != false {
		t.Fatalf("levels and sinceSequence: %v", out)
	}
	out = ok(t, call(t, s.Registry, ToolPreviewGetConsole, map[string]any{"limit": 1}))
	if es := entries(t, out); len(es) != 1 || es[0].Sequence != 2 || out["truncated"] != true {
		t.Fatalf("limit: %v", out)
	}
	e := fails(t, call(t, s.Registry, ToolPreviewGetConsole, map[string]any{"expectedRevision": rev}), mcp.CodeWorkspaceRevisionConflict)
	if d := details(t, e); d["operation"] != "getConsole" || d["currentRevision"].(float64) != float64(rev+1) {
		t.Fatalf("guard %v", d)
	}
}

// TestInspectTool: the seed's hero heading, the revision guard after an edit, no match and
// an unusable selector.
func TestInspectTool(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	out := ok(t, call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "header h1"}))
	if out["selector"] != "#hero-title" || out["computed"] != false || out["role"] != "heading" || out["path"] != "index.html" ||
		out["matches"].(float64) != 1 || !strings.Contains(out["note"].(string), "no computed styles") {
		t.Fatalf("inspect h1: %v", out)
	}
	rev := out["revision"].(float64)
	ok(t, call(t, s.Registry, ToolWorkspaceApplyPatch, map[string]any{"path": "index.html", "search": "Sketch, ship", "replace": "Hello", "occurrence": "first"}))
	e := fails(t, call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "h1", "expectedRevision": rev}), mcp.CodeWorkspaceRevisionConflict)
	if d := details(t, e); d["operation"] != "inspect" || d["currentRevision"].(float64) != rev+1 {
		t.Fatalf("guard %v", d)
	}
	out = ok(t, call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "h1", "expectedRevision": rev + 1}))
	if !strings.HasPrefix(out["text"].(string), "Hello and share") {
		t.Fatalf("the current revision is inspected: %v", out)
	}
	e = fails(t, call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "video"}), mcp.CodePreviewTargetNotFound)
	if d := details(t, e); d["target"] != "element" || d["selector"] != "video" || d["path"] != "index.html" || d["revision"].(float64) != rev+1 || e.Retryable {
		t.Fatalf("no match %+v", e)
	}
	e = fails(t, call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "h1 >"}), mcp.CodeToolValidationFailed)
	if d := details(t, e); d["field"] != "selector" || d["reason"] != "syntax" {
		t.Fatalf("syntax %+v", e)
	}
}

// TestIntegerSpellings: a number the schema admits as an integer but written 1.0 or 1e1 is
// that integer for the handler (it failed with TOOL_EXECUTION_FAILED and Go's decoding text
// before), and an integer too large for the handler's field is TOOL_VALIDATION_FAILED naming
// the field and the range (new-user test, 2026-12-07).
func TestIntegerSpellings(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	for _, args := range []json.RawMessage{
		json.RawMessage(`{"limit":1.0}`), json.RawMessage(`{"limit":1e1}`), json.RawMessage(`{"sinceSequence":-0}`),
		json.RawMessage(`{"sinceSequence":2.0e1,"limit":10e-1}`),
	} {
		res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: ToolPreviewGetConsole, Arguments: args,
			Meta: &mcp.CallMeta{ToolCallID: "t-int", Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
		if res.IsError {
			t.Errorf("%s: %s", args, res.Content[0].Text)
		}
	}
	res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: ToolPreviewGetConsole,
		Arguments: json.RawMessage(`{"sinceSequence":18446744073709551616}`),
		Meta:      &mcp.CallMeta{ToolCallID: "t-big", Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
	if !res.IsError || !strings.Contains(string(res.StructuredContent), `"code":"`+string(mcp.CodeToolValidationFailed)+`"`) ||
		!strings.Contains(res.Content[0].Text, "/sinceSequence: number 18446744073709551616 must be an integer from -9223372036854775808 to 9223372036854775807") {
		t.Fatalf("want TOOL_VALIDATION_FAILED naming /sinceSequence and its range, got %s / %+v", res.Content[0].Text, res.StructuredContent)
	}
}

// TestHugeNumberNotEchoedWhole: an error about a 100,000-digit number quotes a bounded part
// of it (schema.MaxMessageChars), in the schema's issue and in Call.Decode's range issue; the
// result was 5 times the argument's size before (new-user test, 2026-12-07).
func TestHugeNumberNotEchoedWhole(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	huge := "1" + strings.Repeat("0", 100_000)
	for _, args := range []string{`{"limit":` + huge + `}`, `{"sinceSequence":` + huge + `}`} {
		res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: ToolPreviewGetConsole, Arguments: json.RawMessage(args),
			Meta: &mcp.CallMeta{ToolCallID: "t-huge", Source: mcp.SourceLocal, Mode: mcp.ModeDirect}})
		if !res.IsError || !strings.Contains(res.Content[0].Text, " more characters)") {
			t.Fatalf("%.20s…: want a bounded validation error, got %.300s", args, res.Content[0].Text)
		}
		if n := len(res.Content[0].Text) + len(res.StructuredContent); n > 4000 {
			t.Errorf("%.20s…: the error result is %d bytes", args, n)
		}
	}
}
