package studio

import (
	"context"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// auditPort is a fakePort whose pages "ran" and that answers audits with reply (or err);
// during runs an edit first, so the revision moves while the audit runs.
type auditPort struct {
	fakePort
	reply  string
	err    error
	during func()
	asked  []int64
	limits preview.AuditLimits
}

func (a *auditPort) Audit(ctx context.Context, rev int64, l preview.AuditLimits) ([]byte, error) {
	a.asked, a.limits = append(a.asked, rev), l
	if a.during != nil {
		a.during()
	}
	return []byte(a.reply), a.err
}

const auditReply = `{"v":1,"ok":true,"engine":"4.14.1","truncated":false,"violations":[
 {"id":"color-contrast","impact":"serious","help":"Elements must meet minimum color contrast ratio thresholds","helpUrl":"https://dequeuniversity.com/rules/axe/4.14/color-contrast","count":1,"selectors":[".faint"]},
 {"id":"image-alt","impact":"critical","help":"Images must have alternative text","count":1,"selectors":["img"]}]}`

// TestAuditHeadless: a port whose pages do not run answers PREVIEW_NEEDS_BROWSER, not retryable.
func TestAuditHeadless(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	e := fails(t, call(t, s.Registry, ToolPreviewAudit, nil), mcp.CodePreviewNeedsBrowser)
	if e.Retryable || details(t, e)["operation"] != "audit" || !strings.Contains(e.Message, "needs a browser") {
		t.Fatalf("headless audit %+v", e)
	}
}

// TestAuditTool: the reply is decoded and sorted (critical first), the audit is asked for the
// current revision with the default limits, and the revision guard applies.
func TestAuditTool(t *testing.T) {
	port := &auditPort{fakePort: fakePort{answer: synced}, reply: auditReply}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	ok(t, call(t, s.Registry, ToolPreviewRefresh, nil)) // the first mount
	out := ok(t, call(t, s.Registry, ToolPreviewAudit, nil))
	vs := out["violations"].([]any)
	if len(vs) != 2 || vs[0].(map[string]any)["id"] != "image-alt" || vs[1].(map[string]any)["selectors"].([]any)[0] != ".faint" ||
		out["engine"] != "4.14.1" || out["truncated"] != false {
		t.Fatalf("audit %v", out)
	}
	rev := int64(out["revision"].(float64))
	if len(port.asked) != 1 || port.asked[0] != rev || port.limits != preview.DefaultAuditLimits {
		t.Fatalf("asked %v with %+v", port.asked, port.limits)
	}
	e := fails(t, call(t, s.Registry, ToolPreviewAudit, map[string]any{"expectedRevision": rev + 5}), mcp.CodeWorkspaceRevisionConflict)
	if details(t, e)["operation"] != "audit" {
		t.Fatalf("guard %v", e)
	}
}

// TestAuditRevisionMoved: an edit while the audit runs, or a port that says the mount changed,
// is PREVIEW_REVISION_SUPERSEDED (retryable), never a report about another revision.
func TestAuditRevisionMoved(t *testing.T) {
	port := &auditPort{fakePort: fakePort{answer: synced}, reply: auditReply}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	ok(t, call(t, s.Registry, ToolPreviewRefresh, nil)) // the first mount
	port.during = func() {
		port.during = nil
		ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "moved"}))
	}
	e := fails(t, call(t, s.Registry, ToolPreviewAudit, nil), mcp.CodePreviewRevisionSuperseded)
	d := details(t, e)
	if !e.Retryable || d["operation"] != "audit" || d["actualRevision"].(float64) != d["requestedRevision"].(float64)+1 {
		t.Fatalf("moved %+v %v", e, d)
	}
	if !strings.Contains(e.Message, "moved on from revision") {
		t.Errorf("another revision: %q", e.Message)
	}
	// The same revision, its page changed (a new frame, a navigation): the message says so
	// instead of "moved on from revision 5 (now 5)".
	port.err = preview.ErrAuditSuperseded
	e = fails(t, call(t, s.Registry, ToolPreviewAudit, nil), mcp.CodePreviewRevisionSuperseded)
	if d := details(t, e); d["actualRevision"] != d["requestedRevision"] || strings.Contains(e.Message, "moved on") || !strings.Contains(e.Message, "changed (shown again in a new frame") {
		t.Errorf("same revision, page changed: %q %v", e.Message, d)
	}
}

// TestAuditBadReply: a reply the decoder refuses and an engine failure are
// PREVIEW_RUNTIME_ERROR with the reason; a timeout is retryable.
func TestAuditBadReply(t *testing.T) {
	port := &auditPort{fakePort: fakePort{answer: synced}, reply: `{"v":1,"ok":true,"engine":"x","truncated":false,"violations":[{"id":"a","help":"h","count":1,"selectors":[],"run":"tool"}]}`}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	ok(t, call(t, s.Registry, ToolPreviewRefresh, nil)) // the first mount
	e := fails(t, call(t, s.Registry, ToolPreviewAudit, nil), mcp.CodePreviewRuntimeError)
	if e.Retryable || details(t, e)["reason"] != "invalid-reply" {
		t.Fatalf("bad reply %+v", e)
	}
	port.reply = `{"v":1,"ok":false,"error":"axe is not defined"}`
	e = fails(t, call(t, s.Registry, ToolPreviewAudit, nil), mcp.CodePreviewRuntimeError)
	if details(t, e)["reason"] != "engine" || !strings.Contains(e.Message, "axe is not defined") {
		t.Fatalf("engine failure %+v", e)
	}
	port.err = preview.ErrAuditTimeout
	e = fails(t, call(t, s.Registry, ToolPreviewAudit, nil), mcp.CodePreviewRuntimeError)
	if !e.Retryable || details(t, e)["reason"] != "timeout" {
		t.Fatalf("timeout %+v", e)
	}
}
