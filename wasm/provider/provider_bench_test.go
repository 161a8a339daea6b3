package provider

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// bench23 is a catalog the size of the studio's (23 tools, REFERENCE §2).
func bench23() []mcp.Tool {
	tools := make([]mcp.Tool, 23)
	for i := range tools {
		tools[i] = mcp.Tool{
			Name:        fmt.Sprintf("workspace.tool%02d", i),
			Description: "A tool.",
			InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"path":{"type":"string","minLength":1,"maxLength":160}},"required":["path"],"additionalProperties":false}`),
		}
	}
	return tools
}

func BenchmarkToOpenAI(b *testing.B) {
	tools := bench23()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ToOpenAI(tools); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToCanonical(b *testing.B) {
	tools := bench23()
	m, err := Validate(tools)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := m.ToCanonical("workspace_tool17"); !ok {
			b.Fatal("not found")
		}
	}
}
