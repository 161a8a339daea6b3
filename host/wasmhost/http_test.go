package wasmhost

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/host/httpclient"
	"github.com/webcoding/studio/wasm/openrouter"
)

// TestReadResponseHandsPiecesToTheSink: the sink sees each piece as it arrives and the whole
// body is answered; when the sink says stop the host answers the body so far at once, even
// though the server holds the response open.
func TestReadResponseHandsPiecesToTheSink(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range []string{"data: one\n\n", "data: two\n\n", "data: [DONE]\n\n"} {
			_, _ = w.Write([]byte(p))
			w.(http.Flusher).Flush()
			time.Sleep(10 * time.Millisecond)
		}
		if r.URL.Path == "/hold" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	defer srv.Close()
	defer close(release)
	tr := httpclient.Transport{AllowedOrigins: []string{srv.URL}}
	var seen []string
	var gotStatus int
	sink := func(stopAt string) func(int, map[string]string) func([]byte) bool {
		return func(status int, h map[string]string) func([]byte) bool {
			gotStatus = status
			return func(p []byte) bool {
				seen = append(seen, string(p))
				return stopAt != "" && strings.Contains(string(p), stopAt)
			}
		}
	}
	resp, err := readResponse(context.Background(), tr, openrouter.Request{Method: "GET", URL: srv.URL + "/all"}, sink(""))
	if err != nil || gotStatus != 200 || string(resp.Body) != strings.Join(seen, "") || !strings.HasSuffix(string(resp.Body), "[DONE]\n\n") || len(seen) < 2 {
		t.Fatalf("resp %q, err %v, pieces %q", resp.Body, err, seen)
	}
	seen = nil
	start := time.Now()
	resp, err = readResponse(context.Background(), tr, openrouter.Request{Method: "GET", URL: srv.URL + "/hold"}, sink("[DONE]"))
	if err != nil || !strings.HasSuffix(string(resp.Body), "[DONE]\n\n") || time.Since(start) > 10*time.Second {
		t.Fatalf("resp %q, err %v after %v", resp.Body, err, time.Since(start))
	}
}
