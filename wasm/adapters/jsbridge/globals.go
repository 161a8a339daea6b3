//go:build js && wasm

package jsbridge

import (
	"context"
	"encoding/json"
	"sync"
	"syscall/js"

	"github.com/hack-pad/safejs"
)

// ExposeHandle installs globalThis.webcodingHandle(requestJSON) → Promise<responseJSON>, the
// page's JSON-RPC 2.0 entry (one message or batch per call) that browser tests and the page's
// own scripts use: handle answers the request bytes (nil or empty: no response, resolved as
// ""), on its own goroutine through Promise, so a pending call is held by the page until it
// settles (docs/design.md §5.32). A call without a string argument rejects with a TypeError.
// The studio and the surface pages install the same one.
func ExposeHandle(handle func(ctx context.Context, req []byte) []byte) {
	f := Func("webcodingHandle", func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return js.Global().Get("Promise").Call("reject", js.Global().Get("TypeError").New("webcodingHandle(requestJSON): a string is required"))
		}
		req := []byte(args[0].String())
		return Promise(context.Background(), "webcodingHandle", func(ctx context.Context) ([]byte, error) {
			return handle(ctx, req), nil
		})
	})
	js.Global().Set("webcodingHandle", f)
}

// Subscribers are the callbacks registered with globalThis.webcodingSubscribe(callback) →
// unsubscribe (Expose installs it). Emit sends each of them one event as a JSON string. The
// zero value is ready to use; it is safe for concurrent use.
type Subscribers struct {
	mu   sync.Mutex
	next int
	subs map[int]js.Value
}

// Expose installs globalThis.webcodingSubscribe(callback): a non-function argument returns
// undefined; otherwise it returns a function that removes the callback.
func (s *Subscribers) Expose() {
	f := Func("webcodingSubscribe", func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeFunction {
			return js.Undefined()
		}
		s.mu.Lock()
		if s.subs == nil {
			s.subs = map[int]js.Value{}
		}
		id := s.next
		s.next++
		s.subs[id] = args[0]
		s.mu.Unlock()
		var unsub js.Func
		unsub = Func("webcodingSubscribe.unsubscribe", func(js.Value, []js.Value) any {
			s.mu.Lock()
			delete(s.subs, id)
			s.mu.Unlock()
			unsub.Release()
			return nil
		})
		return unsub
	})
	js.Global().Set("webcodingSubscribe", f)
}

// Emit sends ev, encoded as JSON, to every callback (call it from a goroutine). A callback that
// throws is skipped (safejs turns the throw into an error instead of a Go panic); an event that
// does not encode is dropped.
func (s *Subscribers) Emit(ev any) {
	s.mu.Lock()
	if len(s.subs) == 0 {
		s.mu.Unlock()
		return
	}
	cbs := make([]js.Value, 0, len(s.subs))
	for _, cb := range s.subs {
		cbs = append(cbs, cb)
	}
	s.mu.Unlock()
	raw, err := json.Marshal(ev)
	if err != nil {
		return
	}
	for _, cb := range cbs {
		_, _ = safejs.Safe(cb).Invoke(string(raw))
	}
}
