package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

var benchArgs = json.RawMessage(`{"path":"index.html","expectedRevision":12,"source":"` + strings.Repeat("<p>x</p>", 200) + `","options":{"format":true,"tabs":[1,2,3]}}`)

func BenchmarkFingerprint(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Fingerprint("workspace.writeFile", benchArgs)
	}
}

func BenchmarkRedactJSON(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		RedactJSON(benchArgs)
	}
}

func BenchmarkRedactDetails(b *testing.B) {
	details := map[string]any{"expectedRevision": 3, "currentRevision": 4, "operation": "save", "path": "index.html"}
	b.ReportAllocs()
	for b.Loop() {
		Redact(details)
	}
}

func BenchmarkObserve(b *testing.B) {
	ev := Started(mcp.CallToolParams{Name: "workspace.writeFile", Arguments: benchArgs,
		Meta: &mcp.CallMeta{ToolCallID: "c", Source: "model", Mode: "agent"}}, NewProvenance("studio:1"), mustTime(b, "2026-11-30T01:00:00Z"))
	done := ev.Finished(&mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent("ok")}, ToolCallID: "c"}, ev.Provenance, ev.At)
	p := DefaultPolicy()
	b.ReportAllocs()
	for b.Loop() {
		p.Observe(done, map[string]any{"revision": 4})
	}
}

func BenchmarkSafeArgumentPreview(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		SafeArgumentPreview(benchArgs)
	}
}
