package wasmhost

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"

	"github.com/webcoding/studio/host/folder"
	"github.com/webcoding/studio/wasm/durable"
)

// Defaults for Options.
const (
	// DefaultCallTimeout bounds one Handle call when Options.CallTimeout is zero. The registry
	// applies its own per-call timeouts inside the module; this is the host's last resort.
	DefaultCallTimeout = 2 * time.Minute
	// DefaultMaxRequestBytes bounds one request (bytes) when Options.MaxRequestBytes is zero:
	// 32 MiB, the core's own limit (rpcsession.MaxRequestBytes), so an oversized request is refused
	// before it is copied into guest memory, which never shrinks (PLATFORM rule 4).
	DefaultMaxRequestBytes = 32 << 20
	// InitTimeout is the least time instantiation (_initialize: the Go runtime and
	// studio.Assemble) gets, whatever CallTimeout says; the caller's context still bounds it.
	InitTimeout = time.Minute
)

// Options configure a Host.
type Options struct {
	// ModulePath is the reactor .wasm file (see BuildModule). Required.
	ModulePath string
	// CacheDir is the wazero compilation cache directory. "" uses DefaultCacheDir(); "-"
	// disables the on-disk cache.
	CacheDir string
	// CallTimeout bounds every Handle call; the caller's context may be shorter. Instantiating
	// gets at least InitTimeout. 0 means DefaultCallTimeout; negative means only the caller's context.
	CallTimeout time.Duration
	// MaxRequestBytes bounds one request; a longer request is answered with a JSON-RPC
	// -32600 error response without entering the module. 0 means DefaultMaxRequestBytes.
	MaxRequestBytes int
	// AbandonOnDeadline runs the module with no cancellation point at all: neither the
	// default's instrumented loops (poll.go) nor wazero's termination checks. It is no faster:
	// a tools/call took 321 µs of CPU against the default's 295 µs (docs/performance.md,
	// "wazero tools/call A/B (2026-12-06)"). A call past its deadline can no longer be stopped,
	// only abandoned: Handle still returns at the deadline with ErrInstanceReset and the next
	// call gets a fresh instance. An abandoned call blocked in a WASI sleep (waiting on a timer
	// or another goroutine) is ended at once; one spinning in guest code never ends, and
	// because machine code cannot be preempted, the host process's next garbage collection
	// waits for it forever: every goroutine of the process stops (measured 2026-12-06:
	// runtime.GC() and a 5 s timer on another goroutine never returned). Instantiation is not
	// abandoned: a module whose _initialize never returns hangs New. Kept for comparison; the
	// default (false) is the safe mode.
	AbandonOnDeadline bool
	// FolderDir is the linked folder (the CLI's --dir): the module's workspace.FolderAdapter
	// reaches it through the folder_* host functions over host/folder.DirFolder (rooted, no
	// path or symlink escapes, atomic replace). Every instance imports it at start. "" means
	// no folder: the module works on its built-in seed workspace. New fails when it is not an
	// existing directory.
	FolderDir string
	// FolderJournal, when not "" (the command's name: "call", "mcp", …), takes the folder's
	// lock and keeps its save journal in FolderDir/.webcoding (host/folder.OpenJournal): New
	// fails with folder.ErrFolderBusy when another process holds the lock, reports (through
	// Log) and repairs an interrupted save of an earlier process (Recovery), and every folder
	// write of a Handle call is journaled until the call returns. "": no lock, no journal.
	FolderJournal string
	// DownloadsDir receives workspace.downloadFile (the CLI's --downloads): each download is
	// written as DIR/<last path segment of its name>, replacing a file of that name; DIR is
	// created on first use. "" means no download target (the tool reports so).
	DownloadsDir string
	// HTTP, when set, lets the module make HTTP requests through webcoding.http_do (http.go):
	// the host adds the Authorization header and refuses origins not allowed; info reports
	// "http": true. Nil: the module has no HTTP (the provider loop is not offered).
	HTTP *HTTPOptions
	// Durable, when set, is the module's durable-operation backend (the CLI's --durable
	// redis://… or postgres://…): the module reaches it through the durable_* host functions
	// (durable.go) and every session claims idempotent calls in it; info reports
	// "durable": true. The caller opens and closes it. Nil: the module decides (in-memory or
	// none).
	Durable durable.Backend
	// Log receives host diagnostics, the module's log lines and its stdout/stderr, one line
	// each. Nil discards them. Writes are serialized (an abandoned call may still write).
	Log io.Writer

	// Knobs for this package's tests and benchmarks (A/B of docs/performance.md).
	wazeroChecks bool     // wazero's termination checks instead of the instrumented loops
	interpreter  bool     // wazero's interpreter instead of its compiler
	guestEnv     []string // extra guest environment variables: name, value, name, value…
}

// ErrInstanceReset is wrapped by every Handle error after which the module instance was
// closed: its in-memory state (the workspace included) is lost, and the next call starts a
// fresh instance.
var ErrInstanceReset = errors.New("the module instance was closed and its state is lost; the next call starts a fresh instance")

// ErrClosed is returned by Handle after Close.
var ErrClosed = errors.New("wasmhost: host is closed")

// Stats describe a Host's costs so far.
type Stats struct {
	CompileTime       time.Duration // compiling the shared module (0 when another Host did it)
	InstantiateTime   time.Duration // the latest instantiation, _initialize included
	Instantiations    int           // instances created so far (1 + resets that were followed by a call)
	CompilationCached bool          // an on-disk compilation cache is in use
}

// Host is one instance of the studio core running in wazero. Its methods are safe for
// concurrent use; Handle calls are serialized.
type Host struct {
	opts   Options
	eng    *engine
	modCfg wazero.ModuleConfig
	logMu  sync.Mutex

	sem chan struct{} // one slot: held by the running call
	io  hostIO        // folder, downloads and parked results

	// Guarded by sem.
	inst   *instance // nil after a reset, until the next call
	closed bool
	stats  Stats

	// abandonedRunning counts abandoned calls whose goroutine has not returned yet.
	abandonedRunning atomic.Int64

	journal  *folder.Journal // Options.FolderJournal; nil without
	recovery folder.Recovery
}

// Recovery returns what New found of an interrupted save into the folder (Options.FolderJournal).
func (h *Host) Recovery() folder.Recovery { return h.recovery }

// instance is one module instance and its ABI state. Only the goroutine running a call on
// it touches it (an abandoned call keeps its instance; see Options.AbandonOnDeadline).
type instance struct {
	// done is the Done channel of the running call's context, read by sleep; kill is closed
	// when the call is abandoned.
	done atomic.Pointer[<-chan struct{}]
	kill chan struct{}

	mod                   api.Module
	malloc, free, handleF api.Function
	stack                 [2]uint64
	reqPtr, reqCap        uint32 // the reusable request buffer in guest memory (0: none)
}

// New loads (compiling once per process, see the package doc) and instantiates the module.
//
// Errors: the module cannot be read, is not a studio reactor (exports malloc, free, handle,
// _initialize), fails to compile, or fails to initialize within ctx and CallTimeout.
func New(ctx context.Context, opts Options) (*Host, error) {
	if opts.ModulePath == "" {
		return nil, errors.New("wasmhost: Options.ModulePath is required")
	}
	switch opts.CacheDir {
	case "":
		opts.CacheDir = DefaultCacheDir()
	case "-":
		opts.CacheDir = ""
	}
	if opts.CallTimeout == 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	h := &Host{opts: opts, sem: make(chan struct{}, 1)}
	h.io.downloadsDir = opts.DownloadsDir
	if opts.FolderDir != "" {
		f, err := folder.Open(opts.FolderDir)
		if err != nil {
			return nil, fmt.Errorf("wasmhost: FolderDir: %w", err)
		}
		h.io.folder = f
	}
	ok := false
	defer func() {
		if !ok && h.io.folder != nil {
			h.io.folder.Close()
		}
		if !ok && h.journal != nil {
			h.journal.Close()
		}
	}()
	if h.io.folder != nil && opts.FolderJournal != "" {
		j, rec, err := folder.OpenJournal(h.io.folder.Dir(), opts.FolderJournal)
		switch {
		case err != nil && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)):
			// A folder we may not write into can still be read; nothing can be saved into it,
			// so there is no save to journal or to guard with the lock.
			h.logf("the folder %s is not writable (%v): it is opened without a lock or save journal; saving into it will fail", h.io.folder.Dir(), err)
		case err != nil:
			return nil, fmt.Errorf("wasmhost: FolderDir %s: %w", h.io.folder.Dir(), err)
		default:
			h.journal, h.recovery = j, rec
			h.io.folder.SetJournal(j)
			if msg := rec.Summary(h.io.folder.Dir()); msg != "" {
				h.logf("%s", msg)
			}
		}
	}
	ec := engineConfig{mode: cancelPoll, interpreter: opts.interpreter}
	switch {
	case opts.AbandonOnDeadline:
		ec.mode = cancelAbandon
	case opts.wazeroChecks:
		ec.mode = cancelWazeroChecks
	}
	eng, compiled, err := loadEngine(opts.ModulePath, opts.CacheDir, ec)
	if err != nil {
		return nil, err
	}
	if eng.instrumentErr != nil {
		h.logf("host: %v; wazero's termination checks stop late calls instead (slower)", eng.instrumentErr)
	}
	h.eng = eng
	if compiled {
		h.stats.CompileTime = eng.compileTime
	}
	h.stats.CompilationCached = opts.CacheDir != ""
	out := &lineWriter{h: h, prefix: "module output: "}
	h.modCfg = wazero.NewModuleConfig().
		WithName(""). // anonymous: many instances of one compiled module may coexist
		WithStartFunctions("_initialize").
		WithSysWalltime().
		WithSysNanotime().
		WithRandSource(rand.Reader).
		WithStdout(out).
		WithStderr(out)
	for i := 0; i+1 < len(opts.guestEnv); i += 2 {
		h.modCfg = h.modCfg.WithEnv(opts.guestEnv[i], opts.guestEnv[i+1])
	}

	h.sem <- struct{}{}
	defer func() { <-h.sem }()
	callCtx, cancel := h.initContext(ctx)
	defer cancel()
	if err := h.instantiate(callCtx); err != nil {
		return nil, err
	}
	ok = true
	return h, nil
}

// callContext bounds ctx by CallTimeout and lets host functions find h.
func (h *Host) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	cancel := context.CancelFunc(func() {})
	if h.opts.CallTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, h.opts.CallTimeout)
	}
	return context.WithValue(ctx, hostKey{}, h), cancel
}

// initContext bounds ctx for an instantiation by max(CallTimeout, InitTimeout).
func (h *Host) initContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, max(h.opts.CallTimeout, InitTimeout))
	return context.WithValue(ctx, hostKey{}, h), cancel
}

// instantiate creates the module instance. Caller holds sem.
func (h *Host) instantiate(ctx context.Context) error {
	inst := &instance{kill: make(chan struct{})}
	done := ctx.Done()
	inst.done.Store(&done)
	defer inst.done.Store(nil)
	start := time.Now()
	mod, err := h.eng.rt.InstantiateModule(ctx, h.eng.compiled, h.modCfg.WithNanosleep(inst.sleep))
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("wasmhost: instantiate: %w: %w", ctx.Err(), err)
		}
		return fmt.Errorf("wasmhost: instantiate: %w", err)
	}
	h.stats.InstantiateTime = time.Since(start)
	h.stats.Instantiations++
	inst.mod, inst.malloc = mod, mod.ExportedFunction("malloc")
	inst.free, inst.handleF = mod.ExportedFunction("free"), mod.ExportedFunction("handle")
	h.inst = inst
	return nil
}

// sleep is the instance's WASI nanosleep (poll_oneoff with a clock): it returns after ns or as
// soon as the running call's context is done, so the runtime can close a guest that sleeps
// past its deadline. In an instance whose call was abandoned (Options.AbandonOnDeadline) it
// ends the guest instead: the panic unwinds the abandoned call (wazero turns a host-function
// panic into the call's error), so a guest blocked in the scheduler cannot spin on a sleep that
// returns at once.
func (inst *instance) sleep(ns int64) {
	t := time.NewTimer(time.Duration(ns))
	defer t.Stop()
	var done <-chan struct{}
	if p := inst.done.Load(); p != nil {
		done = *p
	}
	select {
	case <-inst.kill:
		panic(sys.NewExitError(sys.ExitCodeDeadlineExceeded))
	default:
	}
	select {
	case <-t.C:
	case <-done:
	case <-inst.kill:
		panic(sys.NewExitError(sys.ExitCodeDeadlineExceeded))
	}
}

// Handle sends one JSON-RPC 2.0 request or batch to the module and returns a copy of its
// response: nil for a notification or a batch of notifications (JSON-RPC 2.0 §4.1, §6). Bad input (malformed JSON, non-UTF-8, an empty request) is the module's to answer:
// the bytes go through unchanged. A request longer than MaxRequestBytes is answered by the
// host with a JSON-RPC -32600 error response (id null) and a nil error.
//
// Errors (the response is nil): ctx ended while waiting for an earlier call (the instance is
// untouched); ErrClosed; a failure of the call itself — deadline or cancellation, a trap, the
// module exiting, a broken ABI — which wraps ErrInstanceReset and, when the context ended,
// ctx.Err() (so errors.Is(err, context.DeadlineExceeded) holds for a timeout); a failure to
// start a fresh instance.
func (h *Host) Handle(ctx context.Context, req []byte) ([]byte, error) {
	if len(req) > h.opts.MaxRequestBytes {
		return rpcError(-32600, fmt.Sprintf("Invalid Request: the request is %d bytes; the limit is %d bytes.", len(req), h.opts.MaxRequestBytes)), nil
	}
	// A free instance is taken even when ctx has already ended (a select with both cases
	// ready picks one at random): "waiting for the previous call" is said only when there was
	// one, and a call whose deadline passed before it began is abandoned like any late call
	// (TestResetNeverReusesRevisionsAndNamesLostEdits failed on the random pick under load).
	select {
	case h.sem <- struct{}{}:
	default:
		select {
		case h.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, fmt.Errorf("wasmhost: waiting for the previous call: %w", ctx.Err())
		}
	}
	defer func() { <-h.sem }()
	if h.closed {
		return nil, ErrClosed
	}
	if h.inst == nil {
		initCtx, cancel := h.initContext(ctx)
		err := h.instantiate(initCtx)
		cancel()
		if err != nil {
			return nil, err
		}
	}
	if h.journal != nil {
		defer h.journal.End() // every folder write of this call has returned
	}
	callCtx, cancel := h.callContext(ctx)
	defer cancel()
	done := callCtx.Done()
	inst := h.inst
	inst.done.Store(&done)
	defer inst.done.Store(nil)
	var resp []byte
	var err error
	if h.opts.AbandonOnDeadline {
		resp, err = h.roundTripOrAbandon(callCtx, req)
	} else {
		resp, err = h.inst.roundTrip(callCtx, req)
	}
	if err != nil {
		h.reset(callCtx, err)
		if cerr := callCtx.Err(); cerr != nil {
			return nil, fmt.Errorf("wasmhost: the call was stopped by its context (%w; host call timeout %v): %w", cerr, h.opts.CallTimeout, ErrInstanceReset)
		}
		return nil, fmt.Errorf("wasmhost: %w: %w", err, ErrInstanceReset)
	}
	return resp, nil
}

// keepRequestBuffer is the largest request buffer (bytes) kept in guest memory between calls;
// a larger one is freed after its call so the guest can reclaim it.
const keepRequestBuffer = 1 << 20

// roundTrip writes req into the reusable guest request buffer (malloc when it is missing or
// too small), calls handle, copies the response out and frees it: two export calls per round
// trip in the common case, each of which costs wazero a context watcher. Caller holds sem.
func (h *instance) roundTrip(ctx context.Context, req []byte) ([]byte, error) {
	s := h.stack[:]
	if h.reqPtr == 0 || int(h.reqCap) < len(req) {
		if h.reqPtr != 0 {
			s[0] = uint64(h.reqPtr)
			h.reqPtr, h.reqCap = 0, 0
			if err := h.free.CallWithStack(ctx, s); err != nil {
				return nil, fmt.Errorf("free request buffer: %w", err)
			}
		}
		size := max(len(req), 4096)
		s[0] = uint64(size)
		if err := h.malloc.CallWithStack(ctx, s); err != nil {
			return nil, fmt.Errorf("malloc: %w", err)
		}
		if uint32(s[0]) == 0 {
			return nil, fmt.Errorf("malloc(%d) failed in the module", size)
		}
		h.reqPtr, h.reqCap = uint32(s[0]), uint32(size)
	}
	mem := h.mod.Memory()
	if !mem.Write(h.reqPtr, req) {
		return nil, fmt.Errorf("malloc returned %d, outside guest memory", h.reqPtr)
	}
	s[0], s[1] = uint64(h.reqPtr), uint64(len(req))
	if err := h.handleF.CallWithStack(ctx, s); err != nil {
		return nil, fmt.Errorf("handle: %w", err)
	}
	rptr, rlen := uint32(s[0]>>32), uint32(s[0])
	view, ok := mem.Read(rptr, rlen)
	if !ok {
		return nil, fmt.Errorf("handle returned %d bytes at %d, outside guest memory", rlen, rptr)
	}
	// Copy before free: the view aliases guest memory.
	resp := append([]byte(nil), view...)
	s[0] = uint64(rptr)
	if err := h.free.CallWithStack(ctx, s); err != nil {
		return nil, fmt.Errorf("free response: %w", err)
	}
	if h.reqCap > keepRequestBuffer {
		s[0] = uint64(h.reqPtr)
		h.reqPtr, h.reqCap = 0, 0
		if err := h.free.CallWithStack(ctx, s); err != nil {
			return nil, fmt.Errorf("free request buffer: %w", err)
		}
	}
	return resp, nil
}

// errAbandoned marks a call left running past its deadline (Options.AbandonOnDeadline).
var errAbandoned = errors.New("call abandoned at its deadline")

// roundTripOrAbandon runs the round trip on its own goroutine and stops waiting for it when
// ctx is done. The abandoned goroutine keeps its instance, which is closed if the call ever
// returns. Caller holds sem.
func (h *Host) roundTripOrAbandon(ctx context.Context, req []byte) ([]byte, error) {
	type result struct {
		resp []byte
		err  error
	}
	inst := h.inst
	ch := make(chan result, 1)
	go func() {
		r, err := inst.roundTrip(ctx, req)
		ch <- result{r, err}
	}()
	select {
	case r := <-ch:
		return r.resp, r.err
	case <-ctx.Done():
		h.inst = nil
		close(inst.kill) // a guest blocked in sleep ends now; one spinning ends when it returns
		h.abandonedRunning.Add(1)
		go func() {
			<-ch
			_ = inst.mod.Close(context.Background())
			h.abandonedRunning.Add(-1)
		}()
		return nil, errAbandoned
	}
}

// reset closes the current instance after a failed call. Caller holds sem.
func (h *Host) reset(ctx context.Context, cause error) {
	if h.inst != nil {
		_ = h.inst.mod.Close(context.WithoutCancel(ctx))
	}
	h.inst = nil
	h.logf("host: module instance closed after a failed call (%v); its state is lost", cause)
}

// Stats returns the host's costs so far. It waits for a running call to finish.
func (h *Host) Stats() Stats {
	h.sem <- struct{}{}
	defer func() { <-h.sem }()
	return h.stats
}

// Close closes the module instance (not the shared compiled module). It waits for a running
// call, up to ctx. Handle returns ErrClosed afterwards; Close is idempotent.
func (h *Host) Close(ctx context.Context) error {
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("wasmhost: close: waiting for the running call: %w", ctx.Err())
	}
	defer func() { <-h.sem }()
	if !h.closed && h.io.folder != nil {
		defer h.io.folder.Close()
	}
	if !h.closed && h.journal != nil {
		defer h.journal.Close()
	}
	h.closed = true
	if h.inst == nil {
		return nil
	}
	err := h.inst.mod.Close(ctx)
	h.inst = nil
	return err
}

func (h *Host) logf(format string, args ...any) {
	h.logMu.Lock()
	defer h.logMu.Unlock()
	fmt.Fprintf(h.opts.Log, "webcoding: "+format+"\n", args...)
}

// lineWriter turns the module's stdout/stderr into log lines.
type lineWriter struct {
	h      *Host
	prefix string
	mu     sync.Mutex
	buf    []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := indexNL(w.buf)
		if i < 0 {
			break
		}
		w.h.logf("%s%s", w.prefix, w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > 64<<10 { // a line that never ends: flush it in pieces
		w.h.logf("%s%s", w.prefix, w.buf)
		w.buf = w.buf[:0]
	}
	return len(p), nil
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// rpcError is a JSON-RPC 2.0 error response with a null id.
func rpcError(code int, msg string) []byte {
	m, _ := json.Marshal(msg)
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%s}}`, code, m)
}
