package studio

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

func runAgent(t *testing.T, s *rpcsession.Session, params string) planner.Report {
	t.Helper()
	v, rerr := s.Methods[MethodAgentRun](context.Background(), json.RawMessage(params))
	if rerr != nil {
		t.Fatalf("agent/run: %+v", rerr)
	}
	return v.(planner.Report)
}

// TestMakeItEmeraldWithApprovalAndSave is the done-when check over an in-memory
// folder: the agent changes the accent tokens after approval, and saveAll writes the bytes.
func TestMakeItEmeraldWithApprovalAndSave(t *testing.T) {
	folder := seedFolder()
	s := session(t, Ports{Folder: folder}, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true, AllowDestructive: true}})
	rep := runAgent(t, s, `{"prompt":"Make it emerald","sessionId":"s1"}`)
	if rep.Failed || len(rep.Calls) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Calls[0].Request.Name != ToolWorkspaceGetStatus || rep.Calls[1].Request.Name != ToolPreviewSetTheme {
		t.Fatalf("calls %s, %s", rep.Calls[0].Request.Name, rep.Calls[1].Request.Name)
	}
	m := rep.Calls[1].Request.Meta
	if m.ToolCallID != "local-model-s1-1-preview.setTheme" || m.Source != mcp.SourceLocal || m.Mode != mcp.ModeAgent || m.SessionID != "s1" {
		t.Fatalf("meta %+v", m)
	}
	// Headless (the default HeadlessPreview): compiled, never run — no sandbox refresh claimed
	// (issue 14; SPEC §2.6).
	if rep.Summary != "Local agent inspected the workspace, called workspace.getStatus, preview.setTheme and compiled the preview (not run headless)." {
		t.Fatalf("summary %q", rep.Summary)
	}
	src := ok(t, call(t, s.Registry, ToolWorkspaceReadFile, map[string]any{"path": "styles.css"}))["source"].(string)
	if !strings.Contains(src, "--accent: #10b981") || !strings.Contains(src, "--accent-soft: #e7fbf3") {
		t.Fatalf("styles.css not emerald:\n%s", src)
	}
	if disk, _ := folder.Content("styles.css"); strings.Contains(disk, "#10b981") {
		t.Fatal("written to the folder before saveAll")
	}
	rep = runAgent(t, s, `{"prompt":"Save the changes"}`)
	if rep.Failed || rep.Calls[1].Request.Name != ToolWorkspaceSaveAll {
		t.Fatalf("save report %+v", rep)
	}
	if string(rep.Calls[1].Request.Arguments) != `{"expectedRevision":4}` {
		t.Fatalf("revision not threaded: %s", rep.Calls[1].Request.Arguments)
	}
	disk, _ := folder.Content("styles.css")
	if !strings.Contains(disk, "--accent: #10b981") || !strings.Contains(disk, "--accent-soft: #e7fbf3") {
		t.Fatalf("folder styles.css not emerald:\n%s", disk)
	}
}

func TestAgentRunWithoutApprovalStops(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	rep := runAgent(t, s, `{"prompt":"Make it emerald"}`)
	if !rep.Failed || rep.FailedTool != ToolPreviewSetTheme || rep.ErrorCode != mcp.CodeToolApprovalRequired || rep.Retryable == nil || !*rep.Retryable {
		t.Fatalf("report %+v", rep)
	}
	if !strings.HasPrefix(rep.Summary, "Completed workspace.getStatus before the failure. preview.setTheme failed: [TOOL_APPROVAL_REQUIRED]") {
		t.Fatalf("summary %q", rep.Summary)
	}
	if rep.Calls[0].Request.Meta.ToolCallID != "local-model-run-0-workspace.getStatus" {
		t.Fatalf("id %s", rep.Calls[0].Request.Meta.ToolCallID)
	}
}

func TestAgentRunParams(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	for _, bad := range []string{``, `{}`, `{"prompt":"  "}`, `{"prompt":1}`, `{"prompt":"x","extra":1}`, `{"prompt":"x","sessionId":""}`, `[]`} {
		if _, rerr := s.Methods[MethodAgentRun](context.Background(), json.RawMessage(bad)); rerr == nil || rerr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%q accepted: %+v", bad, rerr)
		}
	}
}

func TestPreviewCompileAndExport(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	v, rerr := s.Methods[MethodPreviewCompile](context.Background(), nil)
	if rerr != nil {
		t.Fatal(rerr)
	}
	c := v.(CompileResult)
	if c.Entry != "index.html" || c.Revision != 2 || c.Bytes != len(c.HTML) || !strings.Contains(c.HTML, "data-webcoding-preview-bridge") {
		t.Fatalf("compile %+v", c.Entry)
	}
	if _, rerr := s.Methods[MethodPreviewCompile](context.Background(), json.RawMessage(`{"x":1}`)); rerr == nil {
		t.Fatal("unknown param accepted")
	}
	v, rerr = s.Methods[MethodPreviewExport](context.Background(), json.RawMessage(`{}`))
	if rerr != nil {
		t.Fatal(rerr)
	}
	html := v.(map[string]any)["html"].(string)
	if strings.Contains(html, "data-webcoding-preview-bridge") || !strings.Contains(html, "--accent") {
		t.Fatal("export carries the bridge or lacks the inlined CSS")
	}
}

// TestAgentRunEmitsModelLikeEvents: every agent call passes the registry pipeline with
// source local and mode agent, so observers (the trace) see it like a model's call.
func TestAgentRunEmitsModelLikeEvents(t *testing.T) {
	var mu sync.Mutex
	var events []audit.ToolCallEvent
	s := session(t, Ports{Observer: func(e audit.ToolCallEvent) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}}, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
	runAgent(t, s, `{"prompt":"Make it amber","sessionId":"trace"}`)
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 4 {
		t.Fatalf("%d events, want started+completed for 2 calls", len(events))
	}
	for _, e := range events {
		if e.Source != mcp.SourceLocal || e.Mode != mcp.ModeAgent || e.SessionID != "trace" || !strings.HasPrefix(e.ToolCallID, "local-model-trace-") {
			t.Fatalf("event %+v", e)
		}
	}
}

// The browser's preview runs the page and acknowledges each mount: there the summary says the
// sandbox preview was refreshed; a headless session never does (issue 14).
func TestAgentSummarySaysWhatThePreviewDid(t *testing.T) {
	port := &fakePort{answer: func(m preview.Mount) (preview.Ack, error) {
		return preview.Ack{Revision: m.Revision, Status: workspace.PreviewSynced, Runtime: preview.RuntimeSandboxIframe}, nil
	}}
	for _, tc := range []struct {
		name  string
		ports Ports
		want  string
	}{
		{"sandbox", Ports{Preview: port}, " and refreshed the sandbox preview."},
		{"headless", Ports{}, " and compiled the preview (not run headless)."},
	} {
		s := session(t, tc.ports, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
		rep := runAgent(t, s, `{"prompt":"Make it emerald","sessionId":"s1"}`)
		if rep.Failed || !strings.HasSuffix(rep.Summary, tc.want) {
			t.Fatalf("%s: %+v", tc.name, rep)
		}
	}
}
