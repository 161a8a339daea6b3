//go:build unix

package wasmhost

import (
	"bytes"
	"context"
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
)

// The call of host/conformance BenchmarkCallTool: demo.readFile in the demo catalog, a small
// closed schema (path: string 1..160).
const (
	abParams    = `{"name":"demo.readFile","arguments":{"path":"index.html"},"_meta":{"toolCallId":"bench-1","source":"local","mode":"agent","maxOutputBytes":65536}}`
	abRequest   = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + abParams + `}`
	abConfigure = `{"jsonrpc":"2.0","id":0,"method":"session/configure","params":{"catalog":"demo"}}`
)

// BenchmarkCallToolAB is the A/B of docs/performance.md "wazero tools/call A/B (2026-12-06)":
// one tools/call, every variant in one process; run it with -count N so the variants
// interleave. native-registry is BenchmarkCallTool's "native" (the registry's CallRaw plus
// encoding the result); native-handler is the whole JSON-RPC request through the same core
// natively, i.e. exactly the guest's work; echo is the host↔guest round trip alone; the wazero
// variants differ in how a late call is stopped (poll: the default, poll.go; wazero-checks:
// WithCloseOnContextDone; abandon: AbandonOnDeadline), in the guest's GOGC, and in the engine.
func BenchmarkCallToolAB(b *testing.B) {
	ctx := context.Background()
	b.Run("native-registry", func(b *testing.B) {
		sess, err := studio.Builder(studio.Ports{Observer: func(audit.ToolCallEvent) {}})(ctx, rpcsession.Config{Catalog: studio.CatalogDemo})
		if err != nil {
			b.Fatal(err)
		}
		raw := []byte(abParams)
		b.ReportAllocs()
		defer cpuPerOp(b)()
		for b.Loop() {
			res := sess.Registry.CallRaw(ctx, raw)
			out, _ := json.Marshal(res)
			if res.IsError || len(out) == 0 {
				b.Fatalf("call failed: %s", out)
			}
		}
	})
	b.Run("native-handler", func(b *testing.B) {
		h := rpcsession.New(ctx, studio.Builder(studio.Ports{}))
		h.Handle(ctx, []byte(abConfigure))
		req := []byte(abRequest)
		b.ReportAllocs()
		defer cpuPerOp(b)()
		for b.Loop() {
			if out := h.Handle(ctx, req); !bytes.Contains(out, []byte(`"isError":false`)) {
				b.Fatalf("call failed: %s", out)
			}
		}
	})
	for _, v := range []struct {
		name string
		req  string
		opts Options
	}{
		{"echo/poll", "#hosttest:echo{}", Options{}},
		{"echo/wazero-checks", "#hosttest:echo{}", Options{wazeroChecks: true}},
		{"echo/abandon", "#hosttest:echo{}", Options{AbandonOnDeadline: true}},
		{"poll", abRequest, Options{}},
		{"wazero-checks", abRequest, Options{wazeroChecks: true}},
		{"abandon", abRequest, Options{AbandonOnDeadline: true}},
		{"poll/GOGC=200", abRequest, Options{guestEnv: []string{"GOGC", "200"}}},
		{"poll/GOGC=400", abRequest, Options{guestEnv: []string{"GOGC", "400"}}},
		{"abandon/GOGC=400", abRequest, Options{AbandonOnDeadline: true, guestEnv: []string{"GOGC", "400"}}},
		{"interpreter/poll", abRequest, Options{interpreter: true}},
	} {
		b.Run(v.name, func(b *testing.B) {
			h := newHost(b, v.opts)
			if _, err := h.Handle(ctx, []byte(abConfigure)); err != nil {
				b.Fatal(err)
			}
			req := []byte(v.req)
			if out, err := h.Handle(ctx, req); err != nil || (v.req == abRequest && !bytes.Contains(out, []byte(`"isError":false`))) {
				b.Fatalf("call failed: %v %.300s", err, out)
			}
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, err := h.Handle(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cpuPerOp starts measuring the process's CPU time (user + system, every thread: the guest, the
// host's and the native side's garbage collector) and returns the function that reports it as
// cpu-ns/op. On a shared machine it moves far less with the load than ns/op, which counts the
// time the benchmark waits for a core.
func cpuPerOp(b *testing.B) func() {
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
