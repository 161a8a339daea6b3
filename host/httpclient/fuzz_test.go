package httpclient

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzOrigin: Origin never panics; when it accepts a URL, the origin is lower-case
// http(s)://host, the Transport allows exactly that origin (case-insensitively), and Redact
// keeps no query or userinfo.
func FuzzOrigin(f *testing.F) {
	for _, s := range []string{"https://openrouter.ai/api/v1/chat/completions", "http://127.0.0.1:8080/x?k=v",
		"HTTPS://A.b:1/", "https://u:p@h/x#f", "ftp://x", "", "::", "http://[::1]:80/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		o, err := Origin(raw)
		r := Redact(raw)
		if err != nil {
			return
		}
		if o != strings.ToLower(o) || !(strings.HasPrefix(o, "http://") || strings.HasPrefix(o, "https://")) {
			t.Fatalf("Origin(%q) = %q", raw, o)
		}
		tr := Transport{AllowedOrigins: []string{strings.ToUpper(o)}}
		if !tr.Allowed(o) {
			t.Fatalf("%q not allowed by its own origin", o)
		}
		if u, err := url.Parse(r); err == nil && (u.User != nil || u.RawQuery != "") {
			t.Fatalf("Redact(%q) = %q keeps userinfo or query", raw, r)
		}
	})
}
