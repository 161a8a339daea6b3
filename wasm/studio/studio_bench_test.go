package studio

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// BenchmarkMakeItEmerald measures agent/run "Make it emerald" end to end natively (session
// build excluded): plan, getStatus, setTheme with the headless compile and ack.
func BenchmarkMakeItEmerald(b *testing.B) {
	params := json.RawMessage(`{"prompt":"Make it emerald"}`)
	for b.Loop() {
		b.StopTimer()
		s, _ := Builder(Ports{})(context.Background(), rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
		b.StartTimer()
		v, rerr := s.Methods[MethodAgentRun](context.Background(), params)
		if rerr != nil || v.(agentReport).Failed {
			b.Fatal("run failed")
		}
	}
}

// BenchmarkWriteFileSynced measures one workspace.writeFile through the registry including the
// headless preview compile and ack of the new revision.
func BenchmarkWriteFileSynced(b *testing.B) {
	s, _ := Builder(Ports{})(context.Background(), rpcsession.Config{})
	args := json.RawMessage(`{"path":"app.js","source":"console.log(1);\n"}`)
	meta := &mcp.CallMeta{Mode: mcp.ModeDirect}
	for b.Loop() {
		res := s.Registry.Call(context.Background(), mcp.CallToolParams{Name: ToolWorkspaceWriteFile, Arguments: args, Meta: meta})
		if res.IsError {
			b.Fatal(res.Error)
		}
	}
}

// BenchmarkSessionBuild measures a session/configure rebuild of the studio catalog (23 schema
// compilations and a hydrated seed workspace).
func BenchmarkSessionBuild(b *testing.B) {
	build := Builder(Ports{})
	for b.Loop() {
		if _, err := build(context.Background(), rpcsession.Config{}); err != nil {
			b.Fatal(err)
		}
	}
}
