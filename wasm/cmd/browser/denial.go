//go:build js && wasm

package main

import (
	"sync"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/ui/views"
)

// User denials. REFERENCE §3.2/§8 has one code for every deny decision — TOOL_POLICY_DENIED
// ("user pressed Deny, or approval aborted") — and the registry's message is "Tool "x" was
// denied by policy.". The wire result keeps both; the chat line of a call the user denied
// (the Deny button, or Escape / Cancel denying every pending approval) says so instead:
// "✗ <tool> [TOOL_POLICY_DENIED] Denied by you." (or "Denied: you cancelled the run.").
//
// denialTable (app.denials) holds those messages (guarded by mu).
type denialTable struct {
	mu sync.Mutex
	m  map[string]string // toolCallId + "\x00" + tool name → the chat's message
	// shown: tool name → message of the user denials shown since the last run summary
	// (denialSummary rewrites the run's "Tool "x" was denied by policy." with it).
	shown map[string]string
}

func denialKey(callID, name string) string { return callID + "\x00" + name }

// rememberDenial records that the user is denying the pending approval id (before the
// approvals/resolve request; the failed lifecycle event follows).
func (a *app) rememberDenial(id, msg string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, ap := range a.st.approvals {
		if id == "" || ap.ID == id {
			a.denials.mu.Lock()
			if a.denials.m == nil {
				a.denials.m = map[string]string{}
			}
			if len(a.denials.m) < 256 {
				a.denials.m[denialKey(ap.ToolCallID, ap.Name)] = msg
			}
			a.denials.mu.Unlock()
		}
	}
}

// takeDenial returns the chat message for a TOOL_POLICY_DENIED event of a call the user
// denied (and forgets it); ok is false for any other event.
func (a *app) takeDenial(e audit.ToolCallEvent) (msg string, ok bool) {
	if e.Result == nil || e.Result.Error == nil || e.Result.Error.Code != mcp.CodeToolPolicyDenied {
		return "", false
	}
	a.denials.mu.Lock()
	defer a.denials.mu.Unlock()
	k := denialKey(e.ToolCallID, e.Name)
	msg, ok = a.denials.m[k]
	delete(a.denials.m, k)
	if ok {
		if a.denials.shown == nil {
			a.denials.shown = map[string]string{}
		}
		a.denials.shown[e.Name] = msg
	}
	return msg, ok
}

// denialSummary rewrites a run summary's registry message for the calls the user denied
// during the run ("Tool "x" was denied by policy." → "Denied by you.") and forgets them.
func (a *app) denialSummary(summary string) string {
	a.denials.mu.Lock()
	defer a.denials.mu.Unlock()
	summary = views.DenialSummary(summary, a.denials.shown)
	a.denials.shown = nil
	return summary
}
