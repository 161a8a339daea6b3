package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzLineDecode: every line is either a JSON-RPC message handed to the SDK or answered with
// exactly one JSON-RPC error response line; never a panic, never silence.
func FuzzLineDecode(f *testing.F) {
	for _, s := range []string{
		initializeLine, initializedLine, `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":null,"method":"x"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `{"jsonrpc":"1.0","id":"a","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","method":""}`, `{"jsonrpc":"2.0"}`, `{`, "\xff", `"x"`, `null`, `1e999`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"x"}`, `{"jsonrpc":"2.0","id":3,"method":"initialize"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"a","arguments":[],"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(bytes.TrimSpace(line)) == 0 || bytes.ContainsAny(line, "\n") {
			return
		}
		var out bytes.Buffer
		c := &lineConn{out: &out, log: &bytes.Buffer{}, closed: make(chan struct{})}
		msg := c.decode(line)
		if msg != nil {
			if out.Len() != 0 {
				t.Fatalf("a decoded message was also refused: %s", out.Bytes())
			}
			if !utf8.Valid(line) || !json.Valid(line) {
				t.Fatalf("invalid input passed: %q", line)
			}
			if _, err := jsonrpc.EncodeMessage(msg); err != nil {
				t.Fatalf("decoded message does not encode: %v", err)
			}
			return
		}
		resp := strings.TrimSuffix(out.String(), "\n")
		if strings.Contains(resp, "\n") || resp == "" {
			t.Fatalf("refusal is not one line: %q", out.String())
		}
		var r struct {
			JSONRPC string           `json:"jsonrpc"`
			ID      json.RawMessage  `json:"id"`
			Error   *json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(resp), &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || len(r.ID) == 0 {
			t.Fatalf("refusal is not a JSON-RPC error response: %s", resp)
		}
	})
}

// FuzzProject: whatever the core answers, the projection is a valid MCP result (or the
// canonical error result about it), with _meta.toolCallId; it never panics.
func FuzzProject(f *testing.F) {
	srv, err := New(context.Background(), newFakeCore(), Options{})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		`{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":1},"isError":false,"toolCallId":"t"}`,
		`{"content":[{"type":"text","text":"[TOOL_APPROVAL_REQUIRED] m"}],"isError":true,"toolCallId":"t","error":{"code":"TOOL_APPROVAL_REQUIRED","message":"m","retryable":true}}`,
		`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"resource","resource":{"uri":"u","text":"t"}}],"isError":false,"toolCallId":""}`,
		`{"content":[{"type":"nope"}]}`, `{"content":null}`, `[]`, `{`, `{"autosave":{"saved":true}}`,
		`{"content":[{"type":"image","data":"!!","mimeType":"image/png"}]}`,
	} {
		f.Add([]byte(s), "demo.write")
	}
	f.Fuzz(func(t *testing.T, raw []byte, tool string) {
		if _, ok := srv.tools[tool]; !ok {
			tool = "demo.read"
		}
		r, err := srv.project(raw, "fallback-id", tool)
		if err != nil || r == nil {
			t.Fatalf("project: %v", err)
		}
		if id, _ := r.Meta["toolCallId"].(string); id == "" {
			t.Fatalf("no _meta.toolCallId: %+v", r.Meta)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("the projection does not encode: %v", err)
		}
		var back sdk.CallToolResult
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("the projection does not decode as an MCP result: %v\n%s", err, b)
		}
		if r.IsError && r.StructuredContent != nil {
			t.Fatalf("an error result carries structuredContent: %s", b)
		}
	})
}
