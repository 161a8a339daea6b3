package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/webcoding/studio/host/mcpserver"
	"github.com/webcoding/studio/wasm/jsonstring"
)

// rpcClient numbers JSON-RPC 2.0 requests and checks that responses answer them.
type rpcClient struct {
	h    rpcHost
	next int64
}

// rpcErr is a JSON-RPC error object.
type rpcErr struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (r *rpcErr) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", r.Code, r.Message) }

// request builds {"jsonrpc":"2.0","id":N,"method":M,"params":P} (params omitted when nil)
// without re-encoding params.
func (c *rpcClient) request(method string, params []byte) (id string, req []byte) {
	c.next++
	id = strconv.FormatInt(c.next, 10)
	req = append(req, `{"jsonrpc":"2.0","id":`...)
	req = append(req, id...)
	req = append(req, `,"method":`...)
	req = jsonstring.Append(req, method, jsonstring.NoHTML)
	if params != nil {
		req = append(req, `,"params":`...)
		req = append(req, params...)
	}
	return id, append(req, '}')
}

// call sends one request. It returns the result, or the JSON-RPC error the core answered
// with, or a host error (the module could not answer, or answered something that is not a
// response to this request).
func (c *rpcClient) call(ctx context.Context, method string, params []byte) (json.RawMessage, *rpcErr, error) {
	id, req := c.request(method, params)
	resp, err := c.h.Handle(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *rpcErr         `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return nil, nil, fmt.Errorf("%s: the module answered something that is not a JSON-RPC response: %v: %.200q", method, err, resp)
	}
	switch {
	case r.JSONRPC != "2.0":
		return nil, nil, fmt.Errorf("%s: the module's response has jsonrpc %q: %.200q", method, r.JSONRPC, resp)
	case r.Error != nil:
		// A framing error may carry a null id (the request was not read).
		if string(r.ID) != id && string(r.ID) != "null" {
			return nil, nil, fmt.Errorf("%s: the module answered id %s to request %s", method, r.ID, id)
		}
		return nil, r.Error, nil
	case string(r.ID) != id:
		return nil, nil, fmt.Errorf("%s: the module answered id %s to request %s", method, r.ID, id)
	case r.Result == nil:
		return nil, nil, fmt.Errorf("%s: the module's response has neither result nor error", method)
	}
	return r.Result, nil, nil
}

// marshal encodes v without HTML escaping and without a trailing newline (mcpserver.Marshal).
func marshal(v any) ([]byte, error) { return mcpserver.Marshal(v) }
