package openrouter

import (
	"errors"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxEndpointChars bounds an endpoint URL (bytes).
const MaxEndpointChars = 2048

// MaxAPIKeyChars bounds an API key (bytes).
const MaxAPIKeyChars = 512

// MaxModelChars bounds a model id (bytes).
const MaxModelChars = 2048

// CheckModel is the one model-id rule of agent/openrouter's "model" param and the pages that
// set a model (the surface pages' chat): a model id is not blank, at most MaxModelChars bytes,
// valid UTF-8 and free of control characters (C0, DEL, C1: no provider names a model with
// them, and a NUL or line break would reach the request body and the transcript). Any other
// text is the server's to judge (an unknown id fails the run with the server's error). The
// message never repeats the id.
func CheckModel(model string) error {
	if strings.TrimSpace(model) == "" {
		return errors.New("the model id is empty")
	}
	if len(model) > MaxModelChars {
		return errors.New("the model id is longer than 2048 characters")
	}
	if !utf8.ValidString(model) {
		return errors.New("the model id is not valid UTF-8")
	}
	for _, r := range model {
		if unicode.IsControl(r) {
			return errors.New("the model id contains a control character")
		}
	}
	return nil
}

// NormalizeEndpoint is the one endpoint validator of the settings dialog and the
// agent/openrouter method (REFERENCE §3.3). It parses raw (surrounding space trimmed) with
// net/url and returns it with the scheme and host lower-cased: "HTTP://Host:1/p" →
// "http://host:1/p". It refuses, with a message fit for the user that never repeats the URL
// (it may hold credentials): a blank or over-long value, a URL that does not parse, a scheme
// other than http/https (case-insensitive), a missing host, and user information
// ("user:pw@host": a credential in the URL would be sent to the host and echoed by errors;
// the key belongs in the API key field), and plain http to a host that is not loopback
// (IsLoopback; docs/design.md §5.16): the key and the workspace would cross the network
// unencrypted, and from the https studio page the browser blocks it anyway. A base URL whose
// path ends in /v1 ("http://127.0.0.1:1234/v1", what LM Studio shows) is completed to its
// chat-completions URL (…/v1/chat/completions); EndpointCompletion gives the note to show.
func NormalizeEndpoint(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("the endpoint is empty")
	}
	if len(raw) > MaxEndpointChars {
		return "", errors.New("the endpoint is longer than 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", errors.New("the endpoint is not a valid URL")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errors.New("the endpoint must be an http(s) URL")
	}
	if u.User != nil {
		return "", errors.New("the endpoint must not contain a user name or password (user:password@): the key goes in the provider settings' API key field (CLI: in OPENROUTER_API_KEY)")
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", errors.New("the endpoint must name a host")
	}
	u.Host = strings.ToLower(u.Host)
	if isBaseURL(u.Path) {
		u.Path = strings.TrimRight(u.Path, "/") + "/chat/completions"
		u.RawPath = ""
	}
	if u.Scheme == "http" && !IsLoopback(u.String()) {
		return "", errors.New("plain http is only allowed to this computer (127.0.0.1, [::1], localhost): use https for a remote endpoint, since the API key and your files would otherwise travel unencrypted (and the https studio page cannot reach plain http hosts)")
	}
	return u.String(), nil
}

// isBaseURL reports whether path is an OpenAI-compatible base URL's path: its last segment is
// "v1" ("/v1", "/v1/", "/api/v1"), what LM Studio and Ollama display as the server address.
func isBaseURL(path string) bool {
	p := strings.TrimRight(path, "/")
	return p == "/v1" || strings.HasSuffix(p, "/v1")
}

// EndpointCompletion returns the note to show when NormalizeEndpoint completed raw, a base URL
// ending in /v1, to its chat-completions URL norm; "" when raw was not completed (or is
// refused). The note names the URL it was completed to (norm holds no credentials: those are
// refused).
func EndpointCompletion(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !isBaseURL(u.Path) {
		return ""
	}
	norm, err := NormalizeEndpoint(raw)
	if err != nil {
		return ""
	}
	return "The endpoint ended in /v1 (a server's base URL); it was completed to the chat-completions URL " + norm + "."
}

// CheckAPIKey refuses an API key that cannot travel in an HTTP header: space or control
// characters, characters outside printable ASCII (browsers refuse header values beyond
// Latin-1, and provider keys are ASCII), or more than MaxAPIKeyChars bytes. "" is accepted
// (no key: the local agent answers). The message never repeats the key.
func CheckAPIKey(key string) error {
	if len(key) > MaxAPIKeyChars {
		return errors.New("the API key is longer than 512 characters")
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			return errors.New("the API key must not contain spaces or line breaks")
		case c < 0x21 || c > 0x7e:
			return errors.New("the API key must contain only printable ASCII characters (letters, digits, - and _): check that it was copied completely and nothing else was")
		}
	}
	return nil
}
