//go:build js && wasm

package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"syscall/js"

	"github.com/hack-pad/safejs"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/openrouter"
)

// DefaultMaxResponseBytes bounds a response body when Transport.MaxResponseBytes is 0
// (8 MiB, the host transport's bound).
const DefaultMaxResponseBytes = 8 << 20

// ErrOriginRefused is wrapped by Do's error when the URL is not http(s) or Transport.Allowed
// refused it; nothing was sent.
var ErrOriginRefused = errors.New("fetch: origin not allowed")

// Transport performs openrouter.Requests with the browser's fetch. The zero value fetches
// any http(s) URL with the default body bound. Safe for concurrent use.
type Transport struct {
	// Allowed reports whether req may be sent (its URL, and whether it carries an
	// Authorization header); nil allows every http(s) URL. It is called once per request, so
	// it can read settings that change.
	Allowed func(req openrouter.Request) bool
	// MaxResponseBytes cuts longer bodies (0: DefaultMaxResponseBytes).
	MaxResponseBytes int
}

var (
	_ openrouter.Transport       = Transport{}
	_ openrouter.StreamTransport = Transport{}
)

// Redact returns rawURL without userinfo, query and fragment (what error messages show).
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// Do sends req and returns the whole response. Errors: ctx.Err() when ctx ended before or
// while the request ran (the fetch is aborted then); ErrOriginRefused (wrapped) for a URL
// that is not allowed; any other error is a transport failure ("Failed to fetch" covers
// offline, refused connections, DNS, CORS refusals and redirects, which the browser does
// not tell apart).
func (t Transport) Do(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
	shown := Redact(req.URL)
	out, resp, stop, err := t.send(ctx, req)
	if err != nil {
		return openrouter.Response{}, err
	}
	defer stop()
	body, err := t.readBody(ctx, resp)
	if ctx.Err() != nil {
		return openrouter.Response{}, ctx.Err()
	}
	if err != nil {
		return openrouter.Response{}, fmt.Errorf("fetch %s: reading the response: %s", shown, err.Error())
	}
	out.Body = body
	return out, nil
}

// DoStream sends req like Do but returns once the status and headers arrived (issue 16;
// openrouter.StreamTransport): Response.Body is empty and the body is a reader over
// response.body's stream reader, each Read awaiting the next chunk the browser delivers, so
// the loop decodes server-sent events as they arrive. At most MaxResponseBytes are read (then
// the stream is cancelled and Read returns io.EOF; the decoder reports the cut). Closing the
// reader, or ctx ending, aborts the fetch at once (the provider sees the connection close);
// a Read after that returns ctx's error. Errors before the body are Do's.
func (t Transport) DoStream(ctx context.Context, req openrouter.Request) (openrouter.Response, io.ReadCloser, error) {
	out, resp, stop, err := t.send(ctx, req)
	if err != nil {
		return openrouter.Response{}, nil, err
	}
	limit := t.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	r := &bodyReader{ctx: ctx, stop: stop, left: limit, shown: Redact(req.URL)}
	if stream, err := resp.Get("body"); err == nil && !stream.IsNull() && !stream.IsUndefined() {
		if rd, err := stream.Call("getReader"); err == nil {
			r.reader = rd
		}
	}
	return out, r, nil
}

// bodyReader is DoStream's body: chunks of response.body read one await at a time.
type bodyReader struct {
	ctx    context.Context
	stop   func()       // aborts the fetch and releases the ctx hook
	reader safejs.Value // ReadableStreamDefaultReader (undefined: no body)
	buf    []byte       // the rest of the last chunk
	left   int          // bytes still allowed (MaxResponseBytes)
	done   bool
	shown  string
}

func (b *bodyReader) Read(p []byte) (int, error) {
	for len(b.buf) == 0 {
		if err := b.ctx.Err(); err != nil {
			return 0, err
		}
		if b.done || b.reader.IsUndefined() || b.left <= 0 {
			if b.left <= 0 && !b.done && !b.reader.IsUndefined() {
				_, _ = b.reader.Call("cancel")
			}
			b.done = true
			return 0, io.EOF
		}
		pr, err := b.reader.Call("read")
		if err != nil {
			return 0, fmt.Errorf("fetch %s: reading the response: %s", b.shown, jsMessage(err))
		}
		cv, err := jsbridge.Await(b.ctx, safejs.Unsafe(pr))
		if b.ctx.Err() != nil {
			return 0, b.ctx.Err()
		}
		if err != nil {
			return 0, fmt.Errorf("fetch %s: reading the response: %s", b.shown, awaitMessage(err))
		}
		chunk := safejs.Safe(cv)
		if done, _ := field(chunk, "done").Bool(); done {
			b.done = true
			return 0, io.EOF
		}
		value := field(chunk, "value")
		n, err := value.Length()
		if err != nil || n <= 0 {
			continue
		}
		got := make([]byte, n)
		if _, err := safejs.CopyBytesToGo(got, value); err != nil {
			return 0, err
		}
		if n > b.left {
			got = got[:b.left]
		}
		b.left -= len(got)
		b.buf = got
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

// Close aborts the fetch (a no-op once the body ended) and releases the ctx hook.
func (b *bodyReader) Close() error {
	b.stop()
	return nil
}

// send performs the fetch and returns the status and headers, the JS Response, and stop,
// which aborts the fetch and releases the ctx hook (call it once the body is read).
func (t Transport) send(ctx context.Context, req openrouter.Request) (openrouter.Response, safejs.Value, func(), error) {
	none := safejs.Undefined()
	if err := ctx.Err(); err != nil {
		return openrouter.Response{}, none, nil, err
	}
	shown := Redact(req.URL)
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return openrouter.Response{}, none, nil, fmt.Errorf("%w: %s is not an http(s) URL", ErrOriginRefused, shown)
	}
	if t.Allowed != nil && !t.Allowed(req) {
		return openrouter.Response{}, none, nil, fmt.Errorf("%w: %s is not the configured endpoint's origin", ErrOriginRefused, shown)
	}
	method := req.Method
	if method == "" {
		method = "GET"
	}
	g := safejs.Global()
	ac, err := newObject(g, "AbortController")
	if err != nil {
		return openrouter.Response{}, none, nil, fmt.Errorf("fetch: AbortController: %w", err)
	}
	signal, err := ac.Get("signal")
	if err != nil {
		return openrouter.Response{}, none, nil, fmt.Errorf("fetch: AbortController: %w", err)
	}
	headers, err := newObject(g, "Headers")
	if err != nil {
		return openrouter.Response{}, none, nil, fmt.Errorf("fetch: Headers: %w", err)
	}
	for k, v := range req.Header {
		if _, err := headers.Call("set", k, v); err != nil {
			// The browser's message may quote the value: name the header only.
			return openrouter.Response{}, none, nil, fmt.Errorf("fetch: header %q refused by the browser", k)
		}
	}
	init, err := newObject(g, "Object")
	if err != nil {
		return openrouter.Response{}, none, nil, err
	}
	for k, v := range map[string]any{"method": method, "mode": "cors", "credentials": "omit",
		"redirect": "error", "cache": "no-store", "referrerPolicy": "origin"} {
		if err := init.Set(k, v); err != nil {
			return openrouter.Response{}, none, nil, err
		}
	}
	_ = init.Set("headers", headers)
	_ = init.Set("signal", signal)
	if len(req.Body) > 0 && method != "GET" && method != "HEAD" {
		arr, err := newObject(g, "Uint8Array", len(req.Body))
		if err != nil {
			return openrouter.Response{}, none, nil, err
		}
		if _, err := safejs.CopyBytesToJS(arr, req.Body); err != nil {
			return openrouter.Response{}, none, nil, err
		}
		_ = init.Set("body", arr)
	}
	// Abort the fetch (and any body read) as soon as ctx ends: the provider sees the
	// connection close, and no further bytes are read.
	release := context.AfterFunc(ctx, func() {
		_, _ = ac.Call("abort")
	})
	var once sync.Once
	stop := func() {
		once.Do(func() {
			release()
			_, _ = ac.Call("abort") // no-op once the body was read to its end
		})
	}

	p, err := g.Call("fetch", req.URL, init)
	if err != nil {
		stop()
		return openrouter.Response{}, none, nil, fmt.Errorf("fetch %s: %s", shown, jsMessage(err))
	}
	rv, err := jsbridge.Await(ctx, safejs.Unsafe(p))
	if ctx.Err() != nil {
		stop()
		return openrouter.Response{}, none, nil, ctx.Err()
	}
	if err != nil {
		stop()
		return openrouter.Response{}, none, nil, fetchError(shown, err)
	}
	resp := safejs.Safe(rv)
	out := openrouter.Response{Header: map[string]string{}}
	if sv, err := resp.Get("status"); err == nil {
		out.Status, _ = sv.Int()
	}
	readHeaders(g, resp, out.Header)
	return out, resp, stop, nil
}

// readBody reads resp.body through its reader, at most the bound, cancelling the stream
// when the bound is reached.
func (t Transport) readBody(ctx context.Context, resp safejs.Value) ([]byte, error) {
	limit := t.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	stream, err := resp.Get("body")
	if err != nil {
		return nil, err
	}
	if stream.IsNull() || stream.IsUndefined() {
		return []byte{}, nil
	}
	reader, err := stream.Call("getReader")
	if err != nil {
		return nil, err
	}
	body := []byte{}
	for {
		p, err := reader.Call("read")
		if err != nil {
			return nil, err
		}
		cv, err := jsbridge.Await(ctx, safejs.Unsafe(p))
		if err != nil {
			return nil, errors.New(awaitMessage(err))
		}
		chunk := safejs.Safe(cv)
		done, _ := field(chunk, "done").Bool()
		if done {
			return body, nil
		}
		value := field(chunk, "value")
		n, err := value.Length()
		if err != nil || n <= 0 {
			continue
		}
		take := min(n, limit-len(body))
		buf := make([]byte, n)
		if _, err := safejs.CopyBytesToGo(buf, value); err != nil {
			return nil, err
		}
		body = append(body, buf[:take]...)
		if len(body) >= limit {
			_, _ = reader.Call("cancel")
			return body, nil
		}
	}
}

// readHeaders copies the response headers visible to the page (lower-case names).
func readHeaders(g, resp safejs.Value, dst map[string]string) {
	h, err := resp.Get("headers")
	if err != nil {
		return
	}
	entries, err := h.Call("entries")
	if err != nil {
		return
	}
	array, err := g.Get("Array")
	if err != nil {
		return
	}
	list, err := array.Call("from", entries)
	if err != nil {
		return
	}
	n, _ := list.Length()
	for i := 0; i < n; i++ {
		pair, err := list.Index(i)
		if err != nil {
			continue
		}
		k, _ := field(pair, "0").String()
		v, _ := field(pair, "1").String()
		dst[k] = v
	}
}

func field(v safejs.Value, name string) safejs.Value {
	f, err := v.Get(name)
	if err != nil {
		return safejs.Undefined()
	}
	return f
}

func newObject(g safejs.Value, ctor string, args ...any) (safejs.Value, error) {
	c, err := g.Get(ctor)
	if err != nil {
		return safejs.Undefined(), err
	}
	if c.Type() != safejs.TypeFunction {
		return safejs.Undefined(), fmt.Errorf("%s is not available in this browser", ctor)
	}
	return c.New(args...)
}

// fetchError turns fetch's rejection into a transport error without any header value.
func fetchError(shown string, err error) error {
	msg := awaitMessage(err)
	if msg == "Failed to fetch" || strings.Contains(msg, "NetworkError") {
		msg += " (offline, connection refused, DNS, CORS or a redirect: the browser does not say which)"
	}
	return fmt.Errorf("fetch %s: %s", shown, msg)
}

func awaitMessage(err error) string {
	var re *jsbridge.RejectedError
	if errors.As(err, &re) {
		return re.Message
	}
	return err.Error()
}

// jsMessage is the message of a safejs error (a thrown JS value).
func jsMessage(err error) string {
	var je js.Error
	if errors.As(err, &je) {
		if m := je.Value.Get("message"); m.Type() == js.TypeString {
			return m.String()
		}
	}
	return err.Error()
}
