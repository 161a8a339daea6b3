package rpcsession_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
)

func TestParseConfigDurable(t *testing.T) {
	c, err := rpcsession.ParseConfig(json.RawMessage(`{"durable":{"backend":"memory","leaseMs":60000}}`))
	if err != nil || c.Durable == nil || c.Durable.Backend != "memory" || c.Durable.LeaseMs == nil || *c.Durable.LeaseMs != 60000 {
		t.Fatalf("valid config: %+v %v", c.Durable, err)
	}
	if o, _ := rpcsession.RegistryOptions(c); o.DurableLease != time.Minute {
		t.Fatalf("lease = %v", o.DurableLease)
	}
	for _, bad := range []string{
		`{"durable":{"backend":"redis"}}`,
		`{"durable":{"backend":""}}`,
		`{"durable":{"leaseMs":1}}`,
		`{"durable":{"backend":null}}`,
		`{"durable":{"backend":"memory","leaseMs":0}}`,
		`{"durable":{"backend":"memory","leaseMs":-5}}`,
		`{"durable":{"backend":"memory","leaseMs":1.5}}`,
		`{"durable":{"backend":"memory","leaseMs":86400001}}`,
		`{"durable":{"backend":"memory","leaseMs":"1000"}}`,
		`{"durable":{"backend":"memory","Backend":"memory"}}`,
		`{"durable":{"backend":"memory","extra":true}}`,
		`{"durable":"memory"}`,
		`{"durable":null}`,
		`{"durable":[]}`,
	} {
		if _, err := rpcsession.ParseConfig(json.RawMessage(bad)); err == nil {
			t.Errorf("ParseConfig(%s) accepted", bad)
		}
	}
}

func TestDurableStoreChoice(t *testing.T) {
	if s, err := rpcsession.DurableStore(rpcsession.Config{}, nil, nil); s != nil || err != nil {
		t.Fatalf("no durable config: %v %v", s, err)
	}
	mem := memstore.New()
	s, err := rpcsession.DurableStore(rpcsession.Config{}, mem, nil)
	if err != nil || s == nil || s.Backend() != durable.Backend(mem) {
		t.Fatalf("host backend not used: %v", err)
	}
	s, err = rpcsession.DurableStore(rpcsession.Config{Durable: &rpcsession.DurableConfig{Backend: "memory"}}, mem, nil)
	if err != nil || s.Backend() != durable.Backend(mem) {
		t.Fatalf("the host backend must win over the config: %v", err)
	}
	a, _ := rpcsession.DurableStore(rpcsession.Config{Durable: &rpcsession.DurableConfig{Backend: "memory"}}, nil, nil)
	b, _ := rpcsession.DurableStore(rpcsession.Config{Durable: &rpcsession.DurableConfig{Backend: "memory"}}, nil, nil)
	if a == nil || b == nil || a.Backend() == b.Backend() {
		t.Fatal("each memory store must be fresh")
	}
	if _, err := rpcsession.DurableStore(rpcsession.Config{Durable: &rpcsession.DurableConfig{Backend: "nope"}}, nil, nil); err == nil {
		t.Fatal("unknown backend built")
	}
}

// opsFixture is a registry with a durable store, a tool "t.unknown" whose handler reports
// TOOL_EXECUTION_UNKNOWN, and the operation methods over it.
func opsFixture(t testing.TB) (*registry.Registry, map[string]rpcsession.Method, *int) {
	t.Helper()
	store, err := durable.New(memstore.New(), durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := registry.New(registry.Options{Durable: store, DurableOwnerID: "me",
		Policy: registry.PolicyFunc(func(context.Context, registry.PolicyRequest) (registry.Decision, error) { return registry.Allow, nil })})
	runs := 0
	r.MustRegister(registry.Tool{Name: "t.unknown", InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(ctx context.Context, c *registry.Call) (any, error) {
			runs++
			return nil, &mcp.ToolError{Code: mcp.CodeToolExecutionUnknown, Message: "maybe"}
		}})
	return r, rpcsession.OperationMethods(r), &runs
}

func callMethod(t *testing.T, m rpcsession.Method, params string) (map[string]any, *jsonrpc.Error) {
	t.Helper()
	v, rerr := m(context.Background(), json.RawMessage(params))
	if rerr != nil {
		return nil, rerr
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out, nil
}

func TestOperationMethods(t *testing.T) {
	r, ms, runs := opsFixture(t)
	get, rec := ms[rpcsession.MethodOperationsGet], ms[rpcsession.MethodOperationsReconcile]
	key := "k"
	r.Call(context.Background(), mcp.CallToolParams{Name: "t.unknown", Meta: &mcp.CallMeta{SessionID: "s1", IdempotencyKey: &key, Mode: mcp.ModeDirect}})

	out, rerr := callMethod(t, get, `{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k"}`)
	if rerr != nil || out["found"] != true {
		t.Fatalf("get: %v %v", out, rerr)
	}
	op := out["operation"].(map[string]any)
	if op["state"] != "unknown" || op["key"] != `["s1","t.unknown","k"]` || op["ownerId"] != "me" {
		t.Fatalf("operation %v", op)
	}
	if _, err := time.Parse(time.RFC3339Nano, op["createdAt"].(string)); err != nil {
		t.Fatalf("createdAt %v: %v", op["createdAt"], err)
	}
	if out, _ := callMethod(t, get, `{"tool":"t.unknown","idempotencyKey":"k"}`); out["found"] != false {
		t.Fatalf("the default session is another key: %v", out)
	}
	for _, bad := range []string{``, `null`, `[]`, `{}`, `{"tool":"t.unknown"}`, `{"tool":"","idempotencyKey":"k"}`,
		`{"tool":"t","idempotencyKey":"` + strings.Repeat("x", 257) + `"}`, `{"tool":"t","idempotencyKey":"k","x":1}`, `{"tool":1,"idempotencyKey":"k"}`} {
		if _, rerr := callMethod(t, get, bad); rerr == nil || rerr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("get(%s): %v", bad, rerr)
		}
	}
	for _, bad := range []string{
		`{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k","state":"done"}`,
		`{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k","state":"failed","fence":{"incarnation":"x"}}`,
		`{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k","state":"failed","fence":{"incarnation":"x","revision":0}}`,
		`{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k","state":"failed","reason":""}`,
		`{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k","state":"failed"}`,
	} {
		if _, rerr := callMethod(t, rec, bad); rerr == nil || rerr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("reconcile(%s): %v", bad, rerr)
		}
	}
	inc := op["incarnation"].(string)
	_, rerr = callMethod(t, rec, `{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k","state":"failed","reason":"no","fence":{"incarnation":"`+inc+`","revision":1}}`)
	if rerr == nil || rerr.Data.(map[string]any)["reason"] != "stale-fence" || strings.Contains(rerr.Message, inc) {
		t.Fatalf("stale fence: %+v", rerr)
	}
	out, rerr = callMethod(t, rec, `{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k","state":"completed","structuredContent":{"ok":true},"fence":{"incarnation":"`+inc+`","revision":2}}`)
	if rerr != nil || out["status"] != "resolved" || out["operation"].(map[string]any)["reconciledBy"] != "me" {
		t.Fatalf("reconcile: %v %+v", out, rerr)
	}
	res := r.Call(context.Background(), mcp.CallToolParams{Name: "t.unknown", Meta: &mcp.CallMeta{SessionID: "s1", IdempotencyKey: &key, Mode: mcp.ModeDirect}})
	if res.IsError || string(res.StructuredContent) != `{"ok":true}` || *runs != 1 {
		t.Fatalf("replay after reconcile: %+v (runs %d)", res, *runs)
	}
	out, rerr = callMethod(t, rec, `{"tool":"t.unknown","idempotencyKey":"never","state":"failed","reason":"x"}`)
	if rerr != nil || out["status"] != "missing" {
		t.Fatalf("missing: %v %+v", out, rerr)
	}
	_, rerr = callMethod(t, rec, `{"tool":"t.unknown","idempotencyKey":"never","state":"failed","reason":"x","fence":{"incarnation":"a","revision":1}}`)
	if rerr == nil || rerr.Data.(map[string]any)["reason"] != "not-found" {
		t.Fatalf("not found: %+v", rerr)
	}
}

// downBackend fails every operation.
type downBackend struct{}

func (downBackend) Read(context.Context, string) (durable.Record, bool, error) {
	return durable.Record{}, false, errors.New("dial tcp: refused")
}
func (downBackend) CompareAndSet(context.Context, string, *durable.Fence, *durable.Record) (bool, error) {
	return false, errors.New("dial tcp: refused")
}
func (downBackend) ListPage(context.Context, string, int) ([]durable.Record, string, error) {
	return nil, "", errors.New("dial tcp: refused")
}

func TestOperationMethodsStoreDown(t *testing.T) {
	store, _ := durable.New(downBackend{}, durable.Options{})
	r := registry.New(registry.Options{Durable: store})
	ms := rpcsession.OperationMethods(r)
	_, rerr := callMethod(t, ms[rpcsession.MethodOperationsGet], `{"tool":"t","idempotencyKey":"k"}`)
	if rerr == nil || rerr.Code != jsonrpc.CodeInternalError || rerr.Data.(map[string]any)["retryable"] != true {
		t.Fatalf("store down: %+v", rerr)
	}
}

// FuzzOperationParams: any params bytes given to operations/get and operations/reconcile are
// answered with a result or a JSON-RPC error (never a panic), and a result serializes.
func FuzzOperationParams(f *testing.F) {
	for _, s := range []string{
		`{"tool":"t.unknown","idempotencyKey":"k"}`,
		`{"sessionId":"s1","tool":"t.unknown","idempotencyKey":"k","state":"completed","structuredContent":{"a":1}}`,
		`{"tool":"t.unknown","idempotencyKey":"k","state":"failed","reason":"r","fence":{"incarnation":"i","revision":2}}`,
		`{"tool":"t.unknown","idempotencyKey":"k","state":"completed","structuredContent":[1],"reconcilerId":"x"}`,
		`null`, ``, `{"tool":"\u0000","idempotencyKey":"k"}`,
	} {
		f.Add([]byte(s))
	}
	r, ms, _ := opsFixture(f)
	key := "k"
	r.Call(context.Background(), mcp.CallToolParams{Name: "t.unknown", Meta: &mcp.CallMeta{IdempotencyKey: &key, Mode: mcp.ModeDirect}})
	f.Fuzz(func(t *testing.T, params []byte) {
		for _, name := range []string{rpcsession.MethodOperationsGet, rpcsession.MethodOperationsReconcile} {
			v, rerr := ms[name](context.Background(), params)
			if rerr != nil {
				if rerr.Code != jsonrpc.CodeInvalidParams && rerr.Code != jsonrpc.CodeInternalError {
					t.Fatalf("%s: code %d", name, rerr.Code)
				}
				continue
			}
			if _, err := json.Marshal(v); err != nil {
				t.Fatalf("%s: result does not serialize: %v", name, err)
			}
		}
	})
}
