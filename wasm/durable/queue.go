package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// QueueRequest is one message publish to run at most once under Key (REFERENCE §6.5,
// runQueueSideEffect). M is the message type, A the broker's acknowledgement type.
type QueueRequest[M, A any] struct {
	Key, Fingerprint string
	Lease            time.Duration
	AbortDiagnostic  json.RawMessage
	// Message is handed to Enqueue unchanged.
	Message M
	// Enqueue publishes the message and returns the broker's acknowledgement. Required.
	Enqueue func(ctx context.Context, msg M) (A, error)
	// OnAck classifies the acknowledgement: completed (accepted), failed (definitely rejected)
	// or unknown. Required. An error or panic here yields unknown — there is no guessing.
	OnAck func(ctx context.Context, ack A) (Outcome, error)
	// OnError classifies an Enqueue error; nil = unknown with the error text (the publish may
	// have reached the broker). Return failed only for a confirmed pre-send rejection.
	OnError func(err error) Outcome
}

// RunQueue publishes req.Message through runner r at most once per key: Enqueue, then OnAck,
// inside Runner.Run, with the same statuses and errors as Run.
//
// # Errors
//   - *ValidationError: nil Enqueue ("enqueue") or OnAck ("onAck"); anything Run returns.
func RunQueue[M, A any](ctx context.Context, r *Runner, req QueueRequest[M, A]) (RunResult, error) {
	if r == nil {
		return RunResult{}, invalid("runner", "must not be nil")
	}
	if req.Enqueue == nil {
		return RunResult{}, invalid("enqueue", "must not be nil")
	}
	if req.OnAck == nil {
		return RunResult{}, invalid("onAck", "must not be nil")
	}
	return r.Run(ctx, RunRequest{
		Key: req.Key, Fingerprint: req.Fingerprint, Lease: req.Lease, AbortDiagnostic: req.AbortDiagnostic,
		Classify: req.OnError,
		Execute: func(ctx context.Context) (Outcome, error) {
			ack, err := req.Enqueue(ctx, req.Message)
			if err != nil {
				return Outcome{}, err
			}
			return classifyAck(ctx, req.OnAck, ack), nil
		},
	})
}

func classifyAck[A any](ctx context.Context, onAck func(context.Context, A) (Outcome, error), ack A) (out Outcome) {
	defer func() {
		if p := recover(); p != nil {
			out = Unknown(fmt.Sprint("acknowledgement classification failed: ", p), nil)
		}
	}()
	o, err := onAck(ctx, ack)
	if err != nil {
		return Unknown("acknowledgement classification failed: "+err.Error(), nil)
	}
	return o
}
