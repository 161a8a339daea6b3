//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"sync"
	"syscall/js"
	"testing"

	"github.com/webcoding/studio/wasm/livesurface"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
)

// Run: GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm/cmd/surface

// ackShim is a preview shim (globalThis.webcodingPreview's shape) that records every mount
// and acknowledges it at once through the listener attached last, as the page's bridge does.
type ackShim struct {
	obj     js.Value
	mu      sync.Mutex
	deliver js.Value
	mounts  []shimMount
}

type shimMount struct {
	revision int64
	nonce    string
}

func readyBatch(rev int64, nonce string) string {
	b, _ := json.Marshal([]map[string]any{{"type": preview.MessageReady, "revision": rev, "nonce": nonce}})
	return string(b)
}

func newAckShim(t *testing.T) *ackShim {
	s := &ackShim{obj: js.Global().Get("Object").New()}
	mount := js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := shimMount{int64(args[0].Float()), args[1].String()}
		s.mu.Lock()
		s.mounts = append(s.mounts, m)
		deliver := s.deliver
		s.mu.Unlock()
		go deliver.Invoke(readyBatch(m.revision, m.nonce))
		return nil
	})
	attach := js.FuncOf(func(_ js.Value, args []js.Value) any {
		s.mu.Lock()
		s.deliver = args[0]
		s.mu.Unlock()
		return nil
	})
	discard := js.FuncOf(func(js.Value, []js.Value) any { return nil })
	s.obj.Set("mount", mount)
	s.obj.Set("attach", attach)
	s.obj.Set("discard", discard)
	t.Cleanup(func() { mount.Release(); attach.Release(); discard.Release() })
	return s
}

func (s *ackShim) snapshot() []shimMount {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]shimMount(nil), s.mounts...)
}

// TestEveryBuildHasItsOwnPort: the Live Code Editor's document clock restarts at 1 in every
// session build, so a port shared across builds would answer the new session's revision 1
// with the old session's acknowledgement (iframe.Port.Mount skips a revision it already
// shows). The page's builder gives each build a fresh port: both builds really mount
// revision 1 (two mounts, two nonces), the page's current port is the new one, and a late
// ready of the first build's mount does not acknowledge anything in the second.
func TestEveryBuildHasItsOwnPort(t *testing.T) {
	shim := newAckShim(t)
	js.Global().Set("webcodingPreview", shim.obj)
	livesurface.Install()
	a := newApp(surfaceview.Live)
	a.names = namesOf(surfaceview.Live)
	build := a.builder()
	ctx := context.Background()
	if _, err := build(ctx, rpcsession.Config{}); err != nil {
		t.Fatal(err)
	}
	first := a.port
	if _, err := build(ctx, rpcsession.Config{}); err != nil {
		t.Fatal(err)
	}
	second := a.port
	if first == nil || second == nil || first == second {
		t.Fatalf("ports %p then %p: want two different ports", first, second)
	}
	m := shim.snapshot()
	if len(m) != 2 || m[0].revision != 1 || m[1].revision != 1 || m[0].nonce == m[1].nonce {
		t.Fatalf("mounts %+v: want revision 1 mounted by each build with its own nonce", m)
	}
	// The hazard the fresh port avoids: the first port, asked for revision 1 again, mounts
	// nothing (and its board already holds the old acknowledgement).
	if err := first.Mount(ctx, preview.Mount{Revision: 1}); err != nil {
		t.Fatal(err)
	}
	if n := len(shim.snapshot()); n != 2 {
		t.Fatalf("a shared port mounted revision 1 again (%d mounts); the test's premise changed", n)
	}
	// A late ready of the first build's mount, delivered to the current listener, is refused
	// by its nonce.
	if n := second.DeliverBatch(readyBatch(1, m[0].nonce)); n != 0 {
		t.Fatalf("the second port accepted %d message(s) of the first build's mount", n)
	}
	// Only the current build's port reports to the page.
	stale := first.Status()
	stale.Revision = 99
	a.previewChanged(1, stale)
	a.mu.Lock()
	got := a.st.preview
	a.mu.Unlock()
	if got.Revision == 99 {
		t.Fatalf("a stale port's status reached the page: %+v", got)
	}
	if a.portGen != 2 {
		t.Fatalf("portGen %d, want 2", a.portGen)
	}
}
