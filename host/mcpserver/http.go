package mcpserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is the Streamable HTTP endpoint. "/" serves the same endpoint too (the address
// `webcoding mcp --http` printed before /mcp existed); every other path is 404.
const HTTPPath = "/mcp"

// HTTPHandler serves s over the Streamable HTTP transport (one endpoint, HTTPPath and "/";
// every session shares s's core, hence one workspace), behind OriginGuard. The SDK's own
// DNS-rebinding protection (a request reaching a loopback address with a non-loopback Host
// header gets 403) stays on.
//
// Refused before the SDK sees them:
//   - a path other than HTTPPath or "/": 404
//   - a request that arrived on a non-loopback local address while Options.AllowRemote is
//     false: 403 (the server has no authentication; see Server.Listen)
//   - a POST body that is a JSON array (a batch, removed in MCP 2025-06-18): 400 with a
//     JSON-RPC error object, code -32600, id null
func (s *Server) HTTPHandler() http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk },
		&sdk.StreamableHTTPOptions{Logger: s.log})
	return OriginGuard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != HTTPPath && r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		if !s.opts.AllowRemote {
			if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && !loopbackAddr(a) {
				http.Error(w, "Forbidden: this MCP server has no authentication and serves loopback connections only", http.StatusForbidden)
				return
			}
		}
		if r.Method == http.MethodPost && r.Body != nil {
			br := bufio.NewReader(r.Body)
			if firstNonSpace(br) == '[' {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed batching); send one message per request."}}`+"\n")
				return
			}
			r.Body = struct {
				io.Reader
				io.Closer
			}{br, r.Body}
		}
		h.ServeHTTP(w, r)
	}))
}

// firstNonSpace peeks at the first byte after JSON whitespace without consuming anything
// else (0 at end of input or on a read error).
func firstNonSpace(br *bufio.Reader) byte {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			_, _ = br.ReadByte()
		default:
			return b[0]
		}
	}
}

func loopbackAddr(a net.Addr) bool {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.IsLoopback()
	}
	host, _, err := net.SplitHostPort(a.String())
	return err == nil && loopbackHost(host)
}

// Listen resolves an --http address with ListenAddr and listens on it with TCP.
//
// Errors: the address is malformed; it is not a loopback address and Options.AllowRemote is
// false (the message names FlagNames.AllowRemote: the server has no authentication, so any
// host that reaches the port could edit the workspace); the port cannot be bound.
func (s *Server) Listen(addr string) (net.Listener, error) {
	resolved, loopback, err := ListenAddr(addr)
	if err != nil {
		return nil, err
	}
	if !loopback && !s.opts.AllowRemote {
		return nil, fmt.Errorf("%s is not a loopback address; this MCP server has no authentication, so any host that can reach it could edit the workspace: bind 127.0.0.1, or pass %s to serve it anyway", resolved, s.opts.Flags.AllowRemote)
	}
	return net.Listen("tcp", resolved)
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
