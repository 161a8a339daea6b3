package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

const closedPath = `{"type":"object","properties":{"path":{"type":"string","minLength":1,"maxLength":160}},"required":["path"],"additionalProperties":false}`

func echoTool(name string, ann mcp.ToolAnnotations) Tool {
	return Tool{Name: name, Description: "echo", InputSchema: json.RawMessage(closedPath), Annotations: ann,
		Handler: func(ctx context.Context, c *Call) (any, error) {
			var in struct{ Path string }
			_ = c.Decode(&in)
			return map[string]any{"path": in.Path, "by": c.ToolCallID}, nil
		}}
}

func call(name, args string, meta *mcp.CallMeta) mcp.CallToolParams {
	return mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args), Meta: meta}
}

// TestSchemaCompiledOnFirstUse: Register keeps a schema that does not compile (compiling is
// deferred, docs/design.md §5.14); Check names it, and calling the tool fails with a typed
// TOOL_EXECUTION_FAILED instead of validating against nothing.
func TestSchemaCompiledOnFirstUse(t *testing.T) {
	r := New(Options{})
	r.MustRegister(echoTool("t.good", mcp.ToolAnnotations{}))
	if err := r.Check(); err != nil {
		t.Fatalf("Check on a valid catalog: %v", err)
	}
	r.MustRegister(Tool{Name: "t.bad", InputSchema: json.RawMessage(`{"type":"nope"}`), Handler: echoTool("t.bad", mcp.ToolAnnotations{}).Handler})
	err := r.Check()
	if err == nil || !strings.Contains(err.Error(), `"t.bad"`) {
		t.Fatalf("Check = %v, want an error naming t.bad", err)
	}
	res := r.Call(context.Background(), mcp.CallToolParams{Name: "t.bad", Arguments: json.RawMessage(`{}`)})
	if !res.IsError || res.Error == nil || res.Error.Code != mcp.CodeToolExecutionFailed {
		t.Fatalf("calling a tool whose schema does not compile: %+v", res)
	}
}

func TestRegisterRejectsProviderCollisions(t *testing.T) {
	r := New(Options{})
	r.MustRegister(echoTool("workspace.getStatus", mcp.ToolAnnotations{}))
	if err := r.Register(echoTool("workspace_getStatus", mcp.ToolAnnotations{})); err == nil {
		t.Fatal("workspace_getStatus collides with workspace.getStatus in provider form and must be refused")
	}
	if err := r.Register(echoTool("has space", mcp.ToolAnnotations{})); err == nil {
		t.Fatal("a name with no provider-legal form must be refused")
	}
	if err := r.Register(echoTool("workspace.getStatus", mcp.ToolAnnotations{})); err == nil {
		t.Fatal("duplicate name accepted")
	}
	if err := r.Register(Tool{Name: "x", InputSchema: json.RawMessage(`[]`), Handler: echoTool("x", mcp.ToolAnnotations{}).Handler}); err == nil {
		t.Fatal("a schema that is not a JSON object was accepted")
	}
	if got, ok := r.Names().ToCanonical("workspace_getStatus"); !ok || got != "workspace.getStatus" {
		t.Fatalf("name map: %q %v", got, ok)
	}
}

func TestListAllToolsFollowsCursors(t *testing.T) {
	r := New(Options{PageSize: 2})
	for i := 0; i < 5; i++ {
		r.MustRegister(echoTool(fmt.Sprintf("t.n%d", i), mcp.ToolAnnotations{}))
	}
	all, err := r.ListAll(context.Background())
	if err != nil || len(all) != 5 || all[4].Name != "t.n4" {
		t.Fatalf("ListAll = %d tools, %v", len(all), err)
	}
	pages := 0
	_, err = ListAllTools(context.Background(), func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
		pages++
		return &mcp.ListToolsResult{Tools: []mcp.Tool{{Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}}, NextCursor: "same"}, nil
	}, ListAllOptions{})
	if !errors.Is(err, ErrRepeatedCursor) || pages != 2 {
		t.Fatalf("repeated cursor: err %v after %d pages", err, pages)
	}
	n := 0
	_, err = ListAllTools(context.Background(), func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
		n++
		return &mcp.ListToolsResult{NextCursor: fmt.Sprint(n)}, nil
	}, ListAllOptions{MaxPages: 3})
	if !errors.Is(err, ErrTooManyPages) || n != 3 {
		t.Fatalf("page cap: err %v after %d pages", err, n)
	}
	n = 0
	_, err = ListAllTools(context.Background(), func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
		n++
		if n == DefaultMaxPages+5 {
			return &mcp.ListToolsResult{}, nil
		}
		return &mcp.ListToolsResult{NextCursor: fmt.Sprint(n)}, nil
	}, ListAllOptions{MaxPages: UnlimitedPages})
	if err != nil {
		t.Fatalf("unlimited pages: %v", err)
	}
	if _, err := ListAllTools(context.Background(), nil, ListAllOptions{MaxPages: -2}); err == nil {
		t.Fatal("MaxPages -2 accepted")
	}
}

func TestEventsAndProvenance(t *testing.T) {
	var mu sync.Mutex
	var events []audit.ToolCallEvent
	r := New(Options{OwnerID: "owner-1", Observer: func(e audit.ToolCallEvent) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}})
	r.MustRegister(echoTool("t.read", mcp.ToolAnnotations{ReadOnlyHint: true}))
	max := 1000.0
	res := r.Call(context.Background(), call("t.read", `{"path":"a"}`, &mcp.CallMeta{ToolCallID: "c1", MaxOutputBytes: &max}))
	if res.IsError {
		t.Fatalf("call failed: %s", res.Content[0].Text)
	}
	r.Call(context.Background(), call("t.nope", `{}`, &mcp.CallMeta{ToolCallID: "c2"}))
	r.Call(context.Background(), call("t.read", `{}`, &mcp.CallMeta{IdempotencyKey: new(string), ToolCallID: "c3"}))
	if len(events) != 4 {
		t.Fatalf("want started+completed for c1, started+failed for c2, none for the invalid option; got %d", len(events))
	}
	want := []struct {
		typ   audit.EventType
		id    string
		state audit.ProvenanceState
	}{{audit.EventStarted, "c1", audit.StatePending}, {audit.EventCompleted, "c1", audit.StateCompleted},
		{audit.EventStarted, "c2", audit.StatePending}, {audit.EventFailed, "c2", audit.StateFailed}}
	for i, w := range want {
		e := events[i]
		if e.Type != w.typ || e.ToolCallID != w.id || e.Provenance.State != w.state || e.Provenance.OwnerID != "owner-1" {
			t.Errorf("event %d = %s %s %s", i, e.Type, e.ToolCallID, e.Provenance.State)
		}
		raw, _ := json.Marshal(e.Provenance)
		if _, err := audit.ParseProvenance(raw); err != nil {
			t.Errorf("event %d provenance does not pass the strict parser: %v", i, err)
		}
	}
	if events[1].Provenance.UsedOutputBytes == 0 || events[1].Provenance.MaxOutputBytes == nil || *events[1].Provenance.MaxOutputBytes != 1000 {
		t.Errorf("completed provenance misses sizes: %+v", events[1].Provenance)
	}
}

func TestConcurrentCallsNeverCross(t *testing.T) {
	r := New(Options{})
	r.MustRegister(echoTool("t.read", mcp.ToolAnnotations{ReadOnlyHint: true}))
	var wg sync.WaitGroup
	errs := make(chan string, 800)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				id := fmt.Sprintf("g%d-%d", g, i)
				timeout := 5000.0
				res := r.Call(context.Background(), call("t.read", `{"path":"`+id+`"}`, &mcp.CallMeta{ToolCallID: id, TimeoutMs: &timeout}))
				var out struct{ Path, By string }
				_ = json.Unmarshal(res.StructuredContent, &out)
				if res.ToolCallID != id || out.Path != id || out.By != id {
					errs <- fmt.Sprintf("%s got %s / %+v", id, res.ToolCallID, out)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestApprovalQueue(t *testing.T) {
	q := NewApprovalQueue(nil)
	r := New(Options{Policy: DefaultPolicy(q)})
	r.MustRegister(echoTool("t.write", mcp.ToolAnnotations{}))
	var snaps [][]Approval
	var smu sync.Mutex
	unsub := q.Subscribe(func(a []Approval) { smu.Lock(); snaps = append(snaps, a); smu.Unlock() })
	defer unsub()

	results := make(chan *mcp.CallToolResult, 2)
	go func() {
		results <- r.Call(context.Background(), call("t.write", `{"path":"src/app.js"}`, &mcp.CallMeta{ToolCallID: "a1", Source: "local"}))
	}()
	waitFor(t, func() bool { return len(q.Snapshot()) == 1 })
	snap := q.Snapshot()[0]
	if snap.ID != "a1" || snap.Name != "t.write" || snap.SafeArgumentPreview != "path: src/app.js" || snap.Source != "local" ||
		len(snap.ArgumentKeys) != 1 || snap.Description != "echo" {
		t.Fatalf("snapshot %+v", snap)
	}
	if err := q.Resolve("a1", true); err != nil {
		t.Fatal(err)
	}
	if res := <-results; res.IsError {
		t.Fatalf("approved call failed: %s", res.Content[0].Text)
	}
	go func() {
		results <- r.Call(context.Background(), call("t.write", `{"path":"b"}`, &mcp.CallMeta{ToolCallID: "a2"}))
	}()
	waitFor(t, func() bool { return len(q.Snapshot()) == 1 })
	if n := q.DenyAll(); n != 1 {
		t.Fatalf("DenyAll = %d", n)
	}
	if res := <-results; res.Error == nil || res.Error.Code != mcp.CodeToolPolicyDenied {
		t.Fatalf("denied call: %+v", res.Error)
	}
	if err := q.Resolve("a2", true); !errors.Is(err, ErrApprovalNotFound) {
		t.Fatalf("resolving a settled approval: %v", err)
	}
	smu.Lock()
	defer smu.Unlock()
	if len(snaps) < 4 {
		t.Fatalf("subscriber saw %d changes, want at least 4", len(snaps))
	}
}

func TestApprovalSnapshotNeverHoldsSources(t *testing.T) {
	q := NewApprovalQueue(nil)
	r := New(Options{Policy: DefaultPolicy(q)})
	r.MustRegister(Tool{Name: "t.write", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"source":{"type":"string"}}}`),
		Handler: func(ctx context.Context, c *Call) (any, error) { return map[string]any{}, nil }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *mcp.CallToolResult)
	go func() {
		done <- r.Call(ctx, call("t.write", `{"path":"a.js","source":"SECRET-SOURCE"}`, &mcp.CallMeta{ToolCallID: "s1"}))
	}()
	waitFor(t, func() bool { return len(q.Snapshot()) == 1 })
	raw, _ := json.Marshal(q.Snapshot())
	if strings.Contains(string(raw), "SECRET-SOURCE") {
		t.Fatalf("approval snapshot leaks the source: %s", raw)
	}
	cancel()
	if res := <-done; res.Error == nil || res.Error.Code != mcp.CodeToolCancelled {
		t.Fatalf("cancel while waiting for approval: %+v", res.Error)
	}
	if len(q.Snapshot()) != 0 {
		t.Fatal("a cancelled call must leave the queue")
	}
}

func TestIdempotencyExpiresAndIsBounded(t *testing.T) {
	now := time.Unix(1000, 0)
	clock := func() time.Time { return now }
	r := New(Options{Clock: clock, IdempotencyMaxEntries: 3, Policy: DefaultPolicy(StaticApprover{All: true})})
	runs := 0
	r.MustRegister(Tool{Name: "t.count", InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, c *Call) (any, error) { runs++; return map[string]any{"runs": runs}, nil }})
	key := func(k string) *mcp.CallMeta { return &mcp.CallMeta{IdempotencyKey: &k} }
	r.Call(context.Background(), call("t.count", `{}`, key("k")))
	r.Call(context.Background(), call("t.count", `{}`, key("k")))
	if runs != 1 {
		t.Fatalf("replay ran the handler: runs=%d", runs)
	}
	now = now.Add(DefaultIdempotencyRetention)
	r.Call(context.Background(), call("t.count", `{}`, key("k")))
	if runs != 2 {
		t.Fatalf("an expired entry must run again: runs=%d", runs)
	}
	for i := 0; i < 10; i++ {
		r.Call(context.Background(), call("t.count", `{}`, key(fmt.Sprint("other", i))))
	}
	if n := r.idem.size(); n > 3 {
		t.Fatalf("settled entries not bounded: %d", n)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestOutputLimitOnAMutationSaysItRan: a mutation whose result is withheld for size must say
// that it ran, so that nobody repeats it.
func TestOutputLimitOnAMutationSaysItRan(t *testing.T) {
	r := New(Options{})
	r.MustRegister(echoTool("t.read", mcp.ToolAnnotations{ReadOnlyHint: true}))
	r.MustRegister(echoTool("t.write", mcp.ToolAnnotations{}))
	max := 5.0
	for name, executed := range map[string]bool{"t.read": false, "t.write": true} {
		res := r.Call(context.Background(), call(name, `{"path":"a"}`, &mcp.CallMeta{MaxOutputBytes: &max, Mode: mcp.ModeDirect}))
		if res.Error == nil || res.Error.Code != mcp.CodeToolOutputLimitExceeded {
			t.Fatalf("%s: %+v", name, res.Error)
		}
		d := res.Error.Details.(map[string]any)
		if got := d["executed"] == true; got != executed || strings.Contains(res.Error.Message, "did run") != executed {
			t.Errorf("%s: executed=%v in %v / %q", name, d["executed"], d, res.Error.Message)
		}
	}
}

// TestTypedResultsKeepTheOutputCheck: a typed result whose Go type proves the output schema
// (schema.AdmitsType) completes; one whose type cannot prove it is still validated per call,
// and a value that breaks the schema is refused with TOOL_OUTPUT_VALIDATION_FAILED.
func TestTypedResultsKeepTheOutputCheck(t *testing.T) {
	const out = `{"type":"object","properties":{"path":{"type":"string"},"revision":{"type":"integer","minimum":0}},"required":["path","revision"],"additionalProperties":false}`
	type proven struct {
		Path     string `json:"path"`
		Revision uint64 `json:"revision"`
	}
	type signed struct {
		Path     string `json:"path"`
		Revision int64  `json:"revision"`
	}
	r := New(Options{})
	var rev int64
	for name, h := range map[string]Handler{
		"t.proven": func(context.Context, *Call) (any, error) { return proven{Path: "a", Revision: 7}, nil },
		"t.signed": func(context.Context, *Call) (any, error) { return signed{Path: "a", Revision: rev}, nil },
	} {
		r.MustRegister(Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(out),
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true}, Handler: h})
	}
	res := r.Call(context.Background(), call("t.proven", `{}`, nil))
	if res.IsError || string(res.StructuredContent) != `{"path":"a","revision":7}` {
		t.Fatalf("proven: %+v %s", res.Error, res.StructuredContent)
	}
	if res := r.Call(context.Background(), call("t.signed", `{}`, nil)); res.IsError {
		t.Fatalf("signed, revision 0: %+v", res.Error)
	}
	rev = -1
	res = r.Call(context.Background(), call("t.signed", `{}`, nil))
	if res.Error == nil || res.Error.Code != mcp.CodeToolOutputValidationFailed {
		t.Fatalf("signed, revision -1: want TOOL_OUTPUT_VALIDATION_FAILED, got %+v", res)
	}
}

// TestStringArgReadsTheValidatedTree: StringArg answers from the tree decoded for validation,
// returns a copy that does not change when the request's bytes do, and works on a Call built
// by hand.
func TestStringArgReadsTheValidatedTree(t *testing.T) {
	var got string
	var present, other bool
	r := New(Options{})
	r.MustRegister(Tool{Name: "t.read", InputSchema: json.RawMessage(closedPath), Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
		Handler: func(_ context.Context, c *Call) (any, error) {
			got, present = c.StringArg("path")
			_, other = c.StringArg("nope")
			return map[string]any{}, nil
		}})
	raw := []byte(`{"name":"t.read","arguments":{"path":"index.html"}}`)
	if res := r.CallRaw(context.Background(), raw); res.IsError {
		t.Fatalf("%+v", res.Error)
	}
	copy(raw[bytes.Index(raw, []byte("index")):], "XXXXX")
	if got != "index.html" || !present || other {
		t.Fatalf("StringArg = %q %v, other %v; want a stable copy of index.html", got, present, other)
	}
	c := &Call{Arguments: json.RawMessage(`{"path":"a\u00e9","n":1}`)}
	if s, ok := c.StringArg("path"); s != "aé" || !ok {
		t.Fatalf("hand-built Call: %q %v", s, ok)
	}
	if _, ok := c.StringArg("n"); ok {
		t.Fatal("a number is not a string argument")
	}
	if _, ok := (&Call{Arguments: json.RawMessage(`[1]`)}).StringArg("path"); ok {
		t.Fatal("arguments that are not an object have no string argument")
	}
}
