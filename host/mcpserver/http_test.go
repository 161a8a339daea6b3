package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestLoopbackOrigin(t *testing.T) {
	for origin, want := range map[string]bool{
		"http://localhost":        true,
		"http://LOCALHOST:5173":   true,
		"https://127.0.0.1:8443":  true,
		"http://127.1.2.3":        true,
		"http://[::1]:3000":       true,
		"http://localhost:80/":    true,
		"null":                    false,
		"":                        false,
		"http://evil.example":     false,
		"http://localhost.evil":   false,
		"http://127.0.0.1.nip.io": false,
		"file://localhost":        false,
		"http://user@localhost":   false,
		"http://localhost/path":   false,
		"http://10.0.0.1":         false,
		"http://[::2]":            false,
	} {
		if got := LoopbackOrigin(origin); got != want {
			t.Errorf("LoopbackOrigin(%q) = %v, want %v", origin, got, want)
		}
	}
}

func TestListenAddr(t *testing.T) {
	for in, want := range map[string]struct {
		addr     string
		loopback bool
	}{
		"8080":           {"127.0.0.1:8080", true},
		":8080":          {"127.0.0.1:8080", true},
		"localhost:1":    {"localhost:1", true},
		"[::1]:9":        {"[::1]:9", true},
		"0.0.0.0:8080":   {"0.0.0.0:8080", false},
		"192.0.2.1:8080": {"192.0.2.1:8080", false},
	} {
		addr, lb, err := ListenAddr(in)
		if err != nil || addr != want.addr || lb != want.loopback {
			t.Errorf("ListenAddr(%q) = %q, %v, %v; want %q, %v", in, addr, lb, err, want.addr, want.loopback)
		}
	}
	for _, bad := range []string{"", "a:b:c"} {
		if _, _, err := ListenAddr(bad); err == nil {
			t.Errorf("ListenAddr(%q) accepted", bad)
		}
	}
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func post(t testing.TB, url, origin string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestHTTPServesAndGuardsOrigin(t *testing.T) {
	srv, _ := newFakeServer(t, Options{})
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()

	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil || len(res.Tools) != 3 {
		t.Fatalf("tools/list over HTTP: %v, %v", err, res)
	}
	if r := call(t, cs, "demo_read", map[string]any{}, nil); r.IsError {
		t.Fatal("tools/call over HTTP failed")
	}
	_ = cs.Close()

	for _, origin := range []string{"http://evil.example", "null", "http://localhost.evil:80"} {
		if code := post(t, ts.URL, origin); code != http.StatusForbidden {
			t.Errorf("Origin %q: status %d, want 403", origin, code)
		}
	}
	for _, origin := range []string{"", "http://localhost:6274", "http://127.0.0.1"} {
		if code := post(t, ts.URL, origin); code != http.StatusOK {
			t.Errorf("Origin %q: status %d, want 200", origin, code)
		}
	}
	// Two Origin headers are refused.
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(initializeBody))
	req.Header.Add("Origin", "http://localhost")
	req.Header.Add("Origin", "http://evil.example")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("two Origin headers: status %d", resp.StatusCode)
	}
}

// The binary with --http: loopback bind, the Go client over Streamable HTTP, a clean stop on
// SIGINT.
func TestHTTPBinary(t *testing.T) {
	cmd, stderr := mcpCommand(t, "--http", "127.0.0.1:0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	re := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/mcp)\n`)
	var url string
	for deadline := time.Now().Add(60 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("no listening address on stderr:\n%s", stderr)
	}
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "http-bin", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != wantTools {
		t.Fatalf("%d tools over HTTP", n)
	}
	mustSucceed(t, call(t, cs, "workspace_getStatus", map[string]any{}, nil))
	_ = cs.Close()
	if code := post(t, url, "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("binary: foreign Origin got %d", code)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGINT: %v\nstderr:\n%s", err, stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no exit after SIGINT")
	}
}
