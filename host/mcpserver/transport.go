package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
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
// Blank lines are skipped; a trailing "\r" is ignored. Close closes In when it is an
// io.Closer (and Out likewise) and unblocks a waiting Read.
type LineTransport struct {
	In              io.Reader
	Out             io.Writer
	MaxMessageBytes int
	// Log receives one line per refused message (nil: discarded).
	Log io.Writer
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
	c := &lineConn{out: t.Out, in: t.In, log: log, max: max,
		lines: make(chan lineOrErr), closed: make(chan struct{})}
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

	writeMu   sync.Mutex
	closeOnce sync.Once
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
	return msg
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
	b, _ := marshal(resp)
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
		return l.msg, l.err
	}
}

// Write implements sdk.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(b)
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
	})
	return nil
}

// SessionID implements sdk.Connection (stdio has no session id).
func (c *lineConn) SessionID() string { return "" }

// readLine returns the next line without its "\n" (and "\r"). A line longer than max bytes is
// consumed but not kept: line is nil and tooLong is its length. err is io.EOF at the end of
// input (line may still hold a last unterminated line).
func readLine(r *bufio.Reader, max int) (line []byte, tooLong int, err error) {
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
