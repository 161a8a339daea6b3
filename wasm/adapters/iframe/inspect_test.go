//go:build js && wasm

package iframe

import (
	"context"
	"errors"
	"sync"
	"syscall/js"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/preview"
)

// liveSelection is a well-formed LiveElement of the seed's hero heading.
func liveSelection() map[string]any {
	styles := map[string]string{}
	for _, p := range preview.ComputedStyleProps {
		styles[p] = "1px"
	}
	return map[string]any{"selector": "#hero-title", "tag": "h1", "html": `<h1 id="hero-title">Sketch, ship and share in one canvas</h1>`,
		"htmlTruncated": false, "ancestors": []string{"header.hero", "body", "html"}, "matches": 1, "styles": styles,
		"box": map[string]any{"x": 1, "y": 2, "width": 3, "height": 4}}
}

// withLiveShim adds inspect(id, selector) and pick(on) to the fake shim; inspect records ids.
func withLiveShim(t *testing.T, shim *fakeShim) (ids chan int64) {
	ids = make(chan int64, 8)
	inspect := js.FuncOf(func(_ js.Value, args []js.Value) any { ids <- int64(args[0].Float()); return true })
	pick := js.FuncOf(func(_ js.Value, args []js.Value) any { return true })
	shim.funcs = append(shim.funcs, inspect, pick)
	shim.obj.Set("inspect", inspect)
	shim.obj.Set("pick", pick)
	return ids
}

func ackedPort(t *testing.T, onPick func(preview.Selection, string, error)) (*Port, *fakeShim, chan int64) {
	shim := newFakeShim(t)
	ids := withLiveShim(t, shim)
	p, err := New(Options{Shim: shim.obj, OnPick: onPick})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Mount(context.Background(), preview.Mount{Revision: 4, Files: seedFiles()}); err != nil {
		t.Fatal(err)
	}
	return p, shim, ids
}

// TestPickOnlyWhenAsked: a selection that arrives while pick mode is off (page code could
// forge one) is dropped; in pick mode one selection is described (source line included) and
// ends pick mode; a malformed one reaches OnPick as a *preview.SelectionError.
func TestPickOnlyWhenAsked(t *testing.T) {
	var mu sync.Mutex
	var got []preview.Selection
	var errs []error
	p, shim, _ := ackedPort(t, func(s preview.Selection, page string, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, err)
			return
		}
		got = append(got, s)
	})
	m := shim.last(t)
	if err := p.SetPicking(true); !errors.Is(err, preview.ErrNotLive) {
		t.Fatalf("pick before the ack: %v", err)
	}
	p.Deliver(msg(preview.MessageReady, 4, m.nonce, nil))
	if p.Deliver(msg(preview.MessageSelection, 4, m.nonce, map[string]any{"id": 0, "selection": liveSelection()})) {
		t.Fatal("accepted a pick that was not asked for")
	}
	if err := p.SetPicking(true); err != nil || !p.Status().Picking {
		t.Fatalf("SetPicking: %v", err)
	}
	if !p.Deliver(msg(preview.MessageSelection, 4, m.nonce, map[string]any{"id": 0, "selection": liveSelection()})) {
		t.Fatal("the pick was refused")
	}
	if p.Status().Picking || p.Deliver(msg(preview.MessageSelection, 4, m.nonce, map[string]any{"id": 0, "selection": liveSelection()})) {
		t.Fatal("pick mode did not end with the pick")
	}
	_ = p.SetPicking(true)
	bad := liveSelection()
	bad["run"] = "workspace.deleteFile"
	p.Deliver(msg(preview.MessageSelection, 4, m.nonce, map[string]any{"id": 0, "selection": bad}))
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0].Line != 12 || got[0].Role != "heading" || got[0].Box.Height != 4 {
		t.Fatalf("picks %+v", got)
	}
	var se *preview.SelectionError
	if len(errs) != 1 || !errors.As(errs[0], &se) {
		t.Fatalf("malformed pick: %v", errs)
	}
}

// TestInspectLive: only an acknowledged mount of the asked revision is asked; the answer with
// the request's id is described; a new mount while waiting is ErrRevisionMoved.
func TestInspectLive(t *testing.T) {
	p, shim, ids := ackedPort(t, nil)
	ctx := context.Background()
	if _, _, err := p.InspectLive(ctx, 4, "h1"); !errors.Is(err, preview.ErrNotLive) {
		t.Fatalf("pending mount: %v", err)
	}
	m := shim.last(t)
	p.Deliver(msg(preview.MessageReady, 4, m.nonce, nil))
	if _, _, err := p.InspectLive(ctx, 3, "h1"); !errors.Is(err, preview.ErrRevisionMoved) {
		t.Fatalf("another revision: %v", err)
	}
	type answer struct {
		sel  preview.Selection
		path string
		err  error
	}
	ask := func() chan answer {
		c := make(chan answer, 1)
		go func() { s, path, err := p.InspectLive(ctx, 4, "#hero-title"); c <- answer{s, path, err} }()
		return c
	}
	c := ask()
	id := <-ids
	if p.Deliver(msg(preview.MessageSelection, 4, m.nonce, map[string]any{"id": id + 100, "selection": liveSelection()})) {
		t.Fatal("accepted an answer to no request")
	}
	p.Deliver(msg(preview.MessageSelection, 4, m.nonce, map[string]any{"id": id, "selection": liveSelection()}))
	a := <-c
	if a.err != nil || a.path != "index.html" || a.sel.Line != 12 || a.sel.Styles["font-size"] != "1px" {
		t.Fatalf("answer %+v", a)
	}
	c = ask()
	id = <-ids
	p.Deliver(msg(preview.MessageSelection, 4, m.nonce, map[string]any{"id": id, "error": "no-match"}))
	if a := <-c; !errors.Is(a.err, preview.ErrNoMatch) {
		t.Fatalf("no match: %v", a.err)
	}
	c = ask()
	<-ids
	_ = p.Mount(ctx, preview.Mount{Revision: 5, Files: seedFiles()})
	select {
	case a := <-c:
		if !errors.Is(a.err, preview.ErrRevisionMoved) {
			t.Fatalf("after a new mount: %v", a.err)
		}
	case <-time.After(InspectTimeout / 2):
		t.Fatal("a new mount did not end the waiting inspection")
	}
}

// TestInspectLiveAfterARuntimeError (new-user test of issue 17): a runtime error after ready
// (a click handler that throws) leaves the page running, so live inspection still answers; a
// mount that failed before ready is not live.
func TestInspectLiveAfterARuntimeError(t *testing.T) {
	p, shim, ids := ackedPort(t, nil)
	ctx := context.Background()
	m := shim.last(t)
	p.Deliver(msg(preview.MessageReady, 4, m.nonce, nil))
	p.Deliver(msg(preview.MessageError, 4, m.nonce, map[string]any{"message": "handler threw"}))
	if st := p.Status(); st.State != StateError {
		t.Fatalf("state %q after the error", st.State)
	}
	c := make(chan error, 1)
	go func() { _, _, err := p.InspectLive(ctx, 4, "#hero-title"); c <- err }()
	select {
	case id := <-ids:
		p.Deliver(msg(preview.MessageSelection, 4, m.nonce, map[string]any{"id": id, "selection": liveSelection()}))
		if err := <-c; err != nil {
			t.Fatalf("inspect after a handled runtime error: %v", err)
		}
	case err := <-c:
		t.Fatalf("inspect refused after a runtime error that followed ready: %v", err)
	}
	if err := p.Mount(ctx, preview.Mount{Revision: 5, Files: seedFiles()}); err != nil {
		t.Fatal(err)
	}
	m = shim.last(t)
	p.Deliver(msg(preview.MessageError, 5, m.nonce, map[string]any{"message": "boot failed"}))
	if _, _, err := p.InspectLive(ctx, 5, "h1"); !errors.Is(err, preview.ErrNotLive) {
		t.Fatalf("a mount that failed before ready must not be live: %v", err)
	}
}

// TestErrorKeepsItsOwnLine (new-user test of issue 17): the status names the file and line of
// the error its message reports — the error entry posted just before it — not those of a newer
// error entry (Ask to fix attaches these); a console.error call is not an error entry.
func TestErrorKeepsItsOwnLine(t *testing.T) {
	p, shim, _ := ackedPort(t, nil)
	m := shim.last(t)
	entry := func(kind string, line int) string {
		return msg(preview.MessageConsole, 4, m.nonce, map[string]any{"level": "error", "kind": kind, "text": "x", "path": "app.js", "line": line})
	}
	p.Deliver(msg(preview.MessageReady, 4, m.nonce, nil))
	p.Deliver(entry(preview.ConsoleKindError, 5))
	p.Deliver(msg(preview.MessageError, 4, m.nonce, map[string]any{"message": "first"}))
	p.Deliver(entry(preview.ConsoleKindRejection, 9))
	p.Deliver(entry(preview.ConsoleKindError, 11))
	if st := p.Status(); st.Message != "first" || st.ErrorPath != "app.js" || st.ErrorLine != 5 {
		t.Fatalf("the banner's error must keep its own line: %q %s:%d", st.Message, st.ErrorPath, st.ErrorLine)
	}
	if err := p.Mount(context.Background(), preview.Mount{Revision: 5, Files: seedFiles()}); err != nil {
		t.Fatal(err)
	}
	m = shim.last(t)
	if st := p.Status(); st.ErrorPath != "" || st.ErrorLine != 0 {
		t.Fatalf("a new mount keeps the old error's line: %s:%d", st.ErrorPath, st.ErrorLine)
	}
	p.Deliver(msg(preview.MessageConsole, 5, m.nonce, map[string]any{"level": "error", "kind": "console", "text": "logged", "path": "app.js", "line": 3}))
	p.Deliver(msg(preview.MessageError, 5, m.nonce, map[string]any{"message": "no stack"}))
	if st := p.Status(); st.ErrorPath != "" || st.ErrorLine != 0 {
		t.Fatalf("a console.error call is not the error's location: %s:%d", st.ErrorPath, st.ErrorLine)
	}
}
