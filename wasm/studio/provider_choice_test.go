package studio

import (
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/openrouter"
)

// TestCheckProviderChoice: the surface pages' provider choice takes the agent/openrouter rules
// (endpoint, key, model) and refuses, naming the field, what a run would fail on.
func TestCheckProviderChoice(t *testing.T) {
	const key = "sk-or-v1-0123456789"
	ok := []struct {
		provider, endpoint, model, key string
		want                           ProviderChoice
		label, origin                  string
	}{
		{ProviderOpenRouter, "ignored", "", key, ProviderChoice{ProviderOpenRouter, openrouter.DefaultEndpoint, ""}, "OpenRouter", "https://openrouter.ai"},
		{ProviderOpenRouter, "", " meta/llama ", key, ProviderChoice{ProviderOpenRouter, openrouter.DefaultEndpoint, "meta/llama"}, "OpenRouter", "https://openrouter.ai"},
		{ProviderOpenAICompatible, "http://127.0.0.1:11434/v1", "llama3.2", "", ProviderChoice{ProviderOpenAICompatible, "http://127.0.0.1:11434/v1/chat/completions", "llama3.2"}, "Ollama", "http://127.0.0.1:11434"},
		{ProviderOpenAICompatible, "HTTP://LOCALHOST:9/v1/chat/completions", "m", "", ProviderChoice{ProviderOpenAICompatible, "http://localhost:9/v1/chat/completions", "m"}, "OpenAI-compatible server", "http://localhost:9"},
		{ProviderOpenAICompatible, "https://llm.example/v1", "m", key, ProviderChoice{ProviderOpenAICompatible, "https://llm.example/v1/chat/completions", "m"}, "OpenAI-compatible server", "https://llm.example"},
	}
	for _, c := range ok {
		got, err := CheckProviderChoice(c.provider, c.endpoint, c.model, c.key)
		if err != nil || got != c.want {
			t.Errorf("CheckProviderChoice(%q, %q, %q) = %+v, %v; want %+v", c.provider, c.endpoint, c.model, got, err, c.want)
			continue
		}
		if got.Label() != c.label || got.Origin() != c.origin {
			t.Errorf("%+v: label %q origin %q, want %q %q", got, got.Label(), got.Origin(), c.label, c.origin)
		}
	}
	bad := []struct{ provider, endpoint, model, key, field string }{
		{"", "", "", key, "Provider:"},
		{"anthropic", "", "", key, "Provider:"},
		{ProviderOpenRouter, "", "", "", "API key:"},
		{ProviderOpenRouter, "", "m", "two words", "API key:"},
		{ProviderOpenRouter, "", strings.Repeat("m", openrouter.MaxModelChars+1), key, "Model:"},
		{ProviderOpenAICompatible, "ftp://x", "m", "", "Endpoint:"},
		{ProviderOpenAICompatible, "", "m", "", "Endpoint:"},
		{ProviderOpenAICompatible, "http://user:pw@127.0.0.1:1/v1", "m", "", "Endpoint:"},
		{ProviderOpenAICompatible, "http://llm.example/v1", "m", key, "Endpoint:"}, // plain http off loopback
		{ProviderOpenAICompatible, "http://127.0.0.1:11434/v1", "", "", "Model:"},
		{ProviderOpenAICompatible, "http://127.0.0.1:11434/v1", "   ", "", "Model:"},
		{ProviderOpenAICompatible, "https://llm.example/v1", "m", "", "API key:"},
	}
	for _, c := range bad {
		got, err := CheckProviderChoice(c.provider, c.endpoint, c.model, c.key)
		if err == nil || !strings.HasPrefix(err.Error(), c.field) || got != (ProviderChoice{}) {
			t.Errorf("CheckProviderChoice(%q, %q, %q, key %v) = %+v, %v; want a %s error", c.provider, c.endpoint, c.model, c.key != "", got, err, c.field)
		}
		if err != nil && (strings.Contains(err.Error(), "pw@") || (c.key != "" && strings.Contains(err.Error(), c.key))) {
			t.Errorf("the error repeats a credential: %v", err)
		}
	}
}

// TestProviderChoiceAllowsAndParams: the transport admits the endpoint's origin only, and the
// params carry provider, endpoint and model but never a key.
func TestProviderChoiceAllowsAndParams(t *testing.T) {
	c, err := CheckProviderChoice(ProviderOpenAICompatible, "http://127.0.0.1:11434/v1", "llama3.2", "")
	if err != nil {
		t.Fatal(err)
	}
	for url, want := range map[string]bool{
		"http://127.0.0.1:11434/v1/chat/completions":    true,
		"http://127.0.0.1:11434/v1/models":              true,
		"http://127.0.0.1:1234/v1/chat/completions":     false,
		"https://openrouter.ai/api/v1/chat/completions": false,
		"http://localhost:11434/v1/chat/completions":    false,
		"not a url": false,
	} {
		if got := c.Allows(openrouter.Request{URL: url}); got != want {
			t.Errorf("Allows(%s) = %v, want %v", url, got, want)
		}
	}
	if (ProviderChoice{}).Allows(openrouter.Request{URL: openrouter.DefaultEndpoint}) {
		t.Error("the zero choice allows OpenRouter")
	}
	or, _ := CheckProviderChoice(ProviderOpenRouter, "http://127.0.0.1:11434/v1", "", "sk-or-v1-x")
	if !or.Allows(openrouter.Request{URL: openrouter.DefaultEndpoint}) || or.Allows(openrouter.Request{URL: "http://127.0.0.1:11434/v1/chat/completions"}) {
		t.Error("OpenRouter's choice must allow https://openrouter.ai only")
	}
	p := c.Params("hi")
	if len(p) != 4 || p["prompt"] != "hi" || p["provider"] != ProviderOpenAICompatible || p["endpoint"] != c.Endpoint || p["model"] != "llama3.2" {
		t.Errorf("params %v", p)
	}
	if p := or.Params("hi"); len(p) != 3 || p["model"] != nil {
		t.Errorf("OpenRouter default-model params %v", p)
	}
}
