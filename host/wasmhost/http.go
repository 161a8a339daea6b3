package wasmhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/webcoding/studio/host/httpclient"
	"github.com/webcoding/studio/wasm/openrouter"
)

// Status codes of http_do besides those of folder.go (statusOK, statusFailed for a transport
// failure, statusNone when the host offers no HTTP, statusTooLarge for a parked answer). The
// guest (wasm/adapters/hostcall/http.go) maps them back; keep both lists identical.
const (
	statusRefused = 8  // the request's origin is not allowed; nothing was sent
	statusTimeout = 9  // the request's deadline expired before a response arrived
	statusIdle    = 12 // a streamed answer sent nothing for its idleTimeoutMs
)

// DefaultHTTPTimeout bounds one http_do request when HTTPOptions.Timeout is zero; the guest's
// own deadline (timeoutMs, 20 s for the provider loop) is usually shorter.
const DefaultHTTPTimeout = time.Minute

// maxStreamedRequest bounds a streamed request that carries no timeoutMs (a guest call
// without a deadline).
const maxStreamedRequest = 30 * time.Minute

// MaxHTTPRequestBytes bounds the JSON request the guest hands to http_do (bytes).
const MaxHTTPRequestBytes = 16 << 20

// HTTPOptions let the module make HTTP requests through the webcoding.http_do host function
// (SPEC §3 `agent --provider openrouter`: the wasip1 module has no sockets). The host adds
// "Authorization: Bearer <APIKey>" itself, so the key never enters guest memory; requests to
// any origin not in AllowedOrigins are refused before anything is sent (the guest gets an
// error). The key never appears in the host's log or in any answer to the guest.
type HTTPOptions struct {
	// APIKey is sent as the Bearer credential; "" sends none (any guest-set Authorization
	// header is dropped either way).
	APIKey string
	// AllowedOrigins are the scheme://host[:port] origins the module may reach. Required:
	// an empty list refuses every request.
	AllowedOrigins []string
	// Timeout caps one request (the guest's deadline may be shorter). 0 means
	// DefaultHTTPTimeout. For a streamed request (idleTimeoutMs set: a provider answer read
	// as it arrives) it caps each wait for the next bytes instead, with the guest's idle
	// timeout; the whole answer is bounded by the guest's timeoutMs (maxStreamedRequest
	// without one), so a slow local model that keeps streaming is not cut (issue 16).
	Timeout time.Duration
	// Client performs the requests (tests); nil uses a default client.
	Client *http.Client
	// OnResponse, when set, is called once per response as its status and headers arrive;
	// the function it returns (nil: none) then receives the body's bytes as they arrive,
	// before the guest gets the whole answer (the CLI prints streamed text this way while
	// the module still decides what runs; issue 16). When it returns true the host stops
	// reading and hands the guest the body so far (a stream past its "data: [DONE]" that
	// the server holds open). It runs on the goroutine of the guest's call and must not keep
	// the slices.
	OnResponse func(status int, header map[string]string) func(chunk []byte) (stop bool)
}

// hostHTTPDo performs one HTTP request for the guest:
//
//	http_do(req u32, reqLen u32, buf u32, cap u32, out u32) -> status
//
// req holds {"method","url","header":{name:value},"body":base64,"timeoutMs":n}; the answer is
// {"status","header","body":base64} (parked when larger than cap). Errors: statusNone (no
// HTTPOptions), statusRefused (origin not allowed), statusTimeout (deadline), statusFailed
// (bad request JSON or a transport failure); their result bytes are a key-free message.
func hostHTTPDo(ctx context.Context, m api.Module, reqPtr, reqLen, buf, bufCap, out uint32) int32 {
	h := hostFrom(ctx)
	if h == nil || h.opts.HTTP == nil {
		return none(m, "the host offers no HTTP (no provider is configured)", buf, bufCap, out)
	}
	o := h.opts.HTTP
	if reqLen > MaxHTTPRequestBytes {
		return h.reply(m, statusFailed, []byte("http request too large"), buf, bufCap, out)
	}
	raw, ok := m.Memory().Read(reqPtr, reqLen)
	if !ok {
		return h.reply(m, statusFailed, []byte("http request out of guest memory"), buf, bufCap, out)
	}
	var req openrouter.HostRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return h.reply(m, statusFailed, []byte("http request is not valid JSON: "+err.Error()), buf, bufCap, out)
	}
	origin, err := httpclient.Origin(req.URL)
	if err != nil {
		return h.reply(m, statusFailed, []byte(err.Error()), buf, bufCap, out)
	}
	t := httpclient.Transport{Client: o.Client, APIKey: o.APIKey, AllowedOrigins: o.AllowedOrigins}
	if len(o.AllowedOrigins) == 0 || !t.Allowed(origin) {
		msg := fmt.Sprintf("the host refused a request to %s: only %s may be contacted", origin, strings.Join(o.AllowedOrigins, ", "))
		h.logf("http: %s", msg)
		return h.reply(m, statusRefused, []byte(msg), buf, bufCap, out)
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultHTTPTimeout
	}
	idle := time.Duration(req.IdleTimeoutMs) * time.Millisecond
	if idle > 0 {
		// A streamed answer: the host's cap bounds each wait for bytes, the guest's deadline
		// the whole answer.
		idle = min(idle, timeout)
		timeout = time.Duration(req.TimeoutMs) * time.Millisecond
		if req.TimeoutMs <= 0 {
			timeout = maxStreamedRequest
		}
	} else if req.TimeoutMs > 0 {
		timeout = min(timeout, time.Duration(req.TimeoutMs)*time.Millisecond)
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var idled atomic.Bool
	onResponse := o.OnResponse
	if idle > 0 {
		// The idle watchdog: reset by the headers and every piece of the body.
		ictx, icancel := context.WithCancel(rctx)
		defer icancel()
		tm := time.AfterFunc(idle, func() { idled.Store(true); icancel() })
		defer tm.Stop()
		rctx = ictx
		onResponse = func(status int, header map[string]string) func([]byte) bool {
			tm.Reset(idle)
			var sink func([]byte) bool
			if o.OnResponse != nil {
				sink = o.OnResponse(status, header)
			}
			return func(chunk []byte) bool {
				tm.Reset(idle)
				return sink != nil && sink(chunk)
			}
		}
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	resp, err := readResponse(rctx, t, openrouter.Request{Method: method, URL: req.URL, Header: req.Header, Body: req.Body}, onResponse)
	if err != nil {
		msg := strings.TrimPrefix(scrubKey(err.Error(), o.APIKey), "httpclient: ")
		switch {
		case idled.Load() && ctx.Err() == nil:
			return h.reply(m, statusIdle, []byte(fmt.Sprintf("the answer sent nothing for %v", idle)), buf, bufCap, out)
		case errors.Is(err, httpclient.ErrOriginRefused):
			h.logf("http: %s %s: %s", method, httpclient.Redact(req.URL), msg)
			return h.reply(m, statusRefused, []byte(msg), buf, bufCap, out)
		case rctx.Err() != nil && ctx.Err() == nil, errors.Is(err, context.DeadlineExceeded):
			return h.reply(m, statusTimeout, []byte(fmt.Sprintf("no response within %v", timeout)), buf, bufCap, out)
		}
		// Not logged: the guest reports it (and retries with a notice).
		return h.reply(m, statusFailed, []byte(msg), buf, bufCap, out)
	}
	b, err := json.Marshal(openrouter.HostResponse{Status: resp.Status, Header: resp.Header, Body: resp.Body})
	if err != nil {
		return h.reply(m, statusFailed, []byte("http response not encodable"), buf, bufCap, out)
	}
	return h.reply(m, statusOK, b, buf, bufCap, out)
}

// readResponse performs req and reads its whole body (at most httpclient.MaxResponseBytes),
// handing each piece to onResponse's sink as it arrives, until the end or the sink says stop.
func readResponse(ctx context.Context, t httpclient.Transport, req openrouter.Request,
	onResponse func(int, map[string]string) func([]byte) bool) (openrouter.Response, error) {
	if onResponse == nil {
		return t.Do(ctx, req)
	}
	resp, body, err := t.DoStream(ctx, req)
	if err != nil {
		return resp, err
	}
	defer body.Close()
	sink := onResponse(resp.Status, resp.Header)
	buf := make([]byte, 32<<10)
	for len(resp.Body) < httpclient.MaxResponseBytes {
		n, rerr := body.Read(buf[:min(len(buf), httpclient.MaxResponseBytes-len(resp.Body))])
		if n > 0 {
			resp.Body = append(resp.Body, buf[:n]...)
			if sink != nil && sink(buf[:n]) {
				break
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return openrouter.Response{}, rerr
		}
	}
	return resp, nil
}

// scrubKey removes key from msg (defence in depth: httpclient already scrubs).
func scrubKey(msg, key string) string {
	if key == "" {
		return msg
	}
	return strings.ReplaceAll(msg, key, "[api key redacted]")
}
