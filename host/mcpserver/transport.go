package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/webcoding/studio/wasm/mcp"
)

// DefaultMaxMessageBytes bounds one inbound stdio message (bytes, without the newline) when
// LineTransport.MaxMessageBytes is zero: 16 MiB, the SDK's own stdio default.
const DefaultMaxMessageBytes = 16 << 20

// LineTransport is the MCP stdio transport: one JSON-RPC message per line, UTF-8, no embedded
// newlines. Unlike the SDK's StdioTransport, a bad line does not end the session: it is
// answered with a JSON-RPC error response and reading goes on.
//
//   - more than MaxMessageBytes bytes: -32600 (id null); the line is skipped without being
//     held in memory
//   - invalid UTF-8, or not JSON: -32700 parse error (id null)
//   - a JSON array (batch): -32600 (id null); MCP 2025-06-18 removed batching
//   - JSON that is not a JSON-RPC 2.0 request, notification or response: -32600, with the
//     message's id when it has a usable one
//
// The transport also answers, without passing them to the SDK, the requests the SDK would
// answer with the non-standard JSON-RPC code 0 (see checkRequest): a request other than
// initialize or ping before initialize, and a second initialize: -32600; initialize without
// an object params, or tools/call params that are not {name: string, arguments?: object,
// _meta?: object}: -32602. Any other error response with code 0 that the SDK writes is sent
// with -32600 (-32602 for a params decoding failure, with a plain message instead of the Go
// type name).
//
// End of input (the client closed stdin) stops reading, but every request already read is
// still answered: Read reports io.EOF to the SDK only once every request it returned has a
// response written (or DrainTimeout passed, or the session is closed). Requests still
// unanswered then are dropped, and a line naming how many were answered and dropped goes to
// Log. Each core call is bounded by the host's own timeout (--host-timeout), so the drain
// ends even with DrainTimeout zero.
//
// Blank lines are skipped; a trailing "\r" is ignored. Close closes In when it is an
// io.Closer (and Out likewise) and unblocks a waiting Read.
type LineTransport struct {
	In              io.Reader
	Out             io.Writer
	MaxMessageBytes int
	// Log receives one line per refused message (nil: discarded).
	Log io.Writer
	// DrainTimeout bounds the wait at end of input for the answers to requests already read;
	// zero waits until every one is answered.
	DrainTimeout time.Duration

	// order, set by Server.Run, numbers the tools/call requests in the order they are read
	// (arrivals), so that the server runs them in that order.
	order *arrivals
}

// Connect implements sdk.Transport. Call it once per LineTransport.
func (t *LineTransport) Connect(context.Context) (sdk.Connection, error) {
	max := t.MaxMessageBytes
	if max <= 0 {
		max = DefaultMaxMessageBytes
	}
	log := t.Log
	if log == nil {
		log = io.Discard
	}
	c := &lineConn{out: t.Out, in: t.In, log: log, max: max, drain: t.DrainTimeout,
		lines: make(chan lineOrErr), closed: make(chan struct{}),
		pending: make(map[any]bool), answered: make(chan struct{}, 1),
		order: t.order, tickets: make(map[any]uint64)}
	go c.readLoop()
	return c, nil
}

type lineOrErr struct {
	msg jsonrpc.Message
	err error
}

type lineConn struct {
	in     io.Reader
	out    io.Writer
	log    io.Writer
	max    int
	lines  chan lineOrErr
	closed chan struct{}
	drain  time.Duration

	writeMu   sync.Mutex
	closeOnce sync.Once

	// Request bookkeeping (guarded by mu): the ids of requests handed to the SDK and not yet
	// answered, how many were answered, and the initialize state checkRequest enforces.
	mu          sync.Mutex
	pending     map[any]bool
	nAnswered   int
	initialized bool
	answered    chan struct{} // a pending request was answered (capacity 1)

	// order (nil: calls are not ordered) and the tickets of the tools/call requests read and
	// not yet answered, by id (guarded by mu).
	order   *arrivals
	tickets map[any]uint64
}

// readLoop reads lines and hands valid messages to Read; it answers bad lines itself.
func (c *lineConn) readLoop() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, tooLong, err := readLine(r, c.max)
		if tooLong > 0 {
			c.refuse(jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: the message is %d bytes; the limit is %d bytes.", tooLong, c.max), nil)
		} else if len(bytes.TrimSpace(line)) > 0 {
			if msg := c.decode(line); msg != nil {
				select {
				case c.lines <- lineOrErr{msg: msg}:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			select {
			case c.lines <- lineOrErr{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// decode returns the message of a line, or nil after answering a bad line.
func (c *lineConn) decode(line []byte) jsonrpc.Message {
	if !utf8.Valid(line) {
		c.refuse(jsonrpc.CodeParseError, "Parse error: the message is not valid UTF-8.", nil)
		return nil
	}
	if !json.Valid(line) {
		c.refuse(jsonrpc.CodeParseError, "Parse error: the message is not JSON.", nil)
		return nil
	}
	if t := bytes.TrimSpace(line); t[0] == '[' {
		c.refuse(jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per line.", nil)
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "" {
			err = errors.New("method is empty")
		}
	}
	if err != nil {
		c.refuse(jsonrpc.CodeInvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message: "+err.Error(), usableID(line))
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		if code, text := c.checkRequest(req); code != 0 {
			c.refuse(code, text, req.ID.Raw())
			return nil
		}
	}
	return msg
}

// checkRequest returns the JSON-RPC error (code and message) the transport answers req with,
// or code 0 to pass it to the SDK, which would answer these cases with code 0 (go-sdk v1.8.0)
// or with a message naming Go types. It records an accepted initialize.
//
// A request whose _meta carries the per-request protocol version (the sessionless protocol)
// is not gated on initialize: the SDK serves it without one.
func (c *lineConn) checkRequest(req *jsonrpc.Request) (int64, string) {
	var p map[string]json.RawMessage
	obj := len(req.Params) == 0 || json.Unmarshal(req.Params, &p) == nil && p != nil
	switch req.Method {
	case "initialize":
		if len(req.Params) == 0 || !obj {
			return jsonrpc.CodeInvalidParams, "Invalid params: initialize needs params {protocolVersion, capabilities, clientInfo}."
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.initialized {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: the session is already initialized; initialize may be sent once."
		}
		c.initialized = true
		return 0, ""
	case "ping":
		return 0, ""
	}
	c.mu.Lock()
	initialized := c.initialized
	c.mu.Unlock()
	if !initialized && !(obj && p["_meta"] != nil && bytes.Contains(p["_meta"], []byte(`"io.modelcontextprotocol/protocolVersion"`))) {
		return jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %q before initialize; send initialize first.", req.Method)
	}
	if !obj {
		return jsonrpc.CodeInvalidParams, fmt.Sprintf("Invalid params: the params of %s must be a JSON object.", req.Method)
	}
	if req.Method == "tools/call" {
		kind := func(k string) string { return mcp.JSONKind(p[k]) }
		switch {
		case kind("name") != "string":
			return jsonrpc.CodeInvalidParams, "Invalid params: tools/call needs a \"name\" string."
		case p["arguments"] != nil && kind("arguments") != "object" && kind("arguments") != "null":
			return jsonrpc.CodeInvalidParams, "Invalid params: tools/call \"arguments\" must be an object."
		case p["_meta"] != nil && kind("_meta") != "object" && kind("_meta") != "null":
			return jsonrpc.CodeInvalidParams, "Invalid params: tools/call \"_meta\" must be an object."
		}
	}
	return 0, ""
}

// usableID is the id member of a message when it is a string or an integer, else nil (null).
func usableID(line []byte) any {
	var v struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &v) != nil || len(v.ID) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(v.ID, &s) == nil {
		return s
	}
	var n int64
	if json.Unmarshal(v.ID, &n) == nil {
		return n
	}
	return nil
}

// refuse writes a JSON-RPC error response with the given id (nil: null).
func (c *lineConn) refuse(code int64, msg string, id any) {
	fmt.Fprintf(c.log, "mcp: refused a message: %s\n", msg)
	resp := struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   map[string]any `json:"error"`
	}{"2.0", id, map[string]any{"code": code, "message": msg}}
	b, _ := Marshal(resp)
	_ = c.writeLine(b)
}

func (c *lineConn) writeLine(b []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return errors.New("mcpserver: connection closed")
	default:
	}
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Read implements sdk.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case l := <-c.lines:
		if l.err != nil {
			if errors.Is(l.err, io.EOF) {
				c.drainPending(ctx)
			}
			return nil, l.err
		}
		if req, ok := l.msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[req.ID.Raw()] = true
			if _, dup := c.tickets[req.ID.Raw()]; c.order != nil && req.Method == "tools/call" && !dup {
				t := c.order.issue()
				c.tickets[req.ID.Raw()] = t
				l.msg = c.order.stamp(req, t)
			}
			c.mu.Unlock()
		}
		return l.msg, nil
	}
}

// drainPending waits, at end of input, until every request handed to the SDK is answered,
// DrainTimeout passes, ctx ends or the connection is closed; it logs the requests dropped.
func (c *lineConn) drainPending(ctx context.Context) {
	var timeout <-chan time.Time
	if c.drain > 0 {
		t := time.NewTimer(c.drain)
		defer t.Stop()
		timeout = t.C
	}
	for {
		c.mu.Lock()
		left, done := len(c.pending), c.nAnswered
		c.mu.Unlock()
		if left == 0 {
			return
		}
		select {
		case <-c.answered:
			continue
		case <-timeout:
		case <-ctx.Done():
		case <-c.closed:
		}
		fmt.Fprintf(c.log, "mcp: end of input: %d request(s) answered, %d dropped without an answer\n", done, left)
		return
	}
}

// Write implements sdk.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp && resp.Error != nil {
		resp = &jsonrpc.Response{ID: resp.ID, Result: resp.Result, Error: standardError(resp.Error), Extra: resp.Extra}
		msg = resp
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	err = c.writeLine(b)
	if isResp {
		c.mu.Lock()
		if t, ok := c.tickets[resp.ID.Raw()]; ok {
			delete(c.tickets, resp.ID.Raw())
			c.order.finish(t)
		}
		c.mu.Unlock()
	}
	if isResp && err == nil {
		c.mu.Lock()
		if c.pending[resp.ID.Raw()] {
			delete(c.pending, resp.ID.Raw())
			c.nAnswered++
		}
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

// standardError returns err with a standard JSON-RPC code when the SDK would send code 0 (a
// plain Go error): -32602 with a plain message for a params decoding failure ("handling
// 'METHOD': json: cannot unmarshal ... into Go value of type ..."), else -32600 with the
// SDK's message.
func standardError(err error) error {
	var we *jsonrpc.Error
	if errors.As(err, &we) && we.Code != 0 {
		return err
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "handling '"); ok {
		if method, _, ok := strings.Cut(rest, "'"); ok && strings.Contains(msg, "unmarshal") {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: the params of " + method + " do not have the expected shape."}
		}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: " + msg}
}

// Close implements sdk.Connection.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		c.writeMu.Lock()
		close(c.closed)
		c.writeMu.Unlock()
		if cl, ok := c.in.(io.Closer); ok {
			_ = cl.Close()
		}
		if cl, ok := c.out.(io.Closer); ok {
			_ = cl.Close()
		}
		c.mu.Lock()
		for id, t := range c.tickets {
			delete(c.tickets, id)
			c.order.finish(t)
		}
		c.mu.Unlock()
	})
	return nil
}

// SessionID implements sdk.Connection (stdio has no session id).
func (c *lineConn) SessionID() string { return "" }

// readLine is ReadLine (the package's own name for it).
func readLine(r *bufio.Reader, max int) ([]byte, int, error) { return ReadLine(r, max) }

// ReadLine returns the next line without its "\n" (and "\r"). A line longer than max bytes is
// consumed but not kept: line is nil and tooLong is its length (so a huge line never sits in
// memory). err is io.EOF at the end of input (line may still hold a last unterminated line).
// The one JSON Lines reader of the MCP server's stdio transport and `webcoding call`.
func ReadLine(r *bufio.Reader, max int) (line []byte, tooLong int, err error) {
	n := 0
	for {
		chunk, err := r.ReadSlice('\n')
		n += len(chunk)
		if n <= max+2 {
			line = append(line, chunk...)
		} else {
			line = nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if n > max+2 || len(line) > max {
			return nil, n, err
		}
		return line, 0, err
	}
}
