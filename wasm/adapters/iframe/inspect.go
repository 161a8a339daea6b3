//go:build js && wasm

package iframe

import (
	"context"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/preview"
)

// Live inspection and pick mode (issue 17, docs/design.md §5.22): the shim posts
// preview.MessageInspect / MessagePick over the mount's port; the bridge answers with
// preview.MessageSelection, decoded here strictly (preview.DecodeSelection) and described
// (preview.Describe). A selection is data: the port only hands it to InspectLive's caller or
// to Options.OnPick, and a pick that was not asked for (pick mode off) is dropped.

// InspectTimeout is how long InspectLive waits for the frame's answer
// (preview.LiveInspectSeconds).
const InspectTimeout = preview.LiveInspectSeconds * time.Second

var _ preview.LiveInspector = (*Port)(nil)

// InspectLive asks the frame of revision for the first element selector matches
// (preview.LiveInspector). The frame must be the current mount and have posted ready (a
// runtime error after ready, StateError, leaves the page running: it still answers); the
// answer must come from that mount. Errors: preview.ErrRevisionMoved (another revision is
// mounted, or a mount happened while waiting), preview.ErrNotLive, preview.ErrInspectTimeout,
// preview.ErrNoMatch, *preview.SelectorError{Reason: "syntax"} (the browser refused the
// selector), *preview.SelectionError, ctx.Err().
func (p *Port) InspectLive(ctx context.Context, revision int64, selector string) (preview.Selection, string, error) {
	p.mu.Lock()
	if p.rev != revision {
		p.mu.Unlock()
		return preview.Selection{}, "", preview.ErrRevisionMoved
	}
	if p.nonce == "" || !(p.status.State == StateAcknowledged || p.status.State == StateError && p.readied) {
		p.mu.Unlock()
		return preview.Selection{}, "", preview.ErrNotLive
	}
	p.reqSeq++
	id := p.reqSeq
	ch := make(chan preview.BridgeMessage, 1)
	p.pending[id] = ch
	files, page := p.files, p.status.Page.Path
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.pending, id)
		p.mu.Unlock()
	}()
	if !p.shimCall("inspect", float64(id), selector) {
		return preview.Selection{}, "", preview.ErrNotLive
	}
	t := time.NewTimer(InspectTimeout)
	defer t.Stop()
	var msg preview.BridgeMessage
	select {
	case <-ctx.Done():
		return preview.Selection{}, "", ctx.Err()
	case <-t.C:
		return preview.Selection{}, "", preview.ErrInspectTimeout
	case m, ok := <-ch:
		if !ok || m.Revision != revision {
			return preview.Selection{}, "", preview.ErrRevisionMoved
		}
		msg = m
	}
	switch msg.Error {
	case "":
	case "no-match":
		return preview.Selection{}, page, preview.ErrNoMatch
	case "syntax":
		return preview.Selection{}, page, &preview.SelectorError{Reason: "syntax", Detail: "the browser's selector engine refused it"}
	default:
		return preview.Selection{}, page, &preview.SelectionError{Reason: "the frame answered " + cut(msg.Error, 32)}
	}
	w, err := preview.DecodeSelection(msg.Selection)
	if err != nil {
		return preview.Selection{}, page, err
	}
	sel, path := preview.Describe(files, page, w)
	return sel, path, nil
}

// SetPicking enters or leaves pick mode in the current frame. Entering needs a running page
// (acknowledged or failed with a runtime error: its DOM is there); errors: preview.ErrNotLive.
func (p *Port) SetPicking(on bool) error {
	p.mu.Lock()
	live := p.nonce != "" && (p.status.State == StateAcknowledged || p.status.State == StateError)
	if on && !live {
		p.mu.Unlock()
		return preview.ErrNotLive
	}
	p.mu.Unlock()
	if !p.shimCall("pick", on) && on {
		return preview.ErrNotLive
	}
	p.mu.Lock()
	p.status.Picking = on
	st := p.snapshotLocked()
	p.mu.Unlock()
	p.notify(st)
	return nil
}

// selectionLocked handles MessageSelection and MessagePickEnd of the current mount (p.mu
// held): an answer goes to its waiting InspectLive (an unknown id is dropped), a pick (id 0)
// only while pick mode is on, which it ends. It reports whether the message was used.
func (p *Port) selectionLocked(msg preview.BridgeMessage, picks *[]preview.BridgeMessage) bool {
	if msg.Type == preview.MessagePickEnd {
		if !p.status.Picking {
			return false
		}
		p.status.Picking = false
		return true
	}
	if msg.ID > 0 {
		ch, ok := p.pending[msg.ID]
		if !ok {
			return false
		}
		delete(p.pending, msg.ID)
		ch <- msg
		return true
	}
	if msg.ID != 0 || !p.status.Picking {
		return false
	}
	p.status.Picking = false
	*picks = append(*picks, msg)
	return true
}

// deliverPicks describes each pick and hands it to OnPick (outside p.mu).
func (p *Port) deliverPicks(picks []preview.BridgeMessage) {
	if p.onPick == nil {
		return
	}
	for _, m := range picks {
		p.mu.Lock()
		files, page := p.files, p.status.Page.Path
		p.mu.Unlock()
		if m.Error != "" {
			p.onPick(preview.Selection{}, page, &preview.SelectionError{Reason: "the frame answered " + cut(m.Error, 32)})
			continue
		}
		w, err := preview.DecodeSelection(m.Selection)
		if err != nil {
			p.onPick(preview.Selection{}, page, err)
			continue
		}
		sel, path := preview.Describe(files, page, w)
		p.onPick(sel, path, nil)
	}
}

// failPendingLocked ends every waiting inspection (p.mu held): its mount is gone.
func (p *Port) failPendingLocked() {
	for id, ch := range p.pending {
		close(ch)
		delete(p.pending, id)
	}
}

// shimCall calls a shim method that answers a boolean; false when it is missing, threw or
// answered false.
func (p *Port) shimCall(name string, args ...any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	v := p.shim.Get(name)
	if v.Type() != js.TypeFunction {
		return false
	}
	return p.shim.Call(name, args...).Truthy()
}
