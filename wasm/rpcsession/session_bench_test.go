package rpcsession_test

import (
	"context"
	"testing"

	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
)

// BenchmarkHandleToolsCall is one tools/call through the JSON-RPC entry (the same bytes the
// wasip1 and js hosts send), natively: the ABI's own cost on top of the registry's.
func BenchmarkHandleToolsCall(b *testing.B) {
	h := rpcsession.New(context.Background(), studio.Builder(studio.Ports{}))
	ctx := context.Background()
	if out := h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"session/configure","params":{"catalog":"demo"}}`)); len(out) == 0 {
		b.Fatal("configure")
	}
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo.readFile","arguments":{"path":"index.html"},"_meta":{"toolCallId":"bench-1","source":"local","mode":"agent","maxOutputBytes":65536}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if out := h.Handle(ctx, req); len(out) < 100 {
			b.Fatalf("%s", out)
		}
	}
}
