package planner

import (
	"reflect"
	"strings"
	"testing"
)

func TestWebPlan(t *testing.T) {
	cases := []struct {
		prompt string
		want   []string // "tool k=v,…" for the arguments that matter
	}{
		{"Make it emerald", []string{WebGetWorkspace, WebSetTheme + " theme=emerald"}},
		{"Use a mint colour", []string{WebGetWorkspace, WebSetTheme + " theme=emerald"}},
		{"sky blue please", []string{WebGetWorkspace, WebSetTheme + " theme=sky"}},
		{"보라색으로 바꿔줘", []string{WebGetWorkspace, WebSetTheme + " theme=violet"}},
		{"Make it pink and add a feature card", []string{WebGetWorkspace, WebSetTheme + " theme=rose", WebAddFeature}},
		{"Update the hero", []string{WebGetWorkspace, WebUpdateHero}},
		{"히어로 제목을 바꿔줘", []string{WebGetWorkspace, WebUpdateHero}},
		{`Change "Try it" to "Go" in index.html`, []string{WebGetWorkspace, WebApplyPatch + " path=index.html search=Try it replace=Go"}},
		{`Replace "#6d5dfc" with "#111111" in the style`, []string{WebGetWorkspace, WebApplyPatch + " path=style.css search=#6d5dfc replace=#111111"}},
		{`Change "a" to "b" in the script`, []string{WebGetWorkspace, WebApplyPatch + " path=script.js search=a replace=b"}},
		{`Change "green card" to "blue hero"`, []string{WebGetWorkspace, WebApplyPatch + " path=index.html search=green card replace=blue hero"}}, // quotes are data, not keywords
		{`Write "hello" to notes.md`, []string{WebGetWorkspace, WebWriteFile + " path=notes.md source=hello"}},
		{"Read style.css", []string{WebReadFile + " path=style.css"}},
		{"Show the workspace", []string{WebGetWorkspace}},
		{"Run the preview", []string{WebRunPreview}},
		{"Make it amber and show the preview", []string{WebGetWorkspace, WebSetTheme + " theme=amber", WebRunPreview}},
		{"Add a button", nil},                                          // "add" alone is not a card
		{"Make the button bigger", nil},                                // not understood
		{"Delete script.js", nil},                                      // no delete tool
		{"Change the title", []string{WebGetWorkspace, WebUpdateHero}}, // no quotes: the hero copy
	}
	for _, c := range cases {
		calls, ok := WebPlan(c.prompt)
		var got []string
		for _, call := range calls {
			s := call.Name
			var kv []string
			for _, k := range []string{"theme", "path", "search", "replace", "source"} {
				if v, set := call.Arguments[k]; set {
					kv = append(kv, k+"="+v.(string))
				}
			}
			if len(kv) > 0 && call.Name != WebAddFeature && call.Name != WebUpdateHero {
				s += " " + strings.Join(kv, " ")
			}
			got = append(got, s)
		}
		if ok != (c.want != nil) || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: planned %q (ok %v), want %q", c.prompt, got, ok, c.want)
		}
	}
}

// TestWebPaletteCards: each card's prompt plans exactly its declared tools, ending with the
// card's tool.
func TestWebPaletteCards(t *testing.T) {
	for _, c := range WebPalette() {
		calls, ok := WebPlan(c.Prompt)
		if !ok || !reflect.DeepEqual(ToolNames(calls), c.Tools) || c.Tools[len(c.Tools)-1] != c.Tool {
			t.Errorf("card %s: %q plans %v, declares %v", c.Tool, c.Prompt, ToolNames(calls), c.Tools)
		}
	}
}

func TestWebNotUnderstoodSummary(t *testing.T) {
	s := WebNotUnderstoodSummary("  " + strings.Repeat("x", 100))
	if !strings.Contains(s, strings.Repeat("x", 80)+"…") || strings.Contains(s, strings.Repeat("x", 81)) || !strings.Contains(s, WebCapabilities) {
		t.Fatalf("%s", s)
	}
}
