package chats

import (
	"fmt"
	"strings"
)

// UsageSessionLabel introduces the page's session total in a usage entry (the browser's
// views.UsageSessionLabel, checked by a test).
const UsageSessionLabel = "; this session: "

// UsageEarlierSessionLabel replaces UsageSessionLabel in a usage entry shown after a reload:
// that total belonged to the page that ran the prompt, while the header's session total starts
// again with the new page (docs/design.md §5.20; nu16 item 18).
const UsageEarlierSessionLabel = "; session total of the page that ran it: "

// UsageRestored returns a kept usage entry's text as shown after a reload (the session total
// relabelled UsageEarlierSessionLabel); text without the label is returned unchanged.
func UsageRestored(text string) string {
	return strings.Replace(text, UsageSessionLabel, UsageEarlierSessionLabel, 1)
}

// ActionRetry is the "Retry" action of a run that failed retryably or was interrupted: its
// Arg is the prompt, sent again as a new run of the same conversation.
const ActionRetry = "recovery-retry-prompt" // the browser's views.ActionRetryPrompt (checked by a test)

// CancelledText is the text of the entry that closes a cancelled run: what it had applied
// stays applied (cancellation never undoes a completed call), and the entry says so.
func CancelledText(applied int) string {
	switch applied {
	case 0:
		return "Execution cancelled. Nothing was changed."
	case 1:
		return "Execution cancelled. 1 change it had applied is kept."
	}
	return fmt.Sprintf("Execution cancelled. %d changes it had applied are kept.", applied)
}

// InterruptedText is the text shown after a reload for a run that was still going when the
// page went away.
func InterruptedText(prompt string) string {
	return "The run of “" + excerpt(prompt) + "” was interrupted when the page closed or reloaded; " +
		"changes it applied before are kept in the workspace."
}

func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

// Restore returns the entries to show for a stored record after a reload:
//   - every action is kept only when keep(action) says it still works in a new page (a
//     button bound to something of the old page — a pending approval, a draft held in its
//     memory — is dropped; keep nil keeps none);
//   - an entry of a failed run whose error was retryable, with its prompt, offers
//     ActionRetry (when keep allows it) if it did not already;
//   - a cancelled run's entry says how many changes it had applied (CancelledText);
//   - a usage entry's session total is relabelled as the total of the page that ran it
//     (UsageRestored): the header's session starts again with the new page;
//   - a run that was still going when the record was saved (Running) ends with an
//     "interrupted" error entry offering ActionRetry.
func Restore(r Record, keep func(action string) bool) []Entry {
	allowed := func(a string) bool { return keep != nil && keep(a) }
	out := make([]Entry, 0, len(r.Entries)+1)
	for _, e := range r.Entries {
		acts := make([]Action, 0, len(e.Actions)+1)
		hasRetry := false
		for _, a := range e.Actions {
			if allowed(a.Action) {
				acts = append(acts, a)
				hasRetry = hasRetry || a.Action == ActionRetry
			}
		}
		switch e.State {
		case StateFailed:
			if e.Retryable && e.Prompt != "" && !hasRetry && allowed(ActionRetry) && len(acts) < MaxActions {
				acts = append(acts, Action{Label: "Retry", Action: ActionRetry, Arg: e.Prompt})
			}
		case StateCancelled:
			e.Text = CancelledText(e.Applied)
		}
		if e.Kind == "usage" { // its session total was the old page's, not this one's
			e.Text = UsageRestored(e.Text)
		}
		if len(acts) == 0 {
			acts = nil
		}
		e.Actions = acts
		out = append(out, e)
	}
	if r.Running != "" {
		e := Entry{Kind: "error", Text: InterruptedText(r.Running), State: StateInterrupted, Prompt: r.Running}
		if allowed(ActionRetry) {
			e.Actions = []Action{{Label: "Retry", Action: ActionRetry, Arg: r.Running}}
		}
		out = append(out, e)
	}
	if over := len(out) - MaxEntries; over > 0 {
		out = out[over:]
	}
	return out
}
