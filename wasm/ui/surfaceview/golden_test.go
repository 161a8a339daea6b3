package surfaceview

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/ui/markup"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// hostile is data that must stay text wherever it lands.
const hostile = `"><script>alert(1)</script><img src=x onerror=alert(2)>&amp;`

const themeSchema = `{"type":"object","properties":{"theme":{"type":"string","enum":["violet","emerald"]},"expectedRevision":{"type":"integer","minimum":0}},"required":["theme"],"additionalProperties":false}`

func mustFields(t *testing.T, schema string, defaults map[string]string) []Field {
	t.Helper()
	f, err := FieldsFromSchema([]byte(schema), defaults)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// goldenCases: name → view output. Every file under testdata/ belongs to one case.
func goldenCases(t *testing.T) map[string]markup.HTML {
	patch := mustFields(t, `{"type":"object","properties":{"path":{"type":"string","minLength":1,"maxLength":240},"search":{"type":"string","maxLength":20000},"replace":{"type":"string"},"occurrence":{"type":"string","enum":["first","all"]},"dryRun":{"type":"boolean"}},"required":["path","search","replace","occurrence"]}`,
		map[string]string{"path": hostile, "search": hostile})
	return map[string]markup.HTML{
		"status-loading": StatusHTML(Status{Surface: Live, Text: "Loading…"}),
		"status-ready":   StatusHTML(Status{Surface: Realtime, Text: "Ready", Ready: true, Tools: 8, Lock: LockHeld, Provider: "local agent"}),
		"status-busy":    StatusHTML(Status{Surface: Live, Text: "Ready", Ready: true, Tools: 11, Lock: LockBusy, Provider: hostile}),
		"status-failed":  StatusHTML(Status{Surface: Live, Text: "Failed: " + hostile, Failed: true}),
		"live-doc": LiveDocHTML(LiveDoc{Files: []string{"index.html", "style.css", hostile}, Active: "index.html", Scenario: "invalid",
			Scenarios: []string{"success", "invalid", "blocked"}, WorkspaceRevision: 4, DocumentRevision: 7,
			Preview: PreviewLine{State: "acknowledged", Revision: 7}, Dirty: []string{"index.html"}, FolderName: hostile, FolderPicker: true,
			Conflict: "[WORKSPACE_REVISION_CONFLICT] " + hostile, ConflictDraft: true, RecoverSave: "editor.saveAll", Run: &ScenarioRun{Scenario: "invalid", DocumentRevision: 7, Runtime: "safe-runner",
				Events: []RunEvent{{Step: "validate", Passed: true}, {Step: hostile, Passed: false}}}}),
		"live-doc-readonly": LiveDocHTML(LiveDoc{Files: []string{"index.html"}, Active: "index.html", Scenario: "success",
			Scenarios: []string{"success"}, WorkspaceRevision: 2, DocumentRevision: 1, ReadOnly: true,
			Preview: PreviewLine{State: "error", Revision: 1, Message: hostile}, Notice: "Read-only"}),
		"realtime-doc": RealtimeDocHTML(RealtimeDoc{Files: []string{"index.html", "style.css", hostile}, Active: "style.css", Revision: 3,
			Preview: PreviewLine{State: "pending", Revision: 3}, Conflict: hostile}),
		"realtime-doc-empty": RealtimeDocHTML(RealtimeDoc{ReadOnly: true}),
		"palette": PaletteHTML([]ToolCard{
			{Name: "web.setTheme", Description: hostile, Hints: []string{"idempotent"}, Fields: mustFields(t, themeSchema, nil),
				Result: &CardResult{JSON: "{\n  \"theme\": \"" + hostile + "\"\n}"}},
			{Name: "web.applyPatch", Fields: patch, Running: true},
			{Name: "editor.saveAll", Hints: []string{"destructive"}, Result: &CardResult{IsError: true, Code: "WORKSPACE_FOLDER_NOT_CONNECTED", Message: hostile, Retryable: true, JSON: "{}"}},
			{Name: "web.getWorkspace", Hints: []string{"read-only"}}}),
		"palette-empty": PaletteHTML(nil),
		"chat": ChatHTML(Chat{Entries: []Entry{{Key: "1", Kind: "user", Text: hostile}, {Key: "2", Kind: "call", Text: "✓ web.setTheme"},
			{Key: "3", Kind: "agent", Text: "Done", Details: "local agent (local-fallback)"},
			{Key: "4", Kind: "error", Text: "[OPENROUTER_AUTHENTICATION_FAILED] " + hostile, Details: "Ollama · " + hostile, LocalRetry: true}},
			Approvals: []Approval{{ID: "ap-1", Name: "editor.saveFile", Source: "local", Description: "Save", Arguments: "path=" + hostile}, {ID: hostile, Name: "editor.saveAll", Source: "model"}},
			Running:   true, Prompt: hostile, Hint: PromptHint(Live)}),
		"chat-key": ChatHTML(Chat{Hint: PromptHint(Realtime), Provider: ProviderForm{Kind: ProviderOpenRouter,
			Active: "OpenRouter · openai/gpt-4o-mini", ActiveKind: ProviderOpenRouter, KeySet: true}}),
		"chat-provider": ChatHTML(Chat{Hint: PromptHint(Realtime), Provider: ProviderForm{Kind: ProviderOpenAICompatible,
			Endpoint: hostile, Model: hostile, Error: "Endpoint: " + hostile, Active: "Ollama · " + hostile + " at http://127.0.0.1:11434",
			ActiveKind: ProviderOpenAICompatible}}),
		"chat-readonly": ChatHTML(Chat{ReadOnly: true}),
		"trace": TraceHTML([]TraceRow{{Key: "c1", Name: "web.setTheme", Source: "local", Mode: "direct", State: "ok", Ms: 12},
			{Key: hostile, Name: hostile, Source: "model", Mode: "agent", State: "error", Code: "WORKSPACE_REVISION_CONFLICT", Ms: 3},
			{Key: "c3", Name: "editor.getStatus", Source: "local", Mode: "direct", State: "running"}}),
		"trace-empty": TraceHTML(nil),
	}
}

// TestGolden compares every view with testdata/<case>.html and checks that the output
// parses into exactly what the view wrote: no <script>, <img> or on* attribute from data.
func TestGolden(t *testing.T) {
	cases := goldenCases(t)
	for name, out := range cases {
		t.Run(name, func(t *testing.T) {
			checkNoInjection(t, string(out))
			file := filepath.Join("testdata", name+".html")
			got := []byte(strings.ReplaceAll(string(out), "><", ">\n<")) // one tag per line: readable diffs
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./wasm/ui/surfaceview -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs; inspect the diff after go test -update\n--- got ---\n%s", file, got)
			}
		})
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := cases[strings.TrimSuffix(e.Name(), ".html")]; !ok || !strings.HasSuffix(e.Name(), ".html") {
			t.Errorf("orphaned golden file testdata/%s: no case in goldenCases writes it", e.Name())
		}
	}
}

// checkNoInjection parses out in a <body> and fails on any element or attribute that only
// the hostile data could have produced, and on a value attribute of the key field.
func checkNoInjection(t *testing.T, out string) {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(out), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.Data == "script" || n.Data == "img" {
				t.Errorf("<%s> element in output %s", n.Data, out)
			}
			id := ""
			for _, a := range n.Attr {
				if a.Key == "id" {
					id = a.Val
				}
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") || a.Key == "src" {
					t.Errorf("attribute %s on <%s> in output %s", a.Key, n.Data, out)
				}
				if id == "openrouter-key" && a.Key == "value" {
					t.Errorf("the key field carries a value attribute: %s", out)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
}

// TestIDsAreUnique: no region repeats an element id (the morph keys elements by id).
func TestIDsAreUnique(t *testing.T) {
	for name, out := range goldenCases(t) {
		nodes, err := html.ParseFragment(strings.NewReader(string(out)), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			for _, a := range n.Attr {
				if a.Key == "id" {
					if seen[a.Val] {
						t.Errorf("%s: id %q twice", name, a.Val)
					}
					seen[a.Val] = true
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		for _, n := range nodes {
			walk(n)
		}
	}
}
