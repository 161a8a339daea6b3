package planner

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
)

// The Live Code Editor's local agent (issue 18; live reference, section 2.8; docs/design.md
// §5.27): a prompt becomes editor.* calls, run through the same Executor as a model's calls.
// The original offered no local agent for this surface (a model only); this one understands a
// few requests and says what it did not understand.

// Editor tool names (wasm/livesurface owns them; a test there checks these are equal).
const (
	EditorGetStatus        = "editor.getStatus"
	EditorListFiles        = "editor.listFiles"
	EditorOpenFile         = "editor.openFile"
	EditorSaveFile         = "editor.saveFile"
	EditorSaveAll          = "editor.saveAll"
	EditorGetDocument      = "editor.getDocument"
	EditorGetPreviewStatus = "editor.getPreviewStatus"
	EditorSetDocument      = "editor.setDocument"
	EditorApplyPatch       = "editor.applyPatch"
	EditorSetScenario      = "editor.setScenario"
	EditorResetDocument    = "editor.resetDocument"
)

// IsEditorDocumentMutation reports whether tool changes the document (it takes the
// document-clock expectedRevision).
func IsEditorDocumentMutation(tool string) bool {
	switch tool {
	case EditorOpenFile, EditorSetDocument, EditorApplyPatch, EditorSetScenario, EditorResetDocument:
		return true
	}
	return false
}

// editorWords are the editor agent's keywords, built on first use (the page module imports
// this package but never plans editor.* calls, docs/design.md §5.15).
type editorWords struct {
	save, saveAll, open, files, status, reset, write, preview, run *keyword
	scenarios                                                      []struct {
		scenario string
		re       *keyword
	}
}

var (
	editorOnce  sync.Once
	editorWordz *editorWords
)

func editorKeywords() *editorWords {
	editorOnce.Do(func() {
		w := &editorWords{
			save:    newKeyword("<save", "저장"),
			saveAll: newKeyword("<save all", "<save every", "모두~저장", "전체~저장"),
			open:    newKeyword("<open", "<show", "열어", "보여"),
			files:   newKeyword("<files", "<list", "파일~목록"),
			status:  newKeyword("<status", "<state", "<revision", "상태"),
			reset:   newKeyword("<reset", "<restore", "<start over", "되돌", "초기화"),
			write:   newKeyword("<write", "<set the document", "<set the text", "<replace the document", "작성"),
			preview: newKeyword("<preview", "미리~보기"),
			run:     newKeyword("<run", "<simulate", "실행"),
		}
		for _, sc := range [][]string{
			{"invalid", "<invalid", "잘못된"},
			{"blocked", "<blocked", "<block", "차단"},
			{"success", "<success", "<happy path", "성공"},
		} {
			w.scenarios = append(w.scenarios, struct {
				scenario string
				re       *keyword
			}{sc[0], newKeyword(sc[1:]...)})
		}
		editorWordz = w
	})
	return editorWordz
}

// EditorPlan plans the editor.* calls a prompt asks for, in this order: open a named file;
// replace quoted text in the document (Change "a" to "b") or write a quoted text as the
// document; set a scenario; reset the document; save (all files, a named file when none is
// opened, else the document's file); read the preview status. Document mutations are preceded by
// editor.getDocument (the document revision the run guards with); "status" or "files" alone
// plan editor.getStatus / editor.listFiles. ok is false when nothing was understood: the plan
// is empty and nothing may run (docs/design.md §5.11).
func EditorPlan(prompt string) (calls []Call, ok bool) {
	w := editorKeywords()
	t := readPrompt(prompt)
	kw := t.keywords
	quotes := t.patchValues()
	var muts []Call
	saving := w.save.in(kw)
	opening := w.open.in(kw) && len(t.paths) > 0
	if opening {
		muts = append(muts, newCall(EditorOpenFile, "path", t.paths[0]))
	}
	switch {
	case reEditVerb.in(kw) && len(quotes) >= 2:
		muts = append(muts, newCall(EditorApplyPatch, "search", quotes[0], "replace", quotes[1], "occurrence", OccurrenceFirst))
	case w.write.in(kw) && len(t.copyValues()) > 0:
		muts = append(muts, newCall(EditorSetDocument, "source", t.copyValues()[0]))
	}
	for _, sc := range w.scenarios {
		if sc.re.in(kw) {
			muts = append(muts, newCall(EditorSetScenario, "scenario", sc.scenario))
			break
		}
	}
	if w.reset.in(kw) {
		muts = append(muts, newCall(EditorResetDocument))
	}
	if len(muts) > 0 {
		calls = append([]Call{newCall(EditorGetDocument)}, muts...)
	}
	switch {
	case saving && w.saveAll.in(kw):
		calls = append(calls, newCall(EditorSaveAll))
	case saving && len(t.paths) > 0 && !opening:
		calls = append(calls, newCall(EditorSaveFile, "path", t.paths[0]))
	case saving:
		if len(calls) == 0 {
			calls = append(calls, newCall(EditorGetDocument))
		}
		calls = append(calls, newCall(EditorSaveFile)) // path: the document's file, filled at run time
	}
	if w.preview.in(kw) || (len(calls) == 0 && w.run.in(kw)) {
		calls = append(calls, newCall(EditorGetPreviewStatus))
	}
	if len(calls) == 0 {
		switch {
		case w.files.in(kw):
			calls = []Call{newCall(EditorGetStatus), newCall(EditorListFiles)}
		case w.status.in(kw):
			calls = []Call{newCall(EditorGetStatus)}
		}
	}
	return calls, len(calls) > 0
}

// EditorCapabilities names what the editor's local agent understands.
const EditorCapabilities = "It can: open a named file (Open style.css); replace quoted text in the document " +
	"(Change \"old\" to \"new\"); write a quoted text as the document (Write \"text\"); set the scenario " +
	"(success, invalid or blocked); reset the document; save the document, a named file or all files; " +
	"show the status, the files or the preview. It does not edit by description, create, rename or delete files. " +
	"Requests in English or Korean."

// EditorNotUnderstoodSummary is the answer to a prompt EditorPlan did not understand.
func EditorNotUnderstoodSummary(prompt string) string {
	p := strings.TrimSpace(prompt)
	if r := []rune(p); len(r) > 80 {
		p = string(r[:80]) + "…"
	}
	return "The local agent did not understand \"" + p + "\" and changed nothing. " + EditorCapabilities
}

// EditorRunOptions are what RunEditor needs besides the prompt.
type EditorRunOptions struct {
	SessionID       string
	PreviewExecuted bool // false headless: the summary says the preview was compiled, not run
}

// RunEditor plans prompt with EditorPlan and runs it through exec like a model's calls
// (source local, mode agent: the registry's policy and approvals apply). The document revision
// of editor.getDocument (or editor.getStatus's documentRevision) becomes the planned revision;
// every document mutation gets it as expectedRevision and the planned revision then follows
// the mutation's result. A save without a path saves the document's file. The run stops at
// the first failure. A prompt EditorPlan does not understand runs nothing: Failed and
// NotUnderstood, summary EditorNotUnderstoodSummary.
func RunEditor(ctx context.Context, exec Executor, prompt string, opts EditorRunOptions) Report {
	plan, ok := EditorPlan(prompt)
	rep := Report{Calls: make([]Step, 0, len(plan))}
	if !ok {
		retry := false
		rep.Failed, rep.NotUnderstood, rep.Retryable = true, true, &retry
		rep.Summary = EditorNotUnderstoodSummary(prompt)
		return rep
	}
	var planned *int64
	docFile := ""
	var called []string
	for i, call := range plan {
		call = call.clone()
		if IsEditorDocumentMutation(call.Name) && planned != nil {
			call.Arguments[ArgExpectedRevision] = *planned
		}
		if call.Name == EditorSaveFile {
			if _, set := call.Arguments["path"]; !set {
				call.Arguments["path"] = docFile
			}
		}
		res, ok := runStep(ctx, exec, opts.SessionID, i, call, called, &rep)
		if !ok {
			return rep
		}
		called = append(called, call.Name)
		var v struct {
			Revision         *int64 `json:"revision"`
			DocumentRevision *int64 `json:"documentRevision"`
			File             string `json:"file"`
			DocumentPath     string `json:"documentPath"`
		}
		if json.Unmarshal(res.StructuredContent, &v) == nil {
			if v.DocumentRevision != nil {
				planned = v.DocumentRevision
			}
			if v.File != "" {
				docFile = v.File
			} else if v.DocumentPath != "" {
				docFile = v.DocumentPath
			}
		}
	}
	rep.Summary = editorSummary(called, opts.PreviewExecuted)
	return rep
}

func editorSummary(called []string, executed bool) string {
	s := "Done: " + strings.Join(called, ", ") + "."
	for _, c := range called {
		if IsEditorDocumentMutation(c) {
			if executed {
				return s + " The preview acknowledged the new document revision."
			}
			return s + " The preview was compiled, not run (headless)."
		}
	}
	return s
}
