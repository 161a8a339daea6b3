package trace

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

// fill records n finished calls (one agent bracket every 8) the way a session would.
func fill(tr *Trace, n int) {
	for i := 0; tr.Len() < n; i++ {
		name := "workspace.writeFile"
		if i%8 == 0 {
			name = AgentRequestName
		}
		req := mcp.CallToolParams{Name: name, Arguments: json.RawMessage(`{"path":"index.html","source":"<h1>hello</h1>","expectedRevision":` + strconv.Itoa(i) + `}`),
			Meta: &mcp.CallMeta{ToolCallID: "call-" + strconv.Itoa(i), SessionID: "studio", Source: "model", Mode: "agent"}}
		e := audit.Started(req, audit.NewProvenance("bench"), t0)
		tr.Observe(e)
		tr.Observe(e.Finished(&mcp.CallToolResult{StructuredContent: json.RawMessage(`{"path":"index.html","revision":` + strconv.Itoa(i) + `,"preview":"synced"}`)}, e.Provenance, t0))
	}
}

// BenchmarkBuild: recording 24 / 256 calls (started + finished events) into a fresh trace.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{24, 256} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				fill(New(Options{}), n)
			}
		})
	}
}
