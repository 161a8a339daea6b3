package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/mcp"
)

// coreClient sends JSON-RPC requests to the core one at a time. A request waits for its turn
// under the caller's context (so a cancelled request that never reached the module never
// runs), then runs under a context that the caller cannot cancel: interrupting the module
// would close its instance and lose the workspace (see the package doc). After the core lost
// its instance (wasmhost.ErrInstanceReset), the session configuration is sent again before the
// next request, with revisionAfter set to the highest revision any tools/call result named, so
// the fresh workspace never hands out a revision number the lost one did (a stale
// expectedRevision cannot match by accident).
//
// It also keeps the paths of the edits the server confirmed since the last successful save
// (confirmed, saved): a reset moves them to the lost list that WarnUnsaved and the failed
// call's message name, since the fresh instance starts again from the folder.
type coreClient struct {
	core   Core
	sem    chan struct{}
	next   atomic.Int64
	config []byte // session/configure params

	mu          sync.Mutex // guards the fields below
	needsConfig bool
	maxRevision int64    // the highest revision a tools/call result named
	unsaved     []string // paths of confirmed edits since the last save, first-confirmed first
	lost        []string // paths whose confirmed, unsaved edits a reset lost
}

// confirmed records the paths of a successful mutation (in order, without repeats).
func (c *coreClient) confirmed(paths []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.unsaved = appendNew(c.unsaved, paths...)
}

// saved records a successful save: the confirmed edits are on disk.
func (c *coreClient) saved() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.unsaved = nil
}

// lostPaths returns the paths whose confirmed edits a reset lost (a copy).
func (c *coreClient) lostPaths() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lost...)
}

func appendNew(list []string, more ...string) []string {
	for _, p := range more {
		if !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	return list
}

// noteRevisions raises maxRevision to the revisions a tools/call result names: the
// structuredContent members "revision" and "…Revision", and the error details' (a conflict's
// currentRevision), but never an expectedRevision (the client's number, not the core's).
func (c *coreClient) noteRevisions(result json.RawMessage) {
	var r struct {
		StructuredContent map[string]json.RawMessage `json:"structuredContent"`
		Error             *struct {
			Details map[string]json.RawMessage `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	high := int64(0)
	scan := func(m map[string]json.RawMessage) {
		for k, v := range m {
			if k != "revision" && (!strings.HasSuffix(k, "Revision") || k == "expectedRevision") {
				continue
			}
			var n int64
			if json.Unmarshal(v, &n) == nil && n > high {
				high = n
			}
		}
	}
	scan(r.StructuredContent)
	if r.Error != nil {
		scan(r.Error.Details)
	}
	c.mu.Lock()
	c.maxRevision = max(c.maxRevision, high)
	c.mu.Unlock()
}

// reconfigParams is the session/configure params after a reset: config with revisionAfter.
func (c *coreClient) reconfigParams() []byte {
	c.mu.Lock()
	after := c.maxRevision
	c.mu.Unlock()
	var m map[string]json.RawMessage
	if after == 0 || json.Unmarshal(c.config, &m) != nil || m == nil {
		return c.config
	}
	m["revisionAfter"] = json.RawMessage(strconv.FormatInt(after, 10))
	b, err := Marshal(m)
	if err != nil {
		return c.config
	}
	return b
}

// rpcError is a JSON-RPC error object from the core.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// call sends one request and returns its result, or the core's JSON-RPC error, or a host error
// (the module failed, or answered something that is not the response to this request).
// ctx bounds only the wait for the core; see coreClient.
func (c *coreClient) call(ctx context.Context, method string, params []byte) (json.RawMessage, *rpcError, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	if ctx.Err() != nil { // cancelled while the previous call finished
		return nil, nil, ctx.Err()
	}
	run := context.WithoutCancel(ctx)
	c.mu.Lock()
	reconfigure := c.needsConfig
	c.mu.Unlock()
	if reconfigure && method != "session/configure" {
		cfg := c.reconfigParams()
		_, rerr, err := c.roundTrip(run, "session/configure", cfg)
		if err == nil && rerr != nil && !bytes.Equal(cfg, c.config) {
			// A core module older than revisionAfter refuses the key: configure it as before
			// (its revisions may then repeat, as they did before the key existed).
			_, rerr, err = c.roundTrip(run, "session/configure", c.config)
		}
		if err != nil || rerr != nil {
			return nil, nil, fmt.Errorf("reconfiguring the core after a reset: %w", errors.Join(err, errOrNil(rerr)))
		}
		c.mu.Lock()
		c.needsConfig = false
		c.mu.Unlock()
	}
	res, rerr, err := c.roundTrip(run, method, params)
	if err == nil && rerr == nil && method == mcp.MethodToolsCall {
		c.noteRevisions(res)
	}
	return res, rerr, err
}

func errOrNil(e *rpcError) error {
	if e == nil {
		return nil
	}
	return e
}

// roundTrip is one Handle call. Caller holds sem.
func (c *coreClient) roundTrip(ctx context.Context, method string, params []byte) (json.RawMessage, *rpcError, error) {
	id := strconv.FormatInt(c.next.Add(1), 10)
	req := make([]byte, 0, len(params)+64)
	req = append(req, `{"jsonrpc":"2.0","id":`...)
	req = append(req, id...)
	req = append(req, `,"method":`...)
	req = strconv.AppendQuote(req, method) // method names are ASCII
	if params != nil {
		req = append(req, `,"params":`...)
		req = append(req, params...)
	}
	req = append(req, '}')
	resp, err := c.core.Handle(ctx, req)
	if err != nil {
		if errors.Is(err, wasmhost.ErrInstanceReset) {
			c.mu.Lock()
			c.needsConfig = true
			c.lost = appendNew(c.lost, c.unsaved...)
			c.unsaved = nil
			c.mu.Unlock()
		}
		return nil, nil, err
	}
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *rpcError       `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return nil, nil, fmt.Errorf("%s: the core answered something that is not a JSON-RPC response: %v: %.200q", method, err, resp)
	}
	switch {
	case r.JSONRPC != "2.0":
		return nil, nil, fmt.Errorf("%s: the core's response has jsonrpc %q", method, r.JSONRPC)
	case r.Error != nil:
		if string(r.ID) != id && string(r.ID) != "null" {
			return nil, nil, fmt.Errorf("%s: the core answered id %s to request %s", method, r.ID, id)
		}
		return nil, r.Error, nil
	case string(r.ID) != id:
		return nil, nil, fmt.Errorf("%s: the core answered id %s to request %s", method, r.ID, id)
	case r.Result == nil:
		return nil, nil, fmt.Errorf("%s: the core's response has neither result nor error", method)
	}
	return r.Result, nil, nil
}

// configure sends the session configuration now.
func (c *coreClient) configure(ctx context.Context) error {
	_, rerr, err := c.call(ctx, "session/configure", c.config)
	if err != nil {
		return fmt.Errorf("session/configure: %w", err)
	}
	if rerr != nil {
		return fmt.Errorf("session/configure: the core answered %w", rerr)
	}
	return nil
}

// listPage fetches one tools/list page (registry.ListPageFunc).
func (c *coreClient) listPage(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
	var params []byte
	if cursor != "" {
		params, _ = json.Marshal(mcp.ListToolsParams{Cursor: cursor})
	}
	res, rerr, err := c.call(ctx, mcp.MethodToolsList, params)
	if err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, fmt.Errorf("the core answered %w", rerr)
	}
	var page mcp.ListToolsResult
	if err := json.Unmarshal(res, &page); err != nil || page.Tools == nil {
		return nil, fmt.Errorf("tools/list page is not {tools, nextCursor?}: %.200q", res)
	}
	return &page, nil
}
