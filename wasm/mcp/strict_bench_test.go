package mcp

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func BenchmarkCheckJSON(b *testing.B) {
	d := []byte(`{"name":"demo.readFile","arguments":{"path":"index.html"},"_meta":{"toolCallId":"bench-1","source":"local","mode":"agent","maxOutputBytes":65536}}`)
	b.ReportAllocs()
	for b.Loop() {
		if CheckJSON(d) != nil {
			b.Fatal()
		}
	}
}

// BenchmarkValidJSON compares, in one run, the validity pass CheckJSON had (utf8.Valid, then
// json.Valid) with the one-pass validJSON on the same tools/call params.
func BenchmarkValidJSON(b *testing.B) {
	d := []byte(`{"name":"demo.readFile","arguments":{"path":"index.html"},"_meta":{"toolCallId":"bench-1","source":"local","mode":"agent","maxOutputBytes":65536}}`)
	b.Run("utf8+encoding-json", func(b *testing.B) {
		for b.Loop() {
			if !utf8.Valid(d) || !json.Valid(d) {
				b.Fatal()
			}
		}
	})
	b.Run("one-pass", func(b *testing.B) {
		for b.Loop() {
			if !validJSON(d) {
				b.Fatal()
			}
		}
	})
}
