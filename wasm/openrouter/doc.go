// Package openrouter is the OpenRouter provider loop (REFERENCE §3.3, §4, §7.5; SPEC §2.1,
// §2.10, §3): it sends the canonical tools/list to an OpenAI-compatible chat-completions
// endpoint, decodes the model's answer defensively, runs the requested tool calls through the
// registry (source "model", mode "agent", one sessionId per run, the provider's call id kept)
// and feeds their serialized results back, for at most MaxTurns turns and MaxToolCalls calls.
//
// The package is core: HTTP goes through the Transport port (Request/Response as plain bytes),
// sleeping and the clock through Options.Sleep / Options.Now, so it builds for GOOS=js and
// GOOS=wasip1 and its tests run natively with a fake clock. It never imports net/http.
//
// # The API key
//
// The key is an input, never state: Config.APIKey, when set, becomes the Authorization header
// of the chat request (the browser build, where the key lives in the page: wasm/studio's
// OpenRouterOptions.APIKey supplier reads it from the provider settings when a run starts, so
// it never travels in JSON-RPC params, and wasm/adapters/fetch contacts only the configured
// endpoint's origin). Headless, the
// wasip1 module leaves it empty and the host transport adds the header from
// OPENROUTER_API_KEY itself (SPEC §3; for the OpenRouter origin only, any other endpoint's key
// coming from WEBCODING_ENDPOINT_API_KEY), so the key never enters the module. Either way the key
// is never logged, never put in an error, a notice, a report or a tool payload; text that
// comes back from the network is scrubbed of it before it is shown.
//
// # Streamed answers, usage and budgets (issue 16)
//
// With Config.Stream the request asks for server-sent events ("stream": true,
// "stream_options": {"include_usage": true}, Accept: text/event-stream) and StreamDecoder
// reads the answer: WHATWG event-stream framing (comments such as ": OPENROUTER PROCESSING"
// skipped, data lines joined, "[DONE]"), assistant text to Options.OnText as it arrives,
// tool-call deltas assembled by index, the usage-only last chunk read. Calls come only from a
// complete answer (a finish_reason arrived) and pass DecodeResponse's own validation, so a
// truncated argument string is never run and never becomes {}; a cut stream, an error event
// after HTTP 200 and [DONE] without a finish_reason are typed, retryable failures; malformed
// chunks and exceeded bounds (MaxStreamLineBytes, MaxStreamBytes, MaxStreamCalls, enforced by
// checkBound) are OPENROUTER_INVALID_RESPONSE. A StreamTransport is read as the bytes arrive
// (cancellation closes the body at once); any other transport's streamed body is decoded
// whole. An endpoint that answers a streamed request with one JSON object is read as a plain
// answer. Without Config.Stream nothing changes.
//
// Usage is read from every answer, streamed or not, and totalled per turn and per run
// (Report.TurnUsage, Report.Usage); Options.Budget stops the run before its next request once
// the reported tokens or cost reach it (OPENROUTER_BUDGET_EXCEEDED).
//
// Layering: this package sits above the registry (it imports registry, planner and provider,
// and runs every tool call through registry.Call); the registry and everything below it must
// never import it. It lived under wasm/provider until issue 19, which made the registry →
// provider arrow point back up.
//
// # Files
//
//   - transport.go: the Transport port and its Request/Response; StreamTransport.
//   - request.go: Config, messages and the chat-completions request body.
//   - decode.go: DecodeResponse, the validating response decoder, and argument parsing.
//   - sse.go: the server-sent event framing (WHATWG rules).
//   - stream.go: StreamDecoder (streamed answers, tool-call delta assembly) and the stream bounds.
//   - usage.go: Usage (parsing and totals) and Budget.
//   - status.go: HTTP status classes, error excerpts, Retry-After and the backoff schedule.
//   - serialize.go: SerializeResult, a canonical result as the provider sees it.
//   - loop.go: Run, the turn loop, budgets, retries and the Report.
//   - models.go: the model catalog (models endpoint query and parsing).
//
// Owns: the OpenRouter provider loop: requests, response decoding, retries and the turn loop over
// the registry.
//
// Must never: import studio, an adapter or an entry, or do network I/O itself (it goes through its
// Transport port) (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package openrouter
