package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webcoding/studio/host/fakeprovider"
)

// TestOpenRouterReasoningPassthrough: --reasoning-effort reaches every request as the
// reasoning object; the reasoning model's signed reasoning_details block (recorded answer)
// goes back on the next request of the tool loop; the reasoning text is printed to stderr.
func TestOpenRouterReasoningPassthrough(t *testing.T) {
	dir := seedCopy(t)
	effort := func(t testing.TB, r fakeprovider.Received) {
		if rs, _ := r.Chat["reasoning"].(map[string]any); rs["effort"] != "high" || len(rs) != 1 {
			t.Errorf("reasoning %v, want {effort: high}", r.Chat["reasoning"])
		}
	}
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{BodyFile: "chat_reasoning_tool_call.json", Check: effort},
		fakeprovider.Step{BodyFile: "chat_final_text.json", Check: func(t testing.TB, r fakeprovider.Received) {
			effort(t, r)
			msgs, _ := r.Chat["messages"].([]any)
			found := false
			for _, m := range msgs {
				mm, _ := m.(map[string]any)
				if mm["role"] != "assistant" || mm["tool_calls"] == nil {
					continue
				}
				b, _ := json.Marshal(mm["reasoning_details"])
				found = strings.Contains(string(b), `"signature":"EqQBCkgIBxABGAIiQL1Xz2sig0000000000000000000000000000"`)
			}
			if !found {
				t.Errorf("the second request does not send the reasoning_details back: %v", msgs)
			}
		}},
	)
	code, out, stderr := runOpenRouter(t, testKey, "--endpoint", srv.ChatURL, "--stream=false", "--reasoning-effort", "high",
		"--dir", dir, "--approve", "all", "Make it emerald")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	noKey(t, out, stderr)
	if !strings.Contains(stderr, "webcoding agent: reasoning:\nThe user wants emerald. I should call preview_setTheme.") {
		t.Errorf("stderr lacks the reasoning text: %q", stderr)
	}
	if srv.Remaining() != 0 {
		t.Fatalf("%d steps left", srv.Remaining())
	}
}

func TestOpenRouterReasoningFlagErrors(t *testing.T) {
	for name, args := range map[string][]string{
		"both":    {"--reasoning-effort", "low", "--reasoning-max-tokens", "100", "p"},
		"unknown": {"--reasoning-effort", "max", "p"},
		"range":   {"--reasoning-max-tokens", "100000", "p"},
	} {
		code, out, stderr := runOpenRouter(t, testKey, args...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, "--reasoning") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, code, out, stderr)
		}
	}
}
