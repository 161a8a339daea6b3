package rpcsession_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/rpcsession"
)

// TestEventsFollowSessionAndApprovals: a subscriber hears "session" on session/configure, then
// "approvals" when an agent call waits for approval and again when it is denied — across the
// session replacement, without subscribing to any queue itself; after unsubscribe it hears
// nothing.
func TestEventsFollowSessionAndApprovals(t *testing.T) {
	h := handler()
	ctx := context.Background()
	var mu sync.Mutex
	var got []rpcsession.Event
	unsub := h.Subscribe(func(e rpcsession.Event) { mu.Lock(); got = append(got, e); mu.Unlock() })
	h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"session/configure","params":{"approval":{"mode":"queue"}}}`))
	wait := func(what string, ok func([]rpcsession.Event) bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			done := ok(got)
			snapshot := append([]rpcsession.Event(nil), got...)
			mu.Unlock()
			if done {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: events %+v", what, snapshot)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	wait("session then an empty approvals list", func(ev []rpcsession.Event) bool {
		return len(ev) >= 2 && ev[0].Kind == "session" && ev[1].Kind == "approvals" && len(ev[1].Approvals) == 0
	})
	done := make(chan []byte, 1)
	go func() {
		done <- h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"workspace.writeFile","arguments":{"path":"a.md","source":"x"},"_meta":{"source":"model","mode":"agent"}}}`))
	}()
	wait("a pending approval", func(ev []rpcsession.Event) bool {
		e := ev[len(ev)-1]
		return e.Kind == "approvals" && len(e.Approvals) == 1 && e.Approvals[0].Name == "workspace.writeFile"
	})
	h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":3,"method":"approvals/denyAll"}`))
	<-done
	wait("the approval gone", func(ev []rpcsession.Event) bool {
		e := ev[len(ev)-1]
		return e.Kind == "approvals" && len(e.Approvals) == 0
	})
	unsub()
	mu.Lock()
	n := len(got)
	mu.Unlock()
	h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":4,"method":"session/configure","params":{"approval":{"mode":"queue"}}}`))
	mu.Lock()
	defer mu.Unlock()
	if len(got) != n {
		t.Fatalf("events after unsubscribe: %+v", got[n:])
	}
}
