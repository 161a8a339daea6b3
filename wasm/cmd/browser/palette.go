//go:build js && wasm

package main

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/ui/views"
)

// Quick open (Ctrl/Cmd+P, #quick-open-dialog) and workspace search (Ctrl/Cmd+Shift+F,
// #search-dialog), REFERENCE §11 labels "Quick open workspace file", "Search workspace",
// "Search workspace files".
//
// Both are native modal <dialog>s (showModal: the rest of the page is inert, so focus is
// trapped; Escape closes and focus returns to the element that opened them; choosing a result
// consumes its Enter — keydown and keypress — and puts focus and the caret in the editor, on
// the result's line, never back on the opener) following the
// ARIA combobox pattern: the text field is role="combobox" with aria-controls naming a
// role="listbox" of role="option" rows and aria-activedescendant naming the highlighted one;
// Up/Down/Home/End move the highlight, Enter (or a click) chooses it.
//
//   - Quick open filters the workspace paths as you type: substring matches first (the file
//     name before the folder), then fuzzy (the letters in order); choosing opens the file
//     through workspace.openFile.
//   - Search is case-insensitive over every text file, with the editor's unsaved draft in
//     place of its file's stored text; at most maxSearchResults rows, each "path:line" and
//     the line as a preview. Choosing opens the file through workspace.openFile (which never
//     changes it) and moves the editor's caret to the line.

const (
	maxQuickOpenResults = 50
	maxSearchResults    = 80  // REFERENCE: ≤ 80 result lines
	maxPreviewChars     = 120 // code points of a search result's preview
)

type paletteItem = views.PaletteItem

// paletteDialog is one of the two dialogs.
type paletteDialog struct {
	kind    string // "quick-open" or "search"
	dialog  string // element ids
	input   string
	list    string
	status  string
	label   string // the text field's accessible name
	heading string
}

var (
	quickOpen = &paletteDialog{kind: "quick-open", dialog: "quick-open-dialog", input: "quick-open-input", list: "quick-open-list",
		status: "quick-open-status", label: "Quick open workspace file", heading: "Quick open"}
	searchBox = &paletteDialog{kind: "search", dialog: "search-dialog", input: "search-input", list: "search-list",
		status: "search-status", label: "Search workspace files", heading: "Search workspace"}
)

// paletteState (app.palette) is the open dialog's state (guarded by mu).
type paletteState struct {
	mu     sync.Mutex
	open   *paletteDialog
	query  string
	items  []paletteItem
	active int
	more   bool // search: more hits than shown
	gen    int  // query generation (newest wins)
	opener js.Value
	// swallowUntil: after Enter chose a result, the same key press's keypress (a separate
	// "char" event for synthetic input) is consumed until its keyup or this time, so it can
	// never activate the element that has focus once the dialog closed (the header button
	// that opened it, or the editor).
	swallowUntil time.Time
}

func init() {
	registerFeature(&feature{name: "palette", bind: paletteBind, action: paletteAction, key: paletteKey})
}

// paletteBind fills both dialogs, adds the header buttons and listens for typing and close.
func paletteBind(a *app) {
	doc := js.Global().Get("document")
	if head := doc.Call("getElementById", "header-actions"); !head.IsNull() {
		span := doc.Call("createElement", "span")
		span.Set("id", "palette-actions")
		span.Set("className", "palette-actions")
		span.Set("innerHTML", string(views.PaletteButtonsHTML()))
		head.Call("insertAdjacentElement", "afterend", span)
	}
	// Capture phase on the window: runs before any element sees the Enter that chose a result.
	swallow := jsbridge.Func("palette.swallowEnter", func(_ js.Value, args []js.Value) any {
		ev := args[0]
		if ev.Get("key").String() != "Enter" {
			return nil
		}
		a.palette.mu.Lock()
		active := time.Now().Before(a.palette.swallowUntil)
		if ev.Get("type").String() == "keyup" {
			a.palette.swallowUntil = time.Time{}
		}
		a.palette.mu.Unlock()
		if active {
			ev.Call("preventDefault")
			ev.Call("stopImmediatePropagation")
		}
		return nil
	})
	a.listeners = append(a.listeners, swallow)
	js.Global().Call("addEventListener", "keypress", swallow, true)
	js.Global().Call("addEventListener", "keyup", swallow, true)
	for _, d := range []*paletteDialog{quickOpen, searchBox} {
		d := d
		dlg := doc.Call("getElementById", d.dialog)
		if dlg.IsNull() {
			continue
		}
		dlg.Set("innerHTML", string(views.PaletteDialogHTML(views.PaletteDialog{Kind: d.kind, Dialog: d.dialog, Input: d.input,
			List: d.list, Status: d.status, Label: d.label, Heading: d.heading})))
		a.on(doc.Call("getElementById", d.input), "input", func(this js.Value, _ []js.Value) any {
			q := this.Get("value").String()
			jsbridge.Go("palette.query", func() { paletteQuery(a, d, q) })
			return nil
		})
		a.on(dlg, "close", func(this js.Value, _ []js.Value) any {
			if this.Get("open").Bool() {
				return nil
			}
			a.palette.mu.Lock()
			opener := a.palette.opener
			if a.palette.open == d {
				a.palette.open, a.palette.opener = nil, js.Undefined()
			}
			a.palette.mu.Unlock()
			if opener.Type() == js.TypeObject && opener.Get("focus").Type() == js.TypeFunction && opener.Get("isConnected").Truthy() {
				opener.Call("focus")
			}
			return nil
		})
	}
}

// paletteKey: Ctrl/Cmd+P and Ctrl/Cmd+Shift+F open the dialogs; inside a dialog's text field
// the arrows, Home/End and Enter drive the list. It never blocks.
func paletteKey(a *app, k keyInfo) bool {
	lower := strings.ToLower(k.Key)
	switch {
	case k.Mod && !k.Alt && !k.Shift && lower == "p" && !k.DialogOpen:
		paletteShow(a, quickOpen)
		return true
	case k.Mod && !k.Alt && k.Shift && lower == "f" && !k.DialogOpen:
		paletteShow(a, searchBox)
		return true
	}
	if k.Key == "Escape" {
		// Close our dialog here, so the studio's Escape (cancel the run) does not also fire.
		a.palette.mu.Lock()
		d := a.palette.open
		a.palette.mu.Unlock()
		if d == nil {
			return false
		}
		if dlg := js.Global().Get("document").Call("getElementById", d.dialog); !dlg.IsNull() && dlg.Get("open").Bool() {
			dlg.Call("close", "cancel")
			return true
		}
		return false
	}
	if k.TargetID != quickOpen.input && k.TargetID != searchBox.input {
		return false
	}
	a.palette.mu.Lock()
	n, idx := len(a.palette.items), a.palette.active
	a.palette.mu.Unlock()
	switch k.Key {
	case "ArrowDown":
		idx++
	case "ArrowUp":
		idx--
	case "Home":
		if !k.Ctrl {
			return false // Home/End move within the text field
		}
		idx = 0
	case "End":
		if !k.Ctrl {
			return false
		}
		idx = n - 1
	case "Enter":
		// Consumed (the caller prevents the default), including its keypress: see swallowUntil.
		a.palette.mu.Lock()
		if idx >= 0 && idx < n {
			a.palette.swallowUntil = time.Now().Add(time.Second)
		}
		a.palette.mu.Unlock()
		jsbridge.Go("palette.choose", func() { paletteChoose(a, idx) })
		return true
	default:
		return false
	}
	if n == 0 {
		return true
	}
	idx = (idx + n) % n
	a.palette.mu.Lock()
	a.palette.active = idx
	a.palette.mu.Unlock()
	a.paletteRenderList()
	return true
}

// paletteShow opens d (from a JS callback or a goroutine: it only touches the DOM).
func paletteShow(a *app, d *paletteDialog) {
	doc := js.Global().Get("document")
	dlg := doc.Call("getElementById", d.dialog)
	if dlg.IsNull() || dlg.Get("showModal").Type() != js.TypeFunction || dlg.Get("open").Bool() {
		return
	}
	a.palette.mu.Lock()
	a.palette.open, a.palette.query, a.palette.items, a.palette.active, a.palette.more = d, "", nil, 0, false
	a.palette.opener = doc.Get("activeElement")
	a.palette.mu.Unlock()
	in := doc.Call("getElementById", d.input)
	in.Set("value", "")
	dlg.Call("showModal")
	in.Call("focus")
	a.paletteRenderList()
	jsbridge.Go("palette.query", func() { paletteQuery(a, d, "") })
}

func paletteAction(a *app, act uiAction) bool {
	switch act.Name {
	case "palette-open":
		d := quickOpen
		if act.Get("kind") == "search" {
			d = searchBox
		}
		paletteShow(a, d)
	case "palette-choose":
		i, _ := strconv.Atoi(act.Get("index"))
		paletteChoose(a, i)
	default:
		return false
	}
	return true
}

// paletteQuery computes the results for q and shows them (newest query wins).
func paletteQuery(a *app, d *paletteDialog, q string) {
	a.palette.mu.Lock()
	if a.palette.open != d {
		a.palette.mu.Unlock()
		return
	}
	a.palette.gen++
	gen := a.palette.gen
	a.palette.mu.Unlock()
	var items []paletteItem
	more := false
	if d == quickOpen {
		a.mu.Lock()
		paths := make([]string, len(a.st.files))
		for i, f := range a.st.files {
			paths[i] = f.Path
		}
		a.mu.Unlock()
		items = quickOpenMatches(paths, q)
	} else if strings.TrimSpace(q) != "" {
		items, more = searchWorkspace(context.Background(), a, q)
	}
	a.palette.mu.Lock()
	if a.palette.gen != gen || a.palette.open != d {
		a.palette.mu.Unlock()
		return
	}
	a.palette.query, a.palette.items, a.palette.active, a.palette.more = q, items, 0, more
	a.palette.mu.Unlock()
	a.paletteRenderList()
}

// paletteRenderList writes the open dialog's listbox, status and aria-activedescendant.
func (a *app) paletteRenderList() {
	a.palette.mu.Lock()
	d, items, active, q, more := a.palette.open, a.palette.items, a.palette.active, a.palette.query, a.palette.more
	a.palette.mu.Unlock()
	if d == nil {
		return
	}
	a.setRegion(d.list, views.PaletteItemsHTML(items, active))
	status := ""
	switch {
	case d == searchBox && strings.TrimSpace(q) == "":
		status = "Type to search every text file (case-insensitive)."
	case len(items) == 0:
		status = "No matches."
	case more:
		status = "First " + strconv.Itoa(len(items)) + " matching lines shown."
	default:
		status = strconv.Itoa(len(items)) + plural(len(items), " match", " matches") + "."
	}
	setText(d.status, status)
	in := js.Global().Get("document").Call("getElementById", d.input)
	if in.IsNull() {
		return
	}
	activeID := ""
	if active >= 0 && active < len(items) {
		activeID = items[active].ID
		if el := js.Global().Get("document").Call("getElementById", activeID); !el.IsNull() {
			el.Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	}
	in.Call("setAttribute", "aria-activedescendant", activeID)
}

// paletteChoose opens item i of the open dialog and closes it.
func paletteChoose(a *app, i int) {
	a.palette.mu.Lock()
	d := a.palette.open
	var it paletteItem
	ok := d != nil && i >= 0 && i < len(a.palette.items)
	if ok {
		it = a.palette.items[i]
		a.palette.opener = js.Undefined() // a chosen result sends focus to the editor, not the opener
	}
	a.palette.mu.Unlock()
	if !ok {
		return
	}
	if dlg := js.Global().Get("document").Call("getElementById", d.dialog); !dlg.IsNull() {
		dlg.Call("close", "chosen")
	}
	a.action("open", it.Path, "")
	// The caret goes to the result's line (quick open: the first line) and focus to the editor.
	a.requestCaret(it.Path, max(it.Line, 1))
}

// requestCaret asks for the editor's caret (and focus) on line of path. The open that shows
// path has already run (action "open" is synchronous); when it failed (the workspace's active
// file is another one) nothing is asked. The request is applied as soon as the widget shows
// path — now, or by the render that puts the file in the editor (the file may be active before
// its text is shown) (renderEditor calls
// applyCaret) — however long that render takes on a loaded machine (it used to give up
// after 3 s, leaving focus nowhere).
func (a *app) requestCaret(path string, line int) {
	a.mu.Lock()
	if a.st.activePath != path {
		a.mu.Unlock()
		return
	}
	a.caretPath, a.caretLine = path, line
	a.mu.Unlock()
	a.applyCaret()
}

// applyCaret moves the caret for a pending requestCaret once the widget shows its file. A
// request whose file is no longer the workspace's active file is dropped (the user opened
// something else before it applied); the active file is read here, not from a render's
// snapshot, which may predate the open the request waits for.
func (a *app) applyCaret() {
	a.mu.Lock()
	path, line := a.caretPath, a.caretLine
	if path != "" && a.st.activePath != path {
		a.caretPath, a.caretLine = "", 0
		path = ""
	}
	a.mu.Unlock()
	if path == "" {
		return
	}
	ed := editorWidget()
	if ed.Type() != js.TypeObject || ed.Get("gotoLine").Type() != js.TypeFunction || ed.Call("path").String() != path {
		return
	}
	ed.Call("gotoLine", line)
	a.mu.Lock()
	if a.caretPath == path && a.caretLine == line {
		a.caretPath, a.caretLine = "", 0
	}
	a.mu.Unlock()
}

// quickOpenMatches ranks paths for q (views.QuickOpenMatches).
func quickOpenMatches(paths []string, q string) []paletteItem {
	return views.QuickOpenMatches(paths, q, maxQuickOpenResults)
}

// searchWorkspace finds q (case-insensitive) in every text file, the editor's unsaved draft
// replacing its file's stored text. It returns at most maxSearchResults rows and whether
// there were more.
func searchWorkspace(ctx context.Context, a *app, q string) ([]paletteItem, bool) {
	a.mu.Lock()
	draftPath, draftText := a.draftPath, a.draftText
	a.mu.Unlock()
	files, _, _, _, err := currentFiles(ctx, a)
	if err != nil {
		return nil, false
	}
	needle := strings.ToLower(q)
	var out []paletteItem
	for _, f := range files {
		if f.Kind == "asset" {
			continue
		}
		src, draft := f.Source, false
		if f.Path == draftPath {
			src, draft = draftText, true
		}
		for n, line := range strings.Split(src, "\n") {
			if !strings.Contains(strings.ToLower(line), needle) {
				continue
			}
			if len(out) == maxSearchResults {
				return out, true
			}
			out = append(out, paletteItem{ID: "search-option-" + strconv.Itoa(len(out)), Path: f.Path, Line: n + 1,
				Preview: previewLine(line, needle), Draft: draft})
		}
	}
	return out, false
}

// previewLine is the line trimmed and clipped around the first match (views.PreviewLine).
func previewLine(line, needle string) string { return views.PreviewLine(line, needle, maxPreviewChars) }
