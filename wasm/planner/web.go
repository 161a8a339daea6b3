package planner

import (
	"context"
	"strings"
	"sync"
)

// The realtime surface's local agent (issue 18; live reference, section 3.5; docs/design.md §5.24):
// a prompt becomes web.* calls, run through the same Executor as a model's calls. It
// understands less than the studio's planner, and says so (WebNotUnderstoodSummary).

// Realtime tool names (wasm/websurface owns them; a test there checks these are equal).
const (
	WebGetWorkspace = "web.getWorkspace"
	WebReadFile     = "web.readFile"
	WebWriteFile    = "web.writeFile"
	WebApplyPatch   = "web.applyPatch"
	WebSetTheme     = "web.setTheme"
	WebAddFeature   = "web.addFeature"
	WebUpdateHero   = "web.updateHero"
	WebRunPreview   = "web.runPreview"
)

// IsWebMutation reports whether tool is a revision-guarded web.* mutation (it takes
// expectedRevision and changes the workspace).
func IsWebMutation(tool string) bool {
	switch tool {
	case WebWriteFile, WebApplyPatch, WebSetTheme, WebAddFeature, WebUpdateHero:
		return true
	}
	return false
}

// Fixed copy of the web.* cards the agent plans when the prompt quotes no text.
const (
	WebFeatureTitle       = "Palette feature"
	WebFeatureDescription = "Added by the local agent through web.addFeature."
	WebHeroTitle          = "Edit the page by calling tools"
	WebHeroSubtitle       = "The local agent called web.updateHero; the preview acknowledged the new revision."
	WebNotesPath          = "notes.md"
	WebNotesSource        = "# Notes\n\nWritten through web.writeFile.\n"
)

// webWords are the realtime agent's keywords. They are built on first use (webKeywords), not
// at package initialization: the page module imports this package but never plans web.*
// calls, and package-level tables would stay in its size-budgeted binary (docs/design.md
// §5.15, §5.24).
type webWords struct {
	// themes in the order the planner tries them: the first match wins.
	themes []struct {
		theme string
		re    *keyword
	}
	write, read, workspace, run, feature, hero, style, script *keyword
}

var (
	webOnce  sync.Once // zero values: nothing runs at package initialization
	webWordz *webWords
)

// webKeywords returns the realtime agent's keywords, building them once.
func webKeywords() *webWords {
	webOnce.Do(func() { webWordz = buildWebWords() })
	return webWordz
}

func buildWebWords() *webWords {
	w := &webWords{
		write:     newKeyword("<write", "작성", "써줘", "써 줘"),
		read:      newKeyword("<read", "<show", "<open", "읽어", "보여", "열어"),
		workspace: newKeyword("<workspace", "<files", "<status", "작업~공간", "파일~목록", "상태"),
		run:       newKeyword("<run", "<compile", "<check", "<render", "실행", "확인"),
		feature:   newKeyword("<feature", "<card", "기능", "카드"),
		hero:      newKeyword("<hero", "<headline", "<title", "<landing", "히어로", "제목", "랜딩"),
		style:     newKeyword("<style", "<css", "스타일"),
		script:    newKeyword("<script", "<javascript", "스크립트"),
	}
	for _, th := range [][]string{
		{"emerald", "<emerald", "<green", "<mint", "초록", "녹색", "에메랄드", "민트"},
		{"amber", "<amber", "<orange", "주황", "호박색", "앰버"},
		{"rose", "<rose", "<pink", "분홍", "핑크", "장미", "로즈"},
		{"sky", "<sky", "<blue", "하늘", "파랑", "파란"},
		{"violet", "<violet", "<purple", "보라"},
	} {
		w.themes = append(w.themes, struct {
			theme string
			re    *keyword
		}{th[0], newKeyword(th[1:]...)})
	}
	return w
}

// WebPlan turns prompt into web.* calls, in this order: a quoted patch (an edit verb and two
// double-quoted values: search, then replace; the path is the first file the prompt names,
// else style.css when it says style, script.js when it says script, else index.html); a
// write (write verb, a named file and one quoted value as the source); a theme (first
// matching keyword: emerald, amber, rose, sky, violet); a feature card; a hero update; then
// the reads it asked for (web.readFile of a named file, web.runPreview). Mutations are
// preceded by web.getWorkspace (the revision the run guards with); a prompt that only asks
// about the workspace plans web.getWorkspace alone. ok is false when nothing was understood:
// the plan is empty and nothing may run (docs/design.md §5.11).
func WebPlan(prompt string) (calls []Call, ok bool) {
	w := webKeywords()
	t := readPrompt(prompt)
	kw := t.keywords
	quotes := t.patchValues()
	var muts, reads []Call
	switch {
	case reEditVerb.in(kw) && len(quotes) >= 2:
		muts = append(muts, newCall(WebApplyPatch, "path", webPatchPath(t), "search", quotes[0],
			"replace", quotes[1], "occurrence", OccurrenceFirst))
	case w.write.in(kw) && len(t.paths) > 0:
		src := WebNotesSource
		if vals := t.copyValues(); len(vals) > 0 {
			src = vals[0]
		}
		muts = append(muts, newCall(WebWriteFile, "path", t.paths[0], "source", src))
	}
	for _, th := range w.themes {
		if th.re.in(kw) {
			muts = append(muts, newCall(WebSetTheme, "theme", th.theme))
			break
		}
	}
	if w.feature.in(kw) {
		muts = append(muts, newCall(WebAddFeature, "title", WebFeatureTitle, "description", WebFeatureDescription))
	}
	if w.hero.in(kw) {
		muts = append(muts, newCall(WebUpdateHero, "title", WebHeroTitle, "subtitle", WebHeroSubtitle))
	}
	if len(muts) == 0 && w.read.in(kw) && len(t.paths) > 0 {
		reads = append(reads, newCall(WebReadFile, "path", t.paths[0]))
	}
	if rePreviewWord.in(kw) || (len(muts) == 0 && w.run.in(kw)) {
		reads = append(reads, newCall(WebRunPreview))
	}
	switch {
	case len(muts) > 0:
		calls = append([]Call{newCall(WebGetWorkspace)}, muts...)
	case len(reads) == 0 && w.workspace.in(kw):
		calls = []Call{newCall(WebGetWorkspace)}
	}
	calls = append(calls, reads...)
	return calls, len(calls) > 0
}

// Occurrence values of web.applyPatch (the same literal patch as the studio's).
const OccurrenceFirst = "first"

// webPatchPath is the file a quoted patch targets (live reference, section 3.5).
func webPatchPath(t promptText) string {
	w := webKeywords()
	switch {
	case len(t.paths) > 0:
		return t.paths[0]
	case w.style.in(t.keywords):
		return "style.css"
	case w.script.in(t.keywords):
		return "script.js"
	}
	return "index.html"
}

// WebCapabilities names what the realtime local agent understands.
const WebCapabilities = "It can: change the theme (violet, emerald, amber, rose or sky); add a feature card; " +
	"update the hero; replace quoted text (Change \"old\" to \"new\" in style.css); write a named file " +
	"(Write \"text\" to notes.md); read a named file; show the workspace; run the preview. " +
	"It does not edit by description (\"make the button bigger\"), delete or rename files, or undo. " +
	"Requests in English or Korean."

// WebNotUnderstoodSummary is the answer to a prompt WebPlan did not understand.
func WebNotUnderstoodSummary(prompt string) string {
	p := strings.TrimSpace(prompt)
	if r := []rune(p); len(r) > 80 {
		p = string(r[:80]) + "…"
	}
	return "The local agent did not understand \"" + p + "\" and changed nothing. " + WebCapabilities
}

// WebCard is one card of the realtime tool palette: the tool it runs and the prompt that
// makes the local agent run it (WebPlan(Prompt) plans Tools).
type WebCard struct {
	Tool   string
	Label  string
	Prompt string
	Tools  []string
}

// WebPalette returns the eight palette cards, one per web.* tool in catalog order (a fresh
// slice). Every card runs: web.writeFile writes notes.md (the original's card had no sample
// and did nothing, live reference, section 3.5). The patch card's search text is in the seed's
// index.html (a test checks it).
func WebPalette() []WebCard {
	return []WebCard{
		{WebGetWorkspace, "Inspect the workspace", "Show the workspace", []string{WebGetWorkspace}},
		{WebReadFile, "Read index.html", "Read index.html", []string{WebReadFile}},
		{WebWriteFile, "Write notes.md", "Write \"# Notes\" to notes.md", []string{WebGetWorkspace, WebWriteFile}},
		{WebApplyPatch, "Patch the hero title", "Change \"Build a page by calling tools\" to \"Build a page by calling tools · patched\" in index.html",
			[]string{WebGetWorkspace, WebApplyPatch}},
		{WebSetTheme, "Emerald theme", "Make it emerald", []string{WebGetWorkspace, WebSetTheme}},
		{WebAddFeature, "Add a feature card", "Add a feature card", []string{WebGetWorkspace, WebAddFeature}},
		{WebUpdateHero, "Update the hero", "Update the hero", []string{WebGetWorkspace, WebUpdateHero}},
		{WebRunPreview, "Run the preview", "Run the preview", []string{WebRunPreview}},
	}
}

// WebRunOptions are what RunWeb needs besides the prompt.
type WebRunOptions struct {
	// SessionID: as RunOptions.SessionID.
	SessionID string
	// PreviewExecuted: as RunOptions.PreviewExecuted (false headless).
	PreviewExecuted bool
}

// RunWeb plans prompt with WebPlan and runs it through exec like a model's calls: _meta
// {toolCallId: CallID(session, i, tool), sessionId?, source: local, mode: agent}, so the
// registry's policy and approvals apply. web.getWorkspace's revision becomes the planned
// revision; every mutation gets it as expectedRevision (unless present) and the planned
// revision then follows the mutation's result (the original re-read the workspace after each
// mutation; the result already carries the revision). The run stops at the first failure.
// A prompt WebPlan does not understand runs nothing: Failed and NotUnderstood, summary
// WebNotUnderstoodSummary.
func RunWeb(ctx context.Context, exec Executor, prompt string, opts WebRunOptions) Report {
	plan, ok := WebPlan(prompt)
	rep := Report{Calls: make([]Step, 0, len(plan))}
	if !ok {
		retry := false
		rep.Failed, rep.NotUnderstood, rep.Retryable = true, true, &retry
		rep.Summary = WebNotUnderstoodSummary(prompt)
		return rep
	}
	var planned *int64
	var called []string
	for i, call := range plan {
		call = call.clone()
		if IsWebMutation(call.Name) && planned != nil {
			if _, set := call.Arguments[ArgExpectedRevision]; !set {
				call.Arguments[ArgExpectedRevision] = *planned
			}
		}
		res, ok := runStep(ctx, exec, opts.SessionID, i, call, called, &rep)
		if !ok {
			return rep
		}
		called = append(called, call.Name)
		if r := resultRevision(res); r != nil && (call.Name == WebGetWorkspace || IsWebMutation(call.Name)) {
			planned = r
		}
	}
	rep.Summary = webSummary(called, opts.PreviewExecuted)
	return rep
}

// webSummary is the success answer: what ran, and — headless — that the page was compiled,
// not run.
func webSummary(called []string, executed bool) string {
	s := "Done: " + strings.Join(called, ", ") + "."
	mutated := false
	for _, c := range called {
		mutated = mutated || IsWebMutation(c)
	}
	switch {
	case mutated && executed:
		s += " The preview acknowledged the new revision."
	case mutated || (len(called) > 0 && called[len(called)-1] == WebRunPreview && !executed):
		s += " The preview was compiled, not run (headless)."
	}
	return s
}
