package views

import (
	"encoding/json"
	"strings"
	"testing"
)

func labels(acts []EntryAction) string {
	var s []string
	for _, a := range acts {
		s = append(s, a.Label)
	}
	return strings.Join(s, "|")
}

// TestBuiltinRecoveryMapping: each action appears only for its codes (REFERENCE §3.2).
func TestBuiltinRecoveryMapping(t *testing.T) {
	cases := []struct {
		f    Failure
		want string
	}{
		{Failure{Code: "WORKSPACE_REVISION_CONFLICT", Retryable: true, Ref: "r1"}, "Re-read & retry"},
		{Failure{Code: "WORKSPACE_REVISION_CONFLICT", Retryable: true, Prompt: "p"}, "Re-read & retry"},
		{Failure{Code: "WORKSPACE_REVISION_CONFLICT", Retryable: true}, ""}, // nothing to run again
		{Failure{Code: "TOOL_EXECUTION_FAILED", Message: "Workspace revision mismatch: 3 != 4", Ref: "r1"}, "Re-read & retry"},
		{Failure{Code: "WORKSPACE_FILE_NOT_FOUND", Ref: "r1", Prompt: "p"}, ""},
		{Failure{Code: "WORKSPACE_PATCH_NOT_FOUND", Ref: "r1"}, ""},
		{Failure{Code: "TOOL_POLICY_DENIED", Prompt: "p"}, ""},
		{Failure{Code: "TOOL_TIMEOUT", Retryable: true, Ref: "r1"}, "Retry"},
		{Failure{Code: "OPENROUTER_RATE_LIMITED", Retryable: true, Prompt: "p", Provider: true}, "Retry"},
		{Failure{Code: "PREVIEW_ACK_TIMEOUT", Retryable: true, Applied: true, Ref: "r1"}, "Refresh preview"},
		{Failure{Code: "PREVIEW_REVISION_SUPERSEDED", Retryable: true, Applied: true, Prompt: "p"}, "Refresh preview"},
		{Failure{Code: "PREVIEW_RUNTIME_ERROR", Applied: true}, "Refresh preview"},
		{Failure{Code: "PREVIEW_ACK_TIMEOUT", Retryable: true, Ref: "r1"}, "Refresh preview|Retry"}, // preview.refresh itself: nothing applied
		{Failure{Code: "TOOL_CANCELLED", Retryable: true, Ref: "r1"}, ""},
		{Failure{Code: "WORKSPACE_REVISION_CONFLICT", Retryable: true, Ref: "r1", Cancelled: true}, ""},
		{Failure{Code: "TOOL_TIMEOUT", Retryable: true, Applied: true, Ref: "r1"}, ""},
	}
	for _, c := range cases {
		if got := labels(BuiltinRecovery(c.f)); got != c.want {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
	// Other rules add their actions after the built-in ones, without duplicate labels.
	rule := func(f Failure) []EntryAction {
		return []EntryAction{{Label: "Retry", Action: "x"}, {Label: "Other", Action: "y"}}
	}
	if got := labels(RecoveryActions(Failure{Code: "TOOL_TIMEOUT", Retryable: true, Ref: "r1"}, []RecoveryRule{rule})); got != "Retry|Other" {
		t.Errorf("union %q", got)
	}
}

func TestDetails(t *testing.T) {
	details := json.RawMessage(`{"revision":4,"applied":true}`)
	if !DetailsApplied(details) || DetailsApplied(json.RawMessage(`{"applied":false}`)) || DetailsApplied(nil) {
		t.Fatal("applied")
	}
	if got := PrettyDetails(details); got != "{\n  \"applied\": true,\n  \"revision\": 4\n}" {
		t.Fatalf("details %q", got)
	}
	if PrettyDetails(json.RawMessage(`null`)) != "" || PrettyDetails(json.RawMessage(`{`)) != "" {
		t.Fatal("empty details")
	}
	long := PrettyDetails(json.RawMessage(`{"x":"` + strings.Repeat("é", 2000) + `"}`))
	if n := len([]rune(long)); n != MaxDetailsChars+1 || !strings.HasSuffix(long, "…") {
		t.Fatalf("bounded details: %d runes", n)
	}
}
