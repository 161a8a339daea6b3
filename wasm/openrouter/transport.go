package openrouter

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"
)

// Request is one HTTP request the loop asks a Transport to perform. Header names are
// canonical MIME header names ("Content-Type", "HTTP-Referer", "X-Title", "Authorization");
// Body is the complete request body (nil for GET).
type Request struct {
	Method string
	URL    string
	Header map[string]string
	Body   []byte
}

// Response is a complete HTTP response: the status code, the response headers (any case;
// read them with HeaderValue) and the whole body, read as bytes before any decoding.
type Response struct {
	Status int
	Header map[string]string
	Body   []byte
}

// HostRequest is the JSON of one Request that the wasip1 module hands its host through the
// webcoding.http_do host function: wasm/adapters/hostcall marshals it (so an empty header,
// body or timeout is left out), host/wasmhost unmarshals it. Body is base64 (encoding/json
// []byte); TimeoutMs is the time left before the caller's deadline (0: none).
type HostRequest struct {
	Method    string            `json:"method"`
	URL       string            `json:"url"`
	Header    map[string]string `json:"header,omitempty"`
	Body      []byte            `json:"body,omitempty"`
	TimeoutMs int64             `json:"timeoutMs,omitempty"`
	// IdleTimeoutMs, when set, bounds each wait for the answer's next bytes (its headers
	// included) instead of the whole answer (IdleTransport; milliseconds).
	IdleTimeoutMs int64 `json:"idleTimeoutMs,omitempty"`
}

// HostResponse is the JSON of http_do's answer: host/wasmhost marshals it (every member, the
// body base64), wasm/adapters/hostcall unmarshals it.
type HostResponse struct {
	Status int               `json:"status"`
	Header map[string]string `json:"header"`
	Body   []byte            `json:"body"`
}

// Transport performs HTTP requests for the loop: net/http natively and on the host, fetch in
// the browser, a host function in the wasip1 module. Do returns a non-nil error only when no
// HTTP response arrived (DNS, connection refused, reset, aborted): the loop reports that as
// OPENROUTER_NETWORK_ERROR, or OPENROUTER_TIMEOUT when the attempt's context deadline (Config.RequestTimeout)
// expired, and a cancelled ctx as a cancelled run. Do must honour ctx: return promptly once it
// is done.
//
// A transport may add headers (the host adds Authorization from OPENROUTER_API_KEY); it must
// not follow the request to any origin other than Request.URL's.
type Transport interface {
	Do(ctx context.Context, req Request) (Response, error)
}

// StreamTransport is a Transport that can also hand a response body over as it arrives
// (net/http on the host; issue 16). The loop uses DoStream for streamed requests
// (Config.Stream) when the transport has it, and Do otherwise, decoding the whole streamed
// body at once.
//
// DoStream performs req like Do but returns as soon as the status and headers arrived, with
// Response.Body empty and the body as a reader that the caller must Close. Errors are Do's.
// A Read must return promptly, with an error, once ctx is done.
type StreamTransport interface {
	Transport
	DoStream(ctx context.Context, req Request) (Response, io.ReadCloser, error)
}

// IdleTransport is a Transport that returns the whole answer like Do but can bound a
// streamed request by the time between arriving bytes rather than by the whole answer: the
// wasip1 module's host function, whose host watches the transfer (the guest's timers cannot
// fire during the call). The loop uses DoIdle for streamed requests (Config.Stream) on a
// transport that is not a StreamTransport, so a slow local model that keeps streaming is not
// cut after the request timeout (Config.RequestTimeout; issue 16; docs/design.md §5.16).
//
// DoIdle performs req with no deadline of its own beyond ctx's; when no bytes arrive for
// idle it fails with an error wrapping ErrIdle. Its other errors are Do's.
type IdleTransport interface {
	Transport
	DoIdle(ctx context.Context, req Request, idle time.Duration) (Response, error)
}

// ErrIdle is wrapped by IdleTransport.DoIdle's error when the answer stopped arriving for its
// idle timeout.
var ErrIdle = errors.New("openrouter: the answer sent nothing within its idle timeout")

// TransportFunc adapts a function to Transport.
type TransportFunc func(ctx context.Context, req Request) (Response, error)

// Do calls f.
func (f TransportFunc) Do(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }

// HeaderValue returns the value of header name in h, matching names case-insensitively, and
// "" when it is absent.
func HeaderValue(h map[string]string, name string) string {
	if v, ok := h[name]; ok {
		return v
	}
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}
