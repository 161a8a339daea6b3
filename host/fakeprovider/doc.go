// Package fakeprovider is a local stand-in for the OpenRouter API (SPEC §4): an httptest
// server that answers each request with the next step of a script — a status, headers and a
// body, usually one of the constructed response bodies under testdata/ — and checks what it
// received (the Authorization header, provider-legal tool names, no "$schema", the request
// shape of REFERENCE §7.5). Malformed bodies are part of the point: proxies' HTML error pages,
// bodies that are not JSON, error objects inside a 200, truncated tool-call arguments.
//
// Browser pages call it across origins like they call OpenRouter: every answer allows the
// caller's Origin and exposes Retry-After, and CORS preflights (OPTIONS) are answered for
// Authorization, Content-Type, HTTP-Referer and X-Title without using a step (Preflights counts
// them). Options.Models serves the catalog at any time without a step; ChatRequests lists the
// POSTs only; Aborted tells when a client gave up on a Hang step (a cancelled fetch).
//
// Streamed answers (issue 16) are replayed byte for byte from the .sse files in testdata/,
// split where the test chooses (Step.Cuts, Step.CutEvery, Offset: inside a UTF-8 sequence,
// inside a JSON string), each piece flushed on its own after Step.ChunkDelay; HangAfter keeps
// the stream open after its last byte.
//
// The bodies in testdata/ were written by hand (the .sse streams generated once by a small
// script) in the shape OpenRouter documents for chat-completions, streamed chunks and models
// responses; nothing was recorded from the real service.
//
// HTTPTransport is the net/http implementation of openrouter.Transport that hosts use: it
// adds "Authorization: Bearer <key>" itself, so the key never has to enter the wasm module.
//
// This package is host code (net/http); the core never imports it.
//
// Owns: the scripted OpenRouter stand-in (steps, models catalog, the requests it saw).
//
// Must never: contact the real service, or be reached from the core.
package fakeprovider
