package trace

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

var t0 = time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)

// started builds a started event the way the registry does (one *CallMeta per call).
func started(name, id, session, mode string, args string) audit.ToolCallEvent {
	req := mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args),
		Meta: &mcp.CallMeta{ToolCallID: id, SessionID: session, Source: "model", Mode: mode}}
	return audit.Started(req, audit.NewProvenance("test"), t0)
}

func ok(e audit.ToolCallEvent, sc string, ms int64) audit.ToolCallEvent {
	p := e.Provenance
	p.ElapsedMs = ms
	return e.Finished(&mcp.CallToolResult{StructuredContent: json.RawMessage(sc)}, p, e.At.Add(time.Duration(ms)*time.Millisecond))
}

func failed(e audit.ToolCallEvent, code mcp.Code, retryable bool) audit.ToolCallEvent {
	return e.Finished(mcp.ErrorResult(e.ToolCallID, mcp.NewError(code, retryable, map[string]any{"search": "secret needle"}, "failed: %s", code)), e.Provenance, e.At)
}

// TestReusedProviderIDsStayDistinct: two calls with the same provider id (and two without
// one) finishing in reverse order keep their own rows and results.
func TestReusedProviderIDsStayDistinct(t *testing.T) {
	tr := New(Options{})
	a := started("workspace.readFile", "call_1", "s", "agent", `{"path":"a.html"}`)
	b := started("workspace.readFile", "call_1", "s", "agent", `{"path":"b.html"}`)
	c := started("workspace.getStatus", "", "", "direct", `{}`)
	d := started("workspace.getStatus", "", "", "direct", `{}`)
	for _, e := range []audit.ToolCallEvent{a, b, c, d} {
		tr.Observe(e)
	}
	if tr.Running() != 4 {
		t.Fatalf("running %d", tr.Running())
	}
	tr.Observe(ok(b, `{"path":"b.html","source":"<p>B</p>","revision":3}`, 5))
	tr.Observe(failed(a, mcp.CodeWorkspaceFileNotFound, false))
	tr.Observe(ok(d, `{"fileCount":4,"revision":3}`, 1))
	tr.Observe(ok(c, `{"fileCount":4,"revision":2}`, 1))
	rows := tr.Rows(Filter{})
	if len(rows) != 4 || tr.Running() != 0 {
		t.Fatalf("rows %d running %d", len(rows), tr.Running())
	}
	if rows[0].Status != StatusFailed || rows[0].ErrorCode != "WORKSPACE_FILE_NOT_FOUND" || rows[0].Summary != "WORKSPACE_FILE_NOT_FOUND" || !rows[0].Terminal() {
		t.Errorf("row a %+v", rows[0])
	}
	if rows[1].Status != StatusCompleted || rows[1].Summary != "b.html · revision 3" || rows[1].DurationMs == nil || *rows[1].DurationMs != 5 {
		t.Errorf("row b %+v", rows[1])
	}
	if rows[2].Summary != "4 files · revision 2" || rows[3].Summary != "4 files · revision 3" {
		t.Errorf("anonymous rows %q %q", rows[2].Summary, rows[3].Summary)
	}
	ids := map[string]bool{}
	for _, r := range rows {
		if ids[r.TraceID] {
			t.Fatalf("duplicate trace id %s", r.TraceID)
		}
		ids[r.TraceID] = true
	}
	if strings.Contains(rows[1].ResultText, "<p>B</p>") || !strings.Contains(rows[1].ResultText, "[source redacted · 8 chars]") {
		t.Errorf("result text not redacted: %s", rows[1].ResultText)
	}
	if strings.Contains(rows[0].ResultText, "secret needle") {
		t.Errorf("error details not redacted: %s", rows[0].ResultText)
	}
}

// TestFallbackQueueWithoutMeta: events without the shared request object match FIFO per
// (session, name, toolCallId).
func TestFallbackQueueWithoutMeta(t *testing.T) {
	tr := New(Options{})
	mk := func(id string) audit.ToolCallEvent {
		e := started("preview.setTheme", id, "", "direct", `{"theme":"amber"}`)
		e.Request.Meta = nil
		return e
	}
	a, b := mk("x"), mk("x")
	tr.Observe(a)
	tr.Observe(b)
	tr.Observe(ok(a, `{"theme":"amber","revision":4}`, 2))
	rows := tr.Rows(Filter{})
	if rows[0].Status != StatusCompleted || rows[1].Status != StatusRunning {
		t.Fatalf("rows %+v", rows)
	}
	// A finished event without a started one is a row of its own.
	tr.Observe(ok(started("preview.refresh", "y", "", "direct", `{}`), `{"preview":"synced","revision":5}`, 3))
	if rows := tr.Rows(Filter{}); len(rows) != 3 || rows[2].Summary != "preview synced" {
		t.Fatalf("rows %+v", rows)
	}
}

func TestRedactedArguments(t *testing.T) {
	tr := New(Options{})
	src := strings.Repeat("<div>seed source</div>", 400)
	e := started("workspace.applyPatch", "p1", "", "direct",
		`{"path":"index.html","search":"needle-text","replace":"replacement-text","apiKey":"sk-live-1","occurrence":"all","source":`+strconv.Quote(src)+`}`)
	tr.Observe(e)
	tr.Observe(ok(e, `{"path":"index.html","replacements":2,"revision":9}`, 1))
	r := tr.Rows(Filter{})[0]
	for _, leak := range []string{"needle-text", "replacement-text", "sk-live-1", "seed source"} {
		if strings.Contains(r.ArgumentsText, leak) || strings.Contains(r.ResultText, leak) {
			t.Errorf("%q leaked: %s", leak, r.ArgumentsText)
		}
	}
	for _, want := range []string{"[search redacted · 11 chars]", "[replace redacted · 16 chars]", `"occurrence": "all"`, "index.html"} {
		if !strings.Contains(r.ArgumentsText, want) {
			t.Errorf("arguments %s lack %q", r.ArgumentsText, want)
		}
	}
	if r.Summary != "index.html · 2 replacements" || len(r.ArgumentsText) > MaxDetailBytes {
		t.Errorf("summary %q, %d bytes", r.Summary, len(r.ArgumentsText))
	}
}

func TestSummaries(t *testing.T) {
	for _, c := range []struct{ name, sc, want string }{
		{"workspace.listFiles", `{"files":[{},{},{}],"revision":7}`, "3 files · revision 7"},
		{"workspace.reset", `{"rootName":"studio","fileCount":4}`, "reset studio · 4 files"},
		{"workspace.saveAll", `{"savedPaths":["a","b"],"deletedPaths":["c"]}`, "2 saved · 1 deleted"},
		{"workspace.reloadFolder", `{"fileCount":5,"skipped":["x"]}`, "5 files reloaded · 1 skipped"},
		{"workspace.renameFile", `{"fromPath":"a.css","toPath":"b.css"}`, "a.css → b.css"},
		{"workspace.disconnectFolder", `{"filesystem":{"mode":"browser-only"}}`, "browser-only"},
		{"preview.getStatus", `{"status":"synced"}`, "status synced"},
		{"workspace.writeFile", `{"path":"app.js","revision":8}`, "app.js · revision 8"},
		{"workspace/upload", `{"revision":9}`, "revision 9"},
	} {
		if got := CallSummary(c.name, &mcp.CallToolResult{StructuredContent: json.RawMessage(c.sc)}); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestRetentionBounds: rows are bounded by count and by bytes; running rows outlive finished
// ones.
func TestRetentionBounds(t *testing.T) {
	tr := New(Options{})
	long := tr.Observe
	running := started("workspace.getStatus", "keep", "", "direct", `{}`)
	long(running)
	for i := 0; i < 1000; i++ {
		e := started("workspace.writeFile", "w"+strconv.Itoa(i), "", "direct", `{"path":"a.js","source":"x"}`)
		tr.Observe(e)
		tr.Observe(ok(e, `{"path":"a.js","revision":`+strconv.Itoa(i)+`}`, 1))
	}
	if n := tr.Len(); n != MaxRows {
		t.Fatalf("rows %d, want %d", n, MaxRows)
	}
	rows := tr.Rows(Filter{})
	if rows[0].ToolCallID != "keep" || rows[len(rows)-1].Summary != "a.js · revision 999" {
		t.Fatalf("kept %q … %q", rows[0].ToolCallID, rows[len(rows)-1].Summary)
	}
	// Bytes: big redacted details hit the byte bound before the count bound.
	tb := New(Options{MaxBytes: 64 << 10})
	big := `{"path":"a.js","note":"` + strings.Repeat("n", 4000) + `","list":[` + strings.Repeat(`"item",`, 40) + `"z"]}`
	for i := 0; i < 200; i++ {
		e := started("workspace.createFile", "c"+strconv.Itoa(i), "", "direct", big)
		tb.Observe(e)
		tb.Observe(ok(e, big, 1))
	}
	if tb.Bytes() > 64<<10 || tb.Len() >= 200 || tb.Len() == 0 || tb.Dropped() == 0 {
		t.Fatalf("bytes %d rows %d dropped %d", tb.Bytes(), tb.Len(), tb.Dropped())
	}
	recent := tr.Rows(Filter{Recent: RecentRows})
	if len(recent) != RecentRows || recent[RecentRows-1].Summary != "a.js · revision 999" {
		t.Fatalf("recent %d", len(recent))
	}
}

func TestClearDisabledWhileRunning(t *testing.T) {
	tr := New(Options{})
	e := started("workspace.getStatus", "1", "", "direct", `{}`)
	tr.Observe(e)
	if tr.Clear() || tr.Len() != 1 {
		t.Fatal("Clear ran while a call runs")
	}
	tr.Observe(ok(e, `{}`, 1))
	if !tr.Clear() || tr.Len() != 0 || len(tr.Sessions()) != 0 {
		t.Fatal("Clear did not clear")
	}
}

func TestAgentBracketAndSessions(t *testing.T) {
	tr := New(Options{})
	ag := started(AgentRequestName, "agent-request-1", "", "agent", `{"method":"agent/openrouter","promptChars":15}`)
	tr.Observe(ag)
	c1 := started("workspace.getStatus", "call_a", "openrouter-1", "agent", `{}`)
	tr.Observe(c1)
	tr.Observe(ok(c1, `{"fileCount":4,"revision":1}`, 1))
	direct := started("workspace.listFiles", "ui-1", "", "direct", `{}`)
	tr.Observe(direct)
	tr.Observe(ok(direct, `{"files":[],"revision":1}`, 1))
	tr.Observe(ok(ag, `{"toolCalls":1}`, 30))
	rows := tr.Rows(Filter{})
	if rows[0].Kind != KindAgent || rows[0].SessionID != "openrouter-1" || rows[0].Summary != "1 tool call" || rows[0].ToolCount != 1 {
		t.Fatalf("agent row %+v", rows[0])
	}
	if rows[1].ParentID != rows[0].TraceID || rows[2].ParentID != "" {
		t.Fatalf("parents %q %q", rows[1].ParentID, rows[2].ParentID)
	}
	if s := tr.Sessions(); len(s) != 2 || s[0] != "" || s[1] != "openrouter-1" {
		t.Fatalf("sessions %q", s)
	}
	if got := tr.Rows(SelectorFilter("s:openrouter-1")); len(got) != 2 {
		t.Fatalf("session rows %d", len(got))
	}
	if got := tr.Rows(SelectorFilter("-")); len(got) != 1 || got[0].Name != "workspace.listFiles" {
		t.Fatalf("direct rows %+v", got)
	}
	// A cancelled bracket.
	ag2 := started(AgentRequestName, "agent-request-2", "studio", "agent", `{}`)
	tr.Observe(ag2)
	p := ag2.Provenance
	p.State = audit.StateCancelled
	tr.Observe(ag2.Finished(mcp.ErrorResult("agent-request-2", mcp.NewError(mcp.CodeToolCancelled, false, nil, "cancelled")), p, t0))
	last := tr.Rows(Filter{Recent: 1})[0]
	if last.Status != StatusCancelled || last.Summary != "cancelled" {
		t.Fatalf("cancelled row %+v", last)
	}
	// A failed bracket naming the tool.
	ag3 := started(AgentRequestName, "agent-request-3", "studio", "agent", `{}`)
	tr.Observe(ag3)
	r := mcp.ErrorResult("agent-request-3", mcp.NewError(mcp.CodeWorkspacePatchNotFound, false, nil, "x"))
	r.StructuredContent = json.RawMessage(`{"toolCalls":2,"failedTool":"workspace.applyPatch"}`)
	tr.Observe(ag3.Finished(r, ag3.Provenance, t0))
	if last := tr.Rows(Filter{Recent: 1})[0]; last.Summary != "workspace.applyPatch failed · WORKSPACE_PATCH_NOT_FOUND" || last.ToolCount != 2 {
		t.Fatalf("failed row %+v", last)
	}
}

// TestExportIsMetadataOnly: the export never carries arguments, results, sources or keys, and
// stays within MaxExportBytes whatever the trace holds.
func TestExportIsMetadataOnly(t *testing.T) {
	tr := New(Options{})
	tr.Discovery(23, t0, 2*time.Millisecond)
	for i := 0; i < 300; i++ {
		e := started("workspace.writeFile", "w"+strconv.Itoa(i), "", "direct", `{"path":"index.html","source":"<h1>SEED SOURCE</h1>","token":"tok-123"}`)
		tr.Observe(e)
		tr.Observe(ok(e, `{"path":"index.html","revision":`+strconv.Itoa(i)+`,"source":"<h1>SEED SOURCE</h1>"}`, 1))
	}
	out := tr.Export(Filter{}, t0)
	if len(out) > MaxExportBytes {
		t.Fatalf("export %d bytes", len(out))
	}
	for _, leak := range []string{"SEED SOURCE", "tok-123", "argumentsText", "resultText"} {
		if bytes.Contains(out, []byte(leak)) {
			t.Fatalf("export contains %q", leak)
		}
	}
	var doc ExportDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion != ExportSchemaVersion || doc.Total != MaxRows || doc.Omitted+len(doc.Rows) != doc.Total || len(doc.Rows) == 0 {
		t.Fatalf("doc total %d omitted %d rows %d", doc.Total, doc.Omitted, len(doc.Rows))
	}
	if last := doc.Rows[len(doc.Rows)-1]; last.Summary != "index.html · revision 299" {
		t.Fatalf("newest row %+v", last)
	}
	small := New(Options{})
	small.Discovery(23, t0, 0)
	var d2 ExportDoc
	if err := json.Unmarshal(small.Export(Filter{}, t0), &d2); err != nil || len(d2.Rows) != 1 || d2.Rows[0].Summary != "23 tools available" || d2.Omitted != 0 {
		t.Fatalf("small export %+v %v", d2, err)
	}
}
