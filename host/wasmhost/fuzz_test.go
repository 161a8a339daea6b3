package wasmhost

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"
)

// FuzzHandle sends arbitrary bytes through the ABI into the core: the host must never fail,
// the instance must survive, and every answer must be JSON (a response, a batch response, or
// — for an all-notification batch — nothing).
func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `[{}]`, `null`, "\xff\xfe", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"index.html"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","Name":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"__proto__","arguments":{}}}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`,
	} {
		f.Add([]byte(s))
	}
	h, err := New(context.Background(), Options{ModulePath: testModule, CallTimeout: 20 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, req []byte) {
		if bytes.HasPrefix(req, []byte("#hosttest:")) {
			t.Skip("test-only requests hang or exit on purpose")
		}
		before := h.Stats().Instantiations
		resp, err := h.Handle(context.Background(), req)
		if err != nil {
			t.Fatalf("Handle(%q): %v", req, err)
		}
		if len(resp) > 0 && !json.Valid(resp) {
			t.Fatalf("Handle(%q) answered non-JSON %.300q", req, resp)
		}
		if n := h.Stats().Instantiations; n != before {
			t.Fatalf("Handle(%q) reset the instance", req)
		}
	})
}
