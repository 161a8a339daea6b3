//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/ui/views"
)

// Pick mode and context chips (issue 17; docs/design.md §5.22, §5.23):
//
//   - the Pick button of the preview toolbar (#preview-pick) and Ctrl/Cmd+Shift+X toggle pick
//     mode in the frame (iframe.Port.SetPicking); Escape leaves it (in the studio here, in the
//     frame through the bridge); the shim draws the hover highlight;
//   - a pick (iframe Options.OnPick) becomes an element chip above the prompt, "Ask to fix"
//     on a runtime error an error chip and "Ask to fix" on an audit violation an audit chip
//     (preview_audit.go); all are planner.Attachment values added by addChip, shown with
//     the exact context text the next prompt will carry, removable (×), at most
//     planner.MaxAttachments (the oldest goes);
//   - sending a prompt takes the chips (takeChips): the local agent gets them as agent/run's
//     "context", a model as text blocks after the prompt. A chip never starts a run or a
//     tool call by itself.
//
// pickState (app.pickUI) holds the chips (guarded by mu).
type pickState struct {
	mu    sync.Mutex
	chips []planner.Attachment
	memo  string // the last rendered chips' key
}

func init() {
	registerFeature(&feature{
		name: "pick",
		render: func(a *app) {
			a.mu.Lock()
			picking := a.st.preview.Picking
			a.mu.Unlock()
			doc := js.Global().Get("document")
			if b := doc.Call("getElementById", "preview-pick"); !b.IsNull() {
				want := map[bool]string{true: "true", false: "false"}[picking]
				if b.Call("getAttribute", "aria-pressed").String() != want {
					b.Call("setAttribute", "aria-pressed", want)
				}
			}
			a.pickUI.mu.Lock()
			chips := make([]views.ContextChip, len(a.pickUI.chips))
			key := ""
			for i, c := range a.pickUI.chips {
				chips[i] = views.ContextChip{Kind: c.Kind, Label: c.Label(), Context: c.ContextText()}
				key += chips[i].Context + "\x00"
			}
			changed := key != a.pickUI.memo
			a.pickUI.memo = key
			a.pickUI.mu.Unlock()
			if changed {
				a.setRegion("context-chips", views.ContextChipsHTML(chips))
			}
		},
		action: func(a *app, act uiAction) bool {
			switch act.Name {
			case "preview-pick":
				a.togglePick()
			case "remove-chip":
				i, err := strconv.Atoi(act.Get("index"))
				a.pickUI.mu.Lock()
				if err == nil && i >= 0 && i < len(a.pickUI.chips) {
					a.pickUI.chips = append(a.pickUI.chips[:i:i], a.pickUI.chips[i+1:]...)
				}
				a.pickUI.mu.Unlock()
				a.markDirty()
				focusPrompt()
			case "ask-to-fix":
				a.askToFix()
			default:
				return false
			}
			return true
		},
		key: func(a *app, k keyInfo) bool {
			switch {
			case k.Mod && k.Shift && !k.Alt && strings.ToLower(k.Key) == "x" && !k.DialogOpen:
				jsbridge.Go("pick.toggle", a.togglePick)
				return true
			case k.Key == "Escape" && a.picking():
				jsbridge.Go("pick.off", func() { _ = a.port.SetPicking(false) })
				return true
			}
			return false
		},
	})
}

func (a *app) picking() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.port != nil && a.st.preview.Picking
}

// togglePick enters or leaves pick mode; entering while no page runs says why in the chat.
func (a *app) togglePick() {
	if a.port == nil {
		return
	}
	if err := a.port.SetPicking(!a.picking()); err != nil {
		a.addEntry(entry{Kind: "info", Text: "Pick needs the preview page running: wait for it to show, or Refresh it."})
	}
}

// onPick is the iframe port's OnPick: the picked element becomes a chip and the prompt gets
// focus; a malformed selection (the page may forge one) is reported and attaches nothing.
func (a *app) onPick(sel preview.Selection, page string, err error) {
	if err != nil {
		a.addEntry(entry{Kind: "info", Text: "The preview sent a selection the studio could not read, so nothing was attached (" + err.Error() + ")."})
		return
	}
	att := planner.Attachment{Kind: planner.AttachElement, Selector: sel.Selector, Tag: sel.Tag, Text: sel.Text,
		OuterHTML: sel.OuterHTML, Path: page, Line: sel.Line, FontSize: sel.Styles["font-size"],
		Role: sel.Role, Name: sel.Name, Styles: views.StylesText(preview.ComputedStyleProps, sel.Styles),
		Box: views.BoxText(sel.Box.X, sel.Box.Y, sel.Box.Width, sel.Box.Height), Ancestors: strings.Join(sel.Ancestors, " < ")}
	addChip(a, att)
}

// askToFix attaches the current runtime error — its message, ITS file and line (the port's
// Status.ErrorPath/ErrorLine: the error the banner shows, never a later one's), and a console
// excerpt — as a chip.
func (a *app) askToFix() {
	a.mu.Lock()
	st := a.st.preview
	a.mu.Unlock()
	msg := st.Message
	if msg == "" {
		msg = preview.DefaultErrorMessage
	}
	att := planner.Attachment{Kind: planner.AttachError, Message: msg, Path: st.ErrorPath, Line: st.ErrorLine}
	var lines []string
	for _, c := range st.Console {
		if c.Revision != st.Revision {
			continue
		}
		l := c.Level + ": " + c.Text
		if c.Path != "" {
			l += " (" + c.Path
			if c.Line > 0 {
				l += ":" + strconv.Itoa(c.Line)
			}
			l += ")"
		}
		lines = append(lines, l)
	}
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	con := strings.Join(lines, "\n")
	att.Console = con // addChip bounds it (keeping the newest lines)
	addChip(a, att)
}

// addChip attaches att (planner.Attachment.Bounded: within agent/run's decoder bounds),
// keeps the newest planner.MaxAttachments, and focuses the prompt. It is the one way a chip
// is attached (pick, runtime-error and audit "Ask to fix").
func addChip(a *app, att planner.Attachment) {
	att = att.Bounded()
	a.pickUI.mu.Lock()
	// The same chip again (one element picked twice, one error asked about twice) moves to
	// the end instead of being attached twice.
	for i, c := range a.pickUI.chips {
		if c == att {
			a.pickUI.chips = append(a.pickUI.chips[:i:i], a.pickUI.chips[i+1:]...)
			break
		}
	}
	a.pickUI.chips = append(a.pickUI.chips, att)
	if over := len(a.pickUI.chips) - planner.MaxAttachments; over > 0 {
		a.pickUI.chips = append([]planner.Attachment(nil), a.pickUI.chips[over:]...)
	}
	a.pickUI.mu.Unlock()
	a.markDirty()
	focusPrompt()
}

// takeChips returns the attached chips and clears them (a prompt is being sent).
func takeChips(a *app) []planner.Attachment {
	a.pickUI.mu.Lock()
	atts := a.pickUI.chips
	a.pickUI.chips = nil
	a.pickUI.mu.Unlock()
	if len(atts) > 0 {
		a.markDirty()
	}
	return atts
}

func focusPrompt() {
	if box := js.Global().Get("document").Call("getElementById", "prompt"); !box.IsNull() {
		box.Call("focus")
	}
}
