package registry

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/trace"
)

// Issue 14 item 11: a handler error with an empty message or an invalid code leaves the
// registry as the canonical TOOL_EXECUTION_FAILED, which its own validator accepts.
func TestInvalidHandlerErrorsBecomeCanonical(t *testing.T) {
	for _, te := range []*mcp.ToolError{
		{Code: "WORKSPACE_X", Message: ""},
		{Code: "WORKSPACE_X", Message: "   "},
		{Code: "has space", Message: "bad code"},
		{Code: "", Message: "no code"},
		{Code: mcp.Code(strings.Repeat("A", 200)), Message: "long code"},
	} {
		r := New(Options{})
		r.MustRegister(Tool{Name: "t.fail", InputSchema: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, *Call) (any, error) { return nil, te }})
		res := r.Call(context.Background(), call("t.fail", `{}`, &mcp.CallMeta{Mode: mcp.ModeDirect}))
		if err := mcp.ValidateCallToolResult(res); err != nil {
			t.Fatalf("%+v: the registry's result fails its own validator: %v", te, err)
		}
		if res.Error == nil || res.Error.Code != mcp.CodeToolExecutionFailed {
			t.Fatalf("%+v: %+v", te, res.Error)
		}
		raw, _ := json.Marshal(res)
		if _, err := mcp.ParseCallToolResult(raw); err != nil {
			t.Fatalf("%+v: %v", te, err)
		}
	}
}

// ListAllTools refuses a page with a tool that has no inputSchema.
func TestListAllRefusesToolWithoutInputSchema(t *testing.T) {
	for _, schema := range []string{"", "null", `"x"`, `[]`} {
		_, err := ListAllTools(context.Background(), func(context.Context, string) (*mcp.ListToolsResult, error) {
			return &mcp.ListToolsResult{Tools: []mcp.Tool{{Name: "ok", InputSchema: json.RawMessage(`{"type":"object"}`)}, {Name: "bad", InputSchema: json.RawMessage(schema)}}}, nil
		}, ListAllOptions{})
		if err == nil || !strings.Contains(err.Error(), `"bad"`) || !strings.Contains(err.Error(), "inputSchema") {
			t.Fatalf("schema %q: %v", schema, err)
		}
	}
}

// Observability and retention limits refuse negative or too-small values with an error naming
// the option, instead of silently taking the defaults.
func TestLimitsRefuseUnusableValues(t *testing.T) {
	bad := []Options{{PageSize: -1}, {PageSize: MaxPageSize + 1}, {IdempotencyRetention: -time.Second},
		{IdempotencyRetention: time.Millisecond}, {IdempotencyMaxEntries: -5}, {DurableLease: -1}, {Validation: "lenient"}}
	for _, o := range bad {
		if err := o.Validate(); err == nil {
			t.Errorf("registry %+v accepted", o)
		}
	}
	if err := (Options{}).Validate(); err != nil {
		t.Fatalf("zero options: %v", err)
	}
	for _, p := range []audit.Policy{{MaxBytes: -1}, {MaxBytes: 10}, {MaxDepth: -1}, {MaxStringLength: -3},
		{MaxArrayEntries: -1}, {MaxObjectEntries: -1}, {Retention: -time.Minute}, {Retention: time.Millisecond}, {MaxEntries: -1}} {
		err := p.Validate()
		if err == nil {
			t.Errorf("policy %+v accepted", p)
		} else if !strings.Contains(err.Error(), "Policy.") {
			t.Errorf("policy %+v: error does not name the field: %v", p, err)
		}
	}
	if err := (audit.Policy{}).Validate(); err != nil {
		t.Fatal(err)
	}
	for _, o := range []trace.Options{{MaxRows: -1}, {MaxBytes: -1}, {Policy: audit.Policy{MaxBytes: 1}}} {
		if err := o.Validate(); err == nil {
			t.Errorf("trace %+v accepted", o)
		}
	}
}
