//go:build wasip1 && hosttest

package hostcall

import (
	"context"
	"errors"
	"testing"
	"unsafe"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/durabletest"
)

// This test runs only inside host/wasmhost's TestDurableContractInWazero, which compiles this
// package's tests for wasip1 (go test -c -tags hosttest) and runs the binary in wazero with
// the real durable_* host functions over memstore, Redis and PostgreSQL, plus the two
// test-only imports below. Run on its own it fails to instantiate (the imports are missing).

// webcoding.durabletest_fresh() → status: the host replaces its backend by a fresh, empty one
// (own key prefix or schema). 0 = done.
//
//go:wasmimport webcoding durabletest_fresh
func hostDurableFresh() int32

// webcoding.durabletest_put_raw(key, keyLen, raw, rawLen) → status: the host plants raw bytes
// under key in its backend (durabletest.RawPutter), bypassing validation. 0 = done.
//
//go:wasmimport webcoding durabletest_put_raw
func hostDurablePutRaw(key unsafe.Pointer, keyLen uint32, raw unsafe.Pointer, rawLen uint32) int32

// testBackend is Durable plus durabletest.RawPutter through the test-only import.
type testBackend struct{ Durable }

func (testBackend) PutRaw(ctx context.Context, key string, raw []byte) error {
	if hostDurablePutRaw(strPtr(key), uint32(len(key)), bytesPtr(raw), uint32(len(raw))) != StatusOK {
		return errors.New("durabletest_put_raw failed in the host")
	}
	return nil
}

// TestDurableContract runs the backend contract, unchanged, against Durable: every call crosses
// the durable_* host functions to the host's backend.
func TestDurableContract(t *testing.T) {
	durabletest.Run(t, func(t *testing.T) durable.Backend {
		if hostDurableFresh() != StatusOK {
			t.Fatal("durabletest_fresh failed in the host")
		}
		return testBackend{}
	})
}
