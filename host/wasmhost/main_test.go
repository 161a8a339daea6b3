package wasmhost

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// testModule is the reactor built once per test binary with the "hosttest" tag, which adds the
// "#hosttest:" requests (wasm/cmd/reactor/hosttest.go) that let these tests hang, panic, exit
// and echo without depending on the tool registry.
var (
	testModule    string
	testBuildTime time.Duration
)

func TestMain(m *testing.M) {
	dir := filepath.Join(os.TempDir(), "webcoding-wasmhost-test")
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "webcoding", "module-test")
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	p, err := BuildModule(ctx, dir, "hosttest")
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmhost tests: building the test module:", err)
		os.Exit(1)
	}
	testModule, testBuildTime = p, time.Since(start)
	os.Exit(m.Run())
}

var shared struct {
	once sync.Once
	h    *Host
	err  error
}

// sharedHost is one default host for tests that neither change options nor depend on a fresh
// instance (instantiating the core takes a fraction of a second each time).
func sharedHost(t testing.TB) *Host {
	t.Helper()
	shared.once.Do(func() {
		shared.h, shared.err = New(context.Background(), Options{ModulePath: testModule})
	})
	if shared.err != nil {
		t.Fatalf("New: %v", shared.err)
	}
	return shared.h
}

// newHost starts a host on the shared test module; it is closed when the test ends.
func newHost(t testing.TB, opts Options) *Host {
	t.Helper()
	opts.ModulePath = testModule
	h, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}
