package mcp

import "testing"

func BenchmarkCheckJSON(b *testing.B) {
	d := []byte(`{"name":"demo.readFile","arguments":{"path":"index.html"},"_meta":{"toolCallId":"bench-1","source":"local","mode":"agent","maxOutputBytes":65536}}`)
	b.ReportAllocs()
	for b.Loop() {
		if CheckJSON(d) != nil {
			b.Fatal()
		}
	}
}
