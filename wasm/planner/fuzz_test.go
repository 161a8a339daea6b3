package planner

import (
	"strings"
	"testing"
)

// argTypes lists, per tool, the argument names the planner may set and whether each is a
// required non-empty string. Every planned argument must appear here with a string value.
var argTypes = map[string]map[string]bool{
	ToolReadFile:     {"path": true},
	ToolDownloadFile: {"path": true},
	ToolOpenFile:     {"path": true},
	ToolDeleteFile:   {"path": true},
	ToolCreateFile:   {"path": true, "source": true},
	ToolRenameFile:   {"fromPath": true, "toPath": true},
	ToolApplyPatch:   {"path": true, "search": true, "replace": false, "occurrence": true},
	ToolSetTheme:     {"theme": true},
	ToolAddFeature:   {"title": true, "description": true},
	ToolUpdateHero:   {"title": true, "subtitle": true},
}

var pathArgs = map[string]bool{"path": true, "fromPath": true, "toPath": true}

// checkCalls asserts the planner invariants on calls: at least one call, catalog names only,
// arguments of the right names and types, no ".." path segments, and enum values in range.
func checkCalls(t *testing.T, prompt string, calls []Call) {
	t.Helper()
	if len(calls) == 0 {
		t.Fatalf("%q: no calls", prompt)
	}
	for _, c := range calls {
		if !IsTool(c.Name) {
			t.Fatalf("%q: unknown tool %q", prompt, c.Name)
		}
		if c.Arguments == nil {
			t.Fatalf("%q: %s has nil arguments", prompt, c.Name)
		}
		allowed := argTypes[c.Name]
		for k, v := range c.Arguments {
			required, ok := allowed[k]
			if !ok {
				t.Fatalf("%q: %s has unexpected argument %q", prompt, c.Name, k)
			}
			s, isString := v.(string)
			if !isString {
				t.Fatalf("%q: %s.%s is %T, want string", prompt, c.Name, k, v)
			}
			if required && strings.TrimSpace(s) == "" {
				t.Fatalf("%q: %s.%s is blank", prompt, c.Name, k)
			}
			if pathArgs[k] && hasParentSegment(s) {
				t.Fatalf("%q: %s.%s = %q has a .. segment", prompt, c.Name, k, s)
			}
		}
		for k, required := range allowed {
			if _, ok := c.Arguments[k]; required && !ok {
				t.Fatalf("%q: %s lacks %q", prompt, c.Name, k)
			}
		}
		switch c.Name {
		case ToolSetTheme:
			switch c.Arguments["theme"] {
			case ThemeViolet, ThemeEmerald, ThemeAmber, ThemeRose:
			default:
				t.Fatalf("%q: bad theme %v", prompt, c.Arguments["theme"])
			}
		case ToolApplyPatch:
			if c.Arguments["occurrence"] != "first" {
				t.Fatalf("%q: occurrence %v", prompt, c.Arguments["occurrence"])
			}
		}
	}
}

func FuzzPromptToToolCalls(f *testing.F) {
	for _, seed := range []string{
		"", "hello", "Show workspace status", "Make it emerald",
		`Change index.html from "text that is not in this file" to "new text"`,
		`Add a feature card "Inspectable tools" "Every call leaves a trace."`,
		"Rename index.html to landing.html", "Delete the file", "Download current file",
		"작업공간을 초기화해줘", "기능 카드 「빠른」 추가", "Open ../../x.md", "a//b.md/../c.md",
		`“unclosed 'it's' 「`, "Rename a.json to b.json and delete file c.md, undo redo save",
		"\xff\xfe index.html \x00 \"a\" \"b\" replace",
	} {
		f.Add(seed, "index.html")
	}
	f.Add("download it", "")
	f.Add("download it", "../up.md")
	f.Fuzz(func(t *testing.T, prompt, active string) {
		calls := PromptToToolCalls(prompt)
		checkCalls(t, prompt, calls)
		for _, linked := range []bool{false, true} {
			p := Build(prompt, linked, active)
			if p.Ambiguous == NotUnderstood {
				if len(p.Calls) != 0 {
					t.Fatalf("%q: a not-understood plan runs %v", prompt, ToolNames(p.Calls))
				}
				continue
			}
			checkCalls(t, prompt, p.Calls)
			if p.Ambiguous != NotAmbiguous && (len(p.Calls) != 1 || p.Calls[0].Name != ToolListFiles) {
				t.Fatalf("%q: ambiguous plan %v", prompt, ToolNames(p.Calls))
			}
			for _, c := range p.Calls {
				if linked && c.Name == ToolSaveCheckpoint || !linked && c.Name == ToolSaveAll {
					t.Fatalf("%q: %s planned with linked=%v", prompt, c.Name, linked)
				}
			}
		}
	})
}
