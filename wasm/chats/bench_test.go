package chats_test

import (
	"context"
	"testing"

	"github.com/webcoding/studio/wasm/chats"
)

// BenchmarkSaveLargeRecord: one Save (Bound, Encode, scrub, Decode check, backend put) of a
// conversation at the byte limit (12 runs with 60 KiB tool results, bounded to 512 KiB).
func BenchmarkSaveLargeRecord(b *testing.B) {
	st := &chats.Store{Backend: &chats.MemBackend{}, Secrets: func() []string { return []string{testKey} }}
	r := record(12, 60<<10)
	for i := 0; i < 150; i++ {
		r.Entries = append(r.Entries, chats.Entry{Kind: "result", Text: "✓ preview.setTheme"})
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := st.Save(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLatest: reading back the newest conversation (Decode with every check).
func BenchmarkLatest(b *testing.B) {
	st := &chats.Store{Backend: &chats.MemBackend{}}
	ctx := context.Background()
	if err := st.Save(ctx, record(12, 60<<10)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := st.Latest(ctx, "canvas-landing"); err != nil {
			b.Fatal(err)
		}
	}
}
