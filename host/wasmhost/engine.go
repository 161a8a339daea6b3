package wasmhost

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// cancelMode is how a call running past its context is stopped (see poll.go).
type cancelMode int

const (
	// cancelPoll: the module's loops are instrumented to call webcoding.poll (the default).
	cancelPoll cancelMode = iota
	// cancelWazeroChecks: wazero's termination checks (WithCloseOnContextDone), used when the
	// module cannot be instrumented.
	cancelWazeroChecks
	// cancelAbandon: neither (Options.AbandonOnDeadline).
	cancelAbandon
)

func (m cancelMode) String() string {
	return [...]string{"poll", "wazero-checks", "abandon"}[m]
}

// engineConfig selects one shared engine besides the module bytes and the cache directory.
type engineConfig struct {
	mode        cancelMode
	interpreter bool // wazero's interpreter instead of its compiler (tests and benchmarks only)
}

// engine is one wazero Runtime with the WASI and "webcoding" host modules instantiated and one
// compiled guest module. It is shared by every Host that loads the same module bytes with the
// same cache directory, and lives for the rest of the process.
type engine struct {
	rt            wazero.Runtime
	compiled      wazero.CompiledModule
	compileTime   time.Duration
	mode          cancelMode // the mode in effect: cancelWazeroChecks when cancelPoll was asked but the module could not be instrumented
	instrumentErr error      // why the module could not be instrumented, or nil
}

var engines struct {
	sync.Mutex
	m map[string]*engine
}

// DefaultCacheDir returns the default compilation cache directory,
// os.UserCacheDir()/webcoding/wazero, or "" when the user cache directory is unknown.
func DefaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "webcoding", "wazero")
}

// loadEngine returns the shared engine for the module at path, compiling it on first use.
// cacheDir "" means no on-disk cache.
func loadEngine(path, cacheDir string, cfg engineConfig) (e *engine, compiled bool, err error) {
	bin, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("wasmhost: read module: %w", err)
	}
	sum := sha256.Sum256(bin)
	key := fmt.Sprintf("%s\x00%x\x00%v", cacheDir, sum, cfg)

	engines.Lock()
	defer engines.Unlock()
	if e := engines.m[key]; e != nil {
		return e, false, nil
	}
	e, err = newEngine(bin, path, cacheDir, cfg)
	if err != nil {
		return nil, false, err
	}
	if engines.m == nil {
		engines.m = map[string]*engine{}
	}
	engines.m[key] = e
	return e, true, nil
}

// newEngine creates a runtime with the host modules and compiles bin (read from path) in it,
// instrumented for cancelPoll (falling back to cancelWazeroChecks when that fails).
func newEngine(bin []byte, path, cacheDir string, ec engineConfig) (*engine, error) {
	// The engine outlives whatever context asked for it first.
	ctx := context.Background()
	var instrumentErr error
	if ec.mode == cancelPoll {
		if ib, err := instrumentLoops(bin, pollInterval); err != nil {
			ec.mode, instrumentErr = cancelWazeroChecks, err
		} else {
			bin = ib
		}
	}
	cfg := wazero.NewRuntimeConfig()
	if ec.interpreter {
		cfg = wazero.NewRuntimeConfigInterpreter()
	}
	cfg = cfg.WithCloseOnContextDone(ec.mode == cancelWazeroChecks)
	if cacheDir != "" {
		if err := os.MkdirAll(cacheDir, 0o755); err != nil {
			return nil, fmt.Errorf("wasmhost: compilation cache: %w", err)
		}
		cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
		if err != nil {
			return nil, fmt.Errorf("wasmhost: compilation cache: %w", err)
		}
		cfg = cfg.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("wasmhost: instantiate WASI: %w", err)
	}
	if err := instantiateHostModule(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	start := time.Now()
	cm, err := rt.CompileModule(ctx, bin)
	if err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("wasmhost: compile %s: %w", path, err)
	}
	for _, name := range []string{"malloc", "free", "handle", "_initialize"} {
		if _, ok := cm.ExportedFunctions()[name]; !ok {
			rt.Close(ctx)
			return nil, fmt.Errorf("wasmhost: %s is not a studio reactor: it does not export %q (build wasm/cmd/reactor with -buildmode=c-shared)", path, name)
		}
	}
	return &engine{rt: rt, compiled: cm, compileTime: time.Since(start), mode: ec.mode, instrumentErr: instrumentErr}, nil
}

// close releases the runtime and everything compiled or instantiated in it.
func (e *engine) close() error { return e.rt.Close(context.Background()) }
