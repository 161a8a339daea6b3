package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// HeaderIdempotencyKey is the request header RunHTTP sets (REFERENCE §6.5).
const HeaderIdempotencyKey = "Idempotency-Key"

// MaxIdempotencyKeyBytes bounds the Idempotency-Key header value.
const MaxIdempotencyKeyBytes = 4096

// HTTPRequest is the request an HTTP side effect sends. Header keys are compared
// case-insensitively by RunHTTP when it sets Idempotency-Key.
//
// The type is ours, not net/http's, so that the core never links net/http: the caller's Send
// turns it into a real request (net/http on native hosts, fetch in the browser, a host function
// under wasip1).
type HTTPRequest struct {
	Method string
	URL    string
	Header map[string][]string
	Body   []byte
}

// HTTPResponse is what the caller's Send returns: the status, headers and the body it read
// (bounded by the caller).
type HTTPResponse struct {
	StatusCode int
	Header     map[string][]string
	Body       []byte
}

// HTTPSideEffect is one HTTP request to run at most once under Key (REFERENCE §6.5,
// runHttpSideEffect).
type HTTPSideEffect struct {
	Key, Fingerprint string
	Lease            time.Duration
	AbortDiagnostic  json.RawMessage
	// IdempotencyKey is the header value; default Key. No control characters, at most
	// MaxIdempotencyKeyBytes.
	IdempotencyKey string
	// Request builds the request. Required. An error here is a confirmed failure (nothing was
	// sent) and is stored as failed.
	Request func(ctx context.Context) (HTTPRequest, error)
	// Send is the caller's transport. Required. Its error means no response arrived — the
	// request may still have reached the provider — so it is unknown unless OnError says
	// otherwise.
	Send func(ctx context.Context, req HTTPRequest) (HTTPResponse, error)
	// OnResponse classifies every response: completed, failed or unknown. Required; the bridge
	// never infers anything from a status code. An error or panic here yields unknown.
	OnResponse func(ctx context.Context, resp HTTPResponse) (Outcome, error)
	// OnError classifies a Send error; nil = unknown with the error text. Return failed only
	// for a confirmed pre-send rejection.
	OnError func(err error) Outcome
}

type buildError struct{ err error }

func (e *buildError) Error() string { return "request could not be built: " + e.err.Error() }

// RunHTTP runs req through runner r at most once per key: build the request, set
// Idempotency-Key (replacing any case variant the caller set), Send, classify with OnResponse,
// and record the outcome. Statuses and errors are those of Runner.Run.
//
// # Errors
//   - *ValidationError: nil runner ("runner"), Request ("request"), Send ("send") or
//     OnResponse ("onResponse"); an idempotency key with control characters or longer than
//     MaxIdempotencyKeyBytes ("idempotencyKey"); anything Run returns.
func RunHTTP(ctx context.Context, r *Runner, req HTTPSideEffect) (RunResult, error) {
	switch {
	case r == nil:
		return RunResult{}, invalid("runner", "must not be nil")
	case req.Request == nil:
		return RunResult{}, invalid("request", "must not be nil")
	case req.Send == nil:
		return RunResult{}, invalid("send", "must not be nil")
	case req.OnResponse == nil:
		return RunResult{}, invalid("onResponse", "must not be nil")
	}
	idem := req.IdempotencyKey
	if idem == "" {
		idem = req.Key
	}
	if err := checkHeaderValue(idem); err != nil {
		return RunResult{}, err
	}
	classify := func(err error) Outcome {
		var be *buildError
		if errors.As(err, &be) {
			return Failed(be.Error(), nil)
		}
		if req.OnError != nil {
			return req.OnError(err)
		}
		return Unknown(err.Error(), nil)
	}
	return r.Run(ctx, RunRequest{
		Key: req.Key, Fingerprint: req.Fingerprint, Lease: req.Lease, AbortDiagnostic: req.AbortDiagnostic,
		Classify: classify,
		Execute: func(ctx context.Context) (Outcome, error) {
			hr, err := req.Request(ctx)
			if err != nil {
				return Outcome{}, &buildError{err: err}
			}
			h := make(map[string][]string, len(hr.Header)+1)
			for k, v := range hr.Header {
				if !strings.EqualFold(k, HeaderIdempotencyKey) {
					h[k] = v
				}
			}
			h[HeaderIdempotencyKey] = []string{idem}
			hr.Header = h
			resp, err := req.Send(ctx, hr)
			if err != nil {
				return Outcome{}, err
			}
			return classifyResponse(ctx, req.OnResponse, resp), nil
		},
	})
}

func classifyResponse(ctx context.Context, on func(context.Context, HTTPResponse) (Outcome, error), resp HTTPResponse) (out Outcome) {
	defer func() {
		if p := recover(); p != nil {
			out = Unknown(fmt.Sprint("response classification failed: ", p), nil)
		}
	}()
	o, err := on(ctx, resp)
	if err != nil {
		return Unknown("response classification failed: "+err.Error(), nil)
	}
	return o
}

func checkHeaderValue(v string) error {
	if len(v) > MaxIdempotencyKeyBytes {
		return invalid("idempotencyKey", "is %d bytes, limit %d", len(v), MaxIdempotencyKeyBytes)
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return invalid("idempotencyKey", "contains a control character")
		}
	}
	return nil
}
