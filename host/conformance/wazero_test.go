//go:build conformance

package conformance_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/conformance"
)

// shared is one compiled conformance module and one instance per test binary (SPEC §2.17:
// tests build the module once, with a cache).
var shared *wasmhost.Host

// modulePath is the conformance module TestMain built.
var modulePath string

func TestMain(m *testing.M) {
	ctx := context.Background()
	dir := filepath.Join(os.TempDir(), "webcoding-test-modules")
	if d, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(d, "webcoding", "module")
	}
	path, err := wasmhost.BuildModule(ctx, dir, "conformance")
	if err != nil {
		println("building the conformance module:", err.Error())
		os.Exit(1)
	}
	h, err := wasmhost.New(ctx, wasmhost.Options{ModulePath: path, CallTimeout: time.Minute})
	if err != nil {
		println("starting the conformance module:", err.Error())
		os.Exit(1)
	}
	shared, modulePath = h, path
	code := m.Run()
	_ = h.Close(ctx)
	os.Exit(code)
}

// TestWazero runs every vector against the wasip1 module in wazero; results must equal the
// native host's (the same expectations), except for pairs listed in baseline.json.
func TestWazero(t *testing.T) {
	conformance.Run(t, "wazero", shared.Handle)
}
