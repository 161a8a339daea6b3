package openrouter

import (
	"fmt"
	"time"
)

// Bounds and defaults of the per-request wait (Config.RequestTimeout; issue 16, docs/design.md
// §5.16). The wait bounds a plain (non-streamed) attempt as a whole, and a streamed attempt's
// wait for its headers and then for each next piece of the body. A model on this computer
// (Ollama, LM Studio, llama.cpp on a CPU) often needs more than RequestTimeout for its first
// token of a ~22 KB request, so a loopback endpoint gets LoopbackRequestTimeout by default.
const (
	// MinRequestTimeout and MaxRequestTimeout bound a configured wait (5 s .. 10 min).
	MinRequestTimeout = 5 * time.Second
	MaxRequestTimeout = 600 * time.Second
	// LoopbackRequestTimeout is the default wait for a loopback endpoint (IsLoopback).
	LoopbackRequestTimeout = 120 * time.Second
)

// DefaultRequestTimeout is the wait used when none is configured: LoopbackRequestTimeout for
// a loopback endpoint (IsLoopback), RequestTimeout (20 s) for any other, DefaultEndpoint ("")
// included.
func DefaultRequestTimeout(endpoint string) time.Duration {
	if endpoint != "" && IsLoopback(endpoint) {
		return LoopbackRequestTimeout
	}
	return RequestTimeout
}

// CheckRequestTimeout is the one check of a configured wait (the settings dialog, the
// agent/openrouter param requestTimeoutMs and `webcoding agent --request-timeout` all call it):
// 0 means "the default" (DefaultRequestTimeout); anything else must lie within
// MinRequestTimeout..MaxRequestTimeout. The error says the bounds in seconds.
func CheckRequestTimeout(d time.Duration) error {
	if d == 0 || (d >= MinRequestTimeout && d <= MaxRequestTimeout) {
		return nil
	}
	return fmt.Errorf("the request timeout must be between %d and %d seconds (0: the default, %d s, or %d s for a server on this computer), got %v",
		int(MinRequestTimeout/time.Second), int(MaxRequestTimeout/time.Second), int(RequestTimeout/time.Second), int(LoopbackRequestTimeout/time.Second), d)
}

// requestTimeout is the wait of this configuration's attempts: Config.RequestTimeout, or
// DefaultRequestTimeout of its endpoint when 0 (a value CheckRequestTimeout refuses is
// clamped into the bounds, so a caller that skipped the check still gets a sane wait).
func (c Config) requestTimeout() time.Duration {
	d := c.RequestTimeout
	switch {
	case d == 0:
		return DefaultRequestTimeout(c.Endpoint)
	case d < MinRequestTimeout:
		return MinRequestTimeout
	case d > MaxRequestTimeout:
		return MaxRequestTimeout
	}
	return d
}

// EffectiveRequestTimeout is the wait a run with c uses (Config.RequestTimeout or the
// endpoint's default), for callers that must size their own deadlines around it (the CLI's
// host timeouts).
func (c Config) EffectiveRequestTimeout() time.Duration { return c.requestTimeout() }
