package studio

import (
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

func TestObserveOperationEmitsLifecycle(t *testing.T) {
	var got []audit.ToolCallEvent
	p := Ports{Observer: func(e audit.ToolCallEvent) { got = append(got, e) }}
	done := ObserveOperation(p, "workspace/upload", map[string]any{"files": 2})
	done(&mcp.CallToolResult{})
	fail := ObserveOperation(p, "workspace/upload", nil)
	fail(nil)
	if len(got) != 4 {
		t.Fatalf("events: %d, want 4", len(got))
	}
	if got[0].Type != audit.EventStarted || got[1].Type != audit.EventCompleted || got[3].Type != audit.EventFailed {
		t.Fatalf("types: %s %s %s %s", got[0].Type, got[1].Type, got[2].Type, got[3].Type)
	}
	if got[0].ToolCallID == got[2].ToolCallID || !strings.HasPrefix(got[0].ToolCallID, "op-") {
		t.Fatalf("ids %q %q", got[0].ToolCallID, got[2].ToolCallID)
	}
	if got[1].Source != "local" || got[1].Mode != "direct" || got[1].Name != "workspace/upload" || string(got[0].Request.Arguments) != `{"files":2}` {
		t.Fatalf("event %+v", got[1])
	}
	ObserveOperation(Ports{}, "x/y", nil)(nil) // no observer: no panic
}
