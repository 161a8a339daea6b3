//go:build wasip1

package hostcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/webcoding/studio/wasm/openrouter"
)

// Status codes of http_do besides StatusOK, StatusFailed (a transport failure: DNS, refused,
// reset), StatusNone (the host offers no HTTP) and StatusTooLarge. Keep identical to
// host/wasmhost/http.go.
const (
	StatusRefused = 8  // the host refused the request's origin; nothing was sent
	StatusTimeout = 9  // no response arrived before the request's deadline
	StatusIdle    = 12 // a streamed answer sent nothing for its idle timeout (DoIdle)
)

// ErrOriginRefused is wrapped by HTTP.Do's error when the host refused the request's origin
// (it contacts only the configured endpoint's origin).
var ErrOriginRefused = errors.New("the host refused the request's origin")

// webcoding.http_do(req, reqLen, buf, cap, out) → status: performs one HTTP request.
// req is JSON {"method","url","header","body" (base64),"timeoutMs"}; the answer is JSON
// {"status","header","body" (base64)}, parked when larger than cap (openrouter.HostRequest and
// HostResponse).
//
//go:wasmimport webcoding http_do
func hostHTTPDo(req unsafe.Pointer, reqLen uint32, buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// HTTP is the openrouter.Transport of the wasip1 module: each request goes to the host
// through webcoding.http_do (the module has no sockets). The host adds the Authorization
// header itself (so openrouter.Config.APIKey stays empty here and the key never enters the
// module) and refuses origins other than the configured endpoint's.
//
// ctx's deadline becomes the request's timeoutMs, enforced by the host, because the guest's
// timers cannot fire while a host call blocks. Errors: ctx already done (ctx.Err()); the
// host's timeout (wraps context.DeadlineExceeded); a refused origin (wraps ErrOriginRefused);
// no HTTP in this host (wraps ErrNotConfigured); any other transport failure (exactly the
// host's key-free message, e.g. `Post "URL": dial tcp: lookup host: no such host`). A non-2xx status is a Response, not an error.
type HTTP struct{}

var _ openrouter.IdleTransport = HTTP{}

// Do performs req through the host and returns the whole response.
func (h HTTP) Do(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
	return h.do(ctx, req, 0)
}

// DoIdle is Do for a streamed request (openrouter.IdleTransport): the host reads the answer
// as it arrives and gives up when no bytes come for idle (StatusIdle, wrapping
// openrouter.ErrIdle); ctx's deadline still bounds the whole request.
func (h HTTP) DoIdle(ctx context.Context, req openrouter.Request, idle time.Duration) (openrouter.Response, error) {
	return h.do(ctx, req, max(idle, time.Millisecond))
}

func (HTTP) do(ctx context.Context, req openrouter.Request, idle time.Duration) (openrouter.Response, error) {
	if err := ctx.Err(); err != nil {
		return openrouter.Response{}, err
	}
	r := openrouter.HostRequest{Method: req.Method, URL: req.URL, Header: req.Header, Body: req.Body, IdleTimeoutMs: idle.Milliseconds()}
	if d, ok := ctx.Deadline(); ok {
		left := time.Until(d)
		if left <= 0 {
			return openrouter.Response{}, context.DeadlineExceeded
		}
		r.TimeoutMs = max(left.Milliseconds(), 1)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return openrouter.Response{}, fmt.Errorf("hostcall: http: %w", err)
	}
	st, res := invoke(func(buf unsafe.Pointer, n uint32, o unsafe.Pointer) int32 {
		return hostHTTPDo(bytesPtr(b), uint32(len(b)), buf, n, o)
	})
	switch st {
	case StatusOK:
	case StatusTimeout:
		return openrouter.Response{}, fmt.Errorf("hostcall: http: %s: %w", res, context.DeadlineExceeded)
	case StatusIdle:
		return openrouter.Response{}, fmt.Errorf("hostcall: http: %s: %w", res, openrouter.ErrIdle)
	case StatusRefused:
		return openrouter.Response{}, fmt.Errorf("hostcall: http: %w: %s", ErrOriginRefused, res)
	case StatusNone:
		return openrouter.Response{}, fmt.Errorf("hostcall: http: %w: %s", ErrNotConfigured, res)
	default: // the host's message alone: it is what the user reads after "Network request failed: "
		return openrouter.Response{}, errors.New(string(res))
	}
	var resp openrouter.HostResponse
	if err := json.Unmarshal(res, &resp); err != nil {
		return openrouter.Response{}, fmt.Errorf("hostcall: http: the host answered something that is not a response: %w", err)
	}
	return openrouter.Response{Status: resp.Status, Header: resp.Header, Body: resp.Body}, nil
}
