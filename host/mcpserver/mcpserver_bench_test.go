package mcpserver

import (
	"context"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The same workspace.readFile call (the seed's index.html, about 1.2 KB) three ways:
//   - Stdio: the go-sdk client → `webcoding mcp` subprocess over pipes → core (the issue's
//     "tools/call round trip over stdio")
//   - InMemory: the go-sdk client → this package in process (in-memory transport) → core
//   - Core: tools/call straight into the core (wasmhost.Host.Handle), no MCP at all
//
// Each reports µs/call beside ns/op.

var readArgs = map[string]any{"path": "index.html"}

func benchCalls(b *testing.B, cs *sdk.ClientSession) {
	ctx := context.Background()
	params := &sdk.CallToolParams{Name: "workspace_readFile", Arguments: readArgs}
	if r, err := cs.CallTool(ctx, params); err != nil || r.IsError {
		b.Fatalf("warm-up: %v %+v", err, r)
	}
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		r, err := cs.CallTool(ctx, params)
		if err != nil || r.IsError {
			b.Fatalf("%v %+v", err, r)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/call")
}

func BenchmarkMCPReadFileStdio(b *testing.B) {
	cmd, stderr := mcpCommand(b)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatalf("%v\n%s", err, stderr)
	}
	defer cs.Close()
	benchCalls(b, cs)
}

func BenchmarkMCPReadFileInMemory(b *testing.B) {
	h := newModuleHost(b)
	srv, err := New(context.Background(), h, Options{})
	if err != nil {
		b.Fatal(err)
	}
	benchCalls(b, connect(b, srv))
}

func BenchmarkMCPReadFileCore(b *testing.B) {
	h := newModuleHost(b)
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"index.html"},"_meta":{"source":"mcp","mode":"agent"}}}`)
	ctx := context.Background()
	if _, err := h.Handle(ctx, req); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if _, err := h.Handle(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/call")
}
