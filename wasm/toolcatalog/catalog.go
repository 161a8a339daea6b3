package toolcatalog

import (
	"encoding/json"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Scope is a catalog filter.
type Scope string

// Scopes, in the order the panel shows them.
const (
	ScopeAll       Scope = "all"
	ScopeReadOnly  Scope = "read-only"
	ScopeWorkspace Scope = "workspace"
	ScopePreview   Scope = "preview"
)

// Scopes lists every scope in display order.
var Scopes = []Scope{ScopeAll, ScopeReadOnly, ScopeWorkspace, ScopePreview}

// ParseScope returns the scope named s, or ScopeAll for anything else.
func ParseScope(s string) Scope {
	for _, sc := range Scopes {
		if string(sc) == s {
			return sc
		}
	}
	return ScopeAll
}

// Namespace is the part of a tool name before the first "." ("" when there is none).
func Namespace(name string) string {
	if i := strings.IndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return ""
}

// ReadOnly reports the tool's readOnlyHint.
func ReadOnly(t mcp.Tool) bool { return t.Annotations != nil && t.Annotations.ReadOnlyHint }

// Destructive reports the tool's destructiveHint (the catalog confirms before running it).
func Destructive(t mcp.Tool) bool { return t.Annotations != nil && t.Annotations.DestructiveHint }

// InScope reports whether t belongs to scope s.
func InScope(t mcp.Tool, s Scope) bool {
	switch s {
	case ScopeReadOnly:
		return ReadOnly(t)
	case ScopeWorkspace, ScopePreview:
		return Namespace(t.Name) == string(s)
	}
	return true
}

// Matches reports whether query (trimmed, case-insensitive) occurs in t's name, title or
// description; an empty query matches every tool.
func Matches(t mcp.Tool, query string) bool {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return true
	}
	for _, s := range []string{t.Name, t.Title, t.Description} {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// Filter returns the tools (in list order) that match query and belong to scope.
func Filter(tools []mcp.Tool, query string, scope Scope) []mcp.Tool {
	out := make([]mcp.Tool, 0, len(tools))
	for _, t := range tools {
		if InScope(t, scope) && Matches(t, query) {
			out = append(out, t)
		}
	}
	return out
}

// Counts returns, for each scope, how many tools matching query it holds.
func Counts(tools []mcp.Tool, query string) map[Scope]int {
	out := make(map[Scope]int, len(Scopes))
	for _, t := range tools {
		if !Matches(t, query) {
			continue
		}
		for _, s := range Scopes {
			if InScope(t, s) {
				out[s]++
			}
		}
	}
	return out
}

// Hints lists the annotation hints that are set ("read-only", "destructive", "idempotent",
// "open-world").
func Hints(t mcp.Tool) []string {
	a := t.Annotations
	if a == nil {
		return nil
	}
	var out []string
	for _, h := range []struct {
		on   bool
		name string
	}{{a.ReadOnlyHint, "read-only"}, {a.DestructiveHint, "destructive"}, {a.IdempotentHint, "idempotent"}, {a.OpenWorldHint, "open-world"}} {
		if h.on {
			out = append(out, h.name)
		}
	}
	return out
}

// PolicySummary is the one-line policy of t under the studio's default policy (REFERENCE §8:
// read-only or direct ⇒ allow; agent-mode mutations wait for Approve).
func PolicySummary(t mcp.Tool) string {
	switch {
	case ReadOnly(t):
		return "Read-only: runs without approval, from the agent and from here."
	case Destructive(t):
		return "Agent calls wait for your approval. Destructive: Run sample asks for confirmation first."
	}
	return "Agent calls wait for your approval; Run sample here asks for confirmation first."
}

// Confirmation is what Run sample asks in the in-app confirm dialog before a run.
type Confirmation struct {
	Title, Text, OK string
	Danger          bool // destructive tool
}

// RunConfirmation is the question Run sample asks before running t with args (a JSON object,
// as returned by ParseArguments), or nil when t is read-only (annotations.readOnlyHint) and
// runs without asking. Every other tool asks "Run <tool> on the workspace?"; the text says
// whether it is destructive and names the existing files its "path" / "fromPath" argument
// would modify (exists reports whether a workspace path exists; nil: unknown).
func RunConfirmation(t mcp.Tool, args json.RawMessage, exists func(path string) bool) *Confirmation {
	if ReadOnly(t) {
		return nil
	}
	c := &Confirmation{Title: "Run " + t.Name + " on the workspace?", OK: "Run " + t.Name, Danger: Destructive(t)}
	if c.Danger {
		c.Text = t.Name + " is destructive: " + PolicySummary(t)
	} else {
		c.Text = t.Name + " is not read-only: it may change the workspace."
	}
	var a map[string]json.RawMessage
	_ = json.Unmarshal(args, &a)
	var touched []string
	for _, k := range []string{"path", "fromPath"} {
		var p string
		if json.Unmarshal(a[k], &p) == nil && p != "" && exists != nil && exists(p) {
			touched = append(touched, p)
		}
	}
	if len(touched) > 0 {
		c.Text += " It would modify the existing file " + strings.Join(touched, ", ") + "."
	}
	c.Text += " Run it with these arguments?"
	return c
}

// Definition is t as formatted JSON (the definition view and its Copy/Download).
func Definition(t mcp.Tool) []byte {
	b, _ := json.MarshalIndent(t, "", "  ")
	return b
}

// List is the whole list as formatted JSON {"tools": [...]}.
func List(tools []mcp.Tool) []byte {
	if tools == nil {
		tools = []mcp.Tool{}
	}
	b, _ := json.MarshalIndent(map[string]any{"tools": tools}, "", "  ")
	return b
}

// CallRequest is the JSON-RPC tools/call request a direct run sends:
//
//	{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
//	 "params": {"name": name, "arguments": args, "_meta": {"source": "local", "mode": "direct"}}}
//
// args must be a JSON object; anything else is an error naming the problem.
func CallRequest(name string, args json.RawMessage) ([]byte, error) {
	obj, err := ParseArguments(args)
	if err != nil {
		return nil, err
	}
	req := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"name": name, "arguments": obj, "_meta": map[string]any{"source": mcp.SourceLocal, "mode": mcp.ModeDirect}}}
	return json.MarshalIndent(req, "", "  ")
}

// ArgumentsError is a sample editor text that is not a JSON object.
type ArgumentsError struct{ Reason string }

func (e *ArgumentsError) Error() string { return "arguments must be a JSON object: " + e.Reason }

// ParseArguments checks that text is one JSON object that passes the registry's strict guard
// (mcp.CheckJSON: valid UTF-8, well-formed, at most mcp.MaxJSONDepth deep, no object that
// repeats a key — {"path":"a","path":"b"} is refused, never silently read as "b") and returns
// it compacted. Empty text is {}. Errors are *ArgumentsError naming the problem.
func ParseArguments(text json.RawMessage) (json.RawMessage, error) {
	s := strings.TrimSpace(string(text))
	if s == "" {
		return json.RawMessage("{}"), nil
	}
	if s[0] != '{' {
		return nil, &ArgumentsError{Reason: "it does not start with {"}
	}
	if err := mcp.CheckJSON([]byte(s)); err != nil {
		return nil, &ArgumentsError{Reason: strings.TrimPrefix(err.Error(), "mcp: ")}
	}
	var m map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&m); err != nil {
		return nil, &ArgumentsError{Reason: err.Error()}
	}
	if dec.More() {
		return nil, &ArgumentsError{Reason: "text after the object"}
	}
	b, _ := json.Marshal(m)
	return b, nil
}
