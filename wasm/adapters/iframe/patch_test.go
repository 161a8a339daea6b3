//go:build js && wasm

package iframe

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"syscall/js"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
)

// patchCall is one shim.patch(fromRevision, fromNonce, revision, nonce, patchJSON).
type patchCall struct {
	fromRev  int64
	fromNonc string
	revision int64
	nonce    string
	patch    preview.StylePatch
}

// patchShim is fakeShim with patch(); accept is what patch() returns.
type patchShim struct {
	*fakeShim
	mu      sync.Mutex
	patches []patchCall
	accept  bool
}

func newPatchShim(t *testing.T, accept bool) *patchShim {
	s := &patchShim{fakeShim: newFakeShim(t), accept: accept}
	f := js.FuncOf(func(_ js.Value, a []js.Value) any {
		var pt preview.StylePatch
		_ = json.Unmarshal([]byte(a[4].String()), &pt)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.patches = append(s.patches, patchCall{int64(a[0].Float()), a[1].String(), int64(a[2].Float()), a[3].String(), pt})
		return s.accept
	})
	s.funcs = append(s.funcs, f)
	s.obj.Set("patch", f)
	return s
}

func (s *patchShim) count() (mounts, patches int) {
	s.fakeShim.mu.Lock()
	mounts = len(s.mounts)
	s.fakeShim.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return mounts, len(s.patches)
}

func (s *patchShim) lastPatch(t *testing.T) patchCall {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.patches) == 0 {
		t.Fatal("no patch")
	}
	return s.patches[len(s.patches)-1]
}

// withFile is seedFiles with path's source replaced.
func withFile(path, src string) []preview.File {
	fs := seedFiles()
	for i := range fs {
		if fs[i].Path == path {
			fs[i].Source = src
		}
	}
	return fs
}

// ackedAt mounts files at rev and acknowledges the mount.
func ackedAt(t *testing.T, p *Port, s *patchShim, rev int64, files []preview.File) {
	t.Helper()
	if err := p.Mount(context.Background(), preview.Mount{Revision: rev, Files: files}); err != nil {
		t.Fatal(err)
	}
	m := s.last(t)
	if !p.Deliver(msg(preview.MessageReady, rev, m.nonce, nil)) {
		t.Fatal("ready refused")
	}
}

// TestCSSEditIsPatchedInPlace (design.md §5.33): a CSS-only edit of an acknowledged page is
// posted as a patch (no mount), the revision is "waiting" until the in-place ready of the
// patch's nonce, which acknowledges it with InPlace; messages of the old nonce are refused.
func TestCSSEditIsPatchedInPlace(t *testing.T) {
	ctx := context.Background()
	s := newPatchShim(t, true)
	p, _ := New(Options{Shim: s.obj})
	ackedAt(t, p, s, 1, seedFiles())
	old := s.last(t)
	css := "body { background: rgb(1, 2, 3); }"
	if err := p.Mount(ctx, preview.Mount{Revision: 2, Files: withFile("styles.css", css)}); err != nil {
		t.Fatal(err)
	}
	if mounts, patches := s.count(); mounts != 1 || patches != 1 {
		t.Fatalf("%d mounts, %d patches", mounts, patches)
	}
	pc := s.lastPatch(t)
	if pc.fromRev != 1 || pc.fromNonc != old.nonce || pc.revision != 2 || pc.nonce == old.nonce || len(pc.nonce) != 32 {
		t.Fatalf("patch call %+v", pc)
	}
	if len(pc.patch.Styles) != 1 || pc.patch.Styles[0].Text != css || pc.patch.Files["styles.css"] != css {
		t.Fatalf("patch %+v", pc.patch)
	}
	if st, _, ok := p.Shown(2); !ok || st != "waiting" {
		t.Fatalf("Shown(2) = %q %v while the patch is unanswered", st, ok)
	}
	if p.Deliver(msg(preview.MessageReady, 1, old.nonce, map[string]any{"inPlace": true})) {
		t.Fatal("a ready of the old nonce was accepted")
	}
	if p.Deliver(msg(preview.MessageReady, 2, pc.nonce, nil)) {
		t.Fatal("a ready that is not in place answered the patch")
	}
	if !p.Deliver(msg(preview.MessageReady, 2, pc.nonce, map[string]any{"inPlace": true})) {
		t.Fatal("the in-place ready was refused")
	}
	a, err := p.Await(ctx, 2, time.Second)
	if err != nil || a.Status != workspace.PreviewSynced || !a.InPlace {
		t.Fatalf("ack %+v %v", a, err)
	}
	if st := p.Status(); st.State != StateAcknowledged || !st.InPlace || st.Revision != 2 {
		t.Fatalf("status %+v", st)
	}
	// A second CSS edit patches from the patched document.
	_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: withFile("styles.css", css+" p{}")})
	if pc3 := s.lastPatch(t); pc3.fromRev != 2 || pc3.fromNonc != pc.nonce {
		t.Fatalf("second patch %+v", pc3)
	}
	if mounts, _ := s.count(); mounts != 1 {
		t.Fatal("second CSS edit mounted")
	}
}

// TestNotPatched: a JS edit, Refresh, an unacknowledged or failed page, a page that navigated
// away and a shim that cannot send the patch all mount in full.
func TestNotPatched(t *testing.T) {
	ctx := context.Background()
	css := "body { color: red; }"
	for name, run := range map[string]func(t *testing.T, p *Port, s *patchShim){
		"javascript": func(t *testing.T, p *Port, s *patchShim) {
			_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: withFile("app.js", "console.log(2)")})
		},
		"refresh": func(t *testing.T, p *Port, s *patchShim) {
			_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: withFile("styles.css", css), Remount: true})
		},
		"error": func(t *testing.T, p *Port, s *patchShim) {
			p.Deliver(msg(preview.MessageError, 1, s.last(t).nonce, map[string]any{"message": "x"}))
			_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: withFile("styles.css", css)})
		},
		"navigated away": func(t *testing.T, p *Port, s *patchShim) {
			p.Deliver(msg(preview.MessageLeaving, 1, s.last(t).nonce, nil))
			_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: withFile("styles.css", css)})
		},
		"shim refuses to send": func(t *testing.T, p *Port, s *patchShim) {
			s.accept = false
			_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: withFile("styles.css", css)})
		},
		"pending patch": func(t *testing.T, p *Port, s *patchShim) {
			_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: withFile("styles.css", css)})
			_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: withFile("styles.css", css+"p{}")})
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := newPatchShim(t, true)
			p, _ := New(Options{Shim: s.obj})
			ackedAt(t, p, s, 1, seedFiles())
			run(t, p, s)
			mounts, _ := s.count()
			if mounts != 2 {
				t.Fatalf("%d mounts, want 2", mounts)
			}
			if st := p.Status(); st.State != StatePending || st.InPlace {
				t.Fatalf("status %+v", st)
			}
		})
	}
}

// TestPatchFallbacks: a refused patch mounts the same document (nonce) in the same frame; an
// unanswered one mounts it in a fresh frame after PatchAckTimeout; a late in-place ready of a
// patch that fell back is refused.
func TestPatchFallbacks(t *testing.T) {
	ctx := context.Background()
	css := "body { color: red; }"
	s := newPatchShim(t, true)
	p, _ := New(Options{Shim: s.obj})
	ackedAt(t, p, s, 1, seedFiles())
	_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: withFile("styles.css", css)})
	pc := s.lastPatch(t)
	if !p.Deliver(msg(preview.MessagePatchRefused, 2, pc.nonce, map[string]any{"message": "the page changed the text of style 0"})) {
		t.Fatal("refusal not accepted")
	}
	m := s.last(t)
	if mounts, _ := s.count(); mounts != 2 || m.nonce != pc.nonce || m.revision != 2 || m.fresh || !strings.Contains(m.html, css) {
		t.Fatalf("after refusal: %d mounts, last %d %q fresh %v", mounts, m.revision, m.nonce, m.fresh)
	}
	if p.Deliver(msg(preview.MessageReady, 2, pc.nonce, map[string]any{"inPlace": true})) {
		t.Fatal("in-place ready accepted after the fallback mount")
	}
	if !p.Deliver(msg(preview.MessageReady, 2, pc.nonce, nil)) {
		t.Fatal("the fallback mount's ready was refused")
	}
	if st := p.Status(); st.State != StateAcknowledged || st.InPlace {
		t.Fatalf("status %+v", st)
	}

	// No answer: a fresh frame after PatchAckTimeout.
	_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: withFile("styles.css", css+"p{}")})
	pc = s.lastPatch(t)
	if pc.revision != 3 {
		t.Fatalf("patch %+v", pc)
	}
	deadline := time.Now().Add(preview.PatchAckTimeout + 2*time.Second)
	for {
		if mounts, _ := s.count(); mounts == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no fallback mount after PatchAckTimeout")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if m := s.last(t); m.revision != 3 || m.nonce != pc.nonce || !m.fresh {
		t.Fatalf("fallback mount %d %q fresh %v", m.revision, m.nonce, m.fresh)
	}
	if st, _, ok := p.Shown(3); !ok || st != "waiting" {
		t.Fatalf("Shown(3) = %q %v", st, ok)
	}
}
