package pgstore_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/webcoding/studio/host/pgstore"
	"github.com/webcoding/studio/wasm/durable"
)

// BenchmarkClaimComplete reports claim+complete pairs per second through the durable store on
// PostgreSQL ("store"), beside the floor of the same server ("floor"): the same number of round
// trips per pair as the store makes (SELECT, INSERT, SELECT, UPDATE = 4), each a one-statement
// UPDATE on one row. "store" also reports its ratio to the floor measured just before.
func BenchmarkClaimComplete(b *testing.B) {
	url := pgURL(b)
	var floorPairs float64
	b.Run("floor", func(b *testing.B) {
		pool := newPool(b, url)
		ctx := context.Background()
		if _, err := pool.Exec(ctx, `CREATE TABLE floor (id int PRIMARY KEY, n bigint NOT NULL)`); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO floor VALUES (1, 0)`); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for rt := 0; rt < 4; rt++ {
				if _, err := pool.Exec(ctx, `UPDATE floor SET n = n + 1 WHERE id = $1`, 1); err != nil {
					b.Fatal(err)
				}
			}
		}
		floorPairs = float64(b.N) / b.Elapsed().Seconds()
		b.ReportMetric(floorPairs, "pairs/s")
	})
	b.Run("store", func(b *testing.B) {
		s, err := durable.New(pgstore.New(newPool(b, url)), durable.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		result := json.RawMessage(`{"ok":true}`)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			key := "bench/" + strconv.Itoa(i)
			cl, err := s.Claim(ctx, key, "fp", "owner", time.Minute)
			if err != nil || cl.Outcome != durable.ClaimOwner {
				b.Fatalf("claim: %v %v", cl.Outcome, err)
			}
			if _, err := s.Complete(ctx, key, "owner", cl.Fence, result); err != nil {
				b.Fatal(err)
			}
		}
		pairs := float64(b.N) / b.Elapsed().Seconds()
		b.ReportMetric(pairs, "pairs/s")
		if floorPairs > 0 {
			b.ReportMetric(pairs/floorPairs, "x_floor")
		}
	})
}
