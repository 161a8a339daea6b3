package main

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/host/fakeprovider"
)

// TestOpenRouterKeyStaysWithOpenRouter: OPENROUTER_API_KEY is sent only to openrouter.ai; a
// loopback server gets no Authorization with only that variable set (the fake refuses any),
// and gets WEBCODING_ENDPOINT_API_KEY when that one is set (issue 16 item 10).
func TestOpenRouterKeyStaysWithOpenRouter(t *testing.T) {
	for _, provider := range []string{"openrouter", "openai-compatible"} {
		srv := fakeprovider.New(t, fakeprovider.Options{}, fakeprovider.Step{BodyFile: "stream_final_text.sse"})
		code, out, stderr := runAgentEnv(t, map[string]string{apiKeyEnv: testKey}, "--provider", provider, "--endpoint", srv.ChatURL, "--model", "m", "hi")
		if code != 0 || len(srv.ChatRequests()) != 1 {
			t.Fatalf("%s: exit %d, %d requests: %s %s", provider, code, len(srv.ChatRequests()), out, stderr)
		}
		noKey(t, out, stderr)
	}
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: "sk-local-0123"}, fakeprovider.Step{BodyFile: "stream_final_text.sse"})
	code, _, stderr := runAgentEnv(t, map[string]string{apiKeyEnv: testKey, endpointKeyEnv: "sk-local-0123"},
		"--provider", "openai-compatible", "--endpoint", srv.ChatURL, "--model", "m", "hi")
	if code != 0 || len(srv.ChatRequests()) != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestAgentProviderFlagRefusals: usage errors (exit 2, nothing sent) that name what to fix:
// openai-compatible without --model (item 8) or with --data-policy (item 16); a key the
// browser would refuse (spaces, non-ASCII; item 9); a --request-timeout out of 5..600 s.
func TestAgentProviderFlagRefusals(t *testing.T) {
	srv := fakeprovider.New(t, fakeprovider.Options{})
	loop := srv.ChatURL
	for _, c := range []struct {
		vars map[string]string
		args []string
		want string
	}{
		{nil, []string{"--provider", "openai-compatible", "--endpoint", loop, "hi"}, "needs --model"},
		{nil, []string{"--provider", "openai-compatible", "--endpoint", loop, "--model", "m", "--data-policy", "deny", "hi"}, "--data-policy"},
		{map[string]string{apiKeyEnv: "sk x"}, []string{"--provider", "openrouter", "hi"}, apiKeyEnv + " cannot be sent: the API key must not contain spaces"},
		{map[string]string{apiKeyEnv: "sk-é"}, []string{"--provider", "openrouter", "hi"}, "printable ASCII"},
		{map[string]string{endpointKeyEnv: "a\x01b"}, []string{"--provider", "openai-compatible", "--endpoint", loop, "--model", "m", "hi"}, endpointKeyEnv + " cannot be sent"},
		{map[string]string{apiKeyEnv: testKey}, []string{"--provider", "openrouter", "--request-timeout", "2s", "hi"}, "between 5 and 600 seconds"},
		{map[string]string{apiKeyEnv: testKey}, []string{"--provider", "openrouter", "--request-timeout", "11m", "hi"}, "between 5 and 600 seconds"},
	} {
		code, _, stderr := runAgentEnv(t, c.vars, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// deadlines records how long each request the host sends may take (its context's deadline).
type deadlines struct {
	mu   sync.Mutex
	left []time.Duration
}

func (d *deadlines) RoundTrip(r *http.Request) (*http.Response, error) {
	if dl, ok := r.Context().Deadline(); ok {
		d.mu.Lock()
		d.left = append(d.left, time.Until(dl))
		d.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestRequestTimeoutFlagReachesTheRequest: through the real module, a plain request may take
// the --request-timeout (45 s here), or 120 s by default for a loopback server, instead of the
// fixed 20 s that cut local models (item 2b): the deadline of the host's HTTP request is the
// module's wait (sent as requestTimeoutMs) capped by the host's (HTTPOptions.Timeout).
func TestRequestTimeoutFlagReachesTheRequest(t *testing.T) {
	for _, c := range []struct {
		flag []string
		want time.Duration
	}{{nil, 120 * time.Second}, {[]string{"--request-timeout", "45s"}, 45 * time.Second}} {
		srv := fakeprovider.New(t, fakeprovider.Options{}, fakeprovider.Step{BodyFile: "chat_final_text.json"})
		rec := &deadlines{}
		var errb strings.Builder
		e := &env{stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &errb, getenv: func(k string) string {
			if k == "WEBCODING_MODULE" {
				return providerModule(t)
			}
			return ""
		}, newHost: func(ctx context.Context, e *env, hf *hostFlags) (rpcHost, error) {
			hf.http.Client = &http.Client{Transport: rec}
			return openHost(ctx, e, hf)
		}}
		args := append([]string{"agent", "--provider", "openai-compatible", "--endpoint", srv.ChatURL, "--model", "m", "--stream=false"}, c.flag...)
		if code := run(context.Background(), append(args, "hi"), e); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.flag, code, errb.String())
		}
		if len(rec.left) != 1 || rec.left[0] > c.want || rec.left[0] < c.want-10*time.Second {
			t.Fatalf("%v: request deadlines %v, want about %v", c.flag, rec.left, c.want)
		}
	}
}

// TestBudgetCostWithoutReportedCost: --budget-cost with an endpoint that reports no cost says
// on stderr that it did not apply; with a reported cost it says nothing of the kind (item 15).
func TestBudgetCostWithoutReportedCost(t *testing.T) {
	noCost := []byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":"Hi."},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`)
	srv := fakeprovider.New(t, fakeprovider.Options{}, fakeprovider.Step{Body: noCost})
	code, _, stderr := runAgentEnv(t, nil, "--provider", "openai-compatible", "--endpoint", srv.ChatURL, "--model", "m", "--stream=false", "--budget-cost", "0.5", "hi")
	if code != 0 || !strings.Contains(stderr, "--budget-cost did not apply: the endpoint reported no cost") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	srv = fakeprovider.New(t, fakeprovider.Options{}, fakeprovider.Step{BodyFile: "stream_final_text.sse"})
	code, _, stderr = runAgentEnv(t, nil, "--provider", "openai-compatible", "--endpoint", srv.ChatURL, "--model", "m", "--budget-cost", "0.5", "hi")
	if code != 0 || strings.Contains(stderr, "did not apply") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
