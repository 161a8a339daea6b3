package httpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/webcoding/studio/wasm/durable"
)

// HeaderIdempotencyKey is the request header the bridge sets.
const HeaderIdempotencyKey = "Idempotency-Key"

// MaxIdempotencyKeyBytes bounds the header value.
const MaxIdempotencyKeyBytes = 4096

// drainLimit is how much of an unread response body the bridge discards before closing it, so
// the connection can be reused.
const drainLimit = 64 << 10

// Doer sends one request; *http.Client implements it.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Request is one HTTP side effect.
type Request struct {
	Key, Fingerprint string
	Lease            time.Duration
	AbortDiagnostic  json.RawMessage
	// IdempotencyKey is the header value; default Key. Printable ASCII or UTF-8 without control
	// characters, at most MaxIdempotencyKeyBytes.
	IdempotencyKey string
	// Client sends the request; default http.DefaultClient.
	Client Doer
	// NewRequest builds the request (method, URL, body, headers) for ctx. Required. An error
	// here is a confirmed failure: nothing was sent.
	NewRequest func(ctx context.Context) (*http.Request, error)
	// OnResponse classifies the response: completed, failed or unknown. Required. It may read
	// the body; the bridge closes it afterwards. An error or panic yields unknown.
	OnResponse func(ctx context.Context, resp *http.Response) (durable.Outcome, error)
	// OnError classifies a transport error from Client.Do; nil = unknown with the error text.
	// Return failed only for a confirmed pre-send rejection.
	OnError func(err error) durable.Outcome
}

// errBuild marks a NewRequest failure, which is classified failed before OnError sees it.
type errBuild struct{ err error }

func (e *errBuild) Error() string { return "request could not be built: " + e.err.Error() }

// RunHTTP sends req through runner r at most once per key, with the Idempotency-Key header set,
// and records the classified outcome. Statuses and errors are those of durable.Runner.Run.
//
// # Errors
//   - *durable.ValidationError: nil runner ("runner"), NewRequest ("newRequest") or OnResponse
//     ("onResponse"); an idempotency key with control characters or too long
//     ("idempotencyKey"); anything Run returns.
func RunHTTP(ctx context.Context, r *durable.Runner, req Request) (durable.RunResult, error) {
	if r == nil {
		return durable.RunResult{}, &durable.ValidationError{Field: "runner", Reason: "must not be nil"}
	}
	if req.NewRequest == nil {
		return durable.RunResult{}, &durable.ValidationError{Field: "newRequest", Reason: "must not be nil"}
	}
	if req.OnResponse == nil {
		return durable.RunResult{}, &durable.ValidationError{Field: "onResponse", Reason: "must not be nil"}
	}
	idem := req.IdempotencyKey
	if idem == "" {
		idem = req.Key
	}
	if err := checkHeaderValue(idem); err != nil {
		return durable.RunResult{}, err
	}
	client := req.Client
	if client == nil {
		client = http.DefaultClient
	}
	classify := func(err error) durable.Outcome {
		var be *errBuild
		if errors.As(err, &be) {
			return durable.Failed(be.Error(), nil)
		}
		if req.OnError != nil {
			return req.OnError(err)
		}
		return durable.Unknown(err.Error(), nil)
	}
	return r.Run(ctx, durable.RunRequest{
		Key: req.Key, Fingerprint: req.Fingerprint, Lease: req.Lease, AbortDiagnostic: req.AbortDiagnostic,
		Classify: classify,
		Execute: func(ctx context.Context) (durable.Outcome, error) {
			hr, err := req.NewRequest(ctx)
			if err != nil {
				return durable.Outcome{}, &errBuild{err: err}
			}
			if hr == nil {
				return durable.Outcome{}, &errBuild{err: fmt.Errorf("NewRequest returned nil")}
			}
			hr.Header.Set(HeaderIdempotencyKey, idem)
			resp, err := client.Do(hr)
			if err != nil {
				return durable.Outcome{}, err
			}
			defer func() {
				_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
				_ = resp.Body.Close()
			}()
			return classifyResponse(ctx, req.OnResponse, resp), nil
		},
	})
}

func classifyResponse(ctx context.Context, on func(context.Context, *http.Response) (durable.Outcome, error), resp *http.Response) (out durable.Outcome) {
	defer func() {
		if p := recover(); p != nil {
			out = durable.Unknown(fmt.Sprint("response classification failed: ", p), nil)
		}
	}()
	o, err := on(ctx, resp)
	if err != nil {
		return durable.Unknown("response classification failed: "+err.Error(), nil)
	}
	return o
}

func checkHeaderValue(v string) error {
	if len(v) > MaxIdempotencyKeyBytes {
		return &durable.ValidationError{Field: "idempotencyKey", Reason: fmt.Sprintf("is %d bytes, limit %d", len(v), MaxIdempotencyKeyBytes)}
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return &durable.ValidationError{Field: "idempotencyKey", Reason: "contains a control character"}
		}
	}
	return nil
}
