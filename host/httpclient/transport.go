package httpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/webcoding/studio/wasm/openrouter"
)

// MaxResponseBytes bounds the body a Transport reads (8 MiB); a larger body is cut and the
// decoder then refuses it as invalid JSON.
const MaxResponseBytes = 8 << 20

// ErrOriginRefused is wrapped by Do's error when the request (or a redirect) targets an
// origin that is not in Transport.AllowedOrigins. Nothing was sent.
var ErrOriginRefused = errors.New("origin not allowed")

// Transport performs openrouter.Requests with net/http. When APIKey is non-empty it sets
// "Authorization: Bearer <APIKey>"; AllowedOrigins lists the scheme://host[:port] origins it
// will contact (compared case-insensitively; empty: any origin), so a key is never sent
// anywhere else. Redirects are followed only within the request's own origin. Errors never
// contain the key. The zero value is usable (http.DefaultClient's transport, any origin, no
// key). Safe for concurrent use.
type Transport struct {
	Client         *http.Client // nil: a client over http.DefaultTransport
	APIKey         string
	AllowedOrigins []string
}

var _ openrouter.Transport = Transport{}

// Origin returns the scheme://host[:port] of rawURL (scheme and host lower-cased), or an error
// when rawURL is not an absolute http(s) URL.
func Origin(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("httpclient: %q is not an absolute http(s) URL", Redact(rawURL))
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host), nil
}

// Allowed reports whether origin is in t.AllowedOrigins (or the list is empty).
func (t Transport) Allowed(origin string) bool {
	if len(t.AllowedOrigins) == 0 {
		return true
	}
	for _, x := range t.AllowedOrigins {
		if strings.EqualFold(strings.TrimSuffix(x, "/"), origin) {
			return true
		}
	}
	return false
}

// Do performs req under ctx and reads the whole response body (bounded by MaxResponseBytes).
// Errors: an invalid URL; ErrOriginRefused (wrapped) for an origin not allowed; a transport
// failure (DNS, refused, reset, ctx done — wrapping ctx's error). Header names of the response
// are canonical; repeated headers keep their first value.
func (t Transport) Do(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
	resp, body, err := t.DoStream(ctx, req)
	if err != nil {
		return resp, err
	}
	defer body.Close()
	if resp.Body, err = io.ReadAll(io.LimitReader(body, MaxResponseBytes)); err != nil {
		return openrouter.Response{}, err // scrubbed by the body
	}
	return resp, nil
}

var _ openrouter.StreamTransport = Transport{}

// DoStream performs req like Do but returns once the status and headers arrived, with the
// body as a reader (the caller closes it) that yields bytes as they arrive: a streamed
// answer (issue 16). The reader is not bounded (openrouter.StreamDecoder bounds what it
// reads); a Read fails once ctx is done. Errors are Do's, and a Read's are scrubbed of the
// key like them.
func (t Transport) DoStream(ctx context.Context, req openrouter.Request) (openrouter.Response, io.ReadCloser, error) {
	origin, err := Origin(req.URL)
	if err != nil {
		return openrouter.Response{}, nil, err
	}
	if !t.Allowed(origin) {
		return openrouter.Response{}, nil, fmt.Errorf("httpclient: %w: %s is not the configured endpoint's origin", ErrOriginRefused, origin)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return openrouter.Response{}, nil, fmt.Errorf("httpclient: invalid request")
	}
	for k, v := range req.Header {
		if strings.EqualFold(k, "Authorization") {
			continue // only the host sets credentials
		}
		hr.Header.Set(k, v)
	}
	if t.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+t.APIKey)
	}
	c := http.Client{}
	if t.Client != nil {
		c = *t.Client
	}
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		o, err := Origin(r.URL.String())
		if err != nil || o != origin {
			return fmt.Errorf("%w: a redirect to another origin was not followed", ErrOriginRefused)
		}
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		return nil
	}
	resp, err := c.Do(hr)
	if err != nil {
		return openrouter.Response{}, nil, t.scrub(err)
	}
	h := make(map[string]string, len(resp.Header))
	for k := range resp.Header {
		h[k] = resp.Header.Get(k)
	}
	return openrouter.Response{Status: resp.StatusCode, Header: h}, scrubbingBody{resp.Body, t}, nil
}

// scrubbingBody scrubs the key from its Read errors.
type scrubbingBody struct {
	io.ReadCloser
	t Transport
}

func (b scrubbingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = b.t.scrub(err)
	}
	return n, err
}

// scrubbed is an error whose message had the key removed; it still wraps the context errors
// so callers can tell a deadline from a network failure.
type scrubbed struct {
	msg string
	err error
}

func (s scrubbed) Error() string { return s.msg }
func (s scrubbed) Unwrap() error { return s.err }

func (t Transport) scrub(err error) error {
	msg := err.Error()
	if t.APIKey != "" && strings.Contains(msg, t.APIKey) {
		msg = strings.ReplaceAll(msg, t.APIKey, "[api key redacted]")
	}
	var inner error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		inner = context.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		inner = context.Canceled
	case errors.Is(err, ErrOriginRefused):
		inner = ErrOriginRefused
	}
	return scrubbed{msg: "httpclient: " + msg, err: inner}
}

// Redact drops the userinfo, query and fragment of a URL for messages (they may carry
// credentials); a string that does not parse is replaced by "(invalid URL)".
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(invalid URL)"
	}
	u.User, u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = nil, "", "", "", false
	return u.String()
}
