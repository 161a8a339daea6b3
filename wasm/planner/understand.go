package planner

import (
	"strings"
	"unicode/utf8"
)

// Issue 14 item 6: the local agent never answers ✓ for a request it does not understand, and it
// understands the everyday requests a user types first.

// NotUnderstood marks a prompt the planner found no request in (Plan.Ambiguous): the plan has
// no calls and the run reports the NotUnderstoodSummary, with Report.NotUnderstood set (its own
// status in the chat, trace and CLI; `webcoding agent` exits non-zero).
const NotUnderstood Ambiguity = "not-understood"

// Capabilities names what the local agent can do, for the not-understood answer.
const Capabilities = "It can: change the accent colour (emerald, amber, rose or violet; \"rose, not emerald\"); " +
	"change the text of the heading, button or paragraph (Change the button text to \"Sign up\"); " +
	"create, rename or delete a named file (delete notes.md; rename app.js to main.js); " +
	"replace quoted text (Change \"old\" to \"new\" in index.html); add a feature card; update the hero; " +
	"open or download a file; undo or redo; show the workspace or preview status; refresh the preview; " +
	"save, reload or disconnect a linked folder; with an element picked in the preview: change this text, " +
	"make this bigger or smaller, hide this, make this emerald. Requests in English or Korean."

// NotUnderstoodSummary is the answer to a prompt the planner did not understand.
func NotUnderstoodSummary(prompt string) string {
	p := strings.TrimSpace(prompt)
	if utf8.RuneCountInString(p) > 80 {
		p = string([]rune(p)[:80]) + "…"
	}
	return "The local agent did not understand \"" + p + "\" and changed nothing. " + Capabilities
}

// Element-text requests: "Change the heading text to Hello World", "버튼 텍스트를 '시작'으로
// 바꿔줘". The planner cannot know the element's current text, so it plans
// workspace.readFile{path} and an applyPatch whose search is filled at run time from that
// read (Call.Element): the text inside the first element of the kind.
var (
	reHeadingWord   = newKeyword("<heading", "<header text", "<h1>", "헤딩", "머리글", "제목")
	reButtonWord    = newKeyword("<button", "버튼")
	reParagraphWord = newKeyword("<paragraph", "<subtitle", "<text under", "문단", "단락", "부제")
	reTextWord      = newKeyword("<text", "<label", "<caption", "<wording", "<copy>", "텍스트", "문구", "글자")
	reToMarker      = newKeyword("<to>", "<into>", "<as>", "<with>")
)

// Element kinds a text request can target, with the tags searched in order.
var elementTags = map[string][]string{
	"heading":   {"h1", "h2", "h3"},
	"button":    {"button"},
	"paragraph": {"p"},
}

// elementRequest reads an element-text request: kind ("heading", "button", "paragraph") and the
// new text (a quoted value, else the words after "to"; Korean: the words before "(으)로"), or
// ok false.
func elementRequest(prompt string, t promptText) (kind, text string, ok bool) {
	kw := t.keywords
	if !reEditVerb.in(kw) && !strings.Contains(kw, "set ") && !strings.Contains(kw, "make ") {
		return "", "", false
	}
	switch {
	case reButtonWord.in(kw):
		kind = "button"
	case reParagraphWord.in(kw):
		kind = "paragraph"
	case reHeadingWord.in(kw) && (reTextWord.in(kw) || !strings.ContainsAny(kw, "\"“'「")):
		kind = "heading"
	default:
		return "", "", false
	}
	if v := t.copyValues(); len(v) == 1 {
		return kind, v[0], true
	} else if len(v) > 1 {
		return "", "", false // several quoted values: a search/replace patch, not this request
	}
	lower := strings.ToLower(prompt)
	if _, end, found := reToMarker.find(lower, 0); found {
		// The last " to " wins: "Change the heading text to Hello World".
		for {
			_, e2, more := reToMarker.find(lower, end)
			if !more {
				break
			}
			end = e2
		}
		v := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(prompt[end:]), ".!"))
		if v != "" {
			return kind, v, true
		}
	}
	// Korean: "버튼 텍스트를 시작하기로 바꿔줘" → the words before 로/으로.
	for _, verb := range []string{"바꿔", "바꾸", "변경", "수정", "교체"} {
		i := strings.Index(prompt, verb)
		if i < 0 {
			continue
		}
		head := strings.TrimSpace(prompt[:i])
		var val string
		switch {
		case strings.HasSuffix(head, "으로"):
			val = strings.TrimSuffix(head, "으로")
		case strings.HasSuffix(head, "로"):
			val = strings.TrimSuffix(head, "로")
		default:
			continue
		}
		// The value follows the object particle (을/를) of "… 텍스트를".
		if j := strings.LastIndexAny(val, " "); j >= 0 {
			val = val[j+1:]
		}
		if val = strings.Trim(strings.TrimSpace(val), "'\"“”‘’「」"); val != "" {
			return kind, val, true
		}
	}
	return "", "", false
}

// ElementSearch finds the text inside the first element of kind (ElementHeading, …) in an HTML
// source: the tags of elementTags in order, the element's inner text between its start tag and
// the matching end tag, without nested tags. ok false when there is none.
func ElementSearch(source, kind string) (inner string, ok bool) {
	lower := strings.ToLower(source)
	for _, tag := range elementTags[kind] {
		from := 0
		for {
			i := strings.Index(lower[from:], "<"+tag)
			if i < 0 {
				break
			}
			i += from
			after := i + 1 + len(tag)
			if after >= len(lower) || !(lower[after] == '>' || lower[after] == ' ' || lower[after] == '\t' || lower[after] == '\n') {
				from = after
				continue
			}
			gt := strings.IndexByte(lower[after:], '>')
			if gt < 0 {
				break
			}
			start := after + gt + 1
			end := strings.Index(lower[start:], "</"+tag)
			if end < 0 {
				break
			}
			inner = source[start : start+end]
			if strings.TrimSpace(inner) != "" && !strings.Contains(inner, "<") {
				return inner, true
			}
			from = start
		}
	}
	return "", false
}

// Negations around a theme word: "rose, not emerald", "instead of emerald", "에메랄드 대신
// 로즈", "에메랄드 말고". A negated theme is never chosen.
var (
	negBefore = []string{"not ", "no ", "instead of ", "rather than ", "except ", "but not ", "without "}
	negAfter  = []string{"대신", "말고", "아니", "빼고"}
)

// chooseTheme returns the theme the prompt asks for: the first theme word (any of
// themeKeywords' words) that is not negated, by position in kw; "" for none.
func chooseTheme(kw string) string {
	best, bestAt := "", -1
	for _, th := range themeKeywords {
		from := 0
		for {
			s, e, ok := th.re.find(kw, from)
			if !ok {
				break
			}
			from = e
			if negatedAt(kw, s, e) {
				continue
			}
			if bestAt < 0 || s < bestAt {
				best, bestAt = th.theme, s
			}
			break
		}
	}
	return best
}

// negatedAt reports whether the word at kw[s:e] is negated by the words just before it (same
// clause) or right after it.
func negatedAt(kw string, s, e int) bool {
	before := kw[:s]
	if i := strings.LastIndexAny(before, ",;."); i >= 0 {
		before = before[i+1:]
	}
	before = strings.TrimLeft(before, " ")
	for _, n := range negBefore {
		if strings.HasSuffix(before, n) || strings.HasSuffix(before, n+"the ") {
			return true
		}
	}
	after := kw[e:]
	for _, n := range negAfter {
		rest := strings.TrimLeft(after, " ")
		if strings.HasPrefix(after, n) || strings.HasPrefix(rest, n) {
			return true
		}
		// Korean particles between the word and 대신: "에메랄드색 대신", "에메랄드를 말고".
		if i := strings.Index(after, n); i >= 0 && i <= 6 && !strings.ContainsAny(after[:i], ",.") {
			return true
		}
	}
	return false
}
