package studio

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/rpcsession"
)

// A host that lost its core instance configures the fresh one with revisionAfter: the new
// workspace starts above it (here a memory-only core, whose rebuilds otherwise start again at
// revision 2), and a negative value is refused.
func TestConfigureRevisionAfter(t *testing.T) {
	h := rpcsession.New(context.Background(), Builder(Ports{}))
	status := func() float64 {
		out := h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"workspace.getStatus","arguments":{},"_meta":{"source":"mcp","mode":"direct"}}}`))
		var r struct {
			Result struct {
				StructuredContent struct {
					Revision float64 `json:"revision"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(out, &r) != nil || r.Result.StructuredContent.Revision == 0 {
			t.Fatalf("getStatus: %s", out)
		}
		return r.Result.StructuredContent.Revision
	}
	if rev := status(); rev >= 40 {
		t.Fatalf("fresh core at revision %v", rev)
	}
	if out := h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"session/configure","params":{"revisionAfter":40}}`)); !strings.Contains(string(out), "configured") {
		t.Fatal(string(out))
	}
	if rev := status(); rev <= 40 {
		t.Errorf("after revisionAfter 40 the workspace is at revision %v", rev)
	}
	if _, err := rpcsession.ParseConfig(json.RawMessage(`{"revisionAfter":-1}`)); err == nil {
		t.Error("revisionAfter -1 accepted")
	}
}
