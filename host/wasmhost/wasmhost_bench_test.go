package wasmhost

import (
	"bytes"
	"context"
	"os"
	"testing"
)

// benchRequest is the tools/call request of BenchmarkHandle/tools-call: a read-only tool with
// a small schema (path string 1..160, closed object), the performance figure (c).
// WEBCODING_BENCH_REQUEST replaces it.
const benchRequest = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"index.html"},"_meta":{"toolCallId":"bench-1","source":"local","mode":"direct"}}}`

// BenchmarkHandle measures one request round trip through the module: malloc, copy in,
// handle, copy out, free. "echo" is the ABI alone (the test-only echo of hosttest.go);
// "tools-call" goes through the core; "/abandon" runs with Options.AbandonOnDeadline (code
// compiled without wazero's termination checks).
func BenchmarkHandle(b *testing.B) {
	req := []byte(benchRequest)
	if r := os.Getenv("WEBCODING_BENCH_REQUEST"); r != "" {
		req = []byte(r)
	}
	for _, bc := range []struct {
		name string
		req  []byte
		opts Options
	}{
		{"echo", []byte("#hosttest:echo" + `{"jsonrpc":"2.0","id":1,"result":{}}`), Options{}},
		{"tools-call", req, Options{}},
		{"echo/abandon", []byte("#hosttest:echo" + `{"jsonrpc":"2.0","id":1,"result":{}}`), Options{AbandonOnDeadline: true}},
		{"tools-call/abandon", req, Options{AbandonOnDeadline: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := newHost(b, bc.opts)
			ctx := context.Background()
			first, err := h.Handle(ctx, bc.req)
			if err != nil {
				b.Fatal(err)
			}
			if bytes.Contains(first, []byte(`"isError":true`)) || bytes.Contains(first, []byte(`"error":{"code":-`)) {
				b.Logf("note: the request fails in this build: %.200s", first)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := h.Handle(ctx, bc.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompile measures compiling the module in a fresh runtime, instrumenting its loops
// included (poll.go: ~31 ms for the 10.8 MB reactor on the project machine): "cold" with an
// empty on-disk compilation cache, "warm" with a populated one, "nocache" without one.
func BenchmarkCompile(b *testing.B) {
	bin, err := os.ReadFile(testModule)
	if err != nil {
		b.Fatal(err)
	}
	warmDir := b.TempDir()
	if e, err := newEngine(bin, testModule, warmDir, engineConfig{}); err != nil {
		b.Fatal(err)
	} else {
		e.close()
	}
	for _, bc := range []struct {
		name string
		dir  func() string
	}{
		{"cold", func() string { return b.TempDir() }},
		{"warm", func() string { return warmDir }},
		{"nocache", func() string { return "" }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				e, err := newEngine(bin, testModule, bc.dir(), engineConfig{})
				if err != nil {
					b.Fatal(err)
				}
				e.close()
			}
		})
	}
}

// BenchmarkInstantiate measures a fresh instance of the shared compiled module, _initialize
// (Go runtime start and studio.Assemble) included, in the default mode (loops instrumented to
// poll for cancellation) and with AbandonOnDeadline.
func BenchmarkInstantiate(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts Options
	}{{"default", Options{}}, {"abandon", Options{AbandonOnDeadline: true}}} {
		b.Run(bc.name, func(b *testing.B) {
			h := newHost(b, bc.opts)
			ctx := context.WithValue(context.Background(), hostKey{}, h)
			for b.Loop() {
				mod, err := h.eng.rt.InstantiateModule(ctx, h.eng.compiled, h.modCfg)
				if err != nil {
					b.Fatal(err)
				}
				mod.Close(ctx)
			}
		})
	}
}

// BenchmarkFolderHostCalls measures one FolderAdapter call made inside the module through the
// folder host functions over a directory (the "#hosttest:folder" hook: JSON in, the guest's
// hostcall.Folder, the host's DirFolder, JSON out): "read" a 1 KiB file, "read-256k" a file
// that takes the parked-result path, "write" an atomic replace (fsync included).
func BenchmarkFolderHostCalls(b *testing.B) {
	dir := b.TempDir()
	small := bytes.Repeat([]byte("a"), 1<<10)
	big := bytes.Repeat([]byte("b"), 256<<10)
	if err := os.WriteFile(dir+"/small.css", small, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(dir+"/big.css", big, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, req string }{
		{"read", `{"op":"read","path":"small.css"}`},
		{"read-256k", `{"op":"read","path":"big.css"}`},
		{"write", `{"op":"write","path":"w.css","data":"YWJj"}`},
	} {
		for _, abandon := range []bool{false, true} {
			name := bc.name
			if abandon {
				name += "/abandon"
			}
			b.Run(name, func(b *testing.B) {
				h := newHost(b, Options{FolderDir: dir, AbandonOnDeadline: abandon})
				req := []byte("#hosttest:folder" + bc.req)
				ctx := context.Background()
				first, err := h.Handle(ctx, req)
				if err != nil || bytes.Contains(first, []byte(`"err"`)) {
					b.Fatalf("%v %.200s", err, first)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if _, err := h.Handle(ctx, req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
