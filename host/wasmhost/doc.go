// Package wasmhost runs the studio core built for GOOS=wasip1 (wasm/cmd/reactor) inside
// wazero and exposes its byte ABI as Host.Handle: one JSON-RPC 2.0 request (or batch) in, the
// response out (SPEC §1 "host/", §2.17; PLATFORM.md "What works").
//
// # Lifecycle and costs
//
// Compilation happens once per process per module content: every Host loading the same bytes
// shares one wazero Runtime and CompiledModule, backed by an on-disk compilation cache
// (default os.UserCacheDir()/webcoding/wazero), so a warm process start skips most of the
// compile. Compiled engines stay alive until the process exits. Each Host owns exactly ONE
// module instance, because the instance holds the workspace state; Host.Handle serializes
// calls on it. Concurrency happens inside the module: send a JSON-RPC batch and the core
// answers its elements on goroutines, in request order.
//
// # Deadlines and lost state
//
// The runtime closes an instance whose call outlives its context (WithCloseOnContextDone), and
// the host's WASI sleep returns early when the call's context is done, so neither a CPU-bound
// loop nor a guest sleeping in poll_oneoff can hang the host. Each call runs under the
// caller's context bounded by Options.CallTimeout. A call that fails this way — deadline,
// cancellation, a trap, or the module exiting — closes the instance: its in-memory state,
// including any unsaved workspace, is LOST. Handle then returns an error wrapping
// ErrInstanceReset (and the context error, if any), and the next call instantiates a fresh
// module.
//
// The termination checks cost: wazero calls out to the host at every loop header of the
// guest, which slows the studio core's calls 8–10× (up to 40× on loop-heavy work such as
// decoding a large request). Options.AbandonOnDeadline trades the guarantee for speed: a call
// past its deadline is abandoned rather than stopped (see its doc).
//
// # Host functions
//
// The guest imports host functions from the module "webcoding" (see hostfuncs.go and
// wasm/adapters/hostcall). Clock and randomness come from WASI: the real wall clock, the
// monotonic clock and crypto/rand. Guest stdout and stderr (Go runtime crash reports) go to
// Options.Log, never to the caller's protocol stream.
package wasmhost
