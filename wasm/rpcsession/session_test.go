package rpcsession_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
)

func handler() *rpcsession.Handler { return studio.Assemble(context.Background(), studio.Ports{}) }

func rpcErrorCode(t *testing.T, out []byte) int {
	t.Helper()
	var r struct {
		Error *struct{ Code int } `json:"error"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.Error == nil {
		t.Fatalf("want a JSON-RPC error, got %s", out)
	}
	return r.Error.Code
}

func TestFramingErrors(t *testing.T) {
	h := handler()
	ctx := context.Background()
	cases := map[string]struct {
		in   string
		code int
	}{
		"non-UTF-8":              {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xc3\x28\"}}", -32700},
		"repeated method key":    {`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call"}`, -32700},
		"Method beside method":   {`{"jsonrpc":"2.0","id":1,"method":"ping","Method":"tools/call"}`, -32600},
		"truncated":              {`{"jsonrpc":"2.0","id":1,"method":"pi`, -32700},
		"empty":                  {``, -32700},
		"deep nesting":           {strings.Repeat("[", 10000) + strings.Repeat("]", 10000), -32700},
		"scalar":                 {`42`, -32600},
		"repeated key in params": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo.readFile","arguments":{"path":"a","path":"b"}}}`, -32700},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := rpcErrorCode(t, h.Handle(ctx, []byte(c.in))); got != c.code {
				t.Fatalf("code %d, want %d", got, c.code)
			}
		})
	}
	big := bytes.Repeat([]byte(" "), rpcsession.MaxRequestBytes+1)
	if got := rpcErrorCode(t, h.Handle(ctx, big)); got != -32600 {
		t.Fatalf("oversized request: code %d", got)
	}
}

func TestBatchAnswersInOrder(t *testing.T) {
	h := handler()
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 50; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"index.html"},"_meta":{"toolCallId":"c` + itoa(i) + `"}}}`)
	}
	b.WriteString(`,{"jsonrpc":"2.0","method":"ping"}]`)
	var resp []struct {
		ID     int `json:"id"`
		Result struct {
			ToolCallID string `json:"toolCallId"`
			IsError    bool   `json:"isError"`
		} `json:"result"`
	}
	out := h.Handle(context.Background(), []byte(b.String()))
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(resp) != 50 {
		t.Fatalf("want 50 responses (the notification gets none), got %d", len(resp))
	}
	for i, r := range resp {
		if r.ID != i || r.Result.ToolCallID != "c"+itoa(i) || r.Result.IsError {
			t.Fatalf("response %d = %+v", i, r)
		}
	}
}

func TestConfigureRebuildsSession(t *testing.T) {
	h := handler()
	ctx := context.Background()
	out := h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"session/configure","params":{"pageSize":1,"approval":{"mode":"queue"}}}`))
	if !bytes.Contains(out, []byte(`"configured":true`)) {
		t.Fatalf("configure: %s", out)
	}
	if h.Session().Approvals == nil {
		t.Fatal("queue mode must expose the approval queue")
	}
	out = h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	var page struct {
		Result struct {
			Tools      []json.RawMessage
			NextCursor string
		}
	}
	_ = json.Unmarshal(out, &page)
	if len(page.Result.Tools) != 1 || page.Result.NextCursor == "" {
		t.Fatalf("page size 1 not applied: %s", out)
	}
	for _, bad := range []string{`{"approval":{"mode":"auto"}}`, `{"approval":{"Mode":"queue"}}`, `{"pageSize":-1}`, `{"validation":"lenient"}`, `[]`} {
		out := h.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":3,"method":"session/configure","params":`+bad+`}`))
		if rpcErrorCode(t, out) != -32602 {
			t.Errorf("%s: %s", bad, out)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestBuilderContext: the Builder runs under the entry's context for the first session and
// under the session/configure request's context for a rebuild; a rebuild whose request is
// cancelled while assembling is refused and the current session stays.
func TestBuilderContext(t *testing.T) {
	type key struct{}
	var seen []any
	var cancelDuringBuild context.CancelFunc
	build := func(ctx context.Context, cfg rpcsession.Config) (*rpcsession.Session, error) {
		seen = append(seen, ctx.Value(key{}))
		if cancelDuringBuild != nil {
			cancelDuringBuild()
		}
		return &rpcsession.Session{Registry: registry.New(registry.Options{})}, nil
	}
	h := rpcsession.New(context.WithValue(context.Background(), key{}, "entry"), build)
	first := h.Session()
	if first == nil || h.Err() != nil {
		t.Fatalf("first session not built: %v", h.Err())
	}
	configure := []byte(`{"jsonrpc":"2.0","id":1,"method":"session/configure","params":{}}`)
	if out := h.Handle(context.WithValue(context.Background(), key{}, "request"), configure); !strings.Contains(string(out), `"configured":true`) {
		t.Fatalf("configure: %s", out)
	}
	second := h.Session()
	if second == first {
		t.Fatal("configure did not install the rebuilt session")
	}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "cancelled"))
	defer cancel()
	cancelDuringBuild = cancel
	out := h.Handle(ctx, configure)
	if strings.Contains(string(out), `"configured":true`) || !strings.Contains(string(out), "cancelled") {
		t.Fatalf("cancelled configure answered %s", out)
	}
	if h.Session() != second {
		t.Fatal("a cancelled configure replaced the session")
	}
	if want := []any{"entry", "request", "cancelled"}; !reflect.DeepEqual(seen, want) {
		t.Fatalf("Builder contexts carried %v, want %v", seen, want)
	}
}
