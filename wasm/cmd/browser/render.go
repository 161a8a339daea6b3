//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/iframe"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/ui/markup"
	"github.com/webcoding/studio/wasm/ui/views"
)

// fileID is a stable element id for a path (views.FileID).
func fileID(p string) string { return views.FileID(p) }

// morph is the shim's keyed DOM morph (site/js/morph.js: globalThis.webcodingMorph), looked
// up once.
var morph = sync.OnceValue(func() js.Value { return js.Global().Get("webcodingMorph") })

// setRegion patches the element with id to hold html when it changed and reports whether it
// did. The patch is a keyed morph (idiomorph, site/js/morph.js): elements keep their identity
// by id, so a button under the pointer, the focused element and a text field's selection
// survive every redraw (issue 15: a replaced button lost the click between press and
// release). Without the shim (it failed to load) the region's innerHTML is replaced.
func (a *app) setRegion(id string, html markup.HTML) bool {
	s := string(html)
	if a.lastHTML[id] == s {
		return false
	}
	el := js.Global().Get("document").Call("getElementById", id)
	if el.IsNull() {
		return false
	}
	if m := morph(); m.Type() == js.TypeFunction {
		m.Invoke(el, s)
	} else {
		el.Set("innerHTML", s)
	}
	a.lastHTML[id] = s
	return true
}

// appendRegionText appends text to the element with id (a streamed message's keyed text
// element, views.EntryID + "-text") without morphing the region around it, and forgets the
// region's remembered HTML so the next full render re-synchronises it.
func (a *app) appendRegionText(region, id, text string) bool {
	el := js.Global().Get("document").Call("getElementById", id)
	if el.IsNull() {
		return false
	}
	el.Call("append", text)
	delete(a.lastHTML, region)
	return true
}

func setText(id, text string) {
	el := js.Global().Get("document").Call("getElementById", id)
	if !el.IsNull() && el.Get("textContent").String() != text {
		el.Set("textContent", text)
	}
}

// previewText is the preview status line (REFERENCE §5.5), naming the page shown once the
// user followed a link in the preview.
func previewText(s iframe.Status) string {
	if s.CanBack || s.CanForward {
		return previewState(s) + " — " + s.Page.Path + s.Page.Search + s.Page.Hash
	}
	return previewState(s)
}

func previewState(s iframe.Status) string {
	switch s.State {
	case iframe.StateAcknowledged:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " acknowledged"
	case iframe.StateError:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " error: " + s.Message
	case iframe.StatePending:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " pending acknowledgement"
	case iframe.StateTimedOut:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " timed out — the preview did not answer (Refresh)"
	case iframe.StateNavigated:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " navigated away (Refresh)"
	}
	return "pending acknowledgement"
}

// render draws every region from the current state (called only by renderLoop).
func (a *app) render() {
	a.mu.Lock()
	st := a.st
	st.saving = a.savingLocked()
	st.files = append([]fileRow(nil), a.st.files...)
	st.approvals = append([]registry.Approval(nil), a.st.approvals...)
	st.transcript = append([]entry(nil), a.st.transcript...)
	focusApprove := a.st.focusApprove && len(st.approvals) > 0
	a.st.focusApprove = false
	a.mu.Unlock()

	doc := js.Global().Get("document")
	doc.Get("body").Get("dataset").Set("state", map[bool]string{true: "ready", false: "loading"}[st.ready])
	a.setRegion("studio-status", views.StatusHTML(views.Status{Text: st.statusText, Ready: st.ready, Tools: st.tools, Revision: st.revision}))
	a.setRegion("storage-mode", views.StorageHTML(st.storageMode, st.storageError, st.saving))
	setText("workspace-name", st.rootName)
	setText("persistence", st.persistence)
	a.setRegion("studio-notice", views.NoticeHTML(st.notice, st.updateReady))
	if n := doc.Call("getElementById", "studio-notice"); !n.IsNull() {
		n.Set("hidden", st.notice == "" && !st.updateReady)
	}
	a.setRegion("recipes", a.recipesHTML())
	// #file-list is the explorer tree (tree.go), drawn by its feature render hook.

	a.renderEditor(st)

	a.setRegion("approvals", views.ApprovalsHTML(approvalViews(a, st.approvals)))
	if focusApprove {
		if b := doc.Call("getElementById", "approve-0"); !b.IsNull() {
			b.Call("focus")
		}
	}
	if a.patchTranscript(st.transcript) { // streaming.go: a growing reply appends, anything else morphs
		if t := doc.Call("getElementById", "transcript"); !t.IsNull() {
			t.Set("scrollTop", t.Get("scrollHeight"))
		}
	}
	setText("preview-status", previewText(st.preview))
	msg := ""
	if st.preview.State == iframe.StateError {
		msg = st.preview.Message
	}
	a.setRegion("preview-error", views.PreviewErrorHTML(msg))
	diags := make([]views.Diagnostic, len(st.preview.Diagnostics))
	for i, d := range st.preview.Diagnostics {
		diags[i] = views.Diagnostic{Message: d.Message, SourcePath: d.SourcePath}
	}
	reports := make([]views.RuntimeReport, len(st.preview.Reports))
	for i, r := range st.preview.Reports {
		reports[i] = views.RuntimeReport{Kind: r.Kind, URL: r.URL, Detail: r.Detail}
	}
	a.setRegion("preview-diagnostics", views.DiagnosticsHTML(diags)+views.RuntimeReportsHTML(reports))
	a.setRegion("preview-console", a.consoleHTML(st.preview.Console))
	if b := doc.Call("getElementById", "cancel-run"); !b.IsNull() {
		b.Set("disabled", st.running == "" && len(st.approvals) == 0)
	}
	if b := doc.Call("getElementById", "new-chat"); !b.IsNull() { // provider.go newChat
		// A new chat cannot start while a run is going: the button says why at once instead
		// of answering after the run (nu16 item 11).
		busy := st.running != ""
		if b.Get("disabled").Bool() != busy {
			b.Set("disabled", busy)
			title := "Start a new chat"
			if busy {
				title = newChatBusy
			}
			b.Set("title", title)
		}
	}
	for _, f := range features {
		if f.render != nil {
			a.renderFeature(f)
		}
	}
}

// renderFeature runs f's render hook; a panic in it is recovered and logged here, so the
// features after it still render in this iteration (the render loop recovers the rest of
// render the same way: views.RenderLoop; docs/design.md §5.28).
func (a *app) renderFeature(f *feature) {
	defer func() {
		if v := recover(); v != nil {
			a.log(2, fmt.Sprintf("render failed: feature %s: %v\n%s", f.name, v, debug.Stack()))
		}
	}()
	f.render(a)
}

// The larger regions' HTML is memoized on its input, so a render after an unrelated change
// (every keystroke, every preview ack) does not rebuild it.
var (
	// The recipes, with and without the folder recipes (offered only while a folder is
	// linked: issue 14 item 8).
	recipesWithFolder    = sync.OnceValue(func() markup.HTML { return buildRecipesHTML(true) })
	recipesWithoutFolder = sync.OnceValue(func() markup.HTML { return buildRecipesHTML(false) })
)

// transcriptHTML is views.TranscriptHTML for list (memoized; render loop only).
func (a *app) transcriptHTML(list []entry) markup.HTML {
	if a.memoEntryHT == "" || !slices.EqualFunc(list, a.memoEntries, func(a, b entry) bool {
		return a.Kind == b.Kind && a.Text == b.Text && a.Details == b.Details && a.Key == b.Key && slices.Equal(a.Actions, b.Actions)
	}) {
		a.memoEntries, a.memoEntryHT = list, views.TranscriptHTML(list)
	}
	return a.memoEntryHT
}

// consoleHTML is views.ConsoleHTML for lines (memoized; render loop only).
func (a *app) consoleHTML(lines []iframe.ConsoleLine) markup.HTML {
	if a.memoConsHT == "" || !slices.Equal(lines, a.memoConsole) {
		out := make([]views.ConsoleLine, len(lines))
		for i, l := range lines {
			out[i] = views.ConsoleLine{Level: l.Level, Text: l.Text}
		}
		a.memoConsole, a.memoConsHT = lines, views.ConsoleHTML(out)
	}
	return a.memoConsHT
}

// buildRecipesHTML renders the recipe chips; without a linked folder the folder recipes
// (planner.Recipe.NeedsFolder) are left out.
func buildRecipesHTML(folderLinked bool) markup.HTML {
	var out []views.Recipe
	for _, r := range planner.Recipes() {
		if r.NeedsFolder() && !folderLinked {
			continue
		}
		out = append(out, views.Recipe{Label: r.Label, Prompt: r.Prompt})
	}
	return views.RecipesHTML(out)
}

// recipesHTML is the recipes region for the current folder link.
func (a *app) recipesHTML() markup.HTML {
	a.folderUIState.mu.Lock()
	linked := a.folderUIState.linked
	a.folderUIState.mu.Unlock()
	if linked {
		return recipesWithFolder()
	}
	return recipesWithoutFolder()
}
