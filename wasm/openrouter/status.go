package openrouter

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
)

// Retry and timing limits (REFERENCE §4).
const (
	// MaxRetries is how many times one turn's request is retried after a transient failure
	// (network error, timeout, 429, 5xx).
	MaxRetries = 2
	// BaseBackoff is the first retry delay; attempt n waits min(BaseBackoff × 2^n, MaxBackoff).
	BaseBackoff = 350 * time.Millisecond
	// MaxBackoff caps every retry delay, Retry-After included.
	MaxBackoff = 4 * time.Second
	// RequestTimeout bounds one HTTP attempt (OPENROUTER_TIMEOUT when it expires).
	RequestTimeout = 20 * time.Second
	// ExcerptChars bounds the whitespace-collapsed excerpt of a non-JSON error body.
	ExcerptChars = 240
)

// Backoff is the delay before retry number attempt+1 (attempt counts from 0):
// min(BaseBackoff × 2^attempt, MaxBackoff), or retryAfter when it is positive, capped at
// MaxBackoff.
func Backoff(attempt int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, MaxBackoff)
	}
	if attempt < 0 {
		attempt = 0
	}
	if attempt > 10 {
		return MaxBackoff
	}
	return min(BaseBackoff<<attempt, MaxBackoff)
}

// RetryAfter parses a Retry-After header value: delta seconds (non-negative integer or
// decimal) or an HTTP-date, as a delay from now. It returns 0 for a missing, malformed or past
// value. The result is not capped (Backoff caps it).
func RetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if !(f > 0) { // also NaN
			return 0
		}
		return time.Duration(min(f, 86400) * float64(time.Second))
	}
	for _, layout := range []string{time.RFC1123, time.RFC1123Z, time.RFC850, time.ANSIC} {
		if t, err := time.Parse(layout, v); err == nil {
			if d := t.Sub(now); d > 0 {
				return d
			}
			return 0
		}
	}
	return 0
}

// Transient reports whether a failure with this code is retried within a turn (network
// error, timeout, 429, 5xx).
func Transient(code mcp.Code) bool {
	switch code {
	case mcp.CodeOpenRouterNetworkError, mcp.CodeOpenRouterTimeout, mcp.CodeOpenRouterRateLimited, mcp.CodeOpenRouterProviderError:
		return true
	}
	return false
}

// StatusError classifies an HTTP error status (REFERENCE §3.3):
// 401 → OPENROUTER_AUTHENTICATION_FAILED, 403 → OPENROUTER_ACCESS_DENIED,
// 429 → OPENROUTER_RATE_LIMITED (retryable), ≥ 500 (and 0, an error object without a status)
// → OPENROUTER_PROVIDER_ERROR (retryable), anything else → OPENROUTER_CONFIGURATION_ERROR
// (details.reason "tools_unsupported" and a message saying so when the provider's message
// says the model does not support tools; issue 16).
// detail is the provider's message or the body excerpt; details are {status, providerCode?}.
func StatusError(status int, detail, providerCode string) *mcp.ToolError {
	d := map[string]any{"status": status}
	if providerCode != "" {
		d["providerCode"] = providerCode
	}
	var code mcp.Code
	var what string
	retry := false
	switch {
	case status == 401:
		code, what = mcp.CodeOpenRouterAuthenticationFailed, "OpenRouter rejected the API key (HTTP 401)"
	case status == 403:
		code, what = mcp.CodeOpenRouterAccessDenied, "OpenRouter denied access (HTTP 403)"
	case status == 429:
		code, what, retry = mcp.CodeOpenRouterRateLimited, "OpenRouter rate limit reached (HTTP 429)", true
	case status >= 500 || status == 0:
		code, what, retry = mcp.CodeOpenRouterProviderError, "OpenRouter provider error", true
		if status != 0 {
			what += " (HTTP " + strconv.Itoa(status) + ")"
		}
	case toolsRefused(detail):
		// A model without tool calling (Ollama: "… does not support tools"; OpenRouter: "No
		// endpoints found that support tool use"): the studio cannot work with it at all.
		d["reason"] = "tools_unsupported"
		code, what = mcp.CodeOpenRouterConfigurationError, "The model does not support tool calls (HTTP "+strconv.Itoa(status)+"), which the studio needs to change files; pick a tool-capable model in the provider settings"
	case status == 400 && streamRefused(detail):
		// A server without streaming: say how to turn it off (issue 16).
		d["reason"] = "stream_unsupported"
		code, what = mcp.CodeOpenRouterConfigurationError, "OpenRouter request was refused (HTTP 400) because the server does not stream replies; turn \"Stream replies\" off in the provider settings (CLI: --stream=false)"
	default:
		code, what = mcp.CodeOpenRouterConfigurationError, "OpenRouter request was refused (HTTP "+strconv.Itoa(status)+"); check the endpoint and model"
	}
	if detail != "" {
		what += ": " + detail
	}
	return mcp.NewError(code, retry, d, "%s", what)
}

// inBody rewords terr, made by StatusError from an error object inside a 2xx answer (an error
// event after HTTP 200, or an error member in a 200 body): its "(HTTP n)" is the code the
// object carries, not the response's status, so it says "(error code n in an HTTP 200 answer)";
// details gain inBody: true. Code and retryability are unchanged (REFERENCE §3.3).
func inBody(terr *mcp.ToolError) *mcp.ToolError {
	if d, ok := terr.Details.(map[string]any); ok {
		d["inBody"] = true
		if n, ok := d["status"].(int); ok && n != 0 {
			terr.Message = strings.Replace(terr.Message, "(HTTP "+strconv.Itoa(n)+")", "(error code "+strconv.Itoa(n)+" in an HTTP 200 answer)", 1)
		}
	}
	return terr
}

// streamRefused reports whether a 400's message says the server cannot stream ("streaming is
// not supported", "stream not supported", "does not support streaming").
func streamRefused(detail string) bool {
	d := strings.ToLower(detail)
	return strings.Contains(d, "stream") && (strings.Contains(d, "not support") || strings.Contains(d, "unsupported"))
}

// toolsRefused reports whether a provider's refusal message says the model cannot use tools
// ("does not support tools", "support tool use", "tools are not supported", "tool calling is
// not supported"…).
func toolsRefused(detail string) bool {
	d := strings.ToLower(detail)
	return strings.Contains(d, "tool") && (strings.Contains(d, "support") || strings.Contains(d, "not allowed") || strings.Contains(d, "not available"))
}

// errorBodyDetail is the text an error body contributes to its message: the provider's
// error.message (and its code) when the body is a JSON error object, else a whitespace-
// collapsed excerpt of at most ExcerptChars characters (an HTML page from a proxy).
func errorBodyDetail(body []byte) (detail, providerCode string) {
	if mcp.CheckJSON(body) == nil && mcp.JSONKind(body) == "object" {
		var top map[string]json.RawMessage
		if json.Unmarshal(body, &top) == nil {
			if raw, ok := top["error"]; ok {
				pe := parseProviderError(raw, top["http_status"])
				return Excerpt(pe.Message, ExcerptChars), pe.Code
			}
		}
	}
	return Excerpt(string(body), ExcerptChars), ""
}

// Excerpt collapses every run of whitespace in s to one space, trims it, replaces invalid
// UTF-8, and cuts it to at most max characters (code points), ending with "…" when cut.
func Excerpt(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}
