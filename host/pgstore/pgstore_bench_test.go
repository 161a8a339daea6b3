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
// PostgreSQL beside the raw floor of the same server, each floor making the store's number of
// round trips per pair (SELECT, INSERT, SELECT, UPDATE = 4):
//   - floor: 4 × a one-statement UPDATE of one row;
//   - floor_mix: the store's own mix, 2 × (SELECT + UPDATE) on one row;
//   - store: Claim (new key) + Complete;
//   - interleaved: one pair of each per iteration, timed separately, so the ratios x_floor and
//     x_floor_mix (store pairs/s ÷ floor pairs/s) are measured under the same machine load.
func BenchmarkClaimComplete(b *testing.B) {
	url := pgURL(b)
	pool := newPool(b, url)
	ctx := context.Background()
	for _, q := range []string{`CREATE TABLE floor (id int PRIMARY KEY, n bigint NOT NULL)`, `INSERT INTO floor VALUES (1, 0), (2, 0)`} {
		if _, err := pool.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	floor := func() {
		for rt := 0; rt < 4; rt++ {
			if _, err := pool.Exec(ctx, `UPDATE floor SET n = n + 1 WHERE id = $1`, 1); err != nil {
				b.Fatal(err)
			}
		}
	}
	mix := func() {
		for rt := 0; rt < 2; rt++ {
			var n int64
			if err := pool.QueryRow(ctx, `SELECT n FROM floor WHERE id = $1`, 2).Scan(&n); err != nil {
				b.Fatal(err)
			}
			if _, err := pool.Exec(ctx, `UPDATE floor SET n = n + 1 WHERE id = $1`, 2); err != nil {
				b.Fatal(err)
			}
		}
	}
	s, err := durable.New(pgstore.New(pool), durable.Options{})
	if err != nil {
		b.Fatal(err)
	}
	result := json.RawMessage(`{"ok":true}`)
	seq := 0
	store := func() {
		seq++
		key := "bench/" + strconv.Itoa(seq)
		cl, err := s.Claim(ctx, key, "fp", "owner", time.Minute)
		if err != nil || cl.Outcome != durable.ClaimOwner {
			b.Fatalf("claim: %v %v", cl.Outcome, err)
		}
		if _, err := s.Complete(ctx, key, "owner", cl.Fence, result); err != nil {
			b.Fatal(err)
		}
	}
	perSecond := func(b *testing.B) { b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s") }
	b.Run("floor", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			floor()
		}
		perSecond(b)
	})
	b.Run("floor_mix", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			mix()
		}
		perSecond(b)
	})
	b.Run("store", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			store()
		}
		perSecond(b)
	})
	b.Run("interleaved", func(b *testing.B) {
		var tf, tm, ts time.Duration
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			floor()
			t1 := time.Now()
			mix()
			t2 := time.Now()
			store()
			t3 := time.Now()
			tf, tm, ts = tf+t1.Sub(t0), tm+t2.Sub(t1), ts+t3.Sub(t2)
		}
		b.ReportMetric(float64(b.N)/ts.Seconds(), "store_pairs/s")
		b.ReportMetric(float64(b.N)/tf.Seconds(), "floor_pairs/s")
		b.ReportMetric(tf.Seconds()/ts.Seconds(), "x_floor")
		b.ReportMetric(tm.Seconds()/ts.Seconds(), "x_floor_mix")
	})
}
