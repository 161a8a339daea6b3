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

// TestOpenAICompatibleCutStreamWording: a stream that breaks off three times against a
// loopback OpenAI-compatible server fails naming the endpoint, not OpenRouter, and the hint
// says the endpoint answered (it was reached); the code stays OPENROUTER_NETWORK_ERROR.
func TestOpenAICompatibleCutStreamWording(t *testing.T) {
	dir := seedCopy(t)
	cut := fakeprovider.Step{BodyFile: "stream_cut.sse"}
	srv := fakeprovider.New(t, fakeprovider.Options{}, cut, cut, cut)
	_, _, stderr := runOpenRouter(t, "", "--provider", "openai-compatible", "--endpoint", srv.ChatURL, "--model", "llama3.2", "--dir", dir, "Reset")
	if !strings.Contains(stderr, "the endpoint run failed: [OPENROUTER_NETWORK_ERROR]") || !strings.Contains(stderr, "stream broke off") ||
		strings.Contains(stderr, "could not be reached") || strings.Contains(stderr, "OpenRouter") {
		t.Fatalf("stderr %s", stderr)
	}
}

// TestOpenAICompatibleBaseURLCompleted (nu16 item 13): --endpoint given as a base URL ending
// in /v1 (what LM Studio shows) is completed to …/v1/chat/completions, stderr says so, and
// the request reaches the chat-completions path.
func TestOpenAICompatibleBaseURLCompleted(t *testing.T) {
	dir := seedCopy(t)
	srv := fakeprovider.New(t, fakeprovider.Options{}, fakeprovider.Step{BodyFile: "stream_final_text.sse",
		Check: func(t testing.TB, r fakeprovider.Received) {
			if r.Path != "/v1/chat/completions" {
				t.Errorf("request path %q", r.Path)
			}
		}})
	code, out, stderr := runOpenRouter(t, "", "--provider", "openai-compatible", "--endpoint", srv.URL+"/v1", "--model", "llama3.2", "--dir", dir, "Make it emerald")
	if code != 0 || !strings.Contains(out, "#10b981") {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	if !strings.Contains(stderr, "completed to the chat-completions URL "+srv.URL+"/v1/chat/completions") {
		t.Fatalf("stderr %s", stderr)
	}
}
