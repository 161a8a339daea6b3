package mcpserver

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPHandler serves s over the Streamable HTTP transport (one endpoint; every session shares
// s's core, hence one workspace), behind OriginGuard. The SDK's own DNS-rebinding protection
// (a request reaching a loopback address with a non-loopback Host header gets 403) stays on.
func (s *Server) HTTPHandler() http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk },
		&sdk.StreamableHTTPOptions{Logger: s.log})
	return OriginGuard(h)
}

// OriginGuard answers 403 Forbidden to a request whose Origin header is present and is not a
// loopback origin: http or https with host localhost, an IPv4 127.0.0.0/8 address or [::1]
// (MCP "Transports", Streamable HTTP security warning: servers MUST validate Origin; if it is
// present and invalid, 403). A request without Origin (not from a browser) passes. "null" and
// any other origin, including a page on this machine served under another name, are refused.
func OriginGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origins := r.Header.Values("Origin")
		if len(origins) > 1 {
			http.Error(w, "Forbidden: more than one Origin header", http.StatusForbidden)
			return
		}
		if len(origins) == 1 && !LoopbackOrigin(origins[0]) {
			http.Error(w, fmt.Sprintf("Forbidden: origin %q may not use this MCP server (only loopback origins may)", origins[0]), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// LoopbackOrigin reports whether origin (an Origin header value) is scheme://host[:port] with
// scheme http or https and a loopback host, and nothing else (no path, user or query).
func LoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return false
	}
	return loopbackHost(u.Hostname())
}

func loopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// ListenAddr resolves an --http address: a bare port or ":PORT" binds 127.0.0.1; an explicit
// host is kept. loopback reports whether the address is a loopback one.
//
// Errors: the address is not host:port or PORT.
func ListenAddr(addr string) (resolved string, loopback bool, err error) {
	if addr == "" {
		return "", false, fmt.Errorf("empty address")
	}
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", false, err
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), loopbackHost(host), nil
}
