//go:build js && wasm

package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/openrouter"
)

// base is the test server of e2e/browser TestFetchAdapterInChromium (another origin than
// the page, so every request here is a real CORS request). Without it the tests skip: they
// only make sense in that harness.
var base = flag.String("fetch.base", "", "base URL of the CORS test server")

func server(t *testing.T) string {
	t.Helper()
	if *base == "" {
		t.Skip("run through e2e/browser TestFetchAdapterInChromium (-fetch.base)")
	}
	return strings.TrimRight(*base, "/")
}

// seen asks the server what it saw of the request tagged id.
func seen(t *testing.T, id string) (started, aborted bool) {
	t.Helper()
	resp, err := Transport{}.Do(context.Background(), openrouter.Request{Method: "GET", URL: server(t) + "/seen?id=" + id})
	if err != nil || resp.Status != 200 {
		t.Fatalf("/seen: %v %d", err, resp.Status)
	}
	var s struct{ Started, Aborted bool }
	if err := json.Unmarshal(resp.Body, &s); err != nil {
		t.Fatalf("/seen body %q: %v", resp.Body, err)
	}
	return s.Started, s.Aborted
}

func TestPostRoundTrip(t *testing.T) {
	srv := server(t)
	body := []byte(`{"model":"m","bytes":"\u00e9\u0000"}`)
	resp, err := Transport{}.Do(context.Background(), openrouter.Request{Method: "POST", URL: srv + "/echo?x=1",
		Header: map[string]string{"Content-Type": "application/json", "Authorization": "Bearer sk-test-123",
			"HTTP-Referer": "http://studio.example", "X-Title": "Context-Action Web Coding Studio"}, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 201 {
		t.Fatalf("status %d", resp.Status)
	}
	if got := openrouter.HeaderValue(resp.Header, "X-Echo"); got != "yes" {
		t.Errorf("exposed header X-Echo = %q (headers %v)", got, resp.Header)
	}
	var echo struct {
		Method string
		Header map[string]string
		Body   []byte
	}
	if err := json.Unmarshal(resp.Body, &echo); err != nil {
		t.Fatalf("echo %q: %v", resp.Body, err)
	}
	if echo.Method != "POST" || !bytes.Equal(echo.Body, body) {
		t.Errorf("server saw %s %q, want POST %q", echo.Method, echo.Body, body)
	}
	for k, want := range map[string]string{"Authorization": "Bearer sk-test-123", "Content-Type": "application/json",
		"Http-Referer": "http://studio.example", "X-Title": "Context-Action Web Coding Studio", "Cookie": ""} {
		if echo.Header[k] != want {
			t.Errorf("server saw %s = %q, want %q", k, echo.Header[k], want)
		}
	}
}

func TestErrorStatusIsAResponse(t *testing.T) {
	resp, err := Transport{}.Do(context.Background(), openrouter.Request{Method: "GET", URL: server(t) + "/status?code=503"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 503 || !strings.Contains(string(resp.Body), "overloaded") {
		t.Errorf("got %d %q", resp.Status, resp.Body)
	}
	if ra := openrouter.HeaderValue(resp.Header, "Retry-After"); ra != "2" {
		t.Errorf("Retry-After = %q, want 2 (exposed by the server)", ra)
	}
}

func TestCancelAbortsTheRequest(t *testing.T) {
	srv := server(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err := Transport{}.Do(ctx, openrouter.Request{Method: "POST", URL: srv + "/hang?id=cancel", Body: []byte("{}"),
		Header: map[string]string{"Content-Type": "application/json"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Do returned %v after the cancel", d)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		started, aborted := seen(t, "cancel")
		if started && aborted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server: started %v aborted %v; the fetch was not aborted", started, aborted)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	_, err := Transport{}.Do(ctx, openrouter.Request{Method: "GET", URL: server(t) + "/hang?id=deadline"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
}

func TestRefusedOriginSendsNothing(t *testing.T) {
	srv := server(t)
	tr := Transport{Allowed: func(r openrouter.Request) bool { return strings.HasPrefix(r.URL, "https://openrouter.ai/") }}
	_, err := tr.Do(context.Background(), openrouter.Request{Method: "POST", URL: srv + "/hang?id=refused",
		Header: map[string]string{"Authorization": "Bearer sk-secret-value"}, Body: []byte("{}")})
	if !errors.Is(err, ErrOriginRefused) {
		t.Fatalf("err = %v, want ErrOriginRefused", err)
	}
	if strings.Contains(err.Error(), "sk-secret-value") {
		t.Errorf("error leaks the key: %v", err)
	}
	for _, u := range []string{"file:///etc/passwd", "javascript:alert(1)", "ftp://x/"} {
		if _, err := (Transport{}).Do(context.Background(), openrouter.Request{URL: u}); !errors.Is(err, ErrOriginRefused) {
			t.Errorf("%s: err = %v, want ErrOriginRefused", u, err)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if started, _ := seen(t, "refused"); started {
		t.Error("the refused request reached the server")
	}
}

func TestNetworkErrorIsAnError(t *testing.T) {
	_, err := Transport{}.Do(context.Background(), openrouter.Request{Method: "GET", URL: "http://127.0.0.1:1/api/v1/chat/completions?key=sk-q"})
	if err == nil {
		t.Fatal("no error for a closed port")
	}
	if strings.Contains(err.Error(), "sk-q") || !strings.Contains(err.Error(), "http://127.0.0.1:1/api/v1/chat/completions") {
		t.Errorf("error %q: want the URL without its query", err)
	}
}

func TestRedirectRefused(t *testing.T) {
	_, err := Transport{}.Do(context.Background(), openrouter.Request{Method: "GET", URL: server(t) + "/redirect"})
	if err == nil {
		t.Fatal("a redirect was followed")
	}
}

func TestBodyBound(t *testing.T) {
	resp, err := Transport{MaxResponseBytes: 1000}.Do(context.Background(), openrouter.Request{Method: "GET", URL: server(t) + "/big?n=50000"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Body) != 1000 || strings.Trim(string(resp.Body), "x") != "" {
		t.Errorf("body of %d bytes, want the first 1000", len(resp.Body))
	}
	resp, err = Transport{}.Do(context.Background(), openrouter.Request{Method: "GET", URL: server(t) + "/big?n=50000"})
	if err != nil || len(resp.Body) != 50000 {
		t.Errorf("unbounded read: %d bytes, %v", len(resp.Body), err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"https://u:p@openrouter.ai/api/v1/chat/completions?key=1#f": "https://openrouter.ai/api/v1/chat/completions",
		"http://127.0.0.1:9/x": "http://127.0.0.1:9/x",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStreamBeforeTheEnd: DoStream hands the first chunk over while the server still holds
// the response open (it ends only after /release), then the rest and io.EOF (issue 16).
func TestStreamBeforeTheEnd(t *testing.T) {
	srv := server(t)
	resp, body, err := Transport{}.DoStream(context.Background(), openrouter.Request{Method: "GET", URL: srv + "/drip?id=early"})
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	if resp.Status != 200 || len(resp.Body) != 0 {
		t.Fatalf("status %d, body %q", resp.Status, resp.Body)
	}
	buf := make([]byte, 64)
	n, err := body.Read(buf)
	if err != nil || string(buf[:n]) != "data: first\n\n" {
		t.Fatalf("first read %q, %v", buf[:n], err)
	}
	if _, aborted := seen(t, "early"); aborted {
		t.Fatal("the server saw the stream end early")
	}
	if _, err := (Transport{}).Do(context.Background(), openrouter.Request{Method: "GET", URL: srv + "/release?id=early"}); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(body)
	if err != nil || string(rest) != "data: second\n\n" {
		t.Fatalf("rest %q, %v", rest, err)
	}
}

// TestStreamCancelAborts: cancelling the context mid-stream makes the pending Read return
// context.Canceled and aborts the fetch (the server sees the connection close).
func TestStreamCancelAborts(t *testing.T) {
	srv := server(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, body, err := Transport{}.DoStream(ctx, openrouter.Request{Method: "GET", URL: srv + "/drip?id=cut"})
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	buf := make([]byte, 64)
	if _, err := body.Read(buf); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(200*time.Millisecond, cancel)
	if _, err := body.Read(buf); !errors.Is(err, context.Canceled) {
		t.Fatalf("read after cancel: %v, want context.Canceled", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, aborted := seen(t, "cut"); aborted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never saw the stream aborted")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
