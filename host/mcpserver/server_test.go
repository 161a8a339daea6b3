package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests run the server over fakeCore (fake_test.go): the protocol edge, not the catalog.
// server_module_test.go runs the same paths over the real module.

func newFakeServer(t testing.TB, opts Options) (*Server, *fakeCore) {
	t.Helper()
	core := newFakeCore()
	srv, err := New(context.Background(), core, opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv, core
}

// connect opens a go-sdk client session to srv over the in-memory transport.
func connect(t testing.TB, srv *Server) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		srv.Wait()
	})
	return cs
}

func call(t testing.TB, cs *sdk.ClientSession, name string, args any, meta sdk.Meta) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args, Meta: meta})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// metaError is the projected _meta.error of a result.
func metaError(t testing.TB, r *sdk.CallToolResult) (code, message string) {
	t.Helper()
	b, _ := json.Marshal(r.Meta["error"])
	var e struct{ Code, Message string }
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("_meta.error is %s", b)
	}
	return e.Code, e.Message
}

func text(r *sdk.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestListFollowsCursorsAndMapsNames(t *testing.T) {
	srv, _ := newFakeServer(t, Options{})
	cs := connect(t, srv)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		got[tl.Name] = tl
	}
	if len(got) != 3 || got["demo_read"] == nil || got["demo_write"] == nil || got["demo_block"] == nil {
		t.Fatalf("served %d tools %v, want demo_read, demo_write, demo_block (both core pages)", len(res.Tools), keys(got))
	}
	var want struct {
		InputSchema  any `json:"inputSchema"`
		OutputSchema any `json:"outputSchema"`
	}
	if err := json.Unmarshal([]byte(fakeTools[0]), &want); err != nil {
		t.Fatal(err)
	}
	r := got["demo_read"]
	if !reflect.DeepEqual(r.InputSchema, want.InputSchema) || !reflect.DeepEqual(r.OutputSchema, want.OutputSchema) {
		t.Errorf("schemas changed:\n in %v\nwant %v\nout %v\nwant %v", r.InputSchema, want.InputSchema, r.OutputSchema, want.OutputSchema)
	}
	if r.Title != "Read" || r.Description != "reads" {
		t.Errorf("title/description %q/%q", r.Title, r.Description)
	}
	w := got["demo_write"].Annotations
	if w == nil || w.DestructiveHint == nil || !*w.DestructiveHint || w.ReadOnlyHint || !w.IdempotentHint || w.OpenWorldHint == nil || *w.OpenWorldHint {
		t.Errorf("demo_write annotations %+v", w)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestCanonicalNames(t *testing.T) {
	srv, core := newFakeServer(t, Options{Names: NamesCanonical})
	cs := connect(t, srv)
	r := call(t, cs, "demo.read", map[string]any{}, nil)
	if r.IsError || !strings.Contains(core.lastCall(), `"name":"demo.read"`) {
		t.Fatalf("canonical call: isError %v, core got %s", r.IsError, core.lastCall())
	}
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "demo_read"}); err == nil {
		t.Fatal("a provider name was served in canonical mode")
	}
	if _, err := New(context.Background(), newFakeCore(), Options{Names: "dotted"}); err == nil {
		t.Fatal("Names \"dotted\" accepted")
	}
}

func TestCallContextAndMetaPassThrough(t *testing.T) {
	srv, core := newFakeServer(t, Options{})
	cs := connect(t, srv)
	r := call(t, cs, "demo_read", map[string]any{"path": "a"}, sdk.Meta{"idempotencyKey": "k-1", "toolCallId": "c-1", "timeoutMs": 500, "vendor/x": true})
	var sent struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		Meta      map[string]any `json:"_meta"`
	}
	if err := json.Unmarshal([]byte(core.lastCall()), &sent); err != nil {
		t.Fatal(err)
	}
	wantMeta := map[string]any{"source": "mcp", "mode": "agent", "toolCallId": "c-1", "idempotencyKey": "k-1", "timeoutMs": 500.0, "vendor/x": true}
	if sent.Name != "demo.read" || !reflect.DeepEqual(sent.Arguments, map[string]any{"path": "a"}) || !reflect.DeepEqual(sent.Meta, wantMeta) {
		t.Fatalf("core received %s", core.lastCall())
	}
	if r.IsError || r.Meta["toolCallId"] != "c-1" || r.Meta["error"] != nil {
		t.Fatalf("result %+v", r)
	}
	if b, _ := json.Marshal(r.StructuredContent); string(b) != `{"ok":true}` {
		t.Fatalf("structuredContent %s", b)
	}

	// Without a toolCallId the server makes one.
	r = call(t, cs, "demo_read", map[string]any{}, nil)
	if id, _ := r.Meta["toolCallId"].(string); !strings.HasPrefix(id, "mcp-") || !strings.Contains(core.lastCall(), id) {
		t.Fatalf("generated toolCallId %q, core got %s", id, core.lastCall())
	}
}

func TestCallCannotLeaveAgentMode(t *testing.T) {
	srv, core := newFakeServer(t, Options{Approval: Approval{All: true}, AllowDestructive: true})
	cs := connect(t, srv)
	for _, meta := range []sdk.Meta{{"mode": "direct"}, {"source": "local"}, {"mode": 3}} {
		before := len(core.calls)
		r := call(t, cs, "demo_write", map[string]any{}, meta)
		code, msg := metaError(t, r)
		if !r.IsError || code != "TOOL_VALIDATION_FAILED" || !strings.Contains(msg, "a call cannot change it") {
			t.Errorf("%v: isError %v, %s %s", meta, r.IsError, code, msg)
		}
		if len(core.calls) != before {
			t.Errorf("%v reached the core", meta)
		}
	}
}

func TestApprovalMessageNamesTheFlags(t *testing.T) {
	cases := []struct {
		opts Options
		want []string
	}{
		{Options{}, []string{"--approve demo_write", "--approve all", "--allow-destructive"}},
		{Options{Approval: Approval{All: true}}, []string{"approves demo_write", "--allow-destructive"}},
		{Options{Names: NamesCanonical}, []string{"--approve demo.write"}},
	}
	for _, c := range cases {
		srv, _ := newFakeServer(t, c.opts)
		cs := connect(t, srv)
		name := "demo_write"
		if c.opts.Names == NamesCanonical {
			name = "demo.write"
		}
		r := call(t, cs, name, map[string]any{}, nil)
		code, msg := metaError(t, r)
		if !r.IsError || code != "TOOL_APPROVAL_REQUIRED" {
			t.Fatalf("%+v: %v %s", c.opts, r.IsError, code)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) || !strings.Contains(text(r), w) {
				t.Errorf("%+v: message %q / text %q lacks %q", c.opts, msg, text(r), w)
			}
		}
		if !strings.HasPrefix(text(r), "[TOOL_APPROVAL_REQUIRED] ") {
			t.Errorf("text block %q", text(r))
		}
		if r.StructuredContent != nil {
			t.Errorf("an error result carries structuredContent %v (it does not match the output schema)", r.StructuredContent)
		}
	}
}

func TestSessionConfiguration(t *testing.T) {
	_, core := newFakeServer(t, Options{Approval: Approval{Tools: []string{"demo_write", "demo.read", "nope"}}, AllowDestructive: true, Durable: "memory"})
	var cfg map[string]any
	if err := json.Unmarshal([]byte(core.configs[0]), &cfg); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"approval": map[string]any{"mode": "static", "tools": []any{"demo.write", "demo.read", "nope"}, "allowDestructive": true},
		"durable":  map[string]any{"backend": "memory"},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Fatalf("session/configure %s", core.configs[0])
	}
	srv, _ := newFakeServer(t, Options{Approval: Approval{Tools: []string{"demo_write", "demo.read", "nope"}}})
	if u := srv.UnknownApprovals(); !reflect.DeepEqual(u, []string{"nope"}) {
		t.Fatalf("UnknownApprovals %v", u)
	}
}

func TestParseApprove(t *testing.T) {
	for in, want := range map[string]Approval{
		"": {}, "none": {}, "all": {All: true}, " a , b.c": {Tools: []string{"a", "b.c"}},
	} {
		got, err := ParseApprove(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseApprove(%q) = %+v, %v", in, got, err)
		}
	}
	for _, bad := range []string{",", "a,,b", "a,", "a b"} {
		if _, err := ParseApprove(bad); err == nil {
			t.Errorf("ParseApprove(%q) accepted", bad)
		}
	}
}

func TestUnknownToolIsAProtocolErrorAndTheSessionGoesOn(t *testing.T) {
	srv, _ := newFakeServer(t, Options{})
	cs := connect(t, srv)
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "demo.read"}) // dotted: not served
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("unknown tool: %v, want JSON-RPC -32602", err)
	}
	if r := call(t, cs, "demo_read", map[string]any{}, nil); r.IsError {
		t.Fatal("the session did not go on")
	}
}

func TestHostFailureIsAResultAndReconfigures(t *testing.T) {
	srv, core := newFakeServer(t, Options{})
	cs := connect(t, srv)
	core.failNext.Store(true)
	r := call(t, cs, "demo_read", map[string]any{}, nil)
	if code, _ := metaError(t, r); !r.IsError || code != "TOOL_EXECUTION_UNKNOWN" {
		t.Fatalf("host failure: %v %s", r.IsError, code)
	}
	if n := core.configCount(); n != 1 {
		t.Fatalf("%d configurations before the next call", n)
	}
	if r := call(t, cs, "demo_read", map[string]any{}, nil); r.IsError {
		t.Fatal("call after the reset failed")
	}
	if n := core.configCount(); n != 2 {
		t.Fatalf("the fresh instance was not configured again (%d configurations)", n)
	}
}
