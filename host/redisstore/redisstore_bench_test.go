package redisstore_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/webcoding/studio/wasm/durable"
)

// floorScript is the raw floor: one trivial write per round trip, run with EVALSHA.
var floorScript = redis.NewScript(`return redis.call('HSET', KEYS[1], 'rev', ARGV[1])`)

// BenchmarkClaimComplete reports claim+complete pairs per second through the durable store on
// Redis beside the raw floor of the same server, each floor making the store's number of round
// trips per pair (Read, CAS script, Read, CAS script = 4):
//   - floor: 4 × EVALSHA of a one-command Lua script;
//   - floor_mix: the store's own mix, 2 × (HMGET + EVALSHA);
//   - store: Claim (new key) + Complete;
//   - interleaved: one pair of each per iteration, timed separately, so the ratios x_floor and
//     x_floor_mix (store pairs/s ÷ floor pairs/s) are measured under the same machine load.
func BenchmarkClaimComplete(b *testing.B) {
	c := client(b)
	ctx := context.Background()
	floorKey, mixKey := "{webcoding-bench-floor}:k", "{webcoding-bench-floor}:m"
	b.Cleanup(func() { c.Del(ctx, floorKey, mixKey) })
	if err := floorScript.Run(ctx, c, []string{floorKey}, 0).Err(); err != nil {
		b.Fatal(err)
	}
	floor := func(i int) {
		for rt := 0; rt < 4; rt++ {
			if err := floorScript.EvalSha(ctx, c, []string{floorKey}, i).Err(); err != nil {
				b.Fatal(err)
			}
		}
	}
	mix := func(i int) {
		for rt := 0; rt < 2; rt++ {
			if err := c.HMGet(ctx, mixKey, "inc", "rev", "rec").Err(); err != nil {
				b.Fatal(err)
			}
			if err := floorScript.EvalSha(ctx, c, []string{mixKey}, i).Err(); err != nil {
				b.Fatal(err)
			}
		}
	}
	s, err := durable.New(newBackend(b, c), durable.Options{})
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
			floor(i)
		}
		perSecond(b)
	})
	b.Run("floor_mix", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			mix(i)
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
			floor(i)
			t1 := time.Now()
			mix(i)
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
