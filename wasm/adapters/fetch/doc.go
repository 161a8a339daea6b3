//go:build js && wasm

// Package fetch is the browser's openrouter.Transport (SPEC §3 Transport port, REFERENCE
// §7.5): each provider request is one call of the page's fetch API, with an AbortController
// tied to the request's context, so cancelling a run (Escape, Cancel) or the loop's 20 s
// attempt deadline aborts the HTTP request itself, not just the wait for it.
//
// Guarantees:
//
//   - Only http(s) requests that Transport.Allowed accepts are fetched (the studio allows a
//     request with a key only to the saved endpoint's origin, and a key-less catalog request
//     also to the origin the settings dialog asked for); anything else is refused with
//     ErrOriginRefused before a request exists, so the Authorization header the loop sets
//     can reach no other origin.
//   - Redirects are refused (fetch's redirect: "error"): a redirect could leave the origin.
//     Cookies and HTTP authentication are never sent (credentials: "omit"); the HTTP cache is
//     bypassed (cache: "no-store").
//   - The body is read as bytes, chunk by chunk, and cut at MaxResponseBytes (the decoder
//     then refuses a cut JSON body as an invalid response).
//   - Error messages name the URL without its query and never contain a header value (so
//     never the key). A non-2xx status is a Response, not an error.
//   - Cross-origin responses expose only CORS-safelisted headers plus what the server lists
//     in Access-Control-Expose-Headers: a provider must expose Retry-After for the loop to
//     honour it (OpenRouter and host/fakeprovider do).
//
// Bindings go through github.com/hack-pad/safejs (a throwing JS call is an error, never a Go
// panic); Promises are awaited with jsbridge.Await from the calling goroutine, never from a
// JS callback. The package is js/wasm only; its tests run in Chromium
// (e2e/browser TestFetchAdapterInChromium, which passes the test server's URL as -fetch.base).
//
// Owns: the js fetch() Transport of wasm/openrouter.
//
// Must never: import an entry (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package fetch
