package httpclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/openrouter"
)

const key = "sk-or-v1-SECRET-abc123"

func TestAddsKeyAndReplacesCallerAuthorization(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Clone())
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(429)
		_, _ = w.Write([]byte(`{"error":{"code":429}}`))
	}))
	defer srv.Close()
	tr := Transport{APIKey: key, AllowedOrigins: []string{srv.URL}}
	resp, err := tr.Do(context.Background(), openrouter.Request{Method: "POST", URL: srv.URL + "/api/v1/chat/completions",
		Header: map[string]string{"authorization": "Bearer guest-forged", "X-Title": "t", "Content-Type": "application/json"}, Body: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	h := got.Load().(http.Header)
	if a := h.Values("Authorization"); len(a) != 1 || a[0] != "Bearer "+key {
		t.Fatalf("Authorization %q", a)
	}
	if h.Get("X-Title") != "t" {
		t.Fatalf("X-Title %q", h.Get("X-Title"))
	}
	if resp.Status != 429 || openrouter.HeaderValue(resp.Header, "retry-after") != "3" || string(resp.Body) != `{"error":{"code":429}}` {
		t.Fatalf("response %+v", resp)
	}

	// Without a key, a caller's Authorization header is dropped, never forwarded.
	if _, err := (Transport{}).Do(context.Background(), openrouter.Request{Method: "GET", URL: srv.URL,
		Header: map[string]string{"Authorization": "Bearer guest"}}); err != nil {
		t.Fatal(err)
	}
	if a := got.Load().(http.Header).Values("Authorization"); len(a) != 0 {
		t.Fatalf("Authorization without a key: %q", a)
	}
}

func TestRefusesOtherOrigins(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	tr := Transport{APIKey: key, AllowedOrigins: []string{"https://openrouter.ai"}}
	for _, u := range []string{srv.URL + "/x", "https://openrouter.ai.evil.example/x", "http://openrouter.ai/x", "https://openrouter.ai:444/x"} {
		_, err := tr.Do(context.Background(), openrouter.Request{Method: "POST", URL: u})
		if !errors.Is(err, ErrOriginRefused) || strings.Contains(err.Error(), key) {
			t.Errorf("%s: %v, want ErrOriginRefused", u, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("%d requests reached a refused origin", hits.Load())
	}
	for _, u := range []string{"", "ftp://openrouter.ai/x", "/relative", "https://", "::"} {
		if _, err := tr.Do(context.Background(), openrouter.Request{Method: "GET", URL: u}); err == nil || errors.Is(err, ErrOriginRefused) {
			t.Errorf("%q: %v, want an invalid URL error", u, err)
		}
	}
}

func TestRedirectsStayOnTheOrigin(t *testing.T) {
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/steal", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/final", http.StatusFound)
		default:
			_, _ = w.Write([]byte(r.Header.Get("Authorization")))
		}
	}))
	defer srv.Close()
	tr := Transport{APIKey: key, AllowedOrigins: []string{srv.URL, other.URL}}
	if _, err := tr.Do(context.Background(), openrouter.Request{Method: "GET", URL: srv.URL + "/away"}); !errors.Is(err, ErrOriginRefused) || strings.Contains(err.Error(), key) {
		t.Fatalf("redirect away: %v", err)
	}
	if otherHits.Load() != 0 {
		t.Fatal("the redirect reached another origin")
	}
	resp, err := tr.Do(context.Background(), openrouter.Request{Method: "GET", URL: srv.URL + "/here"})
	if err != nil || string(resp.Body) != "Bearer "+key {
		t.Fatalf("same-origin redirect: %v %q", err, resp.Body)
	}
}

func TestDeadlineAndScrubbing(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := Transport{APIKey: key}.Do(ctx, openrouter.Request{Method: "GET", URL: srv.URL})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v, want DeadlineExceeded", err)
	}
	// A transport error that quotes the key (here: in the URL's userinfo) is scrubbed.
	tr := Transport{APIKey: key}
	_, err = tr.Do(context.Background(), openrouter.Request{Method: "GET", URL: "http://127.0.0.1:1/" + key})
	if err == nil || strings.Contains(err.Error(), key) {
		t.Fatalf("error %v", err)
	}
}

func TestOriginAndRedact(t *testing.T) {
	for in, want := range map[string]string{
		"https://OpenRouter.AI/api/v1/chat/completions": "https://openrouter.ai",
		"http://127.0.0.1:8080/x?y#z":                   "http://127.0.0.1:8080",
	} {
		if got, err := Origin(in); err != nil || got != want {
			t.Errorf("Origin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if got := Redact("https://u:p@h/x?key=s#f"); got != "https://h/x" {
		t.Errorf("Redact: %q", got)
	}
}
