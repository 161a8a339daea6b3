package trace

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

// FuzzObserve feeds arbitrary argument and result JSON, ids and event orders and checks the
// bounds and that a planted source never reaches a row or the export.
func FuzzObserve(f *testing.F) {
	f.Add(`{"path":"a"}`, `{"revision":1}`, "call_1", "WORKSPACE_REVISION_CONFLICT", uint8(3), "seed-source-text")
	f.Add(`[1,2,{"x":null}]`, `"str"`, "", "", uint8(0), "zzzzzzzzzz")
	f.Add(`{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}`, `not json`, "x", "bad code", uint8(255), "<script>s</script>")
	f.Fuzz(func(t *testing.T, args, result, id, code string, ops uint8, source string) {
		tr := New(Options{MaxRows: 16, MaxBytes: 16 << 10})
		var rawArgs json.RawMessage
		if json.Valid([]byte(args)) {
			rawArgs = json.RawMessage(args)
		}
		planted := len(source) >= 8 && !strings.Contains(args, source) && !strings.Contains(result, source) &&
			!strings.Contains(id, source) && !strings.Contains(code, source) && strings.TrimSpace(source) == source
		withSource, _ := json.Marshal(map[string]any{"source": source, "path": "index.html"})
		var pending []audit.ToolCallEvent
		for i := 0; i < int(ops%40)+1; i++ {
			name := []string{"workspace.writeFile", AgentRequestName, "workspace/upload", "preview.setTheme"}[i%4]
			a := rawArgs
			if i%2 == 0 {
				a = withSource
			}
			req := mcp.CallToolParams{Name: name, Arguments: a, Meta: &mcp.CallMeta{ToolCallID: id, Mode: []string{"agent", "direct"}[i%2]}}
			if i%5 == 0 {
				req.Meta = nil
			}
			e := audit.Started(req, audit.NewProvenance("fuzz"), time.Unix(int64(i), 0))
			tr.Observe(e)
			pending = append(pending, e)
			if i%3 == 2 && len(pending) > 0 {
				p := pending[len(pending)-1]
				pending = pending[:len(pending)-1]
				res := &mcp.CallToolResult{}
				if json.Valid([]byte(result)) {
					res.StructuredContent = json.RawMessage(result)
				}
				if i%2 == 1 {
					res = mcp.ErrorResult(id, mcp.NewError(mcp.Code(code), true, map[string]any{"source": source}, "%s", "msg"))
				}
				tr.Observe(p.Finished(res, p.Provenance, time.Unix(int64(i+1), 0)))
			}
		}
		if i := int(ops) % 7; i == 0 {
			tr.Clear()
		}
		rows := tr.Rows(Filter{})
		if len(rows) > 16 || tr.Bytes() > 16<<10 && len(rows) > 1 {
			t.Fatalf("bounds: %d rows, %d bytes", len(rows), tr.Bytes())
		}
		ids := map[string]bool{}
		for _, r := range rows {
			if ids[r.TraceID] {
				t.Fatalf("duplicate trace id %s", r.TraceID)
			}
			ids[r.TraceID] = true
			if len(r.ArgumentsText) > MaxDetailBytes || len(r.ResultText) > MaxDetailBytes {
				t.Fatalf("detail too long: %d %d", len(r.ArgumentsText), len(r.ResultText))
			}
			if planted && (strings.Contains(r.ArgumentsText, source) || strings.Contains(r.ResultText, source) || strings.Contains(r.Summary, source)) {
				t.Fatalf("source %q leaked into %+v", source, r)
			}
		}
		exp := tr.Export(Filter{Recent: int(ops % 9)}, time.Unix(0, 0))
		if len(exp) > MaxExportBytes || !json.Valid(exp) || strings.Contains(string(exp), "argumentsText") {
			t.Fatalf("export %d bytes: %.200s", len(exp), exp)
		}
		if planted && strings.Contains(string(exp), source) {
			t.Fatalf("source %q in the export", source)
		}
		_ = strconv.Itoa(len(rows))
	})
}
