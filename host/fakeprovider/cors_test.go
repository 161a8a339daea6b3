package fakeprovider_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/webcoding/studio/host/fakeprovider"
)

// TestCORSPreflightAndModels: a browser page on another origin can call the fake: the
// preflight is answered (no step used, not recorded), every answer allows the caller's origin
// and exposes Retry-After, and Options.Models answers catalog GETs without a step.
func TestCORSPreflightAndModels(t *testing.T) {
	s := fakeprovider.New(t, fakeprovider.Options{WantKey: "sk-k", Models: fakeprovider.Body("models.json")},
		fakeprovider.Step{Status: 503, BodyFile: "error_503.json", Header: map[string]string{"Retry-After": "1"}})
	const origin = "http://127.0.0.1:4444"
	pre, _ := http.NewRequest(http.MethodOptions, s.ChatURL, nil)
	pre.Header.Set("Origin", origin)
	pre.Header.Set("Access-Control-Request-Method", "POST")
	pre.Header.Set("Access-Control-Request-Headers", "authorization,content-type,http-referer,x-title")
	resp, err := http.DefaultClient.Do(pre)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != origin {
		t.Fatalf("preflight: %d, allow-origin %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	allowed := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers"))
	for _, h := range []string{"authorization", "content-type", "http-referer", "x-title"} {
		if !strings.Contains(allowed, h) {
			t.Errorf("preflight does not allow %s: %q", h, allowed)
		}
	}
	if m := resp.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(m, "POST") || !strings.Contains(m, "GET") {
		t.Errorf("allow-methods %q", m)
	}

	get, _ := http.NewRequest(http.MethodGet, strings.TrimSuffix(s.ChatURL, "/chat/completions")+"/models?supported_parameters=tools", nil)
	get.Header.Set("Origin", origin)
	resp, err = http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"data"`) || resp.Header.Get("Access-Control-Allow-Origin") != origin {
		t.Fatalf("models: %d %q allow-origin %q", resp.StatusCode, b, resp.Header.Get("Access-Control-Allow-Origin"))
	}

	post, _ := http.NewRequest(http.MethodPost, s.ChatURL, strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}],"max_tokens":1200}`))
	post.Header.Set("Origin", origin)
	post.Header.Set("Content-Type", "application/json")
	post.Header.Set("Authorization", "Bearer sk-k")
	resp, err = http.DefaultClient.Do(post)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Access-Control-Expose-Headers") != "Retry-After" || resp.Header.Get("Access-Control-Allow-Origin") != origin {
		t.Fatalf("chat: %d, expose %q", resp.StatusCode, resp.Header.Get("Access-Control-Expose-Headers"))
	}
	if s.Preflights() != 1 || len(s.Requests()) != 2 || len(s.ChatRequests()) != 1 || s.Remaining() != 0 {
		t.Errorf("preflights %d, requests %d, chat %d, remaining %d", s.Preflights(), len(s.Requests()), len(s.ChatRequests()), s.Remaining())
	}
}
