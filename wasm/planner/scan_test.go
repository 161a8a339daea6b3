package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func tokens(s string) []string {
	var out []string
	for _, t := range findPathTokens(s) {
		out = append(out, s[t.start:t.end])
	}
	return out
}

func TestFindPathTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"index.html", []string{"index.html"}},
		{"Open src/app.js now", []string{"src/app.js"}},
		{"INDEX.HTML and Notes.MD", []string{"INDEX.HTML", "Notes.MD"}},
		{"a.htm b.css c.js d.mjs e.json f.md g.txt h.ts i.tsx j.jsx", []string{
			"a.htm", "b.css", "c.js", "d.mjs", "e.json", "f.md", "g.txt", "h.ts", "i.tsx", "j.jsx"}},
		// The extension must end the token: no "data.js" out of "data.json", none of "x.html5".
		{"data.json", []string{"data.json"}},
		{"x.html5 y.mdx", nil},
		// Greedy: the longest token from the leftmost start.
		{"a.md/b.md", []string{"a.md/b.md"}},
		{"x.md.txt", []string{"x.md.txt"}},
		{"x.md.bak", []string{"x.md"}},
		{"a.md/b", []string{"a.md"}},
		{"foo.md-bar", []string{"foo.md"}},
		{"app.js, styles.css.", []string{"app.js", "styles.css"}},
		// Leading and doubled slashes start a new token.
		{"/abs/x.md", []string{"abs/x.md"}},
		{"a//b.md", []string{"b.md"}},
		// Non-ASCII after the extension ends it; a dot alone is not a name.
		{"index.html에서", []string{"index.html"}},
		{".md", nil},
		{"./app.js", []string{"./app.js"}},
		// Traversal tokens are dropped.
		{"../x.md", nil},
		{"a/../x.md b.md", []string{"b.md"}},
		{"...md", []string{"...md"}},
		{"no path here", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tokens(tt.in)); diff != "" {
			t.Errorf("findPathTokens(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestFindQuoted(t *testing.T) {
	type q struct {
		Kind  quoteKind
		Value string
	}
	tests := []struct {
		in   string
		want []q
	}{
		{`"a" “b” 'c' 「d」`, []q{{quoteDouble, "a"}, {quoteDouble, "b"}, {quoteSingle, "c"}, {quoteCorner, "d"}}},
		// Mixed straight/curly pairs close each other, as in the original.
		{`“a" "b”`, []q{{quoteDouble, "a"}, {quoteDouble, "b"}}},
		// Apostrophes are not quotes; a quoted value may hold one.
		{`it's Bob's 'rock'n'roll' don't`, []q{{quoteSingle, "rock'n'roll"}}},
		{`'rock 'n' roll'`, []q{{quoteSingle, "rock 'n"}}},
		// Marks inside another quote are part of the value.
		{`"it's 'x'" 「"y"」`, []q{{quoteDouble, "it's 'x'"}, {quoteCorner, `"y"`}}},
		// Unclosed and empty quotes are plain text.
		{`"unclosed`, nil},
		// `""` is not a quote, so its second mark opens `" "` (the original's regex did the same).
		{`"" "x"`, []q{{quoteDouble, ""}}},
		{`「`, nil},
		// Whitespace-only values are spans with an empty value.
		{`"   "`, []q{{quoteDouble, ""}}},
	}
	for _, tt := range tests {
		var got []q
		for _, f := range findQuoted(tt.in) {
			got = append(got, q{f.kind, f.value})
			if f.start < 0 || f.end > len(tt.in) || f.start >= f.end {
				t.Errorf("findQuoted(%q): bad span %d..%d", tt.in, f.start, f.end)
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("findQuoted(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestScannersOnHugeInputs runs the scanners on inputs that would be quadratic for a naive
// scan; they must finish (the test would time out otherwise).
func TestScannersOnHugeInputs(t *testing.T) {
	inputs := []string{
		strings.Repeat("“", 50_000),
		strings.Repeat(" '", 50_000),
		strings.Repeat("「", 50_000),
		strings.Repeat("a//", 50_000),
		strings.Repeat("a.m/", 50_000),
		strings.Repeat("a.md/b/", 25_000),
		strings.Repeat("x", 100_000) + ".md",
	}
	for _, in := range inputs {
		calls := PromptToToolCalls(in)
		if len(calls) == 0 {
			t.Fatalf("no calls for an input of %d bytes", len(in))
		}
	}
}
