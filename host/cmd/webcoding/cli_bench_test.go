package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

// BenchmarkAgentEmerald is `webcoding agent "Make it emerald"` end to end in wazero, in
// process with warm caches (the module compiled once per process, as the CLI's compilation
// cache makes it across runs): a fresh instance (studio assembly, folder import), the agent's
// calls, and — for "dir-save" — workspace.saveAll writing styles.css to a copy of the seed.
// Process start and reading the compilation cache are not included.
func BenchmarkAgentEmerald(b *testing.B) {
	for _, bc := range []struct {
		name string
		args func(b *testing.B) []string
	}{
		{"seed", func(*testing.B) []string { return []string{"agent", "--approve", "all", "Make it emerald"} }},
		{"dir-save", func(b *testing.B) []string {
			return []string{"agent", "--dir", seedCopy(b), "--approve", "all", "--save", "Make it emerald"}
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			args := bc.args(b)
			e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard,
				getenv: func(k string) string {
					if k == "WEBCODING_MODULE" {
						return testModule
					}
					return ""
				}, newHost: openHost}
			if code := run(context.Background(), args, e); code != 0 {
				b.Fatalf("exit %d", code)
			}
			b.ResetTimer()
			for b.Loop() {
				if code := run(context.Background(), args, e); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
