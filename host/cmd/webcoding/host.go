package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/durable"
)

// rpcHost is the part of *wasmhost.Host the commands use.
type rpcHost interface {
	Handle(ctx context.Context, req []byte) ([]byte, error)
	Close(ctx context.Context) error
}

// hostFlags are the flags of every command that runs the core.
type hostFlags struct {
	module  string
	timeout time.Duration
	// Set by the command from its workspace flags (not flags of their own here).
	folderDir, downloadsDir string
	// journal, when not "", names the command that locks --dir and keeps its save journal
	// (wasmhost.Options.FolderJournal): call, agent and mcp, which may write into the folder.
	journal string
	// http lets the module make HTTP requests (agent --provider openrouter); nil: none.
	http *wasmhost.HTTPOptions
	// durable is the host's durable backend (--durable redis://… or postgres://…, opened by
	// openDurable and closed by the command after the host); nil: none.
	durable durable.Backend
}

func addHostFlags(fs *flag.FlagSet) *hostFlags {
	hf := &hostFlags{}
	fs.StringVar(&hf.module, "module", "", "the core `wasm` module (default $WEBCODING_MODULE, else built from the source tree)")
	fs.DurationVar(&hf.timeout, "host-timeout", wasmhost.DefaultCallTimeout, "host deadline for one call into the module; a call that exceeds it loses the module's state")
	return hf
}

// moduleCacheDir is where the CLI builds the core module: os.UserCacheDir()/webcoding/module.
func moduleCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "webcoding", "module")
}

// openHost finds or builds the module and starts a host on it, over hf.folderDir (the linked
// folder; "" = the seed workspace), hf.downloadsDir and hf.durable (the host's durable
// backend, which every session of the module then uses).
//
// The CLI runs the module in wasmhost's default mode: a call past --host-timeout is stopped
// (the module's loops poll for cancellation). It used to run AbandonOnDeadline for speed; the
// default mode now costs no more (docs/performance.md, "wazero tools/call A/B (2026-12-06)"),
// and an abandoned guest that spins stalls the whole process at its next garbage collection.
func openHost(ctx context.Context, e *env, hf *hostFlags) (rpcHost, error) {
	path := hf.module
	if path == "" {
		path = e.getenv("WEBCODING_MODULE")
	}
	if path == "" {
		start := time.Now()
		p, err := wasmhost.BuildModule(ctx, moduleCacheDir())
		if err != nil {
			return nil, fmt.Errorf("%w (or give --module PATH / WEBCODING_MODULE)", err)
		}
		if d := time.Since(start); d > time.Second {
			fmt.Fprintf(e.stderr, "webcoding: built the core module %s in %v\n", p, d.Round(time.Millisecond))
		}
		path = p
	}
	if hf.timeout <= 0 {
		return nil, usagef("--host-timeout must be positive")
	}
	return wasmhost.New(ctx, wasmhost.Options{ModulePath: path, CallTimeout: hf.timeout, Log: e.stderr,
		FolderDir: hf.folderDir, FolderJournal: hf.journal, DownloadsDir: hf.downloadsDir, HTTP: hf.http, Durable: hf.durable})
}
