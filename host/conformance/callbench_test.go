//go:build conformance

package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
)

// The benchmarked call: a read-only tool with a small closed schema (path: string 1..160),
// the same work on every side. See docs/performance.md.
const (
	benchArgs   = `{"path":"index.html"}`
	benchParams = `{"name":"demo.readFile","arguments":` + benchArgs + `,"_meta":{"toolCallId":"bench-1","source":"local","mode":"agent","maxOutputBytes":65536}}`
	benchSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"path":{"type":"string","minLength":1,"maxLength":160}},"required":["path"],"additionalProperties":false}`
	benchSource = "<!doctype html><title>Demo</title><h1>Hello</h1>"
)

// cpuNanos is the CPU time (user + system) this process has used so far, in nanoseconds,
// from getrusage(2).
func cpuNanos() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}

// reportCPU reports "cpu-ns/op": the process's CPU time (every thread, the garbage collector's
// included) per iteration since start. On a shared machine wall time per op (ns/op) grows with
// the load while CPU time barely does, so A/B comparisons read this metric (docs/performance.md).
func reportCPU(b *testing.B, start int64) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuNanos()-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkCallTool compares, in one run: (native) our registry's server-side tools/call with
// every step on — request guard, option checks, strict validation, policy, events, output
// schema, output budget — plus encoding the result; (floor) the least anyone can do:
// encoding/json decode, jsonschema v5 validation (compiled once), the handler, encode;
// (wazero) the same call through the wasip1 module; (gosdk) the official MCP Go SDK, in-memory
// client round trip; (mcpgo) mark3labs/mcp-go server-side HandleMessage with input validation.
func BenchmarkCallTool(b *testing.B) {
	ctx := context.Background()

	b.Run("native", func(b *testing.B) {
		var events int
		sess, err := studio.Builder(studio.Ports{Observer: func(audit.ToolCallEvent) { events++ }})(context.Background(), rpcsession.Config{Catalog: studio.CatalogDemo})
		if err != nil {
			b.Fatal(err)
		}
		r := sess.Registry
		raw := []byte(benchParams)
		b.ReportAllocs()
		defer reportCPU(b, cpuNanos())
		for b.Loop() {
			res := r.CallRaw(ctx, raw)
			out, _ := json.Marshal(res)
			if res.IsError || len(out) == 0 {
				b.Fatalf("call failed: %s", out)
			}
		}
		if events == 0 {
			b.Fatal("observer saw no events")
		}
	})

	b.Run("floor", func(b *testing.B) {
		schema := floorSchema(b)
		raw := []byte(benchParams)
		b.ReportAllocs()
		defer reportCPU(b, cpuNanos())
		for b.Loop() {
			args, _ := floorAccept(b, schema, raw)
			var in struct {
				Path string `json:"path"`
			}
			_ = json.Unmarshal(args, &in)
			sc, _ := json.Marshal(map[string]any{"path": in.Path, "source": benchSource, "revision": 1})
			out, _ := json.Marshal(floorResult{Content: []floorContent{{"text", string(sc)}}, StructuredContent: sc})
			if len(out) == 0 {
				b.Fatal("empty")
			}
		}
	})

	// floor-typed: the floor with the handler shape demo.readFile has had since 2026-12-06 —
	// the path read from the tree already decoded for validation (no second decode) and a
	// typed result (a struct marshals without the map's key sort) — so that the native row can
	// also be read against the least anyone can do with that handler (docs/performance.md).
	b.Run("floor-typed", func(b *testing.B) {
		schema := floorSchema(b)
		raw := []byte(benchParams)
		type out struct {
			Path     string `json:"path"`
			Revision uint64 `json:"revision"`
			Source   string `json:"source"`
		}
		b.ReportAllocs()
		defer reportCPU(b, cpuNanos())
		for b.Loop() {
			_, inst := floorAccept(b, schema, raw)
			path, _ := inst.(map[string]any)["path"].(string)
			sc, _ := json.Marshal(out{Path: path, Source: benchSource, Revision: 1})
			res, _ := json.Marshal(floorResult{Content: []floorContent{{"text", string(sc)}}, StructuredContent: sc})
			if len(res) == 0 {
				b.Fatal("empty")
			}
		}
	})

	// wazero: the shared conformance host in wasmhost's default mode, as the CLI and the MCP
	// server run it (a deadline stops the guest mid-loop: its loops poll for cancellation);
	// wazero-abandon: without any cancellation point (a call past its deadline is abandoned,
	// see wasmhost.Options.AbandonOnDeadline).
	for _, mode := range []struct {
		name    string
		abandon bool
	}{{"wazero", false}, {"wazero-abandon", true}} {
		b.Run(mode.name, func(b *testing.B) {
			h := shared
			if mode.abandon {
				var err error
				h, err = wasmhost.New(ctx, wasmhost.Options{ModulePath: modulePath, AbandonOnDeadline: true, CallTimeout: time.Minute})
				if err != nil {
					b.Fatal(err)
				}
				defer h.Close(ctx)
			}
			req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + benchParams + `}`)
			if _, err := h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"session/configure","params":{"catalog":"demo"}}`)); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				out, err := h.Handle(ctx, req)
				if err != nil || !bytes.Contains(out, []byte(`"isError":false`)) {
					b.Fatalf("call failed: %v %s", err, out)
				}
			}
		})
	}

	b.Run("gosdk", func(b *testing.B) {
		server := gosdk.NewServer(&gosdk.Implementation{Name: "bench", Version: "1"}, nil)
		type in struct {
			Path string `json:"path"`
		}
		type out struct {
			Path     string `json:"path"`
			Source   string `json:"source"`
			Revision int    `json:"revision"`
		}
		gosdk.AddTool(server, &gosdk.Tool{Name: "readFile", Description: "read", InputSchema: json.RawMessage(benchSchema)},
			func(ctx context.Context, _ *gosdk.CallToolRequest, a in) (*gosdk.CallToolResult, out, error) {
				return nil, out{Path: a.Path, Source: benchSource, Revision: 1}, nil
			})
		st, ct := gosdk.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		client := gosdk.NewClient(&gosdk.Implementation{Name: "client", Version: "1"}, nil)
		cs, err := client.Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		args := map[string]any{"path": "index.html"}
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &gosdk.CallToolParams{Name: "readFile", Arguments: args})
			if err != nil || res.IsError {
				b.Fatalf("call failed: %v", err)
			}
		}
	})

	b.Run("mcpgo", func(b *testing.B) {
		s := mcpgoserver.NewMCPServer("bench", "1", mcpgoserver.WithToolCapabilities(false), mcpgoserver.WithInputSchemaValidation())
		s.AddTool(mcpgo.NewToolWithRawSchema("readFile", "read", json.RawMessage(benchSchema)),
			func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				p, err := req.RequireString("path")
				if err != nil {
					return nil, err
				}
				return mcpgo.NewToolResultStructured(map[string]any{"path": p, "source": benchSource, "revision": 1}, benchSource), nil
			})
		msg := json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"readFile","arguments":` + benchArgs + `}}`)
		b.ReportAllocs()
		for b.Loop() {
			resp := s.HandleMessage(ctx, msg)
			out, err := json.Marshal(resp)
			if err != nil || bytes.Contains(out, []byte(`"isError":true`)) || bytes.Contains(out, []byte(`"error"`)) {
				b.Fatalf("call failed: %v %s", err, out)
			}
		}
	})
}

// floorSchema compiles benchSchema with jsonschema v5 (draft 2020-12), as the floors validate.
func floorSchema(b *testing.B) *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("mem:///s.json", strings.NewReader(benchSchema)); err != nil {
		b.Fatal(err)
	}
	return c.MustCompile("mem:///s.json")
}

// floorContent and floorResult are the floors' tools/call result: content, structuredContent
// and isError, as the registry encodes them.
type floorContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type floorResult struct {
	Content           []floorContent  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// floorAccept is the floors' accept path for one tools/call params object raw: decode it,
// decode its arguments (numbers kept as json.Number) and validate them against schema. It
// returns the raw arguments and the validated tree.
func floorAccept(b *testing.B, schema *jsonschema.Schema, raw []byte) (json.RawMessage, any) {
	var req struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		b.Fatal(err)
	}
	var inst any
	dec := json.NewDecoder(bytes.NewReader(req.Arguments))
	dec.UseNumber()
	if err := dec.Decode(&inst); err != nil {
		b.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		b.Fatal(err)
	}
	return req.Arguments, inst
}
