package main

import (
	"strings"
	"testing"

	"github.com/webcoding/studio/host/fakeprovider"
)

// TestOpenAICompatibleLoopbackNoKey: --provider openai-compatible against a loopback server
// with no key in the environment streams the answer; the request carries no Authorization
// and no OpenRouter attribution headers (issue 16; docs/design.md §5.16).
func TestOpenAICompatibleLoopbackNoKey(t *testing.T) {
	dir := seedCopy(t)
	srv := fakeprovider.New(t, fakeprovider.Options{}, fakeprovider.Step{BodyFile: "stream_final_text.sse",
		Check: func(t testing.TB, r fakeprovider.Received) {
			for _, h := range []string{"Authorization", "Http-Referer", "X-Title"} {
				if r.Header.Get(h) != "" {
					t.Errorf("request carried %s", h)
				}
			}
		}})
	code, out, stderr := runOpenRouter(t, "", "--provider", "openai-compatible", "--endpoint", srv.ChatURL, "--model", "llama3.2", "--dir", dir, "Make it emerald")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "#10b981") || len(srv.ChatRequests()) != 1 {
		t.Fatalf("stdout %s", out)
	}
}

// TestOpenAICompatibleRefusals: no --endpoint, and plain http to a remote host, are usage
// errors (exit 2) that say why; a remote endpoint still needs a key.
func TestOpenAICompatibleRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--provider", "openai-compatible", "hi"}, "needs --endpoint"},
		{[]string{"--provider", "openai-compatible", "--endpoint", "http://example.com/v1/chat/completions", "--model", "m", "hi"}, "plain http is only allowed to this computer"},
		{[]string{"--provider", "openai-compatible", "--endpoint", "https://example.com/v1/chat/completions", "--model", "m", "hi"}, "needs an API key in " + endpointKeyEnv},
	} {
		code, _, stderr := runOpenRouter(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
