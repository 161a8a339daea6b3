package registry

import (
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/webcoding/studio/wasm/durable/memstore"
)

// BenchmarkIdempotentCall measures one tools/call with a fresh idempotencyKey: in memory only,
// and with the durable layer over memstore (claim + complete, two compare-and-sets).
func BenchmarkIdempotentCall(b *testing.B) {
	for _, mode := range []string{"memory", "durable-memstore"} {
		b.Run(mode, func(b *testing.B) {
			var runs atomic.Int64
			f := newDurableFixture(b, nil, "bench", &runs)
			if mode == "durable-memstore" {
				f = newDurableFixture(b, newStore(b, memstore.New()), "bench", &runs)
			}
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				if res := f.call("c", `{"label":"x"}`, strconv.Itoa(i), 0); res.IsError {
					b.Fatal(res.Error)
				}
			}
		})
	}
}
