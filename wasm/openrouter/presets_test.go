package openrouter

import (
	"strings"
	"testing"
)

func TestPlainHTTPOnlyToLoopback(t *testing.T) {
	for _, ok := range []string{"http://127.0.0.1:11434/v1/chat/completions", "http://127.9.9.9/v1", "http://[::1]:8080/v1",
		"http://LOCALHOST:1234/v1", "http://app.localhost/v1", "https://example.com/v1/chat/completions"} {
		if _, err := NormalizeEndpoint(ok); err != nil {
			t.Errorf("NormalizeEndpoint(%q) = %v, want accepted", ok, err)
		}
	}
	for _, bad := range []string{"http://example.com/v1/chat/completions", "http://192.168.1.20:11434/v1", "http://10.0.0.1/v1",
		"http://127.0.0.1.example.com/v1", "http://[::2]/v1", "http://0.0.0.0:11434/v1"} {
		_, err := NormalizeEndpoint(bad)
		if err == nil || !strings.Contains(err.Error(), "plain http is only allowed to this computer") {
			t.Errorf("NormalizeEndpoint(%q) = %v, want the plain-http refusal", bad, err)
		}
	}
}

func TestPresets(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Presets {
		if seen[p.ID] {
			t.Errorf("duplicate preset %q", p.ID)
		}
		seen[p.ID] = true
		if p.Help == "" || p.Label == "" {
			t.Errorf("preset %q lacks a label or help", p.ID)
		}
		if p.ID == PresetCustom {
			continue
		}
		norm, err := NormalizeEndpoint(p.Endpoint)
		if err != nil || norm != p.Endpoint {
			t.Errorf("preset %q endpoint %q: %q, %v", p.ID, p.Endpoint, norm, err)
		}
		if strings.Contains(p.Endpoint, "localhost") {
			t.Errorf("preset %q uses localhost, want 127.0.0.1", p.ID)
		}
		if p.ID != PresetOpenRouter && (!KeyOptional(p.Endpoint) || p.Attribution) {
			t.Errorf("local preset %q: key optional %v, attribution %v", p.ID, KeyOptional(p.Endpoint), p.Attribution)
		}
	}
	for _, id := range []string{PresetOpenRouter, PresetOllama, PresetLMStudio, PresetLlamaCpp, PresetCustom} {
		if !seen[id] {
			t.Errorf("preset %q missing", id)
		}
	}
	if KeyOptional(DefaultEndpoint) {
		t.Error("OpenRouter must need a key")
	}
	if PresetByID("nope").ID != PresetOpenRouter || PresetByID(PresetOllama).Label != "Ollama" {
		t.Error("PresetByID")
	}
	if !strings.Contains(PresetByID(PresetOllama).Help, "OLLAMA_ORIGINS") || !strings.Contains(PresetByID(PresetLMStudio).Help, "CORS") {
		t.Error("the local presets must explain their CORS switch")
	}
}

func TestKeysPerOrigin(t *testing.T) {
	k := Keys{}
	if err := k.Set("https://openrouter.ai/api/v1/chat/completions", "sk-or-A"); err != nil {
		t.Fatal(err)
	}
	if err := k.Set("http://127.0.0.1:1234/v1/chat/completions", "lm-B"); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"https://OpenRouter.ai/api/v1/models":        "sk-or-A",
		"https://openrouter.ai:443/api/v1/x":         "", // another origin spelling is another origin
		"https://openrouter.ai.evil.example/api/v1":  "",
		"http://openrouter.ai/api/v1":                "", // refused endpoint: no key at all
		"http://127.0.0.1:1234/v1/models":            "lm-B",
		"http://127.0.0.1:11434/v1/chat/completions": "",
		"not a url": "",
	}
	for ep, want := range cases {
		if got := k.For(ep); got != want {
			t.Errorf("For(%q) = %q, want %q", ep, got, want)
		}
	}
	enc := k.Encode()
	if enc != `{"http://127.0.0.1:1234":"lm-B","https://openrouter.ai":"sk-or-A"}` {
		t.Errorf("Encode = %s", enc)
	}
	back, err := ParseKeys(enc)
	if err != nil || len(back) != 2 || back.For(DefaultEndpoint) != "sk-or-A" {
		t.Errorf("ParseKeys(Encode) = %v, %v", back, err)
	}
	// Hand-edited entries that are not origins, or keys that cannot travel, are dropped.
	back, err = ParseKeys(`{"https://openrouter.ai/api":"x","https://ok.example":"good","https://bad.example":"has space","HTTPS://UP.example":"k"}`)
	if err != nil || len(back) != 1 || back["https://ok.example"] != "good" {
		t.Errorf("ParseKeys kept %v, %v", back, err)
	}
	if _, err := ParseKeys(`["x"]`); err == nil {
		t.Error("ParseKeys accepted an array")
	}
	if err := k.Set("https://openrouter.ai/api/v1/chat/completions", ""); err != nil || k.For(DefaultEndpoint) != "" {
		t.Errorf("removing a key: %v, %q", err, k.For(DefaultEndpoint))
	}
	if err := k.Set("https://x.example/v1", "bad key"); err == nil {
		t.Error("Set accepted a key with a space")
	}
	full := Keys{}
	for i := 0; i < MaxStoredKeys; i++ {
		if err := full.Set("https://h"+strings.Repeat("x", i+1)+".example/v1", "k"); err != nil {
			t.Fatal(err)
		}
	}
	if err := full.Set("https://one-more.example/v1", "k"); err == nil {
		t.Error("the store grew beyond MaxStoredKeys")
	}
}

func TestMigrateLegacyKey(t *testing.T) {
	// The default endpoint: the key moves to OpenRouter's origin.
	k := Keys{}
	if !MigrateLegacyKey(k, " sk-or-legacy ", "") || k.For(DefaultEndpoint) != "sk-or-legacy" || len(k) != 1 {
		t.Errorf("default migration: %v", k)
	}
	// Once moved, running it again (the legacy entry was removed) changes nothing.
	if MigrateLegacyKey(k, "", "") || len(k) != 1 {
		t.Errorf("second migration: %v", k)
	}
	// A key saved with another endpoint moves to that endpoint's origin, the only one it was sent to.
	k = Keys{}
	MigrateLegacyKey(k, "sk-custom", "http://127.0.0.1:18770/api/v1/chat/completions")
	if k.For("http://127.0.0.1:18770/x") != "sk-custom" || k.For(DefaultEndpoint) != "" {
		t.Errorf("custom-endpoint migration: %v", k)
	}
	// An entry already in the store wins; the legacy entry still goes.
	k = Keys{"https://openrouter.ai": "sk-new"}
	if !MigrateLegacyKey(k, "sk-old", DefaultEndpoint) || k.For(DefaultEndpoint) != "sk-new" {
		t.Errorf("existing entry: %v", k)
	}
	// A legacy key that cannot travel is dropped, not carried over.
	k = Keys{}
	if !MigrateLegacyKey(k, "bad\x01key", "") || len(k) != 0 {
		t.Errorf("bad legacy key: %v", k)
	}
}

// TestToolsUnsupportedIsTyped: a model that rejects tools (Ollama's and OpenRouter's words)
// is a configuration error that says so, with details.reason "tools_unsupported"; another 400
// keeps the generic refusal.
func TestToolsUnsupportedIsTyped(t *testing.T) {
	for status, msg := range map[int]string{
		400: "registry.ollama.ai/library/gemma:2b does not support tools",
		404: "No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing",
	} {
		e := StatusError(status, msg, "")
		d, _ := e.Details.(map[string]any)
		if e.Code != "OPENROUTER_CONFIGURATION_ERROR" || e.Retryable || d["reason"] != "tools_unsupported" ||
			!strings.Contains(e.Message, "does not support tool calls") {
			t.Errorf("HTTP %d %q → %+v", status, msg, e)
		}
	}
	e := StatusError(400, "model is required", "")
	if d, _ := e.Details.(map[string]any); d["reason"] != nil || !strings.Contains(e.Message, "check the endpoint and model") {
		t.Errorf("plain 400 → %+v", e)
	}
}

// TestLocalModelListIsOffered: a local server's /models lists bare ids (no
// supported_parameters); they are offered, marked "tools unknown", while OpenRouter entries
// that list parameters without "tools" stay out.
func TestLocalModelListIsOffered(t *testing.T) {
	cat, err := ParseModels([]byte(`{"object":"list","data":[{"id":"llama3.2:latest","object":"model","owned_by":"library"},
		{"id":"x/no-tools","supported_parameters":["temperature"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := cat.ToolModels(false)
	if len(got) != 1 || got[0].ID != "llama3.2:latest" || !got[0].ToolsUnknown || got[0].Label != "llama3.2:latest (llama3.2:latest) · tools unknown" {
		t.Errorf("ToolModels = %+v", got)
	}
}

// FuzzParseKeys: whatever the stored text, the parsed store holds only canonical origins
// with keys that can travel, and survives Encode → ParseKeys unchanged.
func FuzzParseKeys(f *testing.F) {
	for _, s := range []string{`{"https://openrouter.ai":"sk-or-1"}`, `{"http://127.0.0.1:1234":"k","x":"y"}`, `[]`, ``, `{"HTTPS://A.example":"k"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		k, _ := ParseKeys(raw)
		for o, key := range k {
			if EndpointOrigin(o) != o || CheckAPIKey(key) != nil || key == "" {
				t.Fatalf("kept %q → %q", o, key)
			}
			if k.For(o+"/v1/chat/completions") != key {
				t.Fatalf("For(%q) lost the key", o)
			}
		}
		back, err := ParseKeys(k.Encode())
		if err != nil || len(back) != len(k) {
			t.Fatalf("round trip %v → %v, %v", k, back, err)
		}
	})
}

func TestProviderLabelAndRelabel(t *testing.T) {
	for _, c := range []struct {
		endpoint string
		or       bool
		want     string
	}{
		{"https://openrouter.ai/api/v1/chat/completions", true, "OpenRouter"},
		{"http://127.0.0.1:11434/v1/chat/completions", false, "Ollama"},
		{"http://127.0.0.1:1234/v1/chat/completions/", false, "LM Studio"},
		{"https://api.example.com/v1/chat/completions", false, "the endpoint"},
	} {
		if got := ProviderLabel(c.endpoint, c.or); got != c.want {
			t.Errorf("ProviderLabel(%q, %v) = %q, want %q", c.endpoint, c.or, got, c.want)
		}
	}
	for _, c := range []struct{ msg, label, want string }{
		{"OpenRouter's stream ended ([DONE]) without a finish_reason; nothing of it was run.", "the endpoint",
			"The endpoint's stream ended ([DONE]) without a finish_reason; nothing of it was run."},
		{"OpenRouter provider error (HTTP 500): OpenRouter is down", "Ollama", "Provider error from Ollama (HTTP 500): OpenRouter is down"},
		{"OpenRouter was still calling tools after 5 turns.", "LM Studio", "LM Studio was still calling tools after 5 turns."},
		{"The tool catalog could not be prepared for OpenRouter: x.", "Ollama", "The tool catalog could not be prepared for Ollama: x."},
		{"OpenRouter stream sent nothing for 20000 ms.", "OpenRouter", "OpenRouter stream sent nothing for 20000 ms."},
	} {
		if got := Relabel(c.msg, c.label); got != c.want {
			t.Errorf("Relabel(%q, %q) = %q, want %q", c.msg, c.label, got, c.want)
		}
	}
}
