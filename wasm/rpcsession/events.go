package rpcsession

import (
	"sync"

	"github.com/webcoding/studio/wasm/registry"
)

// Event is a change of the handler's state that a host shows without asking for it (issue
// 19: the page follows these events instead of subscribing to a session's approval queue
// itself and guessing changes from request bytes).
//
//   - Kind "approvals": the pending approvals of the current session changed (a call waits,
//     or one was approved, denied or cancelled); Approvals is the new list, newest first.
//   - Kind "session": session/configure replaced the session (registry, queue and methods);
//     an "approvals" event with the new session's list follows.
type Event struct {
	Kind      string              `json:"kind"`
	Approvals []registry.Approval `json:"approvals,omitempty"`
}

// events is the subscriber list and the current session's queue subscription.
type events struct {
	mu     sync.Mutex
	next   int
	subs   map[int]func(Event)
	unsubQ func() // the current session's queue subscription
}

// Subscribe calls fn with every Event from now on and returns the function that stops it.
// fn runs on the goroutine that made the change (a tool call waiting for approval, an
// approvals/* request, session/configure): it must not block.
func (h *Handler) Subscribe(fn func(Event)) (unsubscribe func()) {
	h.ev.mu.Lock()
	defer h.ev.mu.Unlock()
	if h.ev.subs == nil {
		h.ev.subs = map[int]func(Event){}
	}
	id := h.ev.next
	h.ev.next++
	h.ev.subs[id] = fn
	return func() {
		h.ev.mu.Lock()
		delete(h.ev.subs, id)
		h.ev.mu.Unlock()
	}
}

func (h *Handler) emit(e Event) {
	h.ev.mu.Lock()
	fns := make([]func(Event), 0, len(h.ev.subs))
	for _, fn := range h.ev.subs {
		fns = append(fns, fn)
	}
	h.ev.mu.Unlock()
	for _, fn := range fns {
		fn(e)
	}
}

// attach follows s's approval queue (replacing the previous session's subscription).
func (h *Handler) attach(s *Session) {
	var unsub func()
	if s != nil && s.Approvals != nil {
		unsub = s.Approvals.Subscribe(func(list []registry.Approval) {
			h.emit(Event{Kind: "approvals", Approvals: list})
		})
	}
	h.ev.mu.Lock()
	old := h.ev.unsubQ
	h.ev.unsubQ = unsub
	h.ev.mu.Unlock()
	if old != nil {
		old()
	}
}
