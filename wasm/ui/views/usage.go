package views

import (
	"strconv"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// TextAppended reports whether next differs from prev only by text appended to one entry
// (issue 16: a streamed reply growing): same length, every entry equal but one, which keeps
// its Kind, Key, Details and Actions and whose Text extends the old one. It returns that
// entry's text element id (EntryID + "-text") and the appended suffix, so the caller can
// append the suffix to that one element instead of morphing the transcript
// (docs/design.md §5.16).
func TextAppended(prev, next []Entry) (textID, suffix string, ok bool) {
	if len(prev) != len(next) {
		return "", "", false
	}
	found := -1
	for i := range next {
		a, b := prev[i], next[i]
		if a.Kind == b.Kind && a.Text == b.Text && a.Details == b.Details && a.Key == b.Key && equalActions(a.Actions, b.Actions) {
			continue
		}
		if found >= 0 || a.Kind != b.Kind || a.Key != b.Key || a.Details != b.Details || !equalActions(a.Actions, b.Actions) ||
			!strings.HasPrefix(b.Text, a.Text) {
			return "", "", false
		}
		found = i
	}
	if found < 0 {
		return "", "", false
	}
	return EntryID(found, next[found]) + "-text", next[found].Text[len(prev[found].Text):], true
}

func equalActions(a, b []EntryAction) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Usage is what a provider reported for one turn, a run or a session (the shape of
// openrouter.Usage, which views do not import): token counts as reported, Cost nil when no
// answer reported one (US dollars on OpenRouter).
type Usage struct {
	PromptTokens, CompletionTokens, ReasoningTokens, CachedTokens, TotalTokens int64
	Cost                                                                       *float64
}

// UsageLine is one usage total as text, e.g. "1,234 tokens (1,000 prompt, 50 cached · 234
// completion, 30 reasoning) · $0.00123"; the reasoning and cached parts only when non-zero,
// the cost only when reported.
func UsageLine(u Usage) string {
	var b strings.Builder
	b.WriteString(thousands(u.TotalTokens) + " tokens (" + thousands(u.PromptTokens) + " prompt")
	if u.CachedTokens > 0 {
		b.WriteString(", " + thousands(u.CachedTokens) + " cached")
	}
	b.WriteString(" · " + thousands(u.CompletionTokens) + " completion")
	if u.ReasoningTokens > 0 {
		b.WriteString(", " + thousands(u.ReasoningTokens) + " reasoning")
	}
	b.WriteString(")")
	if u.Cost != nil {
		b.WriteString(" · $" + strconv.FormatFloat(*u.Cost, 'g', 4, 64))
	}
	return b.String()
}

// UsageSummary is the transcript's usage entry of one run: "Usage — this run: <line>" and,
// for a run of several turns, "; turn 1: <line>; turn 2: …", then "; this session: <line>".
func UsageSummary(turns []Usage, run, session Usage) string {
	s := "Usage — this run: " + UsageLine(run)
	if len(turns) > 1 {
		for i, t := range turns {
			s += "; turn " + strconv.Itoa(i+1) + ": " + UsageLine(t)
		}
	}
	return s + UsageSessionLabel + UsageLine(session)
}

// UsageSessionLabel introduces the page's session total in a usage entry; the session is
// this page since it loaded (a reload starts it at zero again; a kept entry shown after a
// reload is relabelled by wasm/chats.Restore).
const UsageSessionLabel = "; this session: "

// thousands is mcp.Thousands.
func thousands(n int64) string { return mcp.Thousands(n) }
