package views

import "testing"

func TestCatalogCountSaysToolsUnknown(t *testing.T) {
	for _, c := range []struct {
		tools, unknown, free, shown, skipped int
		want                                 string
	}{
		{3, 0, 2, 3, 0, "3 tool-capable models (2 free) · showing 3"},
		{1, 0, 1, 1, 0, "1 tool-capable model (1 free) · showing 1"},
		{0, 15, 0, 15, 0, "15 models, tools unknown (0 free) · showing 15"},
		{2, 4, 0, 6, 1, "2 tool-capable models and 4 with tools unknown (0 free) · showing 6 · 1 malformed entry skipped"},
	} {
		if got := CatalogCount(c.tools, c.unknown, c.free, c.shown, c.skipped); got != c.want {
			t.Errorf("CatalogCount(%d, %d, …) = %q, want %q", c.tools, c.unknown, got, c.want)
		}
	}
}

func TestKeyStatusDescribesTheSelectedProvider(t *testing.T) {
	for _, c := range []struct {
		label, origin, model  string
		key, optional, memory bool
		want                  string
	}{
		{"Ollama", "http://127.0.0.1:11434", "llama3.2", false, true, false,
			"A server on this computer needs no key; prompts run through Ollama (llama3.2)."},
		{"OpenRouter", "https://openrouter.ai", "openai/gpt-4o-mini", true, false, false,
			"A key is set for https://openrouter.ai; prompts run through OpenRouter (openai/gpt-4o-mini)."},
		{"OpenRouter", "https://openrouter.ai", "openai/gpt-4o-mini", false, false, true,
			"OpenRouter needs a key here; without one, prompts run through the local agent. Browser storage is blocked: settings last for this tab only."},
	} {
		if got := KeyStatus(c.label, c.origin, c.model, c.key, c.optional, c.memory); got != c.want {
			t.Errorf("KeyStatus(%q…) = %q, want %q", c.label, got, c.want)
		}
	}
}
