package studio

import (
	"errors"
	"strings"

	"github.com/webcoding/studio/wasm/openrouter"
)

// Values of agent/openrouter's "provider" param (MethodAgentOpenRouter).
const (
	ProviderOpenRouter       = "openrouter"
	ProviderOpenAICompatible = "openai-compatible"
)

// ProviderChoice is a provider a page set up for agent/openrouter without the settings dialog
// (the surface pages' chat, issue 18): which provider, its chat-completions endpoint and the
// model. It never holds the key: the key reaches the loop through OpenRouterOptions.APIKey.
type ProviderChoice struct {
	Provider string // ProviderOpenRouter or ProviderOpenAICompatible
	Endpoint string // the chat-completions URL as openrouter.NormalizeEndpoint returns it
	Model    string // "" only for OpenRouter: its default model (openrouter.DefaultModel)
}

// CheckProviderChoice validates a provider choice with the rules agent/openrouter applies
// (it composes them, it adds none of its own but the two a choice must satisfy before a run):
//
//   - provider is ProviderOpenRouter or ProviderOpenAICompatible;
//   - OpenRouter: the endpoint is openrouter.DefaultEndpoint (endpoint is ignored); model is
//     optional ("" or blank: the default model), else openrouter.CheckModel;
//   - OpenAI-compatible: endpoint passes openrouter.NormalizeEndpoint (http(s), a host, no
//     user:password@, plain http only to loopback; a base URL ending in /v1 is completed) and
//     model is required (a local server has no default the loop could name) and passes
//     openrouter.CheckModel;
//   - key: may be empty only for a loopback endpoint (openrouter.KeyOptional), as agent/
//     openrouter's OPENROUTER_CONFIGURATION_ERROR rule says; a non-empty key passes
//     openrouter.CheckAPIKey.
//
// The error is a sentence for the user naming the field ("Endpoint: …", "Model: …",
// "API key: …"); it never repeats the endpoint, the model or the key.
func CheckProviderChoice(provider, endpoint, model, key string) (ProviderChoice, error) {
	c := ProviderChoice{Provider: provider, Model: strings.TrimSpace(model)}
	switch provider {
	case ProviderOpenRouter:
		c.Endpoint = openrouter.DefaultEndpoint
	case ProviderOpenAICompatible:
		norm, err := openrouter.NormalizeEndpoint(endpoint)
		if err != nil {
			return ProviderChoice{}, errors.New("Endpoint: " + err.Error() + ".")
		}
		c.Endpoint = norm
		if c.Model == "" {
			return ProviderChoice{}, errors.New("Model: an OpenAI-compatible server needs the id of one of its models (e.g. llama3.2 for Ollama).")
		}
	default:
		return ProviderChoice{}, errors.New("Provider: choose OpenRouter or an OpenAI-compatible server.")
	}
	if c.Model != "" {
		if err := openrouter.CheckModel(c.Model); err != nil {
			return ProviderChoice{}, errors.New("Model: " + err.Error() + ".")
		}
	}
	key = strings.TrimSpace(key)
	switch {
	case key == "" && !openrouter.KeyOptional(c.Endpoint):
		return ProviderChoice{}, errors.New("API key: " + c.Label() + " needs one; only a server on this computer (127.0.0.1, [::1], localhost) runs without a key.")
	case key != "":
		if err := openrouter.CheckAPIKey(key); err != nil {
			return ProviderChoice{}, errors.New("API key: " + err.Error() + ".")
		}
	}
	return c, nil
}

// Label names the provider for the user: "OpenRouter", a local preset's label ("Ollama",
// "LM Studio", "llama.cpp server": openrouter.ProviderLabel) or "OpenAI-compatible server".
func (c ProviderChoice) Label() string {
	if c.Provider == ProviderOpenRouter {
		return "OpenRouter"
	}
	if l := openrouter.ProviderLabel(c.Endpoint, false); l != "the endpoint" {
		return l
	}
	return "OpenAI-compatible server"
}

// ModelLabel is the model the runs ask for: Model, or OpenRouter's default model.
func (c ProviderChoice) ModelLabel() string {
	if c.Model == "" {
		return openrouter.DefaultModel
	}
	return c.Model
}

// Origin is scheme://host[:port] of the endpoint (openrouter.EndpointOrigin): the one origin
// the page's fetch transport may reach for this choice.
func (c ProviderChoice) Origin() string { return openrouter.EndpointOrigin(c.Endpoint) }

// Allows is the fetch transport's origin check for this choice: the request's URL has the
// endpoint's origin (so the key can reach no other host). A zero choice allows nothing.
func (c ProviderChoice) Allows(req openrouter.Request) bool {
	o := c.Origin()
	return o != "" && openrouter.EndpointOrigin(req.URL) == o
}

// Params are agent/openrouter's params for prompt under this choice: prompt, provider,
// endpoint and, when set, model. Never the key.
func (c ProviderChoice) Params(prompt string) map[string]any {
	p := map[string]any{"prompt": prompt, "provider": c.Provider, "endpoint": c.Endpoint}
	if c.Model != "" {
		p["model"] = c.Model
	}
	return p
}
