//go:build js && wasm

package iframe

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall/js"
	"time"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
)

// MaxConsole is the number of preview console lines kept (the newest win).
const MaxConsole = 200

// Preview states reported by Status.State.
const (
	StateIdle         = "idle"         // nothing mounted yet
	StatePending      = "pending"      // mounted, waiting for the frame's ready/error
	StateAcknowledged = "acknowledged" // the frame posted ready for the current mount
	StateError        = "error"        // the frame posted error for the current mount
	StateTimedOut     = "timedOut"     // no ready/error in time: the frame was discarded
)

// ConsoleLine is one forwarded console call of the preview.
type ConsoleLine struct {
	Revision int64  `json:"revision"`
	Level    string `json:"level"` // "log", "warn" or "error"
	Text     string `json:"text"`
}

// Status is a snapshot of the preview for the UI.
//
// Shape: {"revision": 3, "state": "pending"|"acknowledged"|"error"|"idle", "message"?: "…",
// "entry": "index.html", "diagnostics": [...], "console": [...], "mountedAt", "ackAt"}.
// MountedAt/AckAt are the page clock in ms (performance.now) of the current mount and its
// ack (0 when none).
type Status struct {
	Revision    int64                `json:"revision"`
	State       string               `json:"state"`
	Message     string               `json:"message,omitempty"`
	Entry       string               `json:"entry"`
	Diagnostics []preview.Diagnostic `json:"diagnostics"`
	Console     []ConsoleLine        `json:"console"`
	MountedAt   float64              `json:"mountedAt"`
	AckAt       float64              `json:"ackAt"`
}

// Options configure New.
type Options struct {
	// Shim is the page's preview shim object (globalThis.webcodingPreview): it must have
	// mount(revision, nonce, html) and attach(callback) methods.
	Shim js.Value
	// Random is the nonce source (nil: crypto/rand).
	Random io.Reader
	// OnChange is called (from a goroutine, never the event loop) after every change of
	// Status: mount, ack, error, console line. Nil: no notifications.
	OnChange func(Status)
}

// Port implements preview.Port over the shim. It is safe for concurrent use.
type Port struct {
	shim     js.Value
	random   io.Reader
	onChange func(Status)
	board    preview.AckBoard
	callback js.Func

	mu     sync.Mutex
	rev    int64
	nonce  string
	status Status
}

var _ preview.Port = (*Port)(nil)

// ErrNoShim is returned by New when the shim object lacks mount or attach.
var ErrNoShim = errors.New("iframe: the preview shim (globalThis.webcodingPreview) is missing")

// New attaches a Port to the shim. Errors: ErrNoShim.
func New(o Options) (*Port, error) {
	if o.Shim.Type() != js.TypeObject || o.Shim.Get("mount").Type() != js.TypeFunction || o.Shim.Get("attach").Type() != js.TypeFunction {
		return nil, ErrNoShim
	}
	p := &Port{shim: o.Shim, random: o.Random, onChange: o.OnChange, status: Status{State: StateIdle, Diagnostics: []preview.Diagnostic{}, Console: []ConsoleLine{}}}
	if p.random == nil {
		p.random = rand.Reader
	}
	p.callback = jsbridge.Func("iframe.message", func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return nil
		}
		raw := args[0].String() // copy out; the rest runs off the event loop
		jsbridge.Go("iframe.deliver", func() { p.Deliver(raw) })
		return nil
	})
	o.Shim.Call("attach", p.callback)
	return p, nil
}

// Runtime returns preview.RuntimeSandboxIframe.
func (p *Port) Runtime() string { return preview.RuntimeSandboxIframe }

// Await waits for the ack of revision (preview.Port).
//
// On preview.ErrAckTimeout for the current, still pending mount the frame is discarded (the
// shim replaces the iframe element: a document stuck in a loop cannot be navigated away) and
// Status.State becomes StateTimedOut; the next Mount creates a fresh frame.
func (p *Port) Await(ctx context.Context, revision int64, timeout time.Duration) (preview.Ack, error) {
	ack, err := p.board.Await(ctx, revision, timeout)
	if errors.Is(err, preview.ErrAckTimeout) {
		p.timedOut(revision)
	}
	return ack, err
}

// timedOut discards the frame of revision when it is still the current pending mount.
func (p *Port) timedOut(revision int64) {
	p.mu.Lock()
	if p.rev != revision || p.status.State != StatePending {
		p.mu.Unlock()
		return
	}
	p.nonce = "" // late messages of the stuck mount are ignored
	p.status.State, p.status.Message = StateTimedOut, ""
	st := p.snapshotLocked()
	p.mu.Unlock()
	func() {
		defer func() { _ = recover() }()
		if p.shim.Get("discard").Type() == js.TypeFunction {
			p.shim.Call("discard")
		}
	}()
	p.notify(st)
}

// Mount compiles m.Files for m.Revision with a fresh nonce and sets it as the frame's
// srcdoc. Mounting the current revision again is a no-op unless m.Remount. Errors: the nonce
// source failed, or the shim threw (its message is returned).
func (p *Port) Mount(ctx context.Context, m preview.Mount) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.mu.Lock()
	if p.rev == m.Revision && p.nonce != "" && !m.Remount && p.status.State != StateTimedOut {
		p.mu.Unlock()
		return nil
	}
	p.mu.Unlock()
	var b [16]byte
	if _, err := io.ReadFull(p.random, b[:]); err != nil {
		return fmt.Errorf("iframe: nonce: %w", err)
	}
	nonce := hex.EncodeToString(b[:])
	res := preview.Compile(m.Files, preview.Options{Revision: m.Revision, Nonce: nonce, Bridge: true})
	p.mu.Lock()
	// A fresh frame on Refresh and when the previous mount never answered (it may be stuck).
	fresh := m.Remount || p.status.State == StatePending || p.status.State == StateTimedOut
	p.rev, p.nonce = m.Revision, nonce
	p.status.Revision, p.status.State, p.status.Message = m.Revision, StatePending, ""
	p.status.Entry, p.status.Diagnostics = res.Entry, res.Diagnostics
	if d, ok := preview.EntryDiagnostic(res.Entry); ok { // a fallback entry is named first
		p.status.Diagnostics = append([]preview.Diagnostic{d}, res.Diagnostics...)
	}
	p.status.MountedAt, p.status.AckAt = now(), 0
	st := p.snapshotLocked()
	p.mu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("iframe: mount: %v", v)
		}
	}()
	p.shim.Call("mount", float64(m.Revision), nonce, res.HTML, fresh)
	p.notify(st)
	return nil
}

// message is the JSON the shim forwards: the bridge message as posted by the frame.
type message struct {
	Type     string `json:"type"`
	Revision int64  `json:"revision"`
	Nonce    string `json:"nonce"`
	Message  string `json:"message"`
	Level    string `json:"level"`
	Text     string `json:"text"`
}

// Deliver handles one message forwarded by the shim (raw JSON). It reports whether the
// message was accepted: a message that is not JSON, has an unknown type, or does not carry
// the current mount's nonce and revision is ignored.
func (p *Port) Deliver(raw string) bool {
	var msg message
	if len(raw) > 64<<10 || json.Unmarshal([]byte(raw), &msg) != nil {
		return false
	}
	p.mu.Lock()
	if p.nonce == "" || msg.Nonce != p.nonce || msg.Revision != p.rev {
		p.mu.Unlock()
		return false
	}
	var ack *preview.Ack
	switch msg.Type {
	case preview.MessageReady:
		if p.status.State != StatePending {
			p.mu.Unlock()
			return false
		}
		p.status.State, p.status.AckAt = StateAcknowledged, now()
		ack = &preview.Ack{Revision: msg.Revision, Status: workspace.PreviewSynced, Runtime: preview.RuntimeSandboxIframe}
	case preview.MessageError:
		if p.status.State == StateError {
			p.mu.Unlock()
			return false
		}
		text := cut(msg.Message, preview.MaxErrorMessageChars)
		if text == "" {
			text = preview.DefaultErrorMessage
		}
		p.status.State, p.status.Message, p.status.AckAt = StateError, text, now()
		ack = &preview.Ack{Revision: msg.Revision, Status: workspace.PreviewError, Message: text, Runtime: preview.RuntimeSandboxIframe}
	case preview.MessageConsole:
		level := msg.Level
		if level != "log" && level != "warn" && level != "error" {
			level = "log"
		}
		p.status.Console = append(p.status.Console, ConsoleLine{Revision: msg.Revision, Level: level, Text: cut(msg.Text, preview.MaxConsoleTextChars)})
		if over := len(p.status.Console) - MaxConsole; over > 0 {
			p.status.Console = append([]ConsoleLine(nil), p.status.Console[over:]...)
		}
	default:
		p.mu.Unlock()
		return false
	}
	st := p.snapshotLocked()
	p.mu.Unlock()
	if ack != nil {
		p.board.Publish(*ack)
	}
	p.notify(st)
	return true
}

// Status returns a snapshot of the preview state.
func (p *Port) Status() Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.snapshotLocked()
}

// ClearConsole empties the console list.
func (p *Port) ClearConsole() {
	p.mu.Lock()
	p.status.Console = []ConsoleLine{}
	st := p.snapshotLocked()
	p.mu.Unlock()
	p.notify(st)
}

func (p *Port) snapshotLocked() Status {
	s := p.status
	s.Console = append([]ConsoleLine(nil), p.status.Console...)
	s.Diagnostics = append([]preview.Diagnostic(nil), p.status.Diagnostics...)
	return s
}

func (p *Port) notify(s Status) {
	if p.onChange != nil {
		p.onChange(s)
	}
}

// cut bounds s to n code points.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

// now is performance.now() in ms (0 when unavailable).
func now() (ms float64) {
	defer func() {
		if recover() != nil {
			ms = 0
		}
	}()
	return js.Global().Get("performance").Call("now").Float()
}
