//go:build wasip1

package hostcall

// hostPoll is webcoding.poll(): the host's cancellation point. host/wasmhost rewrites the
// module at load time so that every loop header counts down a counter and calls poll once the
// counter reaches zero (host/wasmhost poll.go); poll ends the running call when its context is
// done and is where the host's Go scheduler and garbage collector can stop the calling
// goroutine. The module must import it for that rewrite to happen, hence Poll.
//
//go:wasmimport webcoding poll
func hostPoll()

// Poll calls the host's cancellation point once. The reactor calls it at start, which links the
// webcoding.poll import into the module; calling it has no other effect on a running call.
func Poll() { hostPoll() }
