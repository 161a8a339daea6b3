//go:build js && wasm

package iframe

import (
	"context"
	"errors"
	"syscall/js"
	"testing"

	"github.com/webcoding/studio/wasm/preview"
)

// auditShim adds an audit(revision, nonce, limits, done) to a fakeShim; answer decides what
// done receives (called from inside audit, as the shim does for a refusal, or later by the test).
type auditShim struct {
	*fakeShim
	calls  int
	args   []string
	done   func(kind, text string)
	answer func(s *auditShim)
}

func newAuditShim(t *testing.T, answer func(s *auditShim)) *auditShim {
	a := &auditShim{fakeShim: newFakeShim(t), answer: answer}
	audit := jsFunc(a.fakeShim, func(args []js.Value) any {
		a.calls++
		a.args = []string{args[1].String(), args[2].String()}
		cb := args[3]
		a.done = func(kind, text string) { cb.Invoke(kind, text) }
		a.answer(a)
		return 7
	})
	a.obj.Set("audit", audit)
	a.obj.Set("cancelAudit", jsFunc(a.fakeShim, func([]js.Value) any { return nil }))
	return a
}

// acknowledged mounts revision 4 and delivers its ready.
func acknowledged(t *testing.T, shim *fakeShim) (*Port, string) {
	t.Helper()
	p, err := New(Options{Shim: shim.obj})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Mount(context.Background(), preview.Mount{Revision: 4, Files: seedFiles()}); err != nil {
		t.Fatal(err)
	}
	nonce := shim.last(t).nonce
	if !p.Deliver(msg(preview.MessageReady, 4, nonce, nil)) {
		t.Fatal("ready refused")
	}
	return p, nonce
}

// TestAuditAsksTheShim: the current acknowledged mount is audited with its nonce and the
// limits; the shim's reply comes back as is; no-engine is ErrAuditNoEngine.
func TestAuditAsksTheShim(t *testing.T) {
	shim := newAuditShim(t, func(s *auditShim) { s.done("reply", `{"v":1}`) })
	p, nonce := acknowledged(t, shim.fakeShim)
	raw, err := p.Audit(context.Background(), 4, preview.DefaultAuditLimits)
	if err != nil || string(raw) != `{"v":1}` || shim.args[0] != nonce || shim.args[1] != `{"count":1000000,"rules":60,"selectors":5,"selectorChars":300,"helpChars":300,"urlChars":300,"idChars":80}` {
		t.Fatalf("audit %q %v, shim got %v", raw, err, shim.args)
	}
	shim.answer = func(s *auditShim) { s.done("no-engine", "") }
	if _, err := p.Audit(context.Background(), 4, preview.DefaultAuditLimits); !errors.Is(err, preview.ErrAuditNoEngine) {
		t.Fatalf("no engine: %v", err)
	}
}

// TestAuditSuperseded: another revision, a mount that is not acknowledged, and a remount while
// the audit runs are ErrAuditSuperseded; the first two never reach the shim.
func TestAuditSuperseded(t *testing.T) {
	shim := newAuditShim(t, nil)
	p, _ := acknowledged(t, shim.fakeShim)
	if _, err := p.Audit(context.Background(), 3, preview.DefaultAuditLimits); !errors.Is(err, preview.ErrAuditSuperseded) || shim.calls != 0 {
		t.Fatalf("other revision: %v (%d calls)", err, shim.calls)
	}
	shim.answer = func(s *auditShim) {
		// A remount of the same revision (Refresh) before the answer arrives.
		_ = p.Mount(context.Background(), preview.Mount{Revision: 4, Files: seedFiles(), Remount: true})
		s.done("reply", `{"v":1}`)
	}
	if _, err := p.Audit(context.Background(), 4, preview.DefaultAuditLimits); !errors.Is(err, preview.ErrAuditSuperseded) || shim.calls != 1 {
		t.Fatalf("remount during the audit: %v (%d calls)", err, shim.calls)
	}
	// The remounted revision is pending: not audited.
	if _, err := p.Audit(context.Background(), 4, preview.DefaultAuditLimits); !errors.Is(err, preview.ErrAuditSuperseded) || shim.calls != 1 {
		t.Fatalf("pending mount: %v (%d calls)", err, shim.calls)
	}
}

// jsFunc is a js.Func released with the shim's other functions.
func jsFunc(s *fakeShim, fn func([]js.Value) any) js.Func {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any { return fn(args) })
	s.funcs = append(s.funcs, f)
	return f
}
