package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// fakeHost stands in for the module in unit tests of the CLI's framing: it answers tools/list
// from pages and tools/call by echoing the params it received into structuredContent.
type fakeHost struct {
	mu       sync.Mutex
	pages    []string // tools/list results in order; page i is answered to cursor "c<i>"
	callErr  error    // returned by Handle for tools/call
	rpcError string   // when set, every request is answered with this JSON-RPC error object
	requests [][]byte
	configs  []string // session/configure params received
	closed   bool
}

func (f *fakeHost) Handle(ctx context.Context, req []byte) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, append([]byte(nil), req...))
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(req, &r); err != nil || r.JSONRPC != "2.0" {
		return nil, fmt.Errorf("fake: the CLI sent a bad request %q: %v", req, err)
	}
	if f.rpcError != "" {
		return []byte(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"error":` + f.rpcError + `}`), nil
	}
	switch r.Method {
	case "session/configure":
		f.configs = append(f.configs, string(r.Params))
		return []byte(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"result":{}}`), nil
	case "tools/list":
		page := 0
		if r.Params != nil {
			var p struct{ Cursor string }
			json.Unmarshal(r.Params, &p)
			fmt.Sscanf(p.Cursor, "c%d", &page)
		}
		return []byte(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"result":` + f.pages[page] + `}`), nil
	case "tools/call":
		if f.callErr != nil {
			return nil, f.callErr
		}
		var p struct {
			Meta struct {
				ToolCallID string `json:"toolCallId"`
			} `json:"_meta"`
		}
		json.Unmarshal(r.Params, &p)
		id, _ := json.Marshal(p.Meta.ToolCallID)
		return []byte(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"result":{"content":[{"type":"text","text":"ok"}],` +
			`"structuredContent":{"params":` + string(r.Params) + `},"isError":false,"toolCallId":` + string(id) + `}}`), nil
	}
	return nil, errors.New("fake: unexpected method " + r.Method)
}

func (f *fakeHost) Close(context.Context) error { f.closed = true; return nil }

// runCLI runs the CLI in-process against host (nil: the real module, see TestMain).
func runCLI(t *testing.T, host rpcHost, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(k string) string {
		if k == "WEBCODING_MODULE" {
			return testModule
		}
		return ""
	}, newHost: openHost}
	if host != nil {
		e.newHost = func(context.Context, *env, *hostFlags) (rpcHost, error) { return host, nil }
	}
	code = run(context.Background(), args, e)
	return code, out.String(), errb.String()
}
