//go:build js && wasm

package main

import (
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// These tests run in Chromium (e2e/browser TestBrowserPackageUnitsInChromium).

func TestNoticeText(t *testing.T) {
	for _, c := range []struct {
		n    openrouter.Notice
		want string
	}{
		{openrouter.Notice{Attempt: 1, Max: 2, Delay: 1400 * time.Millisecond, Code: mcp.CodeOpenRouterProviderError, Status: 503},
			"Retrying in 1.4 s (attempt 2 of 3) after HTTP 503…"},
		{openrouter.Notice{Attempt: 2, Max: 2, Delay: 700 * time.Millisecond, Code: mcp.CodeOpenRouterRateLimited, Status: 429},
			"Retrying in 0.7 s (attempt 3 of 3) after HTTP 429…"},
		{openrouter.Notice{Attempt: 1, Max: 2, Delay: 350 * time.Millisecond, Code: mcp.CodeOpenRouterNetworkError},
			"Retrying in 0.3 s (attempt 2 of 3) after a network error…"},
		{openrouter.Notice{Attempt: 1, Max: 2, Delay: 4 * time.Second, Code: mcp.CodeOpenRouterTimeout},
			"Retrying in 4.0 s (attempt 2 of 3) after a timeout…"},
	} {
		if got := noticeText(c.n); got != c.want {
			t.Errorf("noticeText(%+v) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestProviderRecovery: the provider rule adds its actions to the built-in ones for provider
// failures only (REFERENCE §3.3 UI).
func TestProviderRecovery(t *testing.T) {
	for _, c := range []struct {
		f    failure
		want string
	}{
		{failure{Code: "OPENROUTER_AUTHENTICATION_FAILED", Prompt: "p", Provider: true}, "Open provider settings|Use local agent & retry"},
		{failure{Code: "OPENROUTER_ACCESS_DENIED", Prompt: "p", Provider: true}, "Open provider settings|Use local agent & retry"},
		{failure{Code: "OPENROUTER_CONFIGURATION_ERROR", Prompt: "p", Provider: true}, "Open provider settings|Use local agent & retry"},
		{failure{Code: "OPENROUTER_INVALID_RESPONSE", Prompt: "p", Provider: true}, "Open provider settings|Use local agent & retry"},
		{failure{Code: "OPENROUTER_CONFIGURATION_ERROR", Provider: true}, "Open provider settings"},
		{failure{Code: "OPENROUTER_NETWORK_ERROR", Retryable: true, Prompt: "p", Provider: true}, "Retry|Use local agent & retry"},
		{failure{Code: "OPENROUTER_TIMEOUT", Retryable: true, Prompt: "p", Provider: true}, "Retry|Use local agent & retry"},
		{failure{Code: "OPENROUTER_RATE_LIMITED", Retryable: true, Prompt: "p", Provider: true}, "Retry"},
		{failure{Code: "OPENROUTER_TOOL_LOOP_LIMIT", Prompt: "p", Provider: true}, ""},
		{failure{Code: "OPENROUTER_AUTHENTICATION_FAILED", Prompt: "p"}, ""}, // not from the provider loop
	} {
		if got := labels(recoveryActions(c.f)); got != c.want {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
	acts := recoveryActions(failure{Code: "OPENROUTER_AUTHENTICATION_FAILED", Prompt: "make it emerald", Provider: true})
	if len(acts) != 2 || acts[0].Action != "provider-settings" || acts[1].Action != "provider-local-retry" || acts[1].Arg != "make it emerald" {
		t.Errorf("actions %+v", acts)
	}
}

// TestProviderAllowed: requests go to the saved endpoint's origin only; a key-less request may
// also go to the origin of the catalog being loaded.
func TestProviderAllowed(t *testing.T) {
	prov := newProviderSettings()
	prov.endpoint, prov.catalogOrigin = "https://openrouter.ai/api/v1/chat/completions", "http://127.0.0.1:9"
	key := map[string]string{"Authorization": "Bearer k"}
	for _, c := range []struct {
		req  openrouter.Request
		want bool
	}{
		{openrouter.Request{URL: "https://openrouter.ai/api/v1/chat/completions", Header: key}, true},
		{openrouter.Request{URL: "https://OpenRouter.ai/api/v1/models?supported_parameters=tools"}, true},
		{openrouter.Request{URL: "https://evil.example/api/v1/chat/completions", Header: key}, false},
		{openrouter.Request{URL: "http://openrouter.ai/api/v1/chat/completions", Header: key}, false}, // another scheme is another origin
		{openrouter.Request{URL: "http://127.0.0.1:9/api/v1/models"}, true},
		{openrouter.Request{URL: "http://127.0.0.1:9/api/v1/chat/completions", Header: key}, false},
		{openrouter.Request{URL: "javascript:alert(1)"}, false},
		{openrouter.Request{URL: ""}, false},
	} {
		if got := prov.allowed(c.req); got != c.want {
			t.Errorf("allowed(%s, key %v) = %v, want %v", c.req.URL, c.req.Header != nil, got, c.want)
		}
	}
}

// TestParseRequestTimeout: the settings field takes whole seconds 5..600 (openrouter.
// CheckRequestTimeout) or nothing (the endpoint's default); anything else is refused with the
// bounds (issue 16 item 2b).
func TestParseRequestTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, " 90 ": 90 * time.Second, "5": 5 * time.Second, "600": 600 * time.Second} {
		if d, err := parseRequestTimeout(in); err != nil || d != want {
			t.Errorf("%q: %v %v, want %v", in, d, err, want)
		}
	}
	for _, in := range []string{"4", "601", "0", "-5", "2.5", "abc", "99999999999"} {
		if _, err := parseRequestTimeout(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
