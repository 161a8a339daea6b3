package planner

import "strings"

// Default values of the arguments the planner fills in when the prompt does not give them
// (REFERENCE §7.1).
const (
	// DefaultCreatePath is the file createFile targets when the prompt names no path.
	DefaultCreatePath = "notes.md"
	// DefaultCreateSource is the fixed 3-line markdown body of a planned createFile.
	DefaultCreateSource = "# New workspace file\n\nCreated by the local agent through the typed workspace.createFile tool.\n"
	// DefaultPatchPath is the file a quoted-text patch targets when the prompt names no path.
	DefaultPatchPath = "index.html"
	// DefaultFeatureTitle and DefaultFeatureDescription fill preview.addFeature.
	DefaultFeatureTitle       = "Conversation-driven feature"
	DefaultFeatureDescription = "A new card was added through a typed preview.addFeature tool call."
	// DefaultHeroTitle and DefaultHeroSubtitle fill preview.updateHero.
	DefaultHeroTitle    = "A page shaped by conversation."
	DefaultHeroSubtitle = "The agent selected tools, changed the workspace, and refreshed the preview."
)

// Keywords (REFERENCE §7.1), in the phrase syntax of keyword. They run on the lower-cased
// keyword text (see promptText), never on quoted values or path tokens, so matching is
// case-insensitive. English keywords must start a word ("<card" matches "cards" but not
// "discard"); the ones the reference calls words (undo, redo, the path fallbacks) must also
// end one. Korean keywords match anywhere, since particles attach to them ("파일을",
// "상태는"), and allow optional spaces inside ("작업 공간", "작업공간").
var (
	reResetKR      = newKeyword("초기화", "처음부터~다시", "처음부터~시작", "기본~예제")
	reResetVerb    = newKeyword("<reset", "<start over", "<restore demo")
	reResetObject  = newKeyword("<workspace", "<demo", "작업~공간", "프로젝트", "상태")
	reDelete       = newKeyword("<delete", "<remove", "삭제", "지워", "지우")
	reFileWord     = newKeyword("<file", "파일")
	reSave         = newKeyword("<save", "<persist", "저장", "폴더에~반영", "파일~시스템")
	reSaveQuestion = newKeyword("저장~가능")
	reDisconnect   = newKeyword("<disconnect", "<unlink", "연결~해제", "연결을~해제", "폴더~해제")
	reFolderWord   = newKeyword("<folder", "<directory", "폴더", "디렉터리", "디렉토리")
	reReloadVerb   = newKeyword("<reload", "<re-read", "<refresh", "다시~읽", "새로~고침", "재로드")
	reStatus       = newKeyword("<status", "상태", "<folder sync", "폴더~연결", "저장~가능", "<writable")
	rePreviewWord  = newKeyword("<preview", "미리~보기")
	reStateWord    = newKeyword("<status", "<state", "상태")
	reRename       = newKeyword("<rename", "<move", "이름~변경", "이름~바꾸", "이름~바꿔", "파일~이름")
	reOpen         = newKeyword("<open", "<show", "<view", "열어", "열기", "보여", "파일을~선택", "파일을~열")
	reDownload     = newKeyword("<download", "<export", "다운로드", "내려~받", "받아~줘")
	reUndo         = newKeyword("<undo>", "실행~취소", "되돌리기", "되돌리어", "되돌리고", "되돌리줘", "되돌려")
	reRedo         = newKeyword("<redo>", "재실행", "다시~실행")
	reVisualCopy   = newKeyword("<hero", "<headline", "<title", "<subtitle", "<feature", "<card", "<section",
		"제목", "히어로", "기능", "카드", "섹션")
	reEditVerb    = newKeyword("<replace", "<change", "<edit", "<update", "바꾸", "바꿔", "변경", "수정", "교체")
	reRefreshVerb = newKeyword("<refresh", "<reload", "새로~고침", "갱신")
	reCreate      = newKeyword("<create", "생성", "만들")
	reNewFile     = newKeyword("새~파일")
	reNewWord     = newKeyword("<new>")
	reFeature     = newKeyword("<feature", "<card", "<section", "기능", "카드")
	reHero        = newKeyword("<hero", "<headline", "<landing page", "<update title", "<update the title",
		"제목", "랜딩~페이지", "히어로")
	reHeroCopy = newKeyword("<hero", "<headline", "<title", "<subtitle", "제목", "히어로")

	// Theme keywords in priority order: the first theme with a match wins.
	themeKeywords = []struct {
		theme string
		re    *keyword
	}{
		{ThemeEmerald, newKeyword("<emerald", "<green", "초록", "녹색", "에메랄드")},
		{ThemeAmber, newKeyword("<amber", "<orange", "주황", "호박색", "앰버")},
		{ThemeRose, newKeyword("<rose", "<pink", "분홍", "핑크", "장미", "로즈")},
		{ThemeViolet, newKeyword("<violet", "<purple", "보라")},
	}

	// Path fallbacks when no explicit path token is present: whole words, in this order.
	pathFallbacks = []struct {
		re   *keyword
		path string
	}{
		{newKeyword("<readme>"), "README.md"},
		{newKeyword("<index>"), "index.html"},
		{newKeyword("<style>", "<styles>"), "styles.css"},
		{newKeyword("<app>"), "app.js"},
		{newKeyword("<note>", "<notes>"), "notes.md"},
	}
)

// promptText is a prompt split into what the planner reads.
type promptText struct {
	quotes []quoted // every quoted span, left to right
	paths  []string // path tokens outside quotes, plus quoted values that are one path token
	// keywords is the prompt, lower-cased, with every quoted span and every path token
	// replaced by a space: the only text keyword patterns see.
	keywords string
	// requested is the inferred path: the first path token, else a keyword fallback, else "".
	requested string
}

// readPrompt splits prompt into quoted values, path tokens and keyword text.
func readPrompt(prompt string) promptText {
	t := promptText{quotes: findQuoted(prompt)}

	// Quoted spans become spaces, except a value that is exactly one path token
	// (`Open "app.js"`), which stays as a path.
	var plain strings.Builder
	last := 0
	for _, q := range t.quotes {
		plain.WriteString(prompt[last:q.start])
		plain.WriteByte(' ')
		if toks := findPathTokens(q.value); len(toks) == 1 && toks[0].start == 0 && toks[0].end == len(q.value) {
			plain.WriteString(q.value)
			plain.WriteByte(' ')
		}
		last = q.end
	}
	plain.WriteString(prompt[last:])
	text := plain.String()

	var kw strings.Builder
	last = 0
	for _, tok := range findPathTokens(text) {
		t.paths = append(t.paths, text[tok.start:tok.end])
		kw.WriteString(text[last:tok.start])
		kw.WriteByte(' ')
		last = tok.end
	}
	kw.WriteString(text[last:])
	t.keywords = strings.ToLower(kw.String())

	if len(t.paths) > 0 {
		t.requested = t.paths[0]
	} else {
		for _, f := range pathFallbacks {
			if f.re.in(t.keywords) {
				t.requested = f.path
				break
			}
		}
	}
	return t
}

// patchValues returns the double-quoted values (straight or curly) other than the inferred
// path, in prompt order; empty values are skipped.
func (t promptText) patchValues() []string {
	var out []string
	for _, q := range t.quotes {
		if q.kind == quoteDouble && q.value != "" && q.value != t.requested {
			out = append(out, q.value)
		}
	}
	return out
}

// copyValues returns the quoted values of every kind ("…", “…”, '…', 「…」) other than the
// inferred path, in prompt order; empty values are skipped.
func (t promptText) copyValues() []string {
	var out []string
	for _, q := range t.quotes {
		if q.value != "" && q.value != t.requested {
			out = append(out, q.value)
		}
	}
	return out
}

// renamePaths returns the first two distinct path tokens, or ok == false.
func (t promptText) renamePaths() (from, to string, ok bool) {
	for _, p := range t.paths {
		switch {
		case from == "":
			from = p
		case p != from:
			return from, p, true
		}
	}
	return "", "", false
}

// Ambiguity names a request the planner could not resolve to a target, answered with a
// lone workspace.listFiles and a question (REFERENCE §7.3).
type Ambiguity string

const (
	// NotAmbiguous marks an ordinary plan.
	NotAmbiguous Ambiguity = ""
	// AmbiguousDelete: a delete-file request without a path.
	AmbiguousDelete Ambiguity = "delete"
	// AmbiguousDownload: a download/export request without a path and without an active file.
	AmbiguousDownload Ambiguity = "download"
)

// PromptToToolCalls turns a prompt into the tool calls it asks for, before plan building
// (REFERENCE §7.1). It always returns at least one call; a prompt that matches nothing gets
// [workspace.listFiles]. It is PromptToToolCallsWithActive with no active path, so a
// download request without a path is answered with [workspace.listFiles].
//
// Rules, in order:
//
//  1. Path inference: the first `dir/name.ext` token (ext html, htm, css, js, mjs, json, md,
//     txt, ts, tsx, jsx, case-insensitive) outside quotes, or a quoted value that is exactly
//     such a token; else the words readme, index, style/styles, app, note/notes mapped to
//     README.md, index.html, styles.css, app.js, notes.md. Tokens with a ".." segment are
//     ignored.
//  2. Early exits (one call, everything else ignored): reset → workspace.reset; preview +
//     status/state → preview.getStatus; status words → workspace.getStatus. The status exits
//     are skipped when the prompt also asks for a patch, a save, a folder reload or (for
//     workspace status) a folder disconnect.
//  3. Quoted-text patch: an edit verb and at least two double-quoted values other than the
//     path → applyPatch{path (default index.html), search, replace, occurrence "first"};
//     skipped for a visual-copy request (hero, title, feature, card, …) with no inferred path.
//  4. Then, appended in this order: renameFile, openFile, downloadFile, undo, redo,
//     preview.refresh, deleteFile, createFile, setTheme, addFeature, updateHero, saveAll,
//     reloadFolder, disconnectFolder. A delete without a path, or a download without any
//     path, returns [workspace.listFiles] at once.
//
// Keywords are matched only outside quoted values and outside path tokens, so text inside
// quotes never triggers a tool (see the package Rationale).
func PromptToToolCalls(prompt string) []Call {
	calls, _ := plan(prompt, "")
	return calls
}

// PromptToToolCallsWithActive is PromptToToolCalls where a download request without a path
// targets activePath (ignored when blank or when it has a ".." segment).
func PromptToToolCallsWithActive(prompt, activePath string) []Call {
	calls, _ := plan(prompt, activePath)
	return calls
}

// plan implements PromptToToolCalls and reports whether the result is an ambiguity answer.
func plan(prompt, activePath string) ([]Call, Ambiguity) {
	t := readPrompt(prompt)
	kw := t.keywords
	has := func(k *keyword) bool { return k.in(kw) }

	folder := has(reFolderWord)
	reloadFolder := has(reReloadVerb) && folder
	disconnect := has(reDisconnect) && folder
	save := reSave.in(reSaveQuestion.removeAll(kw))
	// "delete app.js" names its file: no "file" word needed (issue 14).
	deleteRequest := has(reDelete) && (has(reFileWord) || len(t.paths) > 0)

	var patch *Call
	if has(reEditVerb) && !(has(reVisualCopy) && t.requested == "") {
		if v := t.patchValues(); len(v) >= 2 {
			path := t.requested
			if path == "" {
				path = DefaultPatchPath
			}
			c := newCall(ToolApplyPatch, "path", path, "search", v[0], "replace", v[1], "occurrence", "first")
			patch = &c
		}
	}

	// Early exits.
	if has(reResetKR) || has(reResetVerb) && has(reResetObject) {
		return []Call{newCall(ToolReset)}, NotAmbiguous
	}
	if has(rePreviewWord) && has(reStateWord) && patch == nil && !save && !reloadFolder {
		return []Call{newCall(ToolPreviewStatus)}, NotAmbiguous
	}
	if has(reStatus) && patch == nil && !save && !reloadFolder && !disconnect {
		return []Call{newCall(ToolGetStatus)}, NotAmbiguous
	}

	var calls []Call
	if patch != nil {
		calls = append(calls, *patch)
	}
	// An element-text request ("Change the heading text to Hello World"): a patch whose search
	// the run fills from the file (Call.Element). A quoted hero request stays with updateHero.
	element := false
	if kind, text, ok := elementRequest(prompt, t); ok && patch == nil && !(has(reHero) && len(t.copyValues()) > 0) {
		path := t.requested
		if path == "" {
			path = DefaultPatchPath
		}
		c := newCall(ToolApplyPatch, "path", path, "search", "", "replace", text, "occurrence", "first")
		c.Element = kind
		calls = append(calls, c)
		element = true
	}
	from, to, rename := t.renamePaths()
	rename = rename && has(reRename)
	if rename {
		calls = append(calls, newCall(ToolRenameFile, "fromPath", from, "toPath", to))
	}
	if has(reOpen) && t.requested != "" && patch == nil && !rename && !element {
		calls = append(calls, newCall(ToolOpenFile, "path", t.requested))
	}
	if has(reDownload) {
		path := t.requested
		if path == "" && usablePath(activePath) {
			path = activePath
		}
		if path == "" {
			return []Call{newCall(ToolListFiles)}, AmbiguousDownload
		}
		calls = append(calls, newCall(ToolDownloadFile, "path", path))
	}
	if has(reUndo) {
		calls = append(calls, newCall(ToolUndo))
	}
	if has(reRedo) {
		calls = append(calls, newCall(ToolRedo))
	}
	if has(reRefreshVerb) && has(rePreviewWord) && !reloadFolder {
		calls = append(calls, newCall(ToolPreviewRefresh))
	}
	if deleteRequest {
		if t.requested == "" {
			return []Call{newCall(ToolListFiles)}, AmbiguousDelete
		}
		calls = append(calls, newCall(ToolDeleteFile, "path", t.requested))
	}
	createIntent := has(reCreate) || has(reNewFile) || has(reNewWord) && has(reFileWord)
	if createIntent && (has(reFileWord) || t.requested != "") {
		path := t.requested
		if path == "" {
			path = DefaultCreatePath
		}
		calls = append(calls, newCall(ToolCreateFile, "path", path, "source", DefaultCreateSource))
	}
	// The first theme named and not negated ("rose, not emerald", "에메랄드 대신 로즈").
	if theme := chooseTheme(kw); theme != "" && !element {
		calls = append(calls, newCall(ToolSetTheme, "theme", theme))
	}
	if has(reFeature) && !element {
		title, description := DefaultFeatureTitle, DefaultFeatureDescription
		if v := t.copyValues(); len(v) > 0 {
			title = v[0]
			if len(v) > 1 {
				description = v[1]
			}
		}
		calls = append(calls, newCall(ToolAddFeature, "title", title, "description", description))
	}
	if has(reHero) && !element {
		// No quoted text: both defaults (REFERENCE §7.1). A quoted title alone changes only the
		// title — the page keeps its subtitle (the original replaced it with a default text).
		call := newCall(ToolUpdateHero, "title", DefaultHeroTitle, "subtitle", DefaultHeroSubtitle)
		if has(reHeroCopy) {
			if v := t.copyValues(); len(v) > 0 {
				call = newCall(ToolUpdateHero, "title", v[0])
				if len(v) > 1 {
					call = newCall(ToolUpdateHero, "title", v[0], "subtitle", v[1])
				}
			}
		}
		calls = append(calls, call)
	}
	if save {
		calls = append(calls, newCall(ToolSaveAll))
	}
	if reloadFolder {
		calls = append(calls, newCall(ToolReloadFolder))
	}
	if disconnect {
		calls = append(calls, newCall(ToolDisconnectFolder))
	}
	if len(calls) == 0 {
		return []Call{newCall(ToolListFiles)}, NotUnderstood
	}
	return calls, NotAmbiguous
}

// usablePath reports whether p can be proposed as a path argument: not blank and without a
// ".." segment.
func usablePath(p string) bool {
	return strings.TrimSpace(p) != "" && !hasParentSegment(p)
}
