package openrouter_test

import (
	"testing"

	"github.com/webcoding/studio/wasm/openrouter"
)

// BenchmarkDecodeTwoToolCalls decodes a typical answer with two tool calls.
func BenchmarkDecodeTwoToolCalls(b *testing.B) {
	body := []byte(callsAnswer("tool_calls", "null",
		tc{"call_0", "workspace_getStatus", str("")},
		tc{"call_1", "workspace_applyPatch", str(`{"path":"styles.css","search":"--accent: #2563eb;","replace":"--accent: #10b981;","occurrence":"first","expectedRevision":3}`)}))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		c, _, terr := openrouter.DecodeResponse(body)
		if terr != nil || len(c.Calls) != 2 {
			b.Fatal(terr)
		}
	}
}
