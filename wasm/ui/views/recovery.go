package views

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Chat recovery rules (issue 9 owns the mechanism; REFERENCE §3.2 recovery mapping, SPEC
// §2.13). A failed tool call or prompt run becomes a transcript entry whose Actions are the
// union of the built-in rule's and every registered rule's answer for its typed error; the
// browser glue (wasm/cmd/browser recovery.go) keeps the registry of feature rules and runs
// the actions.
//
// The built-in rule gives:
//   - "Retry" for retryable errors only, when the failure can be run again (Ref set, or a
//     Prompt): the same prompt, or the same direct call with the same arguments;
//   - "Re-read & retry" for revision conflicts: workspace.getStatus first, then the prompt
//     again (its calls ask for approval again) or the direct call with the fresh
//     expectedRevision;
//   - "Refresh preview" for PREVIEW_ACK_TIMEOUT, PREVIEW_REVISION_SUPERSEDED and
//     PREVIEW_RUNTIME_ERROR; a mutation that was applied (details.applied) is never re-run;
//   - nothing for a cancelled call or run (Cancelled, TOOL_CANCELLED): cancelled is its own
//     state.

// Failure is a typed error as the chat saw it.
type Failure struct {
	Code      string          // the error code ("WORKSPACE_REVISION_CONFLICT"), "" when none
	Message   string          // the error message
	Retryable bool            // error.retryable
	Applied   bool            // details.applied: the mutation happened (never re-run it)
	Tool      string          // the tool that failed ("" for a prompt-level Failure)
	Arguments json.RawMessage // the call's arguments when the UI made the call (direct mode)
	Prompt    string          // the prompt of the run that failed ("" for a direct call)
	Provider  bool            // the Failure came from the model provider loop
	Cancelled bool            // the user cancelled the run or call: no recovery action
	// Ref names the stored re-run of this Failure (set by the mechanism when the Failure can
	// be run again); the built-in Retry and Re-read & retry actions carry it as their arg.
	Ref string
}

// RecoveryRule answers the recovery actions of one failure (a feature's rule for its own codes).
type RecoveryRule func(f Failure) []EntryAction

// RecoveryActions returns the built-in rule's actions and then every rule's of rules for f,
// without duplicate labels.
func RecoveryActions(f Failure, rules []RecoveryRule) []EntryAction {
	var out []EntryAction
	seen := map[string]bool{}
	for _, rule := range append([]RecoveryRule{BuiltinRecovery}, rules...) {
		for _, act := range rule(f) {
			if !seen[act.Label] {
				seen[act.Label] = true
				out = append(out, act)
			}
		}
	}
	return out
}

// Recovery action names (data-action) of the built-in rule: Ref-based re-runs, and prompt
// re-runs (the arg is the prompt) for failures that carry a Prompt but no Ref (e.g. a
// provider run's Failure).
const (
	ActionRetry        = "recovery-retry"
	ActionReread       = "recovery-reread"
	ActionRetryPrompt  = "recovery-retry-prompt"
	ActionRereadPrompt = "recovery-reread-prompt"
)

// Labels of the built-in actions (REFERENCE §3.2, §11).
const (
	LabelRetry          = "Retry"
	LabelReread         = "Re-read & retry"
	LabelRefreshPreview = "Refresh preview"
)

func IsRevisionConflict(f Failure) bool {
	return f.Code == string(mcp.CodeWorkspaceRevisionConflict) || strings.Contains(f.Message, "Workspace revision mismatch")
}

func IsPreviewSyncCode(code string) bool {
	switch mcp.Code(code) {
	case mcp.CodePreviewAckTimeout, mcp.CodePreviewRevisionSuperseded, mcp.CodePreviewRuntimeError:
		return true
	}
	return false
}

// BuiltinRecovery is the REFERENCE §3.2 mapping for workspace and preview codes; it always
// comes first (RecoveryActions).
func BuiltinRecovery(f Failure) []EntryAction {
	if f.Cancelled || f.Code == string(mcp.CodeToolCancelled) {
		return nil
	}
	retry := func(label, byRef, byPrompt string) []EntryAction {
		switch {
		case f.Applied:
			return nil
		case f.Ref != "":
			return []EntryAction{{Label: label, Action: byRef, Arg: f.Ref}}
		case f.Prompt != "":
			return []EntryAction{{Label: label, Action: byPrompt, Arg: f.Prompt}}
		}
		return nil
	}
	switch {
	case IsRevisionConflict(f):
		return retry(LabelReread, ActionReread, ActionRereadPrompt)
	case IsPreviewSyncCode(f.Code):
		out := []EntryAction{{Label: LabelRefreshPreview, Action: "refresh-preview"}}
		if f.Retryable {
			out = append(out, retry(LabelRetry, ActionRetry, ActionRetryPrompt)...)
		}
		return out
	case f.Retryable:
		return retry(LabelRetry, ActionRetry, ActionRetryPrompt)
	}
	return nil
}

// applied reports details.applied.
func DetailsApplied(details json.RawMessage) bool {
	var d struct {
		Applied bool `json:"applied"`
	}
	_ = json.Unmarshal(details, &d)
	return d.Applied
}

// MaxDetailsChars bounds the pretty-printed details under an error entry.
const MaxDetailsChars = 600

// PrettyDetails is the details JSON pretty-printed (REFERENCE §3.2 chat format), bounded.
func PrettyDetails(details json.RawMessage) string {
	if len(details) == 0 || string(details) == "null" {
		return ""
	}
	var v any
	if json.Unmarshal(details, &v) != nil {
		return ""
	}
	// Without HTML escaping: the views escape; json's own would show "\u003c" for "<".
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(v) != nil {
		return ""
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if r := []rune(s); len(r) > MaxDetailsChars {
		s = string(r[:MaxDetailsChars]) + "…"
	}
	return s
}
