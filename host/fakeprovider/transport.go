package fakeprovider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/webcoding/studio/wasm/provider/openrouter"
)

// MaxResponseBytes bounds the body an HTTPTransport reads (8 MiB); a larger body is cut and
// the decoder then refuses it as invalid JSON.
const MaxResponseBytes = 8 << 20

// HTTPTransport performs openrouter.Requests with net/http. When APIKey is non-empty it sets
// "Authorization: Bearer <APIKey>" on requests to the configured origin only: AllowedOrigins
// lists the scheme://host[:port] origins it will contact (empty: any origin), so a key is
// never sent anywhere else. Errors never contain the key.
type HTTPTransport struct {
	Client         *http.Client // nil: http.DefaultClient
	APIKey         string
	AllowedOrigins []string
}

// Do performs req under ctx and reads the whole response body (bounded by MaxResponseBytes).
func (t HTTPTransport) Do(ctx context.Context, req openrouter.Request) (openrouter.Response, error) {
	hr, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return openrouter.Response{}, fmt.Errorf("invalid request URL")
	}
	origin := hr.URL.Scheme + "://" + hr.URL.Host
	if len(t.AllowedOrigins) > 0 && !contains(t.AllowedOrigins, origin) {
		return openrouter.Response{}, fmt.Errorf("origin %s is not the configured endpoint", origin)
	}
	for k, v := range req.Header {
		hr.Header.Set(k, v)
	}
	if t.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+t.APIKey)
	}
	c := t.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(hr)
	if err != nil {
		return openrouter.Response{}, scrub(err, t.APIKey)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes))
	if err != nil {
		return openrouter.Response{}, scrub(err, t.APIKey)
	}
	h := make(map[string]string, len(resp.Header))
	for k := range resp.Header {
		h[k] = resp.Header.Get(k)
	}
	return openrouter.Response{Status: resp.StatusCode, Header: h, Body: body}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func scrub(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), key, "[api key redacted]"))
}
