package rpcsession_test

import (
	"context"
	"encoding/json"
	"testing"
)

// FuzzABIDecode: whatever bytes arrive, Handle answers with valid JSON (an object, an array,
// or nothing for notifications) and never panics.
func FuzzABIDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo.readFile","arguments":{"path":"index.html"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo.writeFile","arguments":{"path":"a","source":"b"},"_meta":{"mode":"direct"}}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}]`,
		`{"jsonrpc":"2.0","id":1,"method":"session/configure","params":{"pageSize":1}}`,
		`{"jsonrpc":"2.0","id":1,"method":"approvals/resolve","params":{"id":"x","decision":"allow"}}`,
		"\xff\xfe", `[]`, `[1,2]`, `{"jsonrpc":"2.0","id":{},"method":"ping"}`,
	} {
		f.Add([]byte(s))
	}
	h := handler()
	f.Fuzz(func(t *testing.T, data []byte) {
		out := h.Handle(context.Background(), data)
		if len(out) == 0 {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON response %q for %q", out, data)
		}
	})
}
