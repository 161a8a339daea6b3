package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/webcoding/studio/host/wasmhost"
)

// fakeCore is a Core with a two-page catalog ("demo.read" read-only, "demo.write" a mutation,
// "demo.block" which waits for release), recording what it received. It answers like the
// module: canonical results, JSON-RPC errors for framing only.
type fakeCore struct {
	mu       sync.Mutex
	configs  []string // session/configure params, in order
	calls    []string // tools/call params, in order
	release  chan struct{}
	started  chan string // receives the toolCallId of each demo.block call as it starts
	inflight atomic.Int32
	failNext atomic.Bool // the next tools/call fails in the host (ErrInstanceReset)
}

func newFakeCore() *fakeCore {
	return &fakeCore{release: make(chan struct{}), started: make(chan string, 16)}
}

var fakeTools = []string{
	`{"name":"demo.read","title":"Read","description":"reads","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"path":{"type":"string","maxLength":4}},"additionalProperties":false},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}}`,
	`{"name":"demo.write","description":"writes","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":true,"openWorldHint":false}}`,
	`{"name":"demo.block","description":"waits","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}}`,
}

func (f *fakeCore) Handle(ctx context.Context, req []byte) ([]byte, error) {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(req, &r); err != nil {
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`), nil
	}
	ok := func(result string) ([]byte, error) {
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, r.ID, result)), nil
	}
	switch r.Method {
	case "session/configure":
		f.mu.Lock()
		f.configs = append(f.configs, string(r.Params))
		f.mu.Unlock()
		return ok(`{"configured":true}`)
	case "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(r.Params, &p)
		if p.Cursor == "" {
			return ok(`{"tools":[` + fakeTools[0] + `],"nextCursor":"p2"}`)
		}
		return ok(`{"tools":[` + fakeTools[1] + `,` + fakeTools[2] + `]}`)
	case "tools/call":
		if f.failNext.Swap(false) {
			return nil, fmt.Errorf("fake trap: %w", wasmhost.ErrInstanceReset)
		}
		f.mu.Lock()
		f.calls = append(f.calls, string(r.Params))
		f.mu.Unlock()
		var p struct {
			Name string `json:"name"`
			Meta struct {
				ToolCallID string `json:"toolCallId"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(r.Params, &p)
		id, _ := json.Marshal(p.Meta.ToolCallID)
		switch p.Name {
		case "demo.read":
			return ok(`{"content":[{"type":"text","text":"{\"ok\":true}"}],"structuredContent":{"ok":true},"isError":false,"toolCallId":` + string(id) + `}`)
		case "demo.block":
			f.inflight.Add(1)
			f.started <- p.Meta.ToolCallID
			<-f.release
			f.inflight.Add(-1)
			return ok(`{"content":[{"type":"text","text":"{}"}],"structuredContent":{},"isError":false,"toolCallId":` + string(id) + `}`)
		default:
			return ok(`{"content":[{"type":"text","text":"[TOOL_APPROVAL_REQUIRED] Tool \"` + p.Name + `\" needs approval before it can run."}],` +
				`"structuredContent":{"code":"TOOL_APPROVAL_REQUIRED","message":"Tool \"` + p.Name + `\" needs approval before it can run.","retryable":true},` +
				`"isError":true,"toolCallId":` + string(id) + `,"error":{"code":"TOOL_APPROVAL_REQUIRED","message":"Tool \"` + p.Name + `\" needs approval before it can run.","retryable":true}}`)
		}
	}
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, r.ID)), nil
}

func (f *fakeCore) lastCall() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		return ""
	}
	return f.calls[len(f.calls)-1]
}

func (f *fakeCore) configCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.configs)
}
