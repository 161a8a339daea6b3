// Package rpcsession is the studio's JSON-RPC 2.0 session dispatcher: request bytes in,
// response bytes out, dispatched to the session's registry, approval queue and methods. (The
// byte ABI the wasip1 host calls — exports, memory, host functions — is wasm/cmd/reactor; this
// package only sees []byte.) Both hosts — the wasip1 reactor under wazero and the js build in
// the page — call Handler.Handle and nothing else, so one set of conformance vectors runs
// unchanged on every host (SPEC §4).
//
// # Methods
//
//   - tools/list {cursor?} → {tools, nextCursor?}; an explicit null params is refused
//   - tools/call {name, arguments?, _meta?} → the canonical CallToolResult; malformed params
//     are a TOOL_VALIDATION_FAILED result, not a JSON-RPC error (REFERENCE §3.1)
//   - approvals/list → {approvals: [...]} (newest first)
//   - approvals/resolve {id, decision: "allow"|"deny"} → {resolved: true}
//   - approvals/denyAll → {denied: n}
//   - approvals/approveRun {id} → {approved: n}: "Approve all for this run" (registry
//     ApproveRun): id and the other pending calls of its prompt run are allowed, and so are
//     the run's later calls; an unknown id or one outside a run is -32602
//   - session/configure Config → {configured: true}: rebuilds the session (registry and
//     approval queue) from the host's configuration
//   - ping → {}
//   - any method in Session.Methods (operations that are not tools, SPEC §2.11)
//   - notifications/cancelled {requestId, reason?} (MCP cancellation): cancels that in-flight
//     request; within a batch every id is registered before any element runs
//
// A batch (JSON array) is handled concurrently, one goroutine per element, and answered in
// request order; notifications get no response. JSON-RPC errors are used only for framing:
// parse error (-32700, also for non-UTF-8 bytes, repeated keys and nesting deeper than
// mcp.MaxJSONDepth), invalid request (-32600, also over MaxRequestBytes), method not found
// (-32601), invalid params (-32602).
//
// Owns: the JSON-RPC session dispatcher: request bytes in, response bytes out, over one session's
// registry, approval queue and methods; session configuration.
//
// Must never: import studio, an adapter or an entry, or know the byte ABI of a host
// (wasm/cmd/reactor owns that) (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package rpcsession

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
)

// MaxRequestBytes bounds one request (or batch) in bytes: 32 MiB, above the 12 MiB import
// budget with JSON overhead (REFERENCE §4). Larger input is refused with -32600.
const MaxRequestBytes = 32 << 20

// MaxBatch bounds the elements of one batch.
const MaxBatch = 1000

// Session is what one configuration assembles: the registry and, when approvals are
// interactive, the queue that holds them.
type Session struct {
	Registry  *registry.Registry
	Approvals *registry.ApprovalQueue // nil when approvals are not interactive
	// Methods are extra JSON-RPC methods of this session (e.g. "agent/run", "preview/compile"):
	// core operations that are not tools (SPEC §2.11). They cannot shadow the built-in methods.
	Methods map[string]Method
}

// Method answers one extra JSON-RPC method. params is the raw params member (nil when
// absent). A returned *jsonrpc.Error is sent as is; use CodeInvalidParams for bad params.
type Method func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error)

// Builder assembles a Session from a Config. It is the assembly function of the entry
// (studio.Assemble supplies it). ctx bounds the assembly's own I/O (the workspace load from
// the Repository, the folder import): the entry's context for the first session, the
// session/configure request's context for a rebuild. The session it returns does not keep
// ctx.
type Builder func(ctx context.Context, cfg Config) (*Session, error)

// Handler answers JSON-RPC 2.0 requests against the current session. It is safe for
// concurrent use and never panics.
type Handler struct {
	build Builder
	mu    sync.RWMutex
	sess  *Session

	buildErr error // why sess is nil

	flightMu sync.Mutex
	inflight map[string]context.CancelFunc // request id (raw JSON) → cancel
}

// New returns a Handler whose first session is build(ctx, Config{}); a failure is kept for
// Err (every request but session/configure and ping then answers CodeSessionUnavailable).
func New(ctx context.Context, build Builder) *Handler {
	h := &Handler{build: build, inflight: map[string]context.CancelFunc{}}
	h.sess, h.buildErr = build(ctx, Config{})
	return h
}

// CodeSessionUnavailable is the JSON-RPC error code (in the implementation-defined server
// range, JSON-RPC 2.0 §5.1) of every request while no session could be built — e.g. the
// linked folder has no supported file. session/configure may still build one.
const CodeSessionUnavailable = -32001

// Err reports why the current session could not be built (nil when it was).
func (h *Handler) Err() error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.buildErr
}

// Session returns the current session (nil when it could not be built; see Err).
func (h *Handler) Session() *Session {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.sess
}

// Handle answers one JSON-RPC 2.0 request or batch. It returns nil for a notification (or a
// batch of only notifications).
func (h *Handler) Handle(ctx context.Context, req []byte) (out []byte) {
	defer func() {
		if v := recover(); v != nil {
			out = encode(errorResponse(jsonrpc.Null, jsonrpc.CodeInternalError, fmt.Sprintf("internal error: %v", v), nil))
		}
	}()
	if len(req) > MaxRequestBytes {
		return encode(errorResponse(jsonrpc.Null, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("request is %d bytes, over the limit of %d", len(req), MaxRequestBytes), nil))
	}
	if err := mcp.CheckJSON(req); err != nil {
		return encode(errorResponse(jsonrpc.Null, jsonrpc.CodeParseError, "parse error: "+err.Error(), nil))
	}
	trimmed := bytes.TrimSpace(req)
	if trimmed[0] != '[' {
		return h.one(ctx, trimmed, true)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(trimmed, &items); err != nil || len(items) == 0 {
		return encode(errorResponse(jsonrpc.Null, jsonrpc.CodeInvalidRequest, "invalid request: empty batch", nil))
	}
	if len(items) > MaxBatch {
		return encode(errorResponse(jsonrpc.Null, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("batch has %d requests, over the limit of %d", len(items), MaxBatch), nil))
	}
	resps := make([][]byte, len(items))
	// Register every element's id before any runs, so that a notifications/cancelled later in
	// the same batch always finds the request it names.
	ctxs := make([]context.Context, len(items))
	for i, it := range items {
		var done func()
		ctxs[i], done = h.track(ctx, it)
		defer done()
	}
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Add(1)
		go func() {
			ctx := ctxs[i]
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					resps[i] = encode(errorResponse(jsonrpc.Null, jsonrpc.CodeInternalError, fmt.Sprintf("internal error: %v", v), nil))
				}
			}()
			resps[i] = h.one(ctx, it, false)
		}()
	}
	wg.Wait()
	var b bytes.Buffer
	b.WriteByte('[')
	n := 0
	for _, r := range resps {
		if r == nil {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(r)
		n++
	}
	if n == 0 {
		return nil
	}
	b.WriteByte(']')
	return b.Bytes()
}

var requestKeys = []string{"jsonrpc", "id", "method", "params"}

// one answers a single request object (already through mcp.CheckJSON) with its encoded
// response, or nil for a notification. With track, the request's id is registered for
// notifications/cancelled while it runs (batch elements are registered by Handle).
func (h *Handler) one(ctx context.Context, raw []byte, track bool) []byte {
	if mcp.JSONKind(raw) != "object" {
		return encode(errorResponse(jsonrpc.Null, jsonrpc.CodeInvalidRequest, "invalid request: expected a JSON object, got "+mcp.JSONKind(raw), nil))
	}
	var version, method, id, params []byte
	var unknown string
	mcp.EachMember(raw, func(k, v []byte) bool {
		switch string(k) {
		case "jsonrpc":
			version = v
		case "id":
			id = v
		case "method":
			method = v
		case "params":
			params = v
		default:
			unknown = string(k)
			return false
		}
		return true
	})
	if unknown != "" {
		return encode(errorResponse(jsonrpc.Null, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("invalid request: unknown field %q (allowed: %v)", unknown, requestKeys), nil))
	}
	hasID := id != nil
	if hasID {
		if k := mcp.JSONKind(id); k != "string" && k != "number" && k != "null" {
			return encode(errorResponse(jsonrpc.Null, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string, number or null", nil))
		}
	} else {
		id = jsonrpc.Null
	}
	if string(version) != `"2.0"` {
		return encode(errorResponse(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, nil))
	}
	var name string
	if mcp.JSONKind(method) != "string" || json.Unmarshal(method, &name) != nil || name == "" {
		return encode(errorResponse(id, jsonrpc.CodeInvalidRequest, `invalid request: "method" must be a non-empty string`, nil))
	}
	if track && hasID && mcp.JSONKind(id) != "null" {
		var done func()
		ctx, done = h.trackID(ctx, string(id))
		defer done()
	}
	result, rerr := h.dispatch(ctx, name, params, params != nil)
	if !hasID {
		return nil
	}
	if rerr != nil {
		return encode(&jsonrpc.Response{JSONRPC: jsonrpc.Version, ID: id, Error: rerr})
	}
	// The result is JSON this package produced: wrap it without re-validating it.
	b := make([]byte, 0, len(result)+len(id)+36)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}

func (h *Handler) dispatch(ctx context.Context, method string, params json.RawMessage, hasParams bool) (json.RawMessage, *jsonrpc.Error) {
	h.mu.RLock()
	sess, buildErr := h.sess, h.buildErr
	h.mu.RUnlock()
	if sess == nil && method != "session/configure" && method != "ping" && method != "notifications/cancelled" {
		return nil, &jsonrpc.Error{Code: CodeSessionUnavailable, Message: "no session: " + trimPrefix(buildErr)}
	}
	switch method {
	case mcp.MethodToolsList:
		p, terr := mcp.ParseListToolsParams(params, hasParams)
		if terr != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: mcp.ToolErrorOf(terr).Message, Data: terr}
		}
		res, terr := sess.Registry.ListTools(ctx, p)
		if terr != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: mcp.ToolErrorOf(terr).Message, Data: terr}
		}
		return marshal(res)
	case mcp.MethodToolsCall:
		if !hasParams {
			params = []byte("null")
		}
		out, err := mcp.AppendCallToolResult(nil, sess.Registry.CallRawChecked(ctx, params))
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "result is not serializable: " + err.Error()}
		}
		return out, nil
	case "approvals/list":
		if sess.Approvals == nil {
			return marshal(map[string]any{"approvals": []registry.Approval{}})
		}
		return marshal(map[string]any{"approvals": sess.Approvals.Snapshot()})
	case "approvals/resolve":
		return h.resolve(sess, params)
	case "approvals/approveRun":
		return h.approveRun(sess, params)
	case "approvals/denyAll":
		n := 0
		if sess.Approvals != nil {
			n = sess.Approvals.DenyAll()
		}
		return marshal(map[string]any{"denied": n})
	case "session/configure":
		cfg, err := ParseConfig(params)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: trimPrefix(err)}
		}
		s, err := h.build(ctx, cfg)
		if err == nil && ctx.Err() != nil {
			// Cancelled while assembling: the new session may have loaded only part of its
			// state, so the current one stays.
			err = fmt.Errorf("session/configure cancelled: %w", ctx.Err())
		}
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: trimPrefix(err)}
		}
		h.mu.Lock()
		old := h.sess
		h.sess, h.buildErr = s, nil
		h.mu.Unlock()
		if old != nil && old.Approvals != nil {
			old.Approvals.DenyAll()
		}
		return marshal(map[string]any{"configured": true})
	case "ping":
		return json.RawMessage("{}"), nil
	case "notifications/cancelled":
		h.cancel(params)
		return json.RawMessage("{}"), nil
	}
	if m, ok := sess.Methods[method]; ok {
		v, rerr := m(ctx, params)
		if rerr != nil {
			return nil, rerr
		}
		return marshal(v)
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method %q not found", method)}
}

func (h *Handler) resolve(sess *Session, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	m, err := mcp.DecodeObject(params, []string{"id", "decision"}, nil)
	var id, decision string
	if err == nil && (json.Unmarshal(m["id"], &id) != nil || json.Unmarshal(m["decision"], &decision) != nil) {
		err = errors.New("id and decision must be strings")
	}
	if err == nil && decision != "allow" && decision != "deny" {
		err = errors.New(`decision must be "allow" or "deny"`)
	}
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "approvals/resolve: " + trimPrefix(err)}
	}
	if sess.Approvals == nil || sess.Approvals.Resolve(id, decision == "allow") != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("approvals/resolve: no pending approval %q", id)}
	}
	return marshal(map[string]any{"resolved": true})
}

func (h *Handler) approveRun(sess *Session, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	m, err := mcp.DecodeObject(params, []string{"id"}, nil)
	var id string
	if err == nil && json.Unmarshal(m["id"], &id) != nil {
		err = errors.New("id must be a string")
	}
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "approvals/approveRun: " + trimPrefix(err)}
	}
	if sess.Approvals == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("approvals/approveRun: no pending approval %q", id)}
	}
	n, aerr := sess.Approvals.ApproveRun(id)
	if aerr != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("approvals/approveRun %q: %s", id, trimPrefix(aerr))}
	}
	return marshal(map[string]any{"approved": n})
}

// track registers a request's id as in flight; done unregisters it. Requests without a
// usable id are not tracked.
func (h *Handler) track(ctx context.Context, raw []byte) (context.Context, func()) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &probe) != nil || len(probe.ID) == 0 || mcp.JSONKind(probe.ID) == "null" {
		return ctx, func() {}
	}
	return h.trackID(ctx, string(probe.ID))
}

// trackID registers key (a request id as raw JSON) as in flight.
func (h *Handler) trackID(ctx context.Context, key string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	h.flightMu.Lock()
	if _, dup := h.inflight[key]; dup {
		h.flightMu.Unlock()
		return ctx, cancel
	}
	h.inflight[key] = cancel
	h.flightMu.Unlock()
	return ctx, func() {
		h.flightMu.Lock()
		delete(h.inflight, key)
		h.flightMu.Unlock()
		cancel()
	}
}

// cancel handles notifications/cancelled {requestId, reason?} (MCP "Cancellation"): the named
// in-flight request's context is cancelled; an unknown id is ignored, as MCP requires.
func (h *Handler) cancel(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	h.flightMu.Lock()
	c := h.inflight[string(p.RequestID)]
	h.flightMu.Unlock()
	if c != nil {
		c()
	}
}

func errorResponse(id json.RawMessage, code int, msg string, data any) *jsonrpc.Response {
	return &jsonrpc.Response{JSONRPC: jsonrpc.Version, ID: id, Error: &jsonrpc.Error{Code: code, Message: msg, Data: data}}
}

func marshal(v any) (json.RawMessage, *jsonrpc.Error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "result is not serializable: " + err.Error()}
	}
	return b, nil
}

func encode(r *jsonrpc.Response) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(errorResponse(jsonrpc.Null, jsonrpc.CodeInternalError, "response is not serializable", nil))
	}
	return b
}

func trimPrefix(err error) string {
	s := err.Error()
	for _, p := range []string{"mcp: ", "rpcsession: "} {
		if len(s) > len(p) && s[:len(p)] == p {
			return s[len(p):]
		}
	}
	return s
}
