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
// Redis ("store"), beside the floor of the same server ("floor"): the same number of round trips
// per pair as the store makes (Read, CAS script, Read, CAS script = 4), each one EVALSHA of a
// one-command Lua script. "store" also reports its ratio to the floor measured just before.
func BenchmarkClaimComplete(b *testing.B) {
	c := client(b)
	var floorPairs float64
	b.Run("floor", func(b *testing.B) {
		ctx := context.Background()
		key := "{webcoding-bench-floor}:k"
		defer c.Del(ctx, key)
		if err := floorScript.Run(ctx, c, []string{key}, 0).Err(); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for rt := 0; rt < 4; rt++ {
				if err := floorScript.EvalSha(ctx, c, []string{key}, i).Err(); err != nil {
					b.Fatal(err)
				}
			}
		}
		floorPairs = float64(b.N) / b.Elapsed().Seconds()
		b.ReportMetric(floorPairs, "pairs/s")
	})
	b.Run("store", func(b *testing.B) {
		s, err := durable.New(newBackend(b, c), durable.Options{})
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
