package openrouter

import (
	"strings"
	"testing"
)

func TestNormalizeEndpoint(t *testing.T) {
	ok := map[string]string{
		"HTTP://127.0.0.1:18770/api/v1/chat/completions":  "http://127.0.0.1:18770/api/v1/chat/completions",
		" https://OpenRouter.AI/api/v1/chat/completions ": "https://openrouter.ai/api/v1/chat/completions",
		"Https://[::1]:8080/v1":                           "https://[::1]:8080/v1/chat/completions", // a base URL is completed
		DefaultEndpoint:                                   DefaultEndpoint,
	}
	for in, want := range ok {
		got, err := NormalizeEndpoint(in)
		if err != nil || got != want {
			t.Errorf("NormalizeEndpoint(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "  ", "ftp://host/x", "openrouter.ai/api", "http://", "http:///path",
		"http://user:pw@host/api", "https://token@host/api", "http://[::1", "javascript:alert(1)",
		"https://h/" + strings.Repeat("a", MaxEndpointChars)} {
		got, err := NormalizeEndpoint(in)
		if err == nil {
			t.Errorf("NormalizeEndpoint(%q) = %q, want an error", in, got)
			continue
		}
		if strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "token") {
			t.Errorf("NormalizeEndpoint(%q) error %q echoes a credential", in, err)
		}
	}
}

func TestCheckAPIKey(t *testing.T) {
	for _, k := range []string{"", "sk-or-v1-0123456789abcdef", "sk_AZaz09-._~"} {
		if err := CheckAPIKey(k); err != nil {
			t.Errorf("CheckAPIKey(%q) = %v", k, err)
		}
	}
	for _, k := range []string{"sk-ключ-🔑-X", "sk key", "sk\nkey", "sk-\x00", "sk-é", strings.Repeat("k", MaxAPIKeyChars+1)} {
		err := CheckAPIKey(k)
		if err == nil {
			t.Errorf("CheckAPIKey(%q) = nil, want an error", k)
			continue
		}
		if strings.Contains(err.Error(), "sk") && len(k) < 40 && strings.Contains(err.Error(), k) {
			t.Errorf("CheckAPIKey error %q echoes the key", err)
		}
	}
}

func FuzzNormalizeEndpoint(f *testing.F) {
	for _, s := range []string{DefaultEndpoint, "HTTP://a:1/b", "http://u:p@h/", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizeEndpoint(s)
		if err != nil {
			return
		}
		again, err := NormalizeEndpoint(got)
		if err != nil || again != got {
			t.Fatalf("not idempotent: %q → %q → %q, %v", s, got, again, err)
		}
		if !strings.HasPrefix(got, "http://") && !strings.HasPrefix(got, "https://") {
			t.Fatalf("%q normalized to %q", s, got)
		}
		if strings.Contains(got, "@") && strings.Index(got, "@") < strings.Index(got[8:]+"/", "/")+8 {
			t.Fatalf("%q normalized to %q with user info", s, got)
		}
	})
}

// TestBaseURLIsCompleted (nu16 item 13): a base URL ending in /v1 becomes the chat-completions
// URL, with a note naming it; a full URL is left as it is and has no note.
func TestBaseURLIsCompleted(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:1234/v1":                  "http://127.0.0.1:1234/v1/chat/completions",
		"http://127.0.0.1:11434/v1/":                "http://127.0.0.1:11434/v1/chat/completions",
		"https://openrouter.ai/api/v1":              "https://openrouter.ai/api/v1/chat/completions",
		"http://127.0.0.1:8080/v1/chat/completions": "http://127.0.0.1:8080/v1/chat/completions",
	} {
		got, err := NormalizeEndpoint(raw)
		if err != nil || got != want {
			t.Errorf("NormalizeEndpoint(%q) = %q, %v; want %q", raw, got, err, want)
		}
		note := EndpointCompletion(raw)
		if completed := raw != want; completed != (note != "") || (completed && !strings.Contains(note, want)) {
			t.Errorf("EndpointCompletion(%q) = %q", raw, note)
		}
	}
	if m, ok := ModelsURL("http://127.0.0.1:1234/v1/chat/completions", DataAllow); !ok || !strings.HasPrefix(m, "http://127.0.0.1:1234/v1/models") {
		t.Errorf("models URL %q %v", m, ok)
	}
}

// TestCheckModel: a model id is not blank, at most MaxModelChars bytes, valid UTF-8 and free of
// control characters (a NUL in a model id was accepted and shown as "m�x": new-user finding).
func TestCheckModel(t *testing.T) {
	for m, ok := range map[string]bool{"llama3.2": true, "meta-llama/llama-3.3-70b-instruct:free": true, "": false, " \t": false,
		strings.Repeat("m", MaxModelChars): true, strings.Repeat("m", MaxModelChars+1): false,
		"m\x00x": false, "qwen\n2": false, "a\x7fb": false, "a\u0085b": false, "bad\xffutf8": false, "modèle-ünïcode": true} {
		if err := CheckModel(m); (err == nil) != ok {
			t.Errorf("CheckModel(%.20q…) = %v, want ok %v", m, err, ok)
		}
	}
}
