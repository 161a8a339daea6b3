//go:build js && wasm

package iframe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
)

// fakeShim is a JS object with mount/attach that records mounts (no iframe).
type fakeShim struct {
	obj      js.Value
	funcs    []js.Func
	mu       sync.Mutex
	mounts   []mounted
	discards int
	deliver  js.Value
}

type mounted struct {
	revision int64
	nonce    string
	html     string
	fresh    bool
	quirks   bool
}

func newFakeShim(t *testing.T) *fakeShim {
	s := &fakeShim{obj: js.Global().Get("Object").New()}
	mount := js.FuncOf(func(_ js.Value, args []js.Value) any {
		s.mu.Lock()
		s.mounts = append(s.mounts, mounted{int64(args[0].Float()), args[1].String(), args[2].String(), len(args) > 3 && args[3].Truthy(), len(args) > 4 && args[4].Truthy()})
		s.mu.Unlock()
		return nil
	})
	attach := js.FuncOf(func(_ js.Value, args []js.Value) any {
		s.deliver = args[0]
		return nil
	})
	discard := js.FuncOf(func(_ js.Value, _ []js.Value) any {
		s.mu.Lock()
		s.discards++
		s.mu.Unlock()
		return nil
	})
	s.funcs = append(s.funcs, mount, attach, discard)
	s.obj.Set("discard", discard)
	s.obj.Set("mount", mount)
	s.obj.Set("attach", attach)
	t.Cleanup(func() {
		for _, f := range s.funcs {
			f.Release()
		}
	})
	return s
}

func (s *fakeShim) last(t *testing.T) mounted {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.mounts) == 0 {
		t.Fatal("nothing mounted")
	}
	return s.mounts[len(s.mounts)-1]
}

func msg(typ string, rev int64, nonce string, extra map[string]any) string {
	m := map[string]any{"type": typ, "revision": rev, "nonce": nonce}
	for k, v := range extra {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func seedFiles() []preview.File {
	var out []preview.File
	for _, f := range workspace.Seed().Files {
		out = append(out, preview.File{Path: f.Path, Language: f.Language, Kind: f.Kind, MimeType: f.MimeType, Source: f.Source, Data: f.Data})
	}
	return out
}

func TestNewNeedsShim(t *testing.T) {
	if _, err := New(Options{Shim: js.Global().Get("Object").New()}); !errors.Is(err, ErrNoShim) {
		t.Fatalf("New without mount/attach = %v", err)
	}
	if _, err := New(Options{Shim: js.Undefined()}); !errors.Is(err, ErrNoShim) {
		t.Fatalf("New(undefined) = %v", err)
	}
}

func TestMountCompilesWithFreshNonce(t *testing.T) {
	shim := newFakeShim(t)
	p, err := New(Options{Shim: shim.obj})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := p.Mount(ctx, preview.Mount{Revision: 3, Files: seedFiles()}); err != nil {
		t.Fatal(err)
	}
	a := shim.last(t)
	if a.revision != 3 || len(a.nonce) != 32 || !strings.Contains(a.html, a.nonce) || !strings.Contains(a.html, preview.BridgeAttr) {
		t.Fatalf("mount %d %q (html has nonce: %v)", a.revision, a.nonce, strings.Contains(a.html, a.nonce))
	}
	if st := p.Status(); st.State != StatePending || st.Revision != 3 || st.Entry != "index.html" {
		t.Fatalf("status %+v", st)
	}
	// Same revision: no-op; Remount: a new nonce.
	_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: seedFiles()})
	if n := len(shim.mounts); n != 1 {
		t.Fatalf("%d mounts after re-mounting the same revision", n)
	}
	_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: seedFiles(), Remount: true})
	if b := shim.last(t); b.nonce == a.nonce {
		t.Fatal("remount reused the nonce")
	}
}

func TestDeliverChecksNonceAndRevision(t *testing.T) {
	shim := newFakeShim(t)
	p, _ := New(Options{Shim: shim.obj})
	ctx := context.Background()
	if p.Deliver(msg(preview.MessageReady, 0, "", nil)) {
		t.Fatal("accepted a message before any mount")
	}
	_ = p.Mount(ctx, preview.Mount{Revision: 5, Files: seedFiles()})
	m := shim.last(t)
	for name, raw := range map[string]string{
		"forged nonce":   msg(preview.MessageReady, 5, "forged", nil),
		"other revision": msg(preview.MessageReady, 4, m.nonce, nil),
		"newer revision": msg(preview.MessageReady, 6, m.nonce, nil),
		"unknown type":   msg("webcoding.preview.other", 5, m.nonce, nil),
		"not json":       "{",
		"empty nonce":    msg(preview.MessageError, 5, "", map[string]any{"message": "x"}),
	} {
		if p.Deliver(raw) {
			t.Errorf("%s accepted", name)
		}
	}
	if st := p.Status(); st.State != StatePending {
		t.Fatalf("state %s after rejected messages", st.State)
	}
	// A stale nonce from the previous mount is rejected after a remount.
	_ = p.Mount(ctx, preview.Mount{Revision: 5, Files: seedFiles(), Remount: true})
	if p.Deliver(msg(preview.MessageReady, 5, m.nonce, nil)) {
		t.Fatal("stale nonce accepted")
	}
	cur := shim.last(t)
	if !p.Deliver(msg(preview.MessageReady, 5, cur.nonce, nil)) {
		t.Fatal("the current mount's ready was rejected")
	}
	if p.Deliver(msg(preview.MessageReady, 5, cur.nonce, nil)) {
		t.Fatal("a second ready was accepted")
	}
	ack, err := p.Await(ctx, 5, time.Second)
	if err != nil || ack.Status != workspace.PreviewSynced || ack.Runtime != preview.RuntimeSandboxIframe {
		t.Fatalf("Await = %+v, %v", ack, err)
	}
	if st := p.Status(); st.State != StateAcknowledged {
		t.Fatalf("state %s", st.State)
	}
}

func TestErrorAckAndBounds(t *testing.T) {
	shim := newFakeShim(t)
	var changes int
	var mu sync.Mutex
	p, _ := New(Options{Shim: shim.obj, OnChange: func(Status) { mu.Lock(); changes++; mu.Unlock() }})
	ctx := context.Background()
	_ = p.Mount(ctx, preview.Mount{Revision: 9, Files: seedFiles()})
	m := shim.last(t)
	long := strings.Repeat("é", 300)
	if !p.Deliver(msg(preview.MessageError, 9, m.nonce, map[string]any{"message": long})) {
		t.Fatal("error rejected")
	}
	ack, err := p.Await(ctx, 9, time.Second)
	if err != nil || ack.Status != workspace.PreviewError || len([]rune(ack.Message)) != preview.MaxErrorMessageChars {
		t.Fatalf("error ack %+v (%d chars), %v", ack, len([]rune(ack.Message)), err)
	}
	if p.Deliver(msg(preview.MessageReady, 9, m.nonce, nil)) {
		t.Fatal("ready after error accepted")
	}
	for i := 0; i < MaxConsole+25; i++ {
		p.Deliver(msg(preview.MessageConsole, 9, m.nonce, map[string]any{"level": "warn", "text": strings.Repeat("x", 900)}))
	}
	st := p.Status()
	if len(st.Console) != MaxConsole || len(st.Console[0].Text) != preview.MaxConsoleTextChars || st.Console[0].Level != "warn" {
		t.Fatalf("console %d lines, first %d chars", len(st.Console), len(st.Console[0].Text))
	}
	p.ClearConsole()
	if len(p.Status().Console) != 0 {
		t.Fatal("ClearConsole left lines")
	}
	mu.Lock()
	defer mu.Unlock()
	if changes < MaxConsole {
		t.Fatalf("OnChange called %d times", changes)
	}
}

func TestAwaitTimesOut(t *testing.T) {
	shim := newFakeShim(t)
	p, _ := New(Options{Shim: shim.obj})
	_ = p.Mount(context.Background(), preview.Mount{Revision: 2, Files: seedFiles()})
	if _, err := p.Await(context.Background(), 2, 20*time.Millisecond); !errors.Is(err, preview.ErrAckTimeout) {
		t.Fatalf("Await = %v, want ErrAckTimeout", err)
	}
}

// TestShimCallbackHandsOff checks that a message delivered through the JS callback (as the
// shim does) reaches the port.
func TestShimCallbackHandsOff(t *testing.T) {
	shim := newFakeShim(t)
	p, _ := New(Options{Shim: shim.obj})
	_ = p.Mount(context.Background(), preview.Mount{Revision: 4, Files: seedFiles()})
	m := shim.last(t)
	shim.deliver.Invoke(msg(preview.MessageReady, 4, m.nonce, nil))
	if _, err := p.Await(context.Background(), 4, time.Second); err != nil {
		t.Fatal(err)
	}
}

// TestTimeoutDiscardsFrame: an ack timeout of the current pending mount discards the frame,
// reports StateTimedOut, ignores the stuck mount's late ready, and the next mount (and every
// Remount) asks the shim for a fresh frame; a mount after an acknowledged one does not.
func TestTimeoutDiscardsFrame(t *testing.T) {
	ctx := context.Background()
	shim := newFakeShim(t)
	p, err := New(Options{Shim: shim.obj})
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Mount(ctx, preview.Mount{Revision: 1, Files: seedFiles()})
	first := shim.last(t)
	if !p.Deliver(msg(preview.MessageReady, 1, first.nonce, nil)) {
		t.Fatal("ready refused")
	}
	_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: seedFiles()})
	stuck := shim.last(t)
	if stuck.fresh {
		t.Error("a mount after an acknowledged one asked for a fresh frame")
	}
	if _, err := p.Await(ctx, 2, 20*time.Millisecond); !errors.Is(err, preview.ErrAckTimeout) {
		t.Fatalf("Await = %v", err)
	}
	if st := p.Status(); st.State != StateTimedOut || st.Revision != 2 || shim.discards != 1 {
		t.Fatalf("after the timeout: state %q revision %d discards %d", st.State, st.Revision, shim.discards)
	}
	if p.Deliver(msg(preview.MessageReady, 2, stuck.nonce, nil)) {
		t.Error("a late ready of the discarded mount was accepted")
	}
	_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: seedFiles()}) // same revision after a timeout: remounted
	if again := shim.last(t); again.nonce == stuck.nonce || !again.fresh {
		t.Errorf("mount after a timeout: new nonce %v, fresh %v", again.nonce != stuck.nonce, again.fresh)
	}
	_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: seedFiles()}) // previous still pending
	if !shim.last(t).fresh {
		t.Error("a mount after an unanswered one reused the frame")
	}
	if !p.Deliver(msg(preview.MessageReady, 3, shim.last(t).nonce, nil)) {
		t.Fatal("ready of revision 3 refused")
	}
	_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: seedFiles(), Remount: true})
	if !shim.last(t).fresh {
		t.Error("Remount (Refresh) reused the frame")
	}
}

// TestBatchOneNotification: a batch of console lines and reports is one status change (one
// re-render), bounded, and an unknown or foreign message in it is skipped.
func TestBatchOneNotification(t *testing.T) {
	shim := newFakeShim(t)
	var mu sync.Mutex
	notes := 0
	p, err := New(Options{Shim: shim.obj, OnChange: func(Status) { mu.Lock(); notes++; mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Mount(context.Background(), preview.Mount{Revision: 4, Files: seedFiles()})
	m := shim.last(t)
	var batch []string
	for i := 0; i < 300; i++ {
		batch = append(batch, msg(preview.MessageConsole, 4, m.nonce, map[string]any{"level": "log", "text": "line"}))
		batch = append(batch, msg(preview.MessageReport, 4, m.nonce, map[string]any{"kind": "blocked", "url": "http://127.0.0.1:" + itoa(i) + "/", "detail": "connect-src"}))
	}
	batch = append(batch, msg("webcoding.preview.bogus", 4, m.nonce, nil), msg(preview.MessageConsole, 4, "forged", map[string]any{"text": "x"}))
	mu.Lock()
	notes = 0
	mu.Unlock()
	if n := p.DeliverBatch("[" + strings.Join(batch, ",") + "]"); n != 300+preview.MaxRuntimeReports {
		t.Fatalf("accepted %d", n)
	}
	st := p.Status()
	if len(st.Console) != MaxConsole || len(st.Reports) != preview.MaxRuntimeReports || st.Reports[0].Kind != preview.ReportBlocked {
		t.Fatalf("console %d reports %d", len(st.Console), len(st.Reports))
	}
	mu.Lock()
	defer mu.Unlock()
	if notes != 1 {
		t.Fatalf("%d notifications for one batch", notes)
	}
}

// TestLeavingIsNeverAcknowledged: a document that navigates away before its ready fails the
// mount with NavigatedAwayMessage; after it, even a ready of that mount is refused.
func TestLeavingIsNeverAcknowledged(t *testing.T) {
	ctx := context.Background()
	shim := newFakeShim(t)
	p, _ := New(Options{Shim: shim.obj})
	_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: seedFiles()})
	m := shim.last(t)
	if p.DeliverBatch("["+msg(preview.MessageLeaving, 2, m.nonce, map[string]any{"url": ""})+","+msg(preview.MessageReady, 2, m.nonce, nil)+"]") != 1 {
		t.Fatal("leaving + ready: want only leaving accepted")
	}
	a, err := p.Await(ctx, 2, time.Second)
	if err != nil || a.Status != workspace.PreviewError || a.Message != NavigatedAwayMessage {
		t.Fatalf("ack %+v %v", a, err)
	}
	if st := p.Status(); st.State != StateNavigated {
		t.Fatalf("state %q", st.State)
	}
	// After an acknowledged mount, leaving changes the state but not the ack.
	_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: seedFiles()})
	m = shim.last(t)
	p.Deliver(msg(preview.MessageReady, 3, m.nonce, nil))
	p.Deliver(msg(preview.MessageLeaving, 3, m.nonce, nil))
	if a, _ := p.Await(ctx, 3, time.Second); a.Status != workspace.PreviewSynced {
		t.Fatalf("ack replaced: %+v", a)
	}
	if st := p.Status(); st.State != StateNavigated || !strings.Contains(st.Message, "navigated away") {
		t.Fatalf("status %+v", st)
	}
}

// TestStorageSurvivesRemount: storage changes reach the next mount's document (bounded);
// ClearStorage empties them.
func TestStorageSurvivesRemount(t *testing.T) {
	ctx := context.Background()
	shim := newFakeShim(t)
	p, _ := New(Options{Shim: shim.obj})
	_ = p.Mount(ctx, preview.Mount{Revision: 1, Files: seedFiles()})
	m := shim.last(t)
	p.Deliver(msg(preview.MessageStorage, 1, m.nonce, map[string]any{"area": "local", "set": map[string]any{"todo": "milk", "gone": nil}}))
	p.Deliver(msg(preview.MessageStorage, 1, m.nonce, map[string]any{"area": "local", "set": map[string]any{"big": strings.Repeat("x", preview.MaxPreviewStorageChars)}}))
	// The cookie jar is an area too (a cookie set on one page is read on the next); an area the
	// port does not know is ignored.
	p.Deliver(msg(preview.MessageStorage, 1, m.nonce, map[string]any{"area": "cookie", "set": map[string]any{"user": "ada"}}))
	p.Deliver(msg(preview.MessageStorage, 1, m.nonce, map[string]any{"area": "other", "set": map[string]any{"x": "y"}}))
	if got := p.Storage(); len(got.Local) != 1 || got.Local["todo"] != "milk" || len(got.Cookie) != 1 || got.Cookie["user"] != "ada" {
		t.Fatalf("storage %+v", got)
	}
	_ = p.Mount(ctx, preview.Mount{Revision: 2, Files: seedFiles()})
	if h := shim.last(t).html; !strings.Contains(h, `"storage":{"local":{"todo":"milk"},"cookie":{"user":"ada"}}`) {
		t.Fatal("the next mount does not start with the stored values")
	}
	p.ClearStorage()
	_ = p.Mount(ctx, preview.Mount{Revision: 3, Files: seedFiles()})
	if h := shim.last(t).html; strings.Contains(h, `"todo":"milk"`) || strings.Contains(h, `"user":"ada"`) {
		t.Fatal("storage not cleared")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestConsoleEntries (issue 17): console lines, errors and rejections are numbered in arrival
// order; a path is kept only when it names a file of the mount, a line only in range; unknown
// levels and kinds are normalised; ConsoleEntries returns them for preview.getConsole.
func TestConsoleEntries(t *testing.T) {
	shim := newFakeShim(t)
	p, _ := New(Options{Shim: shim.obj})
	ctx := context.Background()
	_ = p.Mount(ctx, preview.Mount{Revision: 4, Files: seedFiles()})
	m := shim.last(t)
	for _, extra := range []map[string]any{
		{"level": "log", "kind": "console", "text": "hello", "path": "app.js", "line": 6},
		{"level": "log", "kind": "error", "text": "Uncaught Error: boom", "path": "app.js", "line": 7},
		{"level": "info", "kind": "rejection", "text": "Uncaught (in promise) x", "path": "other.js", "line": 3},
		{"level": "shout", "kind": "weird", "text": "odd", "path": "app.js", "line": 1e9},
	} {
		if !p.Deliver(msg(preview.MessageConsole, 4, m.nonce, extra)) {
			t.Fatalf("rejected %v", extra)
		}
	}
	want := []preview.ConsoleEntry{
		{Sequence: 1, Revision: 4, Level: "log", Kind: "console", Text: "hello", Path: "app.js", Line: 6},
		{Sequence: 2, Revision: 4, Level: "error", Kind: "error", Text: "Uncaught Error: boom", Path: "app.js", Line: 7},
		{Sequence: 3, Revision: 4, Level: "error", Kind: "rejection", Text: "Uncaught (in promise) x"},
		{Sequence: 4, Revision: 4, Level: "log", Kind: "console", Text: "odd", Path: "app.js"},
	}
	got := p.ConsoleEntries()
	if len(got) != len(want) {
		t.Fatalf("entries %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	var _ preview.ConsoleObserver = p
}

// TestNavigateReplace (design.md §5.34): a navigate message appends the page to the history;
// one with replace (location.replace, reload) takes the place of the page shown, so Back
// skips it as in a browser.
func TestNavigateReplace(t *testing.T) {
	ctx := context.Background()
	shim := newFakeShim(t)
	p, _ := New(Options{Shim: shim.obj})
	files := append(seedFiles(), preview.File{Path: "a.html", Language: preview.LangHTML, Kind: preview.KindText, Source: "<p>a</p>"},
		preview.File{Path: "b.html", Language: preview.LangHTML, Kind: preview.KindText, Source: "<p>b</p>"})
	_ = p.Mount(ctx, preview.Mount{Revision: 1, Files: files})
	p.Deliver(msg(preview.MessageNavigate, 1, shim.last(t).nonce, map[string]any{"path": "a.html"}))
	p.Deliver(msg(preview.MessageNavigate, 1, shim.last(t).nonce, map[string]any{"path": "b.html", "search": "?q=1", "replace": true}))
	if h := shim.last(t).html; !strings.Contains(h, `"entry":"b.html","search":"?q=1"`) {
		t.Fatalf("b.html?q=1 not mounted")
	}
	p.mu.Lock()
	got := fmt.Sprint(p.history, p.at)
	p.mu.Unlock()
	if got != "[{index.html   true } {b.html ?q=1  false https://workspace.invalid/a.html}] 1" { // replaced by a.html's script: its referrer
		t.Fatalf("history %s, want index.html then b.html (a.html replaced)", got)
	}
	if !p.Back() || !strings.Contains(shim.last(t).html, `"entry":"index.html","dir":true`) {
		t.Fatal("Back did not show index.html at the site's root URL")
	}
}

// TestNavigateFolderURL (docs/preview.md "Navigation"): the default entry index.html is shown
// at the site's root URL (dir); a navigate message's dir is kept for a folder's index.html
// (a link to "./") and dropped for another page.
func TestNavigateFolderURL(t *testing.T) {
	ctx := context.Background()
	shim := newFakeShim(t)
	p, _ := New(Options{Shim: shim.obj})
	files := append(seedFiles(), preview.File{Path: "a.html", Language: preview.LangHTML, Kind: preview.KindText, Source: "<p>a</p>"})
	_ = p.Mount(ctx, preview.Mount{Revision: 1, Files: files})
	if h := shim.last(t).html; !strings.Contains(h, `"entry":"index.html","dir":true,"base":"https://workspace.invalid/"`) {
		t.Fatal("the first mount of index.html is not at the root URL")
	}
	p.Deliver(msg(preview.MessageNavigate, 1, shim.last(t).nonce, map[string]any{"path": "index.html", "search": "?x=1"}))
	if h := shim.last(t).html; !strings.Contains(h, `"entry":"index.html","search":"?x=1","base":"https://workspace.invalid/index.html?x=1"`) {
		t.Fatal("a link to index.html?x=1 is not mounted at .../index.html?x=1")
	}
	p.Deliver(msg(preview.MessageNavigate, 1, shim.last(t).nonce, map[string]any{"path": "a.html", "dir": true}))
	if h := shim.last(t).html; !strings.Contains(h, `"entry":"a.html","base":"https://workspace.invalid/a.html"`) {
		t.Fatal("dir was kept for a page that is not a folder's index.html")
	}
	// document.referrer: the page that navigated (its URL without the fragment); none for
	// the first page; kept with a page in the Back/Forward list.
	if h := shim.last(t).html; !strings.Contains(h, `"referrer":"https://workspace.invalid/index.html?x=1"`) {
		t.Error("a.html's referrer is not the page that linked to it")
	}
	if p.Back(); !strings.Contains(shim.last(t).html, `"referrer":"https://workspace.invalid/"`) {
		t.Error("index.html?x=1 (Back) lost its referrer, the root page")
	}
	if p.Back(); strings.Contains(shim.last(t).html, `"referrer":"`) {
		t.Error("the first page has a referrer")
	}
	p.Forward()
	p.Forward()
	p.Deliver(msg(preview.MessageNavigate, 1, shim.last(t).nonce, map[string]any{"path": "index.html", "dir": true}))
	if h := shim.last(t).html; !strings.Contains(h, `"entry":"index.html","dir":true,"base":"https://workspace.invalid/"`) {
		t.Fatal("a link to ./ is not mounted at the root URL")
	}
}

// TestQuirksPageMountedFromURL: a page without a doctype (which browsers lay out in quirks
// mode, and HTML's parser never in an iframe srcdoc document) is mounted with the shim's quirks
// flag, so the shim loads it from a blob: URL; the seed page (<!doctype html>) is not. No
// quirks-mode warning is left in the status (docs/design.md §5.53, which replaced §5.49's).
func TestQuirksPageMountedFromURL(t *testing.T) {
	shim := newFakeShim(t)
	p, err := New(Options{Shim: shim.obj})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := p.Mount(ctx, preview.Mount{Revision: 1, Files: seedFiles()}); err != nil {
		t.Fatal(err)
	}
	if shim.last(t).quirks {
		t.Fatal("the seed page (<!doctype html>) was mounted as a quirks-mode page")
	}
	files := []preview.File{{Path: "index.html", Language: preview.LangHTML, Kind: preview.KindText, Source: `<html><body><img src="gone.png">`}}
	if err := p.Mount(ctx, preview.Mount{Revision: 2, Files: files}); err != nil {
		t.Fatal(err)
	}
	if m := shim.last(t); !m.quirks || m.revision != 2 {
		t.Fatalf("last mount %d quirks %v, want revision 2 as a quirks-mode page", m.revision, m.quirks)
	}
	ds := p.Status().Diagnostics
	if len(ds) != 1 || ds[0].Kind != preview.DiagMissingReference {
		t.Fatalf("diagnostics %+v, want the missing image only", ds)
	}
}
