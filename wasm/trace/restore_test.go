package trace

import (
	"strings"
	"testing"
)

// TestRestoreKeptRows: kept rows come first with "kept-" ids (parents remapped, never
// colliding with this page's ids), a row that was running becomes cancelled ("interrupted
// by a reload"), rows without an id or a name are skipped, and MaxRows still holds.
func TestRestoreKeptRows(t *testing.T) {
	tr := New(Options{MaxRows: 4})
	e := started("preview.setTheme", "call_1", "s1", "agent", `{"theme":"emerald"}`)
	tr.Observe(e)
	tr.Observe(ok(e, `{"theme":"emerald"}`, 12))
	tr.Restore([]ExportRow{
		{TraceID: "tr-1", Kind: KindAgent, Method: MethodAgentRequest, Name: AgentRequestName, Status: StatusCompleted},
		{TraceID: "tr-2", ParentID: "tr-1", Kind: KindCall, Method: MethodToolsCall, Name: "workspace.writeFile", Status: StatusRunning},
		{TraceID: "", Name: "skipped"},
	})
	rows := tr.Rows(Filter{})
	if len(rows) != 3 {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	if rows[0].TraceID != "kept-tr-1" || rows[1].TraceID != "kept-tr-2" || rows[1].ParentID != "kept-tr-1" || rows[2].TraceID != "tr-1" {
		t.Fatalf("order or ids: %s %s(%s) %s", rows[0].TraceID, rows[1].TraceID, rows[1].ParentID, rows[2].TraceID)
	}
	if rows[1].Status != StatusCancelled || !strings.Contains(rows[1].Summary, "interrupted") {
		t.Fatalf("a running kept row: %+v", rows[1].ExportRow)
	}
	var many []ExportRow
	for i := 0; i < 10; i++ {
		many = append(many, ExportRow{TraceID: "k" + string(rune('a'+i)), Kind: KindCall, Name: "x", Status: StatusCompleted})
	}
	tr.Restore(many)
	if rows := tr.Rows(Filter{}); len(rows) > 4 || rows[len(rows)-1].TraceID != "tr-1" {
		t.Fatalf("bounds after restore: %d rows, newest %s", len(rows), rows[len(rows)-1].TraceID)
	}
}
