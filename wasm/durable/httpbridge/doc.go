// Package httpbridge runs an HTTP request as a durable side effect (REFERENCE §6.5,
// runHttpSideEffect): at most once per key through a durable.Runner, with an Idempotency-Key
// header so a provider that honours it can deduplicate too.
//
// There is no status-code guessing: the caller's OnResponse classifies every response
// (completed, failed, unknown), and a transport error is unknown unless the caller's OnError
// says otherwise — a request may have reached the provider even when no response came back.
//
// It lives apart from package durable so that only builds which use it link net/http. It does
// no I/O of its own beyond the caller's client.
package httpbridge
