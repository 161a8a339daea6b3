package trace

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

// uiRead is a finished read the page makes for itself (source local, mode direct).
func uiRead(tr *Trace, name, id string) {
	req := mcp.CallToolParams{Name: name, Arguments: json.RawMessage(`{}`),
		Meta: &mcp.CallMeta{ToolCallID: id, Source: mcp.SourceLocal, Mode: mcp.ModeDirect}}
	e := audit.Started(req, audit.NewProvenance("test"), t0)
	tr.Observe(e)
	tr.Observe(ok(e, `{"fileCount":4,"revision":3}`, 1))
}

// promptRun records one finished agent.request with n agent calls; it returns the agent
// row's trace id.
func promptRun(tr *Trace, id string, n int) string {
	ag := started(AgentRequestName, id, "studio", "agent", `{}`)
	tr.Observe(ag)
	for i := 0; i < n; i++ {
		c := started("preview.setTheme", id+"-call-"+strconv.Itoa(i), "studio", "agent", `{"theme":"amber"}`)
		tr.Observe(c)
		tr.Observe(ok(c, `{"theme":"amber","revision":4}`, 3))
	}
	tr.Observe(ok(ag, `{"toolCalls":`+strconv.Itoa(n)+`}`, 40))
	rows := tr.Rows(Filter{})
	for _, r := range rows {
		if r.Kind == KindAgent && r.ToolCallID == id {
			return r.TraceID
		}
	}
	return ""
}

func noDanglingParents(t *testing.T, ids map[string]bool, parents []string) {
	t.Helper()
	for _, p := range parents {
		if p != "" && !ids[p] {
			t.Fatalf("parentId %s points at a row that is not there", p)
		}
	}
}

// TestRetentionDropsUIReadsFirst: the page's own refresh reads never push a prompt run out of
// the retained rows, and a prompt run that is dropped goes with its calls.
func TestRetentionDropsUIReadsFirst(t *testing.T) {
	tr := New(Options{MaxRows: 20})
	run := promptRun(tr, "agent-request-1", 3)
	for i := 0; i < 200; i++ {
		uiRead(tr, []string{"workspace.listFiles", "workspace.getStatus", "workspace.readFile"}[i%3], "ui-"+strconv.Itoa(i))
	}
	rows := tr.Rows(Filter{})
	if len(rows) != 20 || rows[0].TraceID != run {
		t.Fatalf("%d rows, first %+v", len(rows), rows[0])
	}
	children := 0
	for _, r := range rows {
		if r.ParentID == run {
			children++
		}
	}
	if children != 3 {
		t.Fatalf("the run kept %d of its 3 calls", children)
	}

	// Without UI reads to drop, the oldest run goes — with its calls.
	small := New(Options{MaxRows: 6})
	first := promptRun(small, "agent-request-1", 2)
	promptRun(small, "agent-request-2", 2)
	promptRun(small, "agent-request-3", 1)
	ids := map[string]bool{}
	var parents []string
	for _, r := range small.Rows(Filter{}) {
		ids[r.TraceID] = true
		parents = append(parents, r.ParentID)
		if r.TraceID == first || r.ParentID == first {
			t.Fatalf("the oldest run is still there: %+v", r)
		}
	}
	noDanglingParents(t, ids, parents)
}

// TestExportKeepsPromptRuns: after one prompt run and many UI reads the 8 KiB export keeps
// the run's agent.request row and its calls (the UI reads are left out first), and never
// holds a parentId it does not contain — also when the selection (Recent) cut the parent off.
func TestExportKeepsPromptRuns(t *testing.T) {
	tr := New(Options{})
	run := promptRun(tr, "agent-request-1", 4)
	for i := 0; i < 200; i++ {
		uiRead(tr, []string{"workspace.listFiles", "workspace.getStatus", "workspace.readFile"}[i%3], "ui-"+strconv.Itoa(i))
	}
	for _, f := range []Filter{{}, {Recent: 8}} {
		out := tr.Export(f, t0)
		if len(out) > MaxExportBytes {
			t.Fatalf("export %d bytes", len(out))
		}
		var doc ExportDoc
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Omitted+len(doc.Rows) != doc.Total {
			t.Fatalf("total %d omitted %d rows %d", doc.Total, doc.Omitted, len(doc.Rows))
		}
		ids := map[string]bool{}
		var parents []string
		agent, calls := false, 0
		for i, r := range doc.Rows {
			ids[r.TraceID] = true
			parents = append(parents, r.ParentID)
			agent = agent || r.TraceID == run
			if r.ParentID == run {
				calls++
			}
			if i > 0 && r.StartedAt.Before(doc.Rows[i-1].StartedAt) {
				t.Fatal("rows out of order")
			}
		}
		noDanglingParents(t, ids, parents)
		if f.Recent == 0 && (!agent || calls != 4 || len(doc.Rows) < 6) {
			t.Fatalf("export without the prompt run whole: agent %v, %d calls, %d rows", agent, calls, len(doc.Rows))
		}
	}
}
