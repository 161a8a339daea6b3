// Package httpclient is the host's HTTP transport for the provider loop (SPEC §3 `agent
// --provider openrouter`): a net/http implementation of openrouter.Transport that adds
// "Authorization: Bearer <key>" itself and contacts only the origins it is given, so the API
// key never has to enter the wasm module and is never sent anywhere but the configured
// endpoint.
//
// Guarantees: the key is set on requests to an allowed origin only; a request to any other
// origin, or a redirect that leaves the request's origin, is refused before anything is sent;
// any Authorization header the caller set is replaced (or removed when there is no key); error
// messages never contain the key; response bodies are read whole, bounded by MaxResponseBytes.
//
// This package is host code (net/http); the core never imports it. host/wasmhost uses it
// behind the webcoding.http_do host function, host/fakeprovider re-exports it for tests.
//
// Owns: the host's provider transport: key injection, the origin allowlist, bounded bodies.
//
// Must never: send the key to any origin but the allowed ones, put it into an error, or follow
// a redirect off the request's origin.
package httpclient
