//go:build wasip1

// Command reactor is the headless entry of the studio core: the same packages as the browser
// build, compiled with GOOS=wasip1 GOARCH=wasm -buildmode=c-shared into a WASI reactor that the
// native host (host/wasmhost, on wazero) instantiates once and calls many times (SPEC §1, §2.17;
// PLATFORM "What works").
//
// # ABI (byte-oriented, one JSON-RPC 2.0 message per call)
//
//	malloc(size u32) -> ptr u32     a guest buffer of size bytes, pinned until free(ptr);
//	                                0 when size > MaxAlloc.
//	free(ptr u32)                   unpins a buffer returned by malloc or handle; unknown
//	                                pointers are ignored.
//	handle(ptr u32, len u32) -> u64 answers the request in bytes [ptr, ptr+len) of a buffer
//	                                from malloc (len <= its size); returns respPtr<<32 | respLen.
//	                                The response stays pinned until the host calls free(respPtr).
//	                                respLen is 0 when JSON-RPC says there is no response (a
//	                                notification, or a batch of notifications).
//
// handle copies the request before the core sees it, so the host may reuse one request buffer
// for many calls and the core may keep slices of its input. The host frees the response buffer
// after copying it out (the memory view aliases guest memory). handle never
// traps on bad input: a request pointer that malloc did not return, or a panic anywhere on the
// calling goroutine, becomes a JSON-RPC error response (-32600 / -32603). Panics on goroutines
// that the core starts are the core's to recover.
//
// The host must instantiate with the start function "_initialize" (the Go runtime and this
// package's variables, including the assembled handler, are set up there); main is empty.
//
// Owns: the wasip1 byte ABI: exports, guest memory and the host functions, wired into studio.Assemble.
//
// Must never: hold a rule a core package owns or be imported (layer order: wasm/doc.go).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"unsafe"

	"github.com/webcoding/studio/wasm/adapters/hostcall"
	"github.com/webcoding/studio/wasm/livesurface"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/websurface"
)

// MaxAlloc is the largest buffer malloc hands out (bytes). The host enforces its own, smaller
// request limit; this bound only keeps a host bug from exhausting guest memory, which never
// shrinks (PLATFORM rule 4).
const MaxAlloc = 1 << 30

// handler is the one assembled core of this instance. It holds the workspace state, so the host
// keeps one instance per workspace and serializes calls.
var handler *rpcsession.Handler = assemble()

// folder is the host's folder adapter, nil when the host has none (kept for test hooks).
var folder *hostcall.Folder

// assemble asks the host what it offers (webcoding.info) and assembles the core over it: the
// host's folder as Ports.Folder (nil when the host has no folder: browser-only mode, the seed
// workspace) and its download directory as Ports.Downloads (nil: downloadFile reports that
// there is no download target). When the host performs HTTP (info "http": true, agent
// --provider openrouter), every session also answers agent/openrouter and
// agent/openrouter/models over hostcall.HTTP (the host adds the Authorization header, so the
// key never enters the module); retry notices go to the host's log as they happen. When the
// host has a durable backend (info "durable": true, --durable redis://… or postgres://…), it
// is Ports.Durable through hostcall.Durable, so every session's idempotency records live there.
func assemble() *rpcsession.Handler {
	websurface.Install()  // the realtime surface's catalog ("realtime", issue 18); the page module does not carry it
	livesurface.Install() // the Live Code Editor's catalog ("live", issue 18); likewise
	hostcall.Poll()       // links the webcoding.poll import: the host's cheap cancellation point (host/wasmhost poll.go)
	ports := studio.Ports{Log: portLog}
	info := hostcall.Info()
	if info.Folder != nil {
		folder = hostcall.NewFolder(*info.Folder)
		ports.Folder = folder
		ports.FolderRequired = true // --dir was asked for: a folder that cannot be imported is an error
	}
	if info.Downloads {
		ports.Downloads = hostcall.Download
	}
	if info.Durable {
		ports.Durable = hostcall.Durable{} // every session claims idempotent calls in the host's backend
	}
	b := studio.Builder(ports)
	if info.HTTP {
		b = studio.WithOpenRouter(b, studio.OpenRouterOptions{Transport: hostcall.HTTP{}, OnNotice: logNotice})
	}
	return rpcsession.New(context.Background(), b)
}

// logNotice reports one provider retry notice through the host's log (level warn), e.g.
// "openrouter: retrying provider request 1/2 in 350ms after OPENROUTER_PROVIDER_ERROR".
func logNotice(n openrouter.Notice) {
	hostcall.Log(4, fmt.Sprintf("openrouter: %s in %v after %s", n.Text, n.Delay, n.Code))
}

// intercept, when set (only by test builds, see hosttest.go), answers a request before the core.
var intercept func(req []byte) ([]byte, bool)

var (
	pinMu  sync.Mutex
	pinned = map[uint32][]byte{} // ptr -> buffer, kept reachable so the GC does not reclaim it
)

func addr(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// pin records b under its address and returns the address. A buffer whose address is already
// pinned (a zero-size or aliasing slice) is copied first, so every pinned pointer is unique.
func pin(b []byte) uint32 {
	pinMu.Lock()
	defer pinMu.Unlock()
	if cap(b) == 0 {
		b = make([]byte, 0, 1)
	}
	p := addr(b)
	if _, taken := pinned[p]; taken {
		c := make([]byte, len(b), max(len(b), 1))
		copy(c, b)
		b, p = c, addr(c)
	}
	pinned[p] = b
	return p
}

//go:wasmexport malloc
func malloc(size uint32) (ptr uint32) {
	defer func() {
		if recover() != nil {
			ptr = 0
		}
	}()
	if size > MaxAlloc {
		return 0
	}
	// Capacity at least 1 so that distinct allocations have distinct addresses.
	return pin(make([]byte, size, max(size, 1)))
}

//go:wasmexport free
func free(ptr uint32) {
	pinMu.Lock()
	delete(pinned, ptr)
	pinMu.Unlock()
}

//go:wasmexport handle
func handle(ptr, size uint32) (out uint64) {
	defer func() {
		if r := recover(); r != nil {
			out = pack(errorResponse(-32603, fmt.Sprintf("Internal error: the module recovered a panic: %v", r)))
		}
	}()
	pinMu.Lock()
	buf, ok := pinned[ptr]
	pinMu.Unlock()
	if !ok || uint64(size) > uint64(cap(buf)) {
		return pack(errorResponse(-32600, fmt.Sprintf("Invalid Request: handle(%d, %d) is not inside a buffer from malloc.", ptr, size)))
	}
	req := make([]byte, size) // a private copy: the host reuses its buffer
	copy(req, buf[:size])
	if intercept != nil {
		if resp, done := intercept(req); done {
			return pack(resp)
		}
	}
	// An empty response is legitimate: a notification (or a batch of them) gets no answer.
	return pack(handler.Handle(context.Background(), req))
}

func pack(resp []byte) uint64 {
	return uint64(pin(resp))<<32 | uint64(uint32(len(resp)))
}

// errorResponse is a JSON-RPC 2.0 error response with a null id (the request was not read).
func errorResponse(code int, msg string) []byte {
	m, _ := json.Marshal(msg)
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%s}}`, code, m)
}

func main() {}

// portLog is studio.Ports.Log over hostcall.Log: the studio's levels (0 info, 1 notice, 2 and
// above a warning) become log/slog's (INFO, INFO, WARN), so the host prints "module INFO" or
// "module WARN", never a level name slog does not have ("INFO+1").
func portLog(level int, msg string) {
	if level >= 2 {
		hostcall.Log(4, msg)
		return
	}
	hostcall.Log(0, msg)
}
