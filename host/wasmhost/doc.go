// Package wasmhost runs the studio core built for GOOS=wasip1 (wasm/cmd/reactor) inside
// wazero and exposes its byte ABI as Host.Handle: one JSON-RPC 2.0 request (or batch) in, the
// response out (SPEC §1 "host/", §2.17; PLATFORM "What works").
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
// A call that outlives its context is stopped: the module is instrumented at load time so that
// its loops call the host function webcoding.poll every 1024 loop headers, and poll ends the
// call once its context is done (poll.go); the host's WASI sleep returns early when the call's
// context is done. So neither a CPU-bound loop nor a guest sleeping in poll_oneoff can hang the
// host, and a spinning guest never keeps the host's garbage collector waiting (machine code
// cannot be preempted; poll is Go code). A module that cannot be instrumented (it does not
// import webcoding.poll) falls back to wazero's own termination checks
// (WithCloseOnContextDone), which leave machine code for Go at every loop header and made a
// tools/call about 2× slower (docs/performance.md, "wazero tools/call A/B (2026-12-06)").
// Each call runs under the caller's context bounded by Options.CallTimeout. A call that fails
// this way — deadline, cancellation, a trap, or the module exiting — closes the instance: its
// in-memory state, including any unsaved workspace, is LOST. Handle then returns an error
// wrapping ErrInstanceReset (and the context error, if any), and the next call instantiates a
// fresh module.
//
// Options.AbandonOnDeadline drops the instrumentation too: a call past its deadline is
// abandoned rather than stopped, which is no faster and can stall the host process (see its
// doc).
//
// # Host functions
//
// The guest imports host functions from the module "webcoding" (see hostfuncs.go and
// wasm/adapters/hostcall). Clock and randomness come from WASI: the real wall clock, the
// monotonic clock and crypto/rand. Guest stdout and stderr (Go runtime crash reports) go to
// Options.Log, never to the caller's protocol stream.
//
// # Folder and downloads (folder.go)
//
// Options.FolderDir links a directory: the guest asks "info" once at assembly and, when a
// folder is there, uses hostcall.Folder as studio.Ports.Folder, whose methods call
// folder_permission, folder_tree, folder_read, folder_write and folder_delete, served by
// host/folder.DirFolder (rooted at the directory through os.Root: "..", absolute paths and
// symlinks leaving it are refused; writes are atomic replaces). Options.DownloadsDir likewise
// backs studio.Ports.Downloads ("download"). Protocol: arguments are (ptr, len) pairs in guest
// memory (path strings, raw file bytes); answers go into a guest buffer (buf, cap) with their
// length written to out[0]; a successful answer larger than cap is parked (at most 16 at a
// time, 64 MiB each) and fetched with result_take(out[1], ptr, len). Metadata is JSON, file
// bodies raw bytes. Each returns a status: 0 ok, 1 stale root, 2 missing file, 3 permission,
// 4 path escapes, 5 other failure (the answer is the message), 6 not configured, 7 parked.
// Every instance — a fresh one after a reset too — imports the folder again at start.
//
// # HTTP (http.go)
//
// Options.HTTP lets the module make HTTP requests (SPEC §3 `agent --provider openrouter`; the
// wasip1 module has no sockets): info reports "http": true, the guest then offers
// agent/openrouter over hostcall.HTTP, whose http_do(req, reqLen, buf, cap, out) carries JSON
// {"method","url","header","body" (base64),"timeoutMs"} and answers {"status","header","body"}
// (parked when large). The host adds "Authorization: Bearer <HTTPOptions.APIKey>" itself
// (host/httpclient), contacts only HTTPOptions.AllowedOrigins (status 8 otherwise, nothing
// sent), enforces min(timeoutMs, HTTPOptions.Timeout) (status 9), and keeps the key out of
// guest memory, answers and logs.
//
// Owns: running the wasip1 core in wazero, the host side of the byte ABI, and the host
// functions (folder, durable, http, downloads, results parking).
//
// Must never: interpret a tool call (requests and responses pass as bytes), let the API key
// reach guest memory, or give the module a file outside the linked folder and the downloads
// directory.
package wasmhost
