package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/webcoding/studio/wasm/mcp"
)

func TestSafeArgumentPreview(t *testing.T) {
	long := strings.Repeat("é", 130)
	cases := map[string]string{
		`{"path":"index.html","theme":"dark","source":"<script>secret</script>"}`: "path: index.html · theme: dark",
		`{"theme":"dark","path":"a.css"}`:                                         "path: a.css · theme: dark",
		`{"theme":"dark"}`:                                                        "theme: dark",
		`{"path":12.50}`:                                                          "path: 12.5",
		`{"path":true,"theme":false}`:                                             "path: true · theme: false",
		`{"path":null,"theme":{"x":1}}`:                                           "",
		`{"path":["a"],"search":"s","replace":"r"}`:                               "",
		`{"source":"x"}`:                                                          "",
		`{"path":"` + long + `"}`:                                                 "path: " + strings.Repeat("é", 120),
		`[]`:                                                                      "",
		`{"path":`:                                                                "",
		``:                                                                        "",
	}
	for in, want := range cases {
		if got := SafeArgumentPreview(json.RawMessage(in)); got != want {
			t.Errorf("SafeArgumentPreview(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestArgumentNames(t *testing.T) {
	if diff := cmp.Diff([]string{"a", "b", "source"}, ArgumentNames(json.RawMessage(`{"source":"x","b":1,"a":{}}`))); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"a", "path"}, ArgumentNames(json.RawMessage(` {"p\u0061th":1, "a":[{"x":1}], "a":2} `))); diff != "" {
		t.Error(diff)
	}
	for _, in := range []string{``, `null`, `[1]`, `"x"`, `{`, `{}`} {
		if got := ArgumentNames(json.RawMessage(in)); got == nil || len(got) != 0 {
			t.Errorf("ArgumentNames(%q) = %#v, want an empty slice", in, got)
		}
	}
}

func sampleEvent(t *testing.T) ToolCallEvent {
	t.Helper()
	req := mcp.CallToolParams{
		Name:      "workspace.writeFile",
		Arguments: json.RawMessage(`{"path":"index.html","source":"<h1>private body</h1>","expectedRevision":3}`),
		Meta:      &mcp.CallMeta{ToolCallID: "call-1", SessionID: "s-1", Source: mcp.SourceModel, Mode: mcp.ModeAgent},
	}
	return Started(req, NewProvenance("studio:1"), mustTime(t, "2026-11-30T01:00:00Z"))
}

func TestStartedAndFinished(t *testing.T) {
	ev := sampleEvent(t)
	if ev.Type != EventStarted || ev.ToolCallID != "call-1" || ev.SessionID != "s-1" || ev.Source != "model" ||
		ev.Mode != "agent" || ev.Name != "workspace.writeFile" || ev.Provenance.State != StatePending || ev.Result != nil {
		t.Fatalf("Started = %+v", ev)
	}
	end := mustTime(t, "2026-11-30T01:00:01Z")
	ok := &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent("saved")}, ToolCallID: "call-1"}
	done := ev.Finished(ok, ev.Provenance, end)
	if done.Type != EventCompleted || done.Provenance.State != StateCompleted || done.Result != ok || !done.At.Equal(end) {
		t.Errorf("Finished(success) = %+v", done)
	}
	if ev.Type != EventStarted || ev.Result != nil {
		t.Errorf("Finished modified the started event: %+v", ev)
	}
	failed := ev.Finished(mcp.ErrorResult("call-1", mcp.NewError(mcp.CodeToolTimeout, true, nil, "t")), ev.Provenance, end)
	if failed.Type != EventFailed || failed.Provenance.State != StateUnknown {
		t.Errorf("Finished(timeout) = %+v", failed)
	}
	if nilEnd := ev.Finished(nil, ev.Provenance, end); nilEnd.Type != EventFailed {
		t.Errorf("Finished(nil).Type = %s", nilEnd.Type)
	}
	// An explicit terminal state is kept.
	prov := ev.Provenance
	prov.State = StateCancelled
	if got := ev.Finished(mcp.ErrorResult("call-1", mcp.NewError(mcp.CodeToolPolicyDenied, false, nil, "d")), prov, end); got.Provenance.State != StateCancelled {
		t.Errorf("state overwritten: %s", got.Provenance.State)
	}
	// The wire form uses the documented names.
	b, _ := json.Marshal(done)
	for _, k := range []string{`"type":"completed"`, `"toolCallId":"call-1"`, `"sessionId":"s-1"`, `"request":{"name":"workspace.writeFile"`, `"provenance":{"schemaVersion"`, `"result":{`, `"at":"2026-11-30T01:00:01Z"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("event JSON lacks %s: %s", k, b)
		}
	}
}

func TestObserve(t *testing.T) {
	ev := sampleEvent(t)
	res := mcp.ErrorResult("call-1", mcp.NewError(mcp.CodeWorkspaceRevisionConflict, true,
		map[string]any{"expectedRevision": 3, "currentRevision": 4}, "Revision moved: private message"))
	done := ev.Finished(res, ev.Provenance, ev.At)
	obs := DefaultPolicy().Observe(done, map[string]any{"revision": 4, "apiKey": "sk-or-live", "trigger": "chat"})
	retry := true
	want := Observation{
		SchemaVersion: ObservationSchemaVersion, Type: EventFailed, ToolCallID: "call-1", Name: "workspace.writeFile",
		Source: "model", Mode: "agent", SessionID: "s-1",
		ArgumentNames: []string{"expectedRevision", "path", "source"},
		Result: &ObservedResult{IsError: true, ErrorCode: mcp.CodeWorkspaceRevisionConflict, Retryable: &retry,
			ContentTypes: []string{"text"}, HasStructuredContent: true},
		Provenance: done.Provenance,
		Context:    map[string]any{"revision": json.Number("4"), "apiKey": "[apiKey redacted]", "trigger": "chat"},
		At:         ev.At,
		Retention:  DefaultPolicy().RetentionAt(ev.At),
	}
	if diff := cmp.Diff(want, obs); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, _ := json.Marshal(obs)
	for _, leak := range []string{"private body", "index.html", "private message", "sk-or-live", "expectedRevision\":3"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("observation leaks %q: %s", leak, b)
		}
	}
}

func TestObserveCapsAndCodes(t *testing.T) {
	var args strings.Builder
	args.WriteString("{")
	for i := range 70 {
		if i > 0 {
			args.WriteString(",")
		}
		args.WriteString(`"k` + itoa(100+i) + `":1`)
	}
	args.WriteString("}")
	ev := Started(mcp.CallToolParams{Name: "t", Arguments: json.RawMessage(args.String())}, NewProvenance("o"), mustTime(t, "2026-11-30T01:00:00Z"))
	obs := Policy{}.Observe(ev, nil)
	if len(obs.ArgumentNames) != DefaultMaxObjectEntries || obs.OmittedArgumentNames != 6 || obs.ArgumentNames[0] != "k100" {
		t.Errorf("names %d (first %s), omitted %d", len(obs.ArgumentNames), obs.ArgumentNames[0], obs.OmittedArgumentNames)
	}
	if obs.Result != nil || obs.Context != nil {
		t.Errorf("started observation has result/context: %+v", obs)
	}
	bad := &mcp.CallToolResult{IsError: true, Error: &mcp.ToolError{Code: "BAD CODE\n", Message: "m"},
		Content: []mcp.Content{mcp.TextContent("a"), {Type: "image", Data: "x", MimeType: "image/png"}, mcp.TextContent("b")}}
	r := ObserveResult(bad)
	if r.ErrorCode != "" || r.Retryable == nil || *r.Retryable || !cmp.Equal(r.ContentTypes, []string{"text", "image"}) || r.HasStructuredContent {
		t.Errorf("ObserveResult(bad code) = %+v", r)
	}
	if ObserveResult(nil) != nil {
		t.Error("ObserveResult(nil) != nil")
	}
	okr := ObserveResult(&mcp.CallToolResult{Content: []mcp.Content{}})
	if okr.Retryable != nil || okr.ErrorCode != "" || okr.ContentTypes == nil {
		t.Errorf("ObserveResult(success) = %+v", okr)
	}
}

func TestDurableDiagnostic(t *testing.T) {
	details := map[string]any{"path": "index.html", "source": "<private>", "timeoutMs": 2500,
		"note": strings.Repeat("n", 600)}
	in := mcp.ErrorResult("call-7", mcp.NewError(mcp.CodeToolTimeout, true, details, "Tool timed out after 2500 ms: private"))
	d, ok := DurableDiagnostic(in)
	if !ok {
		t.Fatal("not ok for an error result")
	}
	wantDetails := map[string]any{"path": "index.html", "source": "[source redacted]", "timeoutMs": json.Number("2500"),
		"note": strings.Repeat("n", 512) + TruncatedSuffix}
	want := Diagnostic{
		Result: mcp.CallToolResult{
			Content: []mcp.Content{mcp.TextContent(DiagnosticText)},
			IsError: true,
			Error:   &mcp.ToolError{Code: mcp.CodeToolTimeout, Message: DiagnosticText, Retryable: true, Details: wantDetails},
		},
		Reason: "Tool execution ended with TOOL_TIMEOUT; reconcile before retrying.",
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, _ := json.Marshal(d)
	for _, leak := range []string{"call-7", "<private>", "timed out after", "structuredContent"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("diagnostic keeps %q: %s", leak, b)
		}
	}
	if in.ToolCallID != "call-7" || in.Error.Message == DiagnosticText || len(in.StructuredContent) == 0 {
		t.Error("DurableDiagnostic modified its input")
	}

	// Details beyond the byte bound become the explicit marker object.
	huge := map[string]any{}
	for i := range 60 {
		huge["f"+itoa(100+i)] = strings.Repeat("x", 400)
	}
	d, _ = DurableDiagnostic(mcp.ErrorResult("c", mcp.NewError(mcp.CodeToolExecutionFailed, false, huge, "m")))
	dm, _ := d.Result.Error.Details.(map[string]any)
	if dm[ObjectOverflowKey] != "value exceeded 8192 bytes" {
		t.Errorf("huge details = %v", d.Result.Error.Details)
	}

	// A code outside the code pattern is not copied.
	d, ok = DurableDiagnostic(&mcp.CallToolResult{IsError: true, ToolCallID: "c",
		Error: &mcp.ToolError{Code: "not a code!", Message: "m", Retryable: true, Details: map[string]any{"x": 1}}})
	if !ok || d.Reason != AmbiguousReasonText || d.Result.Error.Code != mcp.CodeToolExecutionUnknown ||
		d.Result.Error.Details != nil || !d.Result.Error.Retryable {
		t.Errorf("invalid code: %+v %+v", d, d.Result.Error)
	}
	d, ok = DurableDiagnostic(&mcp.CallToolResult{IsError: true})
	if !ok || d.Reason != AmbiguousReasonText || d.Result.Error == nil {
		t.Errorf("missing error object: %+v", d)
	}

	// Successes and nil are not diagnostics.
	if _, ok := DurableDiagnostic(&mcp.CallToolResult{ToolCallID: "c"}); ok {
		t.Error("success result produced a diagnostic")
	}
	if _, ok := DurableDiagnostic(nil); ok {
		t.Error("nil result produced a diagnostic")
	}
}
