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

// MaxConsole is the number of preview console entries kept across mounts (the newest win).
const MaxConsole = preview.MaxConsoleEntries

// Preview states reported by Status.State.
const (
	StateIdle         = "idle"         // nothing mounted yet
	StatePending      = "pending"      // mounted, waiting for the frame's ready/error
	StateAcknowledged = "acknowledged" // the frame posted ready for the current mount
	StateError        = "error"        // the frame posted error for the current mount
	StateTimedOut     = "timedOut"     // no ready/error in time: the frame was discarded
	StateNavigated    = "navigated"    // the document navigated away from the workspace page
)

// NavigatedAwayMessage is the runtime error a mount gets when its document navigated away
// before it was acknowledged (a navigation is never acknowledged).
const NavigatedAwayMessage = "The preview navigated away from the workspace page (Refresh to show it again)."

// Report is one run-time report of the preview (preview.RuntimeReport).
type Report = preview.RuntimeReport

// ConsoleLine is one forwarded console call, uncaught error or unhandled rejection of the
// preview (preview.ConsoleEntry: sequence, revision, level, kind, text, path, line).
type ConsoleLine = preview.ConsoleEntry

// Status is a snapshot of the preview for the UI.
//
// Shape: {"revision": 3, "state": "pending"|"acknowledged"|"error"|"idle"|"timedOut"|
// "navigated", "message"?: "…", "entry": "index.html", "page": {"path", "search", "hash"},
// "canBack", "canForward", "diagnostics": [...], "reports": [...], "console": [...],
// "mountedAt", "ackAt", "picking", "errorPath"?, "errorLine"?}. Reports are the current mount's run-time reports (at most
// preview.MaxRuntimeReports).
// MountedAt/AckAt are the page clock in ms (performance.now) of the current mount and its
// ack (0 when none).
type Status struct {
	Revision    int64                `json:"revision"`
	State       string               `json:"state"`
	Message     string               `json:"message,omitempty"`
	Entry       string               `json:"entry"`
	Page        Page                 `json:"page"`
	CanBack     bool                 `json:"canBack"`
	CanForward  bool                 `json:"canForward"`
	Diagnostics []preview.Diagnostic `json:"diagnostics"`
	Reports     []Report             `json:"reports"`
	Console     []ConsoleLine        `json:"console"`
	MountedAt   float64              `json:"mountedAt"`
	AckAt       float64              `json:"ackAt"`
	// Picking: the frame is in pick mode (SetPicking; a pick, Escape or a new mount ends it).
	Picking bool `json:"picking"`
	// ErrorPath/ErrorLine: the workspace file and line of the error that Message reports (state
	// "error"): those of the console entry of kind "error"/"rejection" the runtime posts just
	// before that error; empty/0 when the stack named no file. Ask to fix attaches these, never
	// the line of another (later) error.
	ErrorPath string `json:"errorPath,omitempty"`
	ErrorLine int    `json:"errorLine,omitempty"`
	// InPlace: the current revision was acknowledged after a StylePatch applied to the running
	// document, not after a mount (design.md §5.33).
	InPlace bool `json:"inPlace,omitempty"`
}

// Page is a workspace page shown in the preview: its path, and the query ("?…") and
// fragment ("#…") it was opened with. The zero Page is the workspace's entry.
type Page struct {
	Path   string `json:"path"`
	Search string `json:"search,omitempty"`
	Hash   string `json:"hash,omitempty"`
	// Dir: the page was opened by its folder's URL (preview.RuntimeConfig.Dir).
	Dir bool `json:"dir,omitempty"`
	// Referrer: the URL of the page that navigated here (preview.RuntimeConfig.Referrer);
	// "" when the user opened it. Kept with the page in the Back/Forward list, as browsers do.
	Referrer string `json:"-"`
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
	// OnPick is called (from a goroutine) with each element the user picked in pick mode:
	// the described selection and the page's path, or the decoding error of a malformed one.
	// Nil: picks are dropped.
	OnPick func(sel preview.Selection, page string, err error)
}

// Port implements preview.Port over the shim. It is safe for concurrent use.
type Port struct {
	shim     js.Value
	random   io.Reader
	onChange func(Status)
	board    preview.AckBoard
	callback js.Func
	auditMu  sync.Mutex // one Audit at a time

	mu    sync.Mutex
	rev   int64
	nonce string
	// waited is how long the last timed-out mount was awaited (Shown's message).
	waited time.Duration
	// readied: the current mount posted ready (a later runtime error leaves its page running,
	// so live inspection still answers: docs/design.md §5.22).
	readied bool
	// lastErr: the current mount's previous message was a console entry of kind error or
	// rejection (the runtime posts it just before the error message it pairs with).
	lastErr  *ConsoleLine
	status   Status
	files    []preview.File // the last mount's files (to mount another page of the same revision)
	history  []Page         // pages visited in this revision's session; history[at] is shown
	at       int
	storage  storageAreas // preview localStorage/sessionStorage (survives remounts)
	internet bool         // "Allow internet in preview"
	seq      int64        // the last ConsoleLine.Sequence given
	onPick   func(preview.Selection, string, error)
	reqSeq   int64                                // the last MessageInspect id
	pending  map[int64]chan preview.BridgeMessage // inspections waiting for their answer
	// shown is the compiled document of the current mount (nonce) and the page it shows; a
	// later Mount whose document differs from it only in stylesheet text is applied in place
	// (design.md §5.33). patching: the current nonce is a StylePatch not yet answered.
	shown    *shownDoc
	patching bool
}

// shownDoc is the compiled document of one mount (or patch): its nonce, page and Result.
type shownDoc struct {
	nonce string
	page  Page
	res   preview.Result
}

var _ preview.Port = (*Port)(nil)

// ErrNoShim is returned by New when the shim object lacks mount or attach.
var ErrNoShim = errors.New("iframe: the preview shim (globalThis.webcodingPreview) is missing")

// New attaches a Port to the shim. Errors: ErrNoShim.
func New(o Options) (*Port, error) {
	if o.Shim.Type() != js.TypeObject || o.Shim.Get("mount").Type() != js.TypeFunction || o.Shim.Get("attach").Type() != js.TypeFunction {
		return nil, ErrNoShim
	}
	p := &Port{shim: o.Shim, random: o.Random, onChange: o.OnChange, onPick: o.OnPick, storage: newStorageAreas(), pending: map[int64]chan preview.BridgeMessage{},
		status: Status{State: StateIdle, Diagnostics: []preview.Diagnostic{}, Reports: []Report{}, Console: []ConsoleLine{}}}
	if p.random == nil {
		p.random = rand.Reader
	}
	p.callback = jsbridge.Func("iframe.message", func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return nil
		}
		raw := args[0].String() // copy out; the rest runs off the event loop
		jsbridge.Go("iframe.deliver", func() { p.DeliverBatch(raw) })
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
		p.timedOut(revision, timeout)
	}
	return ack, err
}

// timedOut discards the frame of revision when it is still the current pending mount.
func (p *Port) timedOut(revision int64, waited time.Duration) {
	p.mu.Lock()
	if p.rev != revision || p.status.State != StatePending {
		p.mu.Unlock()
		return
	}
	p.waited = waited
	p.nonce = "" // late messages of the stuck mount are ignored
	p.patching = false
	p.failPendingLocked()
	p.status.Picking = false
	p.status.State, p.status.Message = StateTimedOut, ""
	p.status.ErrorPath, p.status.ErrorLine = "", 0
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

// Mount compiles m.Files for m.Revision with a fresh nonce and shows it in a fresh frame.
// The page shown is the one the user navigated to in the preview when it still exists,
// else the workspace's entry. Mounting the current revision again is a no-op unless
// m.Remount. Errors: the nonce source failed, or the shim threw (its message is returned).
func (p *Port) Mount(ctx context.Context, m preview.Mount) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.mu.Lock()
	if p.rev == m.Revision && p.nonce != "" && !m.Remount && p.status.State != StateTimedOut {
		p.mu.Unlock()
		return nil
	}
	p.files = m.Files
	// A fresh frame on Refresh and whenever the previous mount was not cleanly acknowledged
	// (it may be stuck, hostile, or still loading); the shim applies the same rule itself.
	fresh := m.Remount || (p.status.State != StateAcknowledged && p.status.State != StateIdle)
	// A CSS-only edit of an acknowledged page may be applied in place; Refresh always mounts.
	inPlace := !m.Remount && p.status.State == StateAcknowledged
	p.mu.Unlock()
	return p.mountPage(m.Revision, fresh, inPlace)
}

// mountPage compiles p.files at revision for the current history page and mounts it (in a
// fresh frame when fresh). With tryPatch, when the frame shows the acknowledged document of
// the same page and the new one differs from it only in stylesheet text
// (preview.StyleOnlyChange), the change is posted to the running document instead
// (design.md §5.33); if the shim cannot send it, the document is mounted as usual.
func (p *Port) mountPage(revision int64, fresh, tryPatch bool) (err error) {
	var b [16]byte
	if _, err := io.ReadFull(p.random, b[:]); err != nil {
		return fmt.Errorf("iframe: nonce: %w", err)
	}
	nonce := hex.EncodeToString(b[:])
	p.mu.Lock()
	page := Page{}
	if len(p.history) > 0 {
		page = p.history[p.at]
	}
	files := p.files
	rc := preview.RuntimeConfig{Entry: page.Path, Search: page.Search, Hash: page.Hash, Dir: page.Dir, Referrer: page.Referrer, AllowInternet: p.internet, Storage: p.storage.snapshot()}
	shown := p.shown
	if shown == nil || shown.nonce != p.nonce || p.status.State != StateAcknowledged {
		shown = nil
	}
	p.mu.Unlock()
	rc.IndexedDB = p.idbSource()
	res := preview.Compile(files, preview.Options{Revision: revision, Nonce: nonce, Bridge: true, Runtime: rc})
	var patch preview.StylePatch
	inPlace := false
	if tryPatch && shown != nil {
		patch, inPlace = preview.StyleOnlyChange(shown.res, res)
	}
	p.mu.Lock()
	if page.Path != "" && res.Entry != page.Path { // the page is gone: back to the entry
		p.history, p.at = nil, 0
		page = Page{}
	}
	if page.Path == "" { // the default entry, opened at the site's root URL as over HTTP
		page.Dir = res.Entry == "index.html"
	}
	page.Path = res.Entry
	if len(p.history) == 0 {
		p.history, p.at = []Page{page}, 0
	}
	// In place only when nothing changed since the comparison began: the same acknowledged
	// mount still shows the same page.
	inPlace = inPlace && p.shown == shown && shown.nonce == p.nonce && p.status.State == StateAcknowledged && shown.page == page
	fromRev, fromNonce := p.rev, p.nonce
	p.shown = &shownDoc{nonce: nonce, page: page, res: res}
	p.patching = inPlace
	p.status.InPlace = false
	p.rev, p.nonce = revision, nonce
	p.failPendingLocked() // inspect.go: answers of the old mount can no longer arrive
	if !inPlace {
		p.status.Picking = false // a mount ends pick mode; the patched document keeps it
	}
	p.status.Revision, p.status.State, p.status.Message = revision, StatePending, ""
	p.readied, p.lastErr = false, nil
	p.status.ErrorPath, p.status.ErrorLine = "", 0
	p.status.Entry, p.status.Diagnostics, p.status.Page = res.Entry, res.Diagnostics, page
	p.status.CanBack, p.status.CanForward = p.at > 0, p.at < len(p.history)-1
	if !inPlace {
		p.status.Reports = []Report{} // the patched document keeps its reports (sent once each)
	}
	// A fallback entry (no index.html in the workspace) is named first; a page reached by a
	// link while index.html exists is no fallback.
	if d, ok := preview.EntryDiagnostic(res.Entry); ok && !hasFile(files, preview.EntryFilePath) {
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
	if inPlace && p.sendPatch(fromRev, fromNonce, revision, nonce, patch) {
		p.notify(st)
		return nil
	}
	if inPlace {
		p.mu.Lock()
		p.patching = false
		p.mu.Unlock()
	}
	// A quirks-mode page is loaded from a blob: URL, not srcdoc (docs/design.md §5.53).
	p.shim.Call("mount", float64(revision), nonce, res.HTML, fresh, res.Quirks)
	p.notify(st)
	return nil
}

// sendPatch asks the shim to post patch to the running document of the mount (fromRev,
// fromNonce) as revision/nonce, and arms the PatchAckTimeout fallback. It reports whether the
// shim sent it (false: no patch() in the shim, the mount is not the acknowledged one of the
// current frame, or the shim threw).
func (p *Port) sendPatch(fromRev int64, fromNonce string, revision int64, nonce string, patch preview.StylePatch) (sent bool) {
	defer func() {
		if recover() != nil {
			sent = false
		}
	}()
	if p.shim.Get("patch").Type() != js.TypeFunction {
		return false
	}
	j, err := json.Marshal(patch)
	if err != nil {
		return false
	}
	v := p.shim.Call("patch", float64(fromRev), fromNonce, float64(revision), nonce, string(j))
	if v.Type() != js.TypeBoolean || !v.Bool() {
		return false
	}
	time.AfterFunc(preview.PatchAckTimeout, func() { p.patchFallback(revision, nonce, true) })
	return true
}

// patchFallback mounts revision in full when its StylePatch (nonce) is still unanswered
// (after PatchAckTimeout: in a fresh frame) or was refused by the document (fresh false: the
// frame is fine). The document compiled for the patch is mounted as is (same nonce).
func (p *Port) patchFallback(revision int64, nonce string, fresh bool) {
	p.mu.Lock()
	if !p.patching || p.rev != revision || p.nonce != nonce || p.status.State != StatePending || p.shown == nil || p.shown.nonce != nonce {
		p.mu.Unlock()
		return
	}
	p.patching = false
	p.status.Picking = false
	p.status.Reports = []Report{}
	p.status.MountedAt = now()
	html, quirks := p.shown.res.HTML, p.shown.res.Quirks
	st := p.snapshotLocked()
	p.mu.Unlock()
	func() {
		defer func() { _ = recover() }()
		p.shim.Call("mount", float64(revision), nonce, html, fresh, quirks)
	}()
	p.notify(st)
}

// idbSource is the shim's IndexedDB shim source ("" when it has none yet).
func (p *Port) idbSource() (src string) {
	defer func() {
		if recover() != nil {
			src = ""
		}
	}()
	if p.shim.Get("idbSource").Type() != js.TypeFunction {
		return ""
	}
	v := p.shim.Call("idbSource")
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// Navigate shows another workspace page of the mounted revision (a link or form in the
// preview, MessageNavigate): it drops the forward history, appends page and mounts it.
func (p *Port) Navigate(page Page) error { return p.navigate(page, false) }

// navigate is Navigate; with replace (location.replace or reload in the page, the message's
// replace flag) page takes the place of the page shown instead, as a browser's history does.
func (p *Port) navigate(page Page, replace bool) error {
	p.mu.Lock()
	if p.nonce == "" && p.rev == 0 {
		p.mu.Unlock()
		return nil
	}
	if replace && len(p.history) > 0 {
		p.history = append(p.history[:p.at], page)
	} else {
		p.history = append(p.history[:p.at+1], page)
	}
	p.at = len(p.history) - 1
	rev, fresh := p.rev, p.status.State != StateAcknowledged
	p.mu.Unlock()
	return p.mountPage(rev, fresh, false)
}

// Back and Forward move through the pages visited in the preview; they report whether there
// was a page to move to.
func (p *Port) Back() bool    { return p.step(-1) }
func (p *Port) Forward() bool { return p.step(+1) }

func (p *Port) step(d int) bool {
	p.mu.Lock()
	if p.at+d < 0 || p.at+d >= len(p.history) {
		p.mu.Unlock()
		return false
	}
	p.at += d
	rev, fresh := p.rev, p.status.State != StateAcknowledged
	p.mu.Unlock()
	return p.mountPage(rev, fresh, false) == nil
}

// SetAllowInternet sets the "Allow internet in preview" switch for the next mounts (the
// caller keeps it with the workspace settings and remounts).
func (p *Port) SetAllowInternet(on bool) {
	p.mu.Lock()
	p.internet = on
	p.mu.Unlock()
}

// AllowInternet reports the "Allow internet in preview" switch.
func (p *Port) AllowInternet() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.internet
}

// maxBatchBytes bounds one batch from the shim (the shim's own caps keep it far below).
const maxBatchBytes = preview.MaxMountBytes

// Deliver handles one message forwarded by the shim (raw JSON object). It reports whether the
// message was accepted: a message that is not JSON, has an unknown type, or does not carry
// the current mount's nonce and revision is ignored.
func (p *Port) Deliver(raw string) bool {
	var msg preview.BridgeMessage
	if len(raw) > 64<<10 || json.Unmarshal([]byte(raw), &msg) != nil {
		return false
	}
	return p.deliver([]preview.BridgeMessage{msg}) > 0
}

// DeliverBatch handles a JSON array of messages (the shim's batches; a single object is
// accepted too) and returns how many were accepted. The status changes once per batch, so
// a batch costs one notification (one re-render) however many lines it holds.
func (p *Port) DeliverBatch(raw string) int {
	if len(raw) > maxBatchBytes {
		return 0
	}
	if len(raw) > 0 && raw[0] == '{' {
		if p.Deliver(raw) {
			return 1
		}
		return 0
	}
	var msgs []preview.BridgeMessage
	if json.Unmarshal([]byte(raw), &msgs) != nil {
		return 0
	}
	return p.deliver(msgs)
}

func (p *Port) deliver(msgs []preview.BridgeMessage) int {
	var acks []preview.Ack
	var nav *Page
	navReplace := false
	var refused *preview.BridgeMessage
	var picks []preview.BridgeMessage
	accepted := 0
	p.mu.Lock()
	for _, msg := range msgs {
		if p.nonce == "" || msg.Nonce != p.nonce || msg.Revision != p.rev {
			continue
		}
		ok := true
		prevErr := p.lastErr
		p.lastErr = nil
		switch msg.Type {
		case preview.MessageReady:
			// An in-place ready answers only the patch of this nonce (design.md §5.33).
			if p.status.State != StatePending || msg.InPlace != p.patching {
				ok = false
				break
			}
			p.status.State, p.status.AckAt, p.readied = StateAcknowledged, now(), true
			p.status.InPlace, p.patching = msg.InPlace, false
			acks = append(acks, preview.Ack{Revision: msg.Revision, Status: workspace.PreviewSynced, Runtime: preview.RuntimeSandboxIframe, InPlace: msg.InPlace})
		case preview.MessagePatchRefused:
			if !p.patching || p.status.State != StatePending {
				ok = false
				break
			}
			m := msg
			refused = &m
		case preview.MessageError:
			if p.status.State == StateError || p.status.State == StateNavigated {
				ok = false
				break
			}
			text := cut(msg.Message, preview.MaxErrorMessageChars)
			if text == "" {
				text = preview.DefaultErrorMessage
			}
			p.status.State, p.status.Message, p.status.AckAt = StateError, text, now()
			p.status.ErrorPath, p.status.ErrorLine = "", 0
			if prevErr != nil {
				p.status.ErrorPath, p.status.ErrorLine = prevErr.Path, prevErr.Line
			}
			acks = append(acks, preview.Ack{Revision: msg.Revision, Status: workspace.PreviewError, Message: text, Runtime: preview.RuntimeSandboxIframe})
		case preview.MessageLeaving:
			if p.status.State == StateNavigated {
				ok = false
				break
			}
			if p.status.State == StatePending { // never acknowledged: the mount fails
				acks = append(acks, preview.Ack{Revision: msg.Revision, Status: workspace.PreviewError, Message: NavigatedAwayMessage, Runtime: preview.RuntimeSandboxIframe})
			}
			p.status.State, p.status.Message = StateNavigated, NavigatedAwayMessage
			p.status.ErrorPath, p.status.ErrorLine = "", 0
			p.nonce = "" // nothing of that document is trusted any more
			p.patching = false
			p.failPendingLocked()
			p.status.Picking = false
		case preview.MessageConsole:
			p.seq++
			l := p.consoleLine(msg)
			p.status.Console = append(p.status.Console, l)
			if l.Kind != preview.ConsoleKindConsole {
				p.lastErr = &l
			}
			if over := len(p.status.Console) - MaxConsole; over > 0 {
				p.status.Console = append([]ConsoleLine(nil), p.status.Console[over:]...)
			}
		case preview.MessageReport:
			if len(p.status.Reports) >= preview.MaxRuntimeReports {
				ok = false
				break
			}
			kind := msg.Kind
			if kind != preview.ReportBlocked && kind != preview.ReportMissing && kind != preview.ReportLimit {
				kind = preview.ReportLimit
			}
			p.status.Reports = append(p.status.Reports, Report{Revision: msg.Revision, Kind: kind, URL: cut(msg.URL, preview.MaxConsoleTextChars), Detail: cut(msg.Detail, preview.MaxConsoleTextChars)})
		case preview.MessageStorage:
			p.storage.apply(msg.Area, msg.Clear, msg.Set)
		case preview.MessageSelection, preview.MessagePickEnd:
			ok = p.selectionLocked(msg, &picks) // inspect.go
		case preview.MessageNavigate:
			if msg.Path == "" {
				ok = false
				break
			}
			nav = &Page{Path: msg.Path, Search: cut(msg.Search, preview.MaxConsoleTextChars), Hash: cut(msg.Hash, preview.MaxConsoleTextChars), Dir: msg.Dir && preview.IsFolderIndex(msg.Path)}
			if s := p.shown; s != nil {
				from := s.page.Path
				if from == "" {
					from = s.res.Entry
				}
				nav.Referrer = preview.PageURL(from, s.page.Search, s.page.Dir)
			}
			navReplace = msg.Replace
		default:
			ok = false
		}
		if ok {
			accepted++
		}
	}
	if accepted == 0 {
		p.mu.Unlock()
		return 0
	}
	st := p.snapshotLocked()
	p.mu.Unlock()
	for _, a := range acks {
		p.board.Publish(a)
	}
	p.notify(st)
	p.deliverPicks(picks) // inspect.go
	if refused != nil {   // the document kept its text: mount the revision in the same frame
		p.patchFallback(refused.Revision, refused.Nonce, false)
	}
	if nav != nil {
		if err := p.navigate(*nav, navReplace); err != nil {
			p.mu.Lock()
			p.status.Message = err.Error()
			p.mu.Unlock()
		}
	}
	return accepted
}

// consoleLine is the ConsoleLine of a MessageConsole, numbered p.seq: an unknown level is
// "log", an unknown kind "console" (errors and rejections are level "error"), and path and
// line are kept only when path names a file of the mount and line is in 1..MaxConsoleLine.
func (p *Port) consoleLine(msg preview.BridgeMessage) ConsoleLine {
	l := ConsoleLine{Sequence: p.seq, Revision: msg.Revision, Level: msg.Level, Kind: msg.Kind, Text: cut(msg.Text, preview.MaxConsoleTextChars)}
	switch l.Kind {
	case preview.ConsoleKindError, preview.ConsoleKindRejection:
		l.Level = preview.ConsoleLevelError
	default:
		l.Kind = preview.ConsoleKindConsole
	}
	if l.Level != preview.ConsoleLevelLog && l.Level != preview.ConsoleLevelWarn && l.Level != preview.ConsoleLevelError {
		l.Level = preview.ConsoleLevelLog
	}
	if msg.Path != "" && hasFile(p.files, msg.Path) {
		l.Path = msg.Path
		if msg.Line >= 1 && msg.Line <= preview.MaxConsoleLine {
			l.Line = msg.Line
		}
	}
	return l
}

// ConsoleEntries returns the kept console entries, oldest first (preview.ConsoleObserver).
func (p *Port) ConsoleEntries() []preview.ConsoleEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]preview.ConsoleEntry{}, p.status.Console...)
}

// RuntimeReports returns the current mount's run-time reports (preview.RuntimeObserver).
func (p *Port) RuntimeReports() []preview.RuntimeReport {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]preview.RuntimeReport{}, p.status.Reports...)
}

// NavigatedAway reports whether the current mount's document left the workspace page
// (preview.RuntimeObserver).
func (p *Port) NavigatedAway() (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.status.State != StateNavigated {
		return "", false
	}
	return NavigatedAwayMessage, true
}

// Shown is what the frame shows for revision (preview.RuntimeObserver): "waiting" while the
// current mount (a page change too) of revision has not answered, "error" with its message
// after a runtime error, an acknowledgement timeout (the frame was discarded) or a navigation
// away; ok is false when the frame is acknowledged and running, idle, or shows another
// revision.
func (p *Port) Shown(revision int64) (status, message string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rev != revision {
		return "", "", false
	}
	switch p.status.State {
	case StatePending:
		return "waiting", "", true
	case StateError:
		msg := p.status.Message
		if msg == "" {
			msg = preview.DefaultErrorMessage
		}
		return "error", msg, true
	case StateTimedOut:
		return "error", preview.AckTimeoutMessage(revision, p.waited), true
	case StateNavigated:
		return "error", NavigatedAwayMessage, true
	}
	return "", "", false
}

// ClearStorage empties the preview's localStorage, sessionStorage and cookies ("Clear preview
// storage"); the next mount starts without them.
func (p *Port) ClearStorage() {
	p.mu.Lock()
	p.storage = newStorageAreas()
	p.mu.Unlock()
}

// Storage returns a copy of the preview storage (local, session and cookie areas).
func (p *Port) Storage() preview.RuntimeStorage {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.storage.snapshot()
	if s == nil {
		return preview.RuntimeStorage{}
	}
	return *s
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
	s.Reports = append([]Report(nil), p.status.Reports...)
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

// hasFile reports whether files holds path.
func hasFile(files []preview.File, path string) bool {
	for _, f := range files {
		if f.Path == path && f.Kind != preview.KindNotImported {
			return true
		}
	}
	return false
}

var _ preview.Auditor = (*Port)(nil)

// Audit runs the accessibility audit (preview.audit) in the document of revision through the
// shim's audit(): the mount must be the current one and acknowledged (StateAcknowledged, or
// StateError: a page whose script failed still has a document to audit). One audit runs at
// a time. It returns the runtime's raw reply for preview.DecodeAudit.
//
// Errors: preview.ErrAuditSuperseded (another mount, a navigation, a discarded frame, before
// or during the audit), preview.ErrAuditNoEngine (the shim has no audit() or could not fetch
// axe-core), preview.ErrAuditTimeout (no answer within preview.AuditTimeout), ctx.Err().
func (p *Port) Audit(ctx context.Context, revision int64, limits preview.AuditLimits) ([]byte, error) {
	p.auditMu.Lock()
	defer p.auditMu.Unlock()
	current := func() (string, bool) {
		p.mu.Lock()
		defer p.mu.Unlock()
		ok := p.rev == revision && p.nonce != "" && (p.status.State == StateAcknowledged || p.status.State == StateError)
		return p.nonce, ok
	}
	nonce, ok := current()
	if !ok {
		return nil, preview.ErrAuditSuperseded
	}
	if p.shim.Get("audit").Type() != js.TypeFunction {
		return nil, preview.ErrAuditNoEngine
	}
	type answer struct{ kind, text string }
	ch := make(chan answer, 1)
	fn := jsbridge.Func("iframe.audit", func(_ js.Value, args []js.Value) any {
		a := answer{}
		if len(args) > 0 && args[0].Type() == js.TypeString {
			a.kind = args[0].String()
		}
		if len(args) > 1 && args[1].Type() == js.TypeString {
			a.text = args[1].String() // the shim bounds it to preview.MaxAuditReplyBytes
		}
		select {
		case ch <- a:
		default:
		}
		return nil
	})
	lj, _ := json.Marshal(limits)
	var id js.Value
	if err := func() (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("iframe: audit: %v", v)
			}
		}()
		id = p.shim.Call("audit", float64(revision), nonce, string(lj), fn)
		return nil
	}(); err != nil {
		fn.Release()
		return nil, err
	}
	stop := func() {
		func() {
			defer func() { _ = recover() }()
			if p.shim.Get("cancelAudit").Type() == js.TypeFunction {
				p.shim.Call("cancelAudit", id)
			}
		}()
		fn.Release()
	}
	timer := time.NewTimer(preview.AuditTimeout)
	defer timer.Stop()
	var a answer
	select {
	case a = <-ch:
		stop()
	case <-timer.C:
		stop()
		return nil, preview.ErrAuditTimeout
	case <-ctx.Done():
		stop()
		return nil, ctx.Err()
	}
	if now, ok := current(); !ok || now != nonce {
		return nil, preview.ErrAuditSuperseded
	}
	switch a.kind {
	case "reply":
		return []byte(a.text), nil
	case "no-engine":
		return nil, preview.ErrAuditNoEngine
	default:
		return nil, preview.ErrAuditSuperseded
	}
}
