//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// These tests run in Chromium (e2e/browser TestBrowserPackageUnitsInChromium: the package is
// GOOS=js only).

func labels(acts []entryAction) string {
	var s []string
	for _, a := range acts {
		s = append(s, a.Label)
	}
	return strings.Join(s, "|")
}

// TestBuiltinRecoveryMapping: each action appears only for its codes (REFERENCE §3.2).
func TestBuiltinRecoveryMapping(t *testing.T) {
	cases := []struct {
		f    failure
		want string
	}{
		{failure{Code: "WORKSPACE_REVISION_CONFLICT", Retryable: true, Ref: "r1"}, "Re-read & retry"},
		{failure{Code: "WORKSPACE_REVISION_CONFLICT", Retryable: true, Prompt: "p"}, "Re-read & retry"},
		{failure{Code: "WORKSPACE_REVISION_CONFLICT", Retryable: true}, ""}, // nothing to run again
		{failure{Code: "TOOL_EXECUTION_FAILED", Message: "Workspace revision mismatch: 3 != 4", Ref: "r1"}, "Re-read & retry"},
		{failure{Code: "WORKSPACE_FILE_NOT_FOUND", Ref: "r1", Prompt: "p"}, ""},
		{failure{Code: "WORKSPACE_PATCH_NOT_FOUND", Ref: "r1"}, ""},
		{failure{Code: "TOOL_POLICY_DENIED", Prompt: "p"}, ""},
		{failure{Code: "TOOL_TIMEOUT", Retryable: true, Ref: "r1"}, "Retry"},
		{failure{Code: "OPENROUTER_RATE_LIMITED", Retryable: true, Prompt: "p", Provider: true}, "Retry"},
		{failure{Code: "PREVIEW_ACK_TIMEOUT", Retryable: true, Applied: true, Ref: "r1"}, "Refresh preview"},
		{failure{Code: "PREVIEW_REVISION_SUPERSEDED", Retryable: true, Applied: true, Prompt: "p"}, "Refresh preview"},
		{failure{Code: "PREVIEW_RUNTIME_ERROR", Applied: true}, "Refresh preview"},
		{failure{Code: "PREVIEW_ACK_TIMEOUT", Retryable: true, Ref: "r1"}, "Refresh preview|Retry"}, // preview.refresh itself: nothing applied
		{failure{Code: "TOOL_CANCELLED", Retryable: true, Ref: "r1"}, ""},
		{failure{Code: "WORKSPACE_REVISION_CONFLICT", Retryable: true, Ref: "r1", Cancelled: true}, ""},
		{failure{Code: "TOOL_TIMEOUT", Retryable: true, Applied: true, Ref: "r1"}, ""},
	}
	for _, c := range cases {
		if got := labels(builtinRecovery(c.f)); got != c.want {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
	// Registered rules add their actions after the built-in ones, without duplicate labels.
	saved := recoveryRules
	defer func() { recoveryRules = saved }()
	recoveryRules = nil
	registerRecovery(func(f failure) []entryAction {
		return []entryAction{{Label: "Retry", Action: "x"}, {Label: "Other", Action: "y"}}
	})
	if got := labels(recoveryActions(failure{Code: "TOOL_TIMEOUT", Retryable: true, Ref: "r1"})); got != "Retry|Other" {
		t.Errorf("union %q", got)
	}
}

func TestToolCallErrorAndDetails(t *testing.T) {
	var err error = &toolCallError{Tool: "workspace.writeFile", Code: "PREVIEW_RUNTIME_ERROR", Message: "boom",
		Details: json.RawMessage(`{"revision":4,"applied":true}`)}
	if err.Error() != "[PREVIEW_RUNTIME_ERROR] boom" {
		t.Fatal(err.Error())
	}
	var te *toolCallError
	if !errors.As(err, &te) || !detailsApplied(te.Details) || detailsApplied(json.RawMessage(`{"applied":false}`)) || detailsApplied(nil) {
		t.Fatal("applied")
	}
	if got := prettyDetails(te.Details); got != "{\n  \"applied\": true,\n  \"revision\": 4\n}" {
		t.Fatalf("details %q", got)
	}
	if prettyDetails(json.RawMessage(`null`)) != "" || prettyDetails(json.RawMessage(`{`)) != "" {
		t.Fatal("empty details")
	}
	long := prettyDetails(json.RawMessage(`{"x":"` + strings.Repeat("é", 2000) + `"}`))
	if n := len([]rune(long)); n != maxDetailsChars+1 || !strings.HasSuffix(long, "…") {
		t.Fatalf("bounded details: %d runes", n)
	}
	args := withExpectedRevision(map[string]any{"path": "a", "expectedRevision": 3}, 9).(map[string]any)
	if args["expectedRevision"] != int64(9) || args["path"] != "a" {
		t.Fatalf("fresh revision %v", args)
	}
	if _, ok := withExpectedRevision(map[string]any{"path": "a"}, 9).(map[string]any)["expectedRevision"]; ok {
		t.Fatal("an unguarded call must stay unguarded")
	}
}

func TestStoreRerunIsBounded(t *testing.T) {
	first := storeRerun(nil)
	for i := 0; i < maxRecoveryTargets; i++ {
		storeRerun(nil)
	}
	recoveryStore.mu.Lock()
	defer recoveryStore.mu.Unlock()
	if _, ok := recoveryStore.items[first]; ok || len(recoveryStore.items) != maxRecoveryTargets {
		t.Fatalf("store holds %d items (first kept: %v)", len(recoveryStore.items), ok)
	}
}
