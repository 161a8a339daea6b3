package planner

import "strconv"

// Call is one planned tools/call: a catalog tool name and its arguments, shaped exactly as
// the tool's input schema expects (REFERENCE §2), e.g.
//
//	{Name: "workspace.applyPatch", Arguments: {"path": "index.html", "search": "old",
//	 "replace": "new", "occurrence": "first"}}
//
// Arguments is never nil; a tool without inputs gets an empty map (JSON `{}`). String values
// are passed as the prompt wrote them (trimmed); the planner never truncates a value to fit
// a schema limit, so an over-long quoted title reaches the tool and is refused by its input
// validation (TOOL_VALIDATION_FAILED) instead of being silently shortened.
//
// Element is set on a workspace.applyPatch planned from an element-text request ("Change the
// button text to Sign up"): "heading", "button" or "paragraph". Its "search" is then filled at
// run time from the preceding workspace.readFile result (ElementSearch), since only the
// workspace knows the element's current text.
//
// Picked is set on a workspace.applyPatch planned for an element picked in the preview
// (planPicked): its search and replace are filled at run time by PickedPatch from the
// preceding workspace.readFile result.
type Call struct {
	Name      string
	Arguments map[string]any
	Element   string
	Picked    *PickedEdit
}

// newCall returns a Call whose Arguments map holds the given key/value pairs.
func newCall(name string, kv ...any) Call {
	args := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return Call{Name: name, Arguments: args}
}

// clone returns a copy of c with its own Arguments map (values are immutable scalars).
func (c Call) clone() Call {
	args := make(map[string]any, len(c.Arguments)+1)
	for k, v := range c.Arguments {
		args[k] = v
	}
	return Call{Name: c.Name, Arguments: args, Element: c.Element, Picked: c.Picked}
}

// DefaultSession is the session segment CallID uses when the session id is empty, as the
// original did ("run").
const DefaultSession = "run"

// CallID returns the tools/call id of the index-th (0-based) planned call of a local-agent
// run: "local-model-<session>-<index>-<tool>", e.g. "local-model-s1-0-workspace.getStatus".
// An empty session is written as DefaultSession. See REFERENCE §7.3.
func CallID(session string, index int, tool string) string {
	if session == "" {
		session = DefaultSession
	}
	return "local-model-" + session + "-" + strconv.Itoa(index) + "-" + tool
}
