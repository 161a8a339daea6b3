package openrouter_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// TestRequestTimeoutIsConfigurable: the per-request wait is Config.RequestTimeout when set,
// else 20 s for a remote endpoint and 120 s for a loopback one (issue 16 item 2b), on all
// three paths: the streamed idle timer (fake timers), the IdleTransport's idle timeout and the
// deadline of a plain request; the timeout error states the wait used.
func TestRequestTimeoutIsConfigurable(t *testing.T) {
	for _, tc := range []struct {
		name     string
		endpoint string
		set      time.Duration
		want     time.Duration
	}{
		{"remote default", "https://openrouter.test/api/v1/chat/completions", 0, 20 * time.Second},
		{"loopback default", "http://127.0.0.1:11434/v1/chat/completions", 0, 120 * time.Second},
		{"configured", "http://localhost:1234/v1/chat/completions", 300 * time.Second, 300 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Streamed, on a StreamTransport: the idle timer is armed for the wait.
			timers := make(chan *fakeTimer, 8)
			var armed []time.Duration
			restore := openrouter.SetAfterFunc(func(d time.Duration, fire func()) openrouter.IdleTimer {
				armed = append(armed, d)
				ft := &fakeTimer{fire: fire, resets: make(chan struct{}, 16)}
				timers <- ft
				return ft
			})
			r := newRegistry(t, true)
			tr := &pipes{w: make(chan *io.PipeWriter, 1)}
			o := options(r, tr)
			o.Endpoint, o.RequestTimeout, o.Stream = tc.endpoint, tc.set, true
			go func() {
				for range openrouter.MaxRetries + 1 {
					ft := <-timers
					<-tr.w
					<-ft.resets // the headers arrived
					ft.fire()   // then nothing: the wait ends
				}
			}()
			rep := openrouter.Run(context.Background(), "reset", o)
			restore()
			wantFailure(t, rep, mcp.CodeOpenRouterTimeout, true)
			if d, _ := rep.Error.Details.(map[string]any); d["timeoutMs"] != tc.want.Milliseconds() || len(armed) != openrouter.MaxRetries+1 || armed[0] != tc.want {
				t.Fatalf("details %v, timers armed for %v, want %v", rep.Error.Details, armed, tc.want)
			}
			if want := fmt.Sprintf("%d ms", tc.want.Milliseconds()); !strings.Contains(rep.Error.Message, want) {
				t.Fatalf("message %q does not say %s", rep.Error.Message, want)
			}

			// Streamed, on an IdleTransport: DoIdle gets the wait.
			it := &idleTransport{answer: func(int) (openrouter.Response, error) {
				return openrouter.Response{}, fmt.Errorf("host: %w", openrouter.ErrIdle)
			}}
			o = options(r, it)
			o.Endpoint, o.RequestTimeout, o.Stream = tc.endpoint, tc.set, true
			openrouter.Run(context.Background(), "reset", o)
			if len(it.idles) == 0 || it.idles[0] != tc.want {
				t.Fatalf("idle timeouts %v, want %v", it.idles, tc.want)
			}

			// Plain: the attempt's deadline is the wait.
			var left time.Duration
			o = options(r, openrouter.TransportFunc(func(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
				dl, _ := ctx.Deadline()
				left = time.Until(dl)
				return openrouter.Response{}, errors.New("refused")
			}))
			o.Endpoint, o.RequestTimeout = tc.endpoint, tc.set
			o.Sleep = func(context.Context, time.Duration) error { return nil }
			openrouter.Run(context.Background(), "reset", o)
			if left > tc.want || left < tc.want-5*time.Second {
				t.Fatalf("plain attempt deadline in %v, want %v", left, tc.want)
			}
		})
	}
}

// TestCheckRequestTimeout: 0 (the default) and 5..600 s pass; anything else is refused with
// the bounds in the message.
func TestCheckRequestTimeout(t *testing.T) {
	for _, d := range []time.Duration{0, 5 * time.Second, 120 * time.Second, 600 * time.Second} {
		if err := openrouter.CheckRequestTimeout(d); err != nil {
			t.Errorf("%v: %v", d, err)
		}
	}
	for _, d := range []time.Duration{time.Second, 4999 * time.Millisecond, 601 * time.Second, -time.Second} {
		if err := openrouter.CheckRequestTimeout(d); err == nil || !strings.Contains(err.Error(), "between 5 and 600 seconds") {
			t.Errorf("%v: %v", d, err)
		}
	}
}
