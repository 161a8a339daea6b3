package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// arrivalMetaKey is the _meta member through which LineTransport tells the tool handler where a
// tools/call stands in the arrival order: "NONCE:TICKET". The SDK runs every request's handler
// in its own goroutine (go-sdk v1.8.0, ServerSession.handle calls jsonrpc2.Async), so the
// handlers of pipelined calls race; only the transport's Read sees the messages in order, and
// the SDK passes the handler no request id, so the ticket travels in _meta. The member is
// removed before the call reaches the core (protocolMetaKey), and a value whose nonce is not
// this server's (a client that sends the key itself) is ignored.
const arrivalMetaKey = "io.webcoding.studio/arrival"

// arrivals is the arrival order of the tools/call requests read by LineTransport: Read issues
// tickets 0, 1, 2, ... and a handler waits (arrivals.wait) until every earlier ticket is
// finished before its call goes to the core, so pipelined calls run in the order they were sent.
// A ticket is finished when its handler returns, when its response is written (the SDK
// answered it without running the handler: unknown tool, cancelled before it started), or when
// the connection closes. Safe for concurrent use.
type arrivals struct {
	nonce string // 16 hex digits, per Server

	mu   sync.Mutex
	next uint64          // the next ticket to issue
	low  uint64          // every ticket below low is finished
	done map[uint64]bool // finished tickets at or above low
	wake chan struct{}   // closed (and replaced) when low advances
}

func newArrivals() *arrivals {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &arrivals{nonce: hex.EncodeToString(b[:]), done: make(map[uint64]bool), wake: make(chan struct{})}
}

// issue returns the next ticket.
func (a *arrivals) issue() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := a.next
	a.next++
	return t
}

// finish marks ticket t finished; finishing it again does nothing.
func (a *arrivals) finish(t uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t < a.low || a.done[t] {
		return
	}
	a.done[t] = true
	advanced := false
	for a.done[a.low] {
		delete(a.done, a.low)
		a.low++
		advanced = true
	}
	if advanced {
		close(a.wake)
		a.wake = make(chan struct{})
	}
}

// wait blocks until every ticket before t is finished, or ctx ends (ctx.Err()).
func (a *arrivals) wait(ctx context.Context, t uint64) error {
	for {
		a.mu.Lock()
		low, wake := a.low, a.wake
		a.mu.Unlock()
		if low >= t {
			return nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// ticketOf removes arrivalMetaKey from meta and returns the ticket it carries when the nonce
// is this server's.
func (a *arrivals) ticketOf(meta map[string]any) (uint64, bool) {
	v, ok := meta[arrivalMetaKey]
	if !ok {
		return 0, false
	}
	delete(meta, arrivalMetaKey)
	s, _ := v.(string)
	nonce, num, ok := strings.Cut(s, ":")
	if !ok || nonce != a.nonce {
		return 0, false
	}
	t, err := strconv.ParseUint(num, 10, 64)
	return t, err == nil
}

// stamp returns req with params._meta[arrivalMetaKey] set to ticket t (any value the client
// sent under that key is replaced). params is a JSON object whose _meta, if present, is an
// object or null (checkRequest); other members keep their bytes.
func (a *arrivals) stamp(req *jsonrpc.Request, t uint64) *jsonrpc.Request {
	var p map[string]json.RawMessage
	if len(req.Params) > 0 && json.Unmarshal(req.Params, &p) != nil {
		return req
	}
	if p == nil {
		p = map[string]json.RawMessage{}
	}
	var meta map[string]json.RawMessage
	if m := p["_meta"]; len(m) > 0 && json.Unmarshal(m, &meta) != nil {
		return req
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[arrivalMetaKey] = json.RawMessage(strconv.Quote(a.nonce + ":" + strconv.FormatUint(t, 10)))
	var err error
	if p["_meta"], err = Marshal(meta); err != nil {
		return req
	}
	params, err := Marshal(p)
	if err != nil {
		return req
	}
	out := *req
	out.Params = params
	return &out
}
