package views

import "testing"

func TestTextAppended(t *testing.T) {
	base := []Entry{{Kind: "user", Text: "hi", Key: "1"}, {Kind: "agent", Text: "Hel", Key: "r-1"}, {Kind: "info", Text: "x", Key: "3"}}
	grown := append([]Entry(nil), base...)
	grown[1].Text = "Hello, wor"
	id, suffix, ok := TextAppended(base, grown)
	if !ok || id != "entry-r-1-text" || suffix != "lo, wor" {
		t.Errorf("TextAppended = %q %q %v", id, suffix, ok)
	}
	for name, next := range map[string][]Entry{
		"unchanged":      base,
		"added entry":    append(append([]Entry(nil), base...), Entry{Kind: "info", Text: "y"}),
		"text replaced":  {base[0], {Kind: "agent", Text: "Other", Key: "r-1"}, base[2]},
		"kind changed":   {base[0], {Kind: "partial", Text: "Hello", Key: "r-1"}, base[2]},
		"details added":  {base[0], {Kind: "agent", Text: "Hello", Key: "r-1", Details: "cut"}, base[2]},
		"two grew":       {base[0], {Kind: "agent", Text: "Hello", Key: "r-1"}, {Kind: "info", Text: "xy", Key: "3"}},
		"actions differ": {base[0], {Kind: "agent", Text: "Hello", Key: "r-1", Actions: []EntryAction{{Label: "Retry"}}}, base[2]},
	} {
		if _, _, ok := TextAppended(base, next); ok {
			t.Errorf("%s: TextAppended = ok, want a full render", name)
		}
	}
}

func TestUsageSummary(t *testing.T) {
	c1, c2 := 0.00012, 0.0031
	t1 := Usage{PromptTokens: 1200, CompletionTokens: 34, TotalTokens: 1234, CachedTokens: 1000, Cost: &c1}
	t2 := Usage{PromptTokens: 1500, CompletionTokens: 80, ReasoningTokens: 40, TotalTokens: 1580}
	run := Usage{PromptTokens: 2700, CompletionTokens: 114, ReasoningTokens: 40, CachedTokens: 1000, TotalTokens: 2814, Cost: &c1}
	session := Usage{PromptTokens: 1002700, CompletionTokens: 114, TotalTokens: 1002814, Cost: &c2}
	got := UsageSummary([]Usage{t1, t2}, run, session)
	want := "Usage — this run: 2,814 tokens (2,700 prompt, 1,000 cached · 114 completion, 40 reasoning) · $0.00012" +
		"; turn 1: 1,234 tokens (1,200 prompt, 1,000 cached · 34 completion) · $0.00012" +
		"; turn 2: 1,580 tokens (1,500 prompt · 80 completion, 40 reasoning)" +
		"; this session: 1,002,814 tokens (1,002,700 prompt · 114 completion) · $0.0031"
	if got != want {
		t.Errorf("UsageSummary =\n%s\nwant\n%s", got, want)
	}
	if got := UsageSummary([]Usage{t2}, t2, t2); got != "Usage — this run: 1,580 tokens (1,500 prompt · 80 completion, 40 reasoning); this session: 1,580 tokens (1,500 prompt · 80 completion, 40 reasoning)" {
		t.Errorf("one turn: %s", got)
	}
}
