package memstore_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

// BenchmarkClaimComplete measures claim+complete pairs per second on the in-memory backend
// (each pair: a new key claimed as owner, then completed with a small result).
func BenchmarkClaimComplete(b *testing.B) {
	s, err := durable.New(memstore.New(), durable.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	result := json.RawMessage(`{"ok":true}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		key := "bench/" + strconv.Itoa(i)
		c, err := s.Claim(ctx, key, "fp", "owner", time.Minute)
		if err != nil || c.Outcome != durable.ClaimOwner {
			b.Fatalf("claim: %v %v", c.Outcome, err)
		}
		if _, err := s.Complete(ctx, key, "owner", c.Fence, result); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}
