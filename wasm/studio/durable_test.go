package studio

import (
	"bytes"
	"context"
	"testing"

	"github.com/webcoding/studio/wasm/durable/memstore"
)

func rpc(t *testing.T, h interface {
	Handle(context.Context, []byte) []byte
}, req string) []byte {
	t.Helper()
	return h.Handle(context.Background(), []byte(req))
}

// With Ports.Durable, records outlive session/configure (the host's backend is used for every
// session); the operation methods exist only when a durable store is configured.
func TestPortsDurableOutlivesReconfigure(t *testing.T) {
	backend := memstore.New()
	h := Assemble(context.Background(), Ports{Durable: backend})
	write := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo.writeFile","arguments":{"path":"a.txt","source":"x"},"_meta":{"mode":"direct","idempotencyKey":"w1"}}}`
	if out := rpc(t, h, `{"jsonrpc":"2.0","id":0,"method":"session/configure","params":{"catalog":"demo"}}`); !bytes.Contains(out, []byte(`"configured":true`)) {
		t.Fatalf("configure: %s", out)
	}
	if out := rpc(t, h, write); !bytes.Contains(out, []byte(`"isError":false`)) {
		t.Fatalf("write: %s", out)
	}
	rpc(t, h, `{"jsonrpc":"2.0","id":2,"method":"session/configure","params":{"catalog":"demo"}}`)
	out := rpc(t, h, `{"jsonrpc":"2.0","id":3,"method":"operations/get","params":{"tool":"demo.writeFile","idempotencyKey":"w1"}}`)
	if !bytes.Contains(out, []byte(`"state":"completed"`)) {
		t.Fatalf("the record did not survive session/configure: %s", out)
	}
	recs, _, err := backend.ListPage(context.Background(), "", 10)
	if err != nil || len(recs) != 1 || recs[0].Key != `["default","demo.writeFile","w1"]` {
		t.Fatalf("backend holds %+v", recs)
	}
}

func TestConfigMemoryStoreIsPerSession(t *testing.T) {
	h := Assemble(context.Background(), Ports{})
	if out := rpc(t, h, `{"jsonrpc":"2.0","id":1,"method":"operations/get","params":{"tool":"t","idempotencyKey":"k"}}`); !bytes.Contains(out, []byte(`-32601`)) {
		t.Fatalf("operations/get without a durable store: %s", out)
	}
	cfg := `{"jsonrpc":"2.0","id":0,"method":"session/configure","params":{"catalog":"demo","durable":{"backend":"memory"}}}`
	rpc(t, h, cfg)
	rpc(t, h, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo.writeFile","arguments":{"path":"a.txt","source":"x"},"_meta":{"mode":"direct","idempotencyKey":"w1"}}}`)
	get := `{"jsonrpc":"2.0","id":3,"method":"operations/get","params":{"tool":"demo.writeFile","idempotencyKey":"w1"}}`
	if out := rpc(t, h, get); !bytes.Contains(out, []byte(`"state":"completed"`)) {
		t.Fatalf("get: %s", out)
	}
	rpc(t, h, cfg)
	if out := rpc(t, h, get); !bytes.Contains(out, []byte(`"found":false`)) {
		t.Fatalf("a reconfigured memory store must start empty: %s", out)
	}
}
