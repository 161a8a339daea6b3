//go:build js && wasm

package main

import "encoding/json"

// Chat recovery actions (issue 9 owns the mechanism; REFERENCE §3.2 recovery mapping,
// SPEC §2.13). A failed tool call or prompt run becomes a transcript entry whose Actions are
// the union of every registered rule's answer for its typed error. Features add rules for
// their own codes from an init function (folders: Reconnect folder / Grant folder access;
// provider: Open provider settings / Use local agent & retry), so the mechanism stays in one
// place.

// failure is a typed error as the chat saw it.
type failure struct {
	Code      string          // the error code ("WORKSPACE_REVISION_CONFLICT"), "" when none
	Message   string          // the error message
	Retryable bool            // error.retryable
	Applied   bool            // details.applied: the mutation happened (never re-run it)
	Tool      string          // the tool that failed ("" for a prompt-level failure)
	Arguments json.RawMessage // the call's arguments when the UI made the call (direct mode)
	Prompt    string          // the prompt of the run that failed ("" for a direct call)
	Provider  bool            // the failure came from the model provider loop
}

// recoveryRules are the registered rules, in registration order.
var recoveryRules []func(f failure) []entryAction

// registerRecovery adds a rule; call it from an init function.
func registerRecovery(rule func(f failure) []entryAction) {
	recoveryRules = append(recoveryRules, rule)
}

// recoveryActions returns every rule's actions for f, without duplicate labels.
func recoveryActions(f failure) []entryAction {
	var out []entryAction
	seen := map[string]bool{}
	for _, rule := range recoveryRules {
		for _, act := range rule(f) {
			if !seen[act.Label] {
				seen[act.Label] = true
				out = append(out, act)
			}
		}
	}
	return out
}
