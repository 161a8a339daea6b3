package workspace

import (
	"errors"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

func TestTransformFile(t *testing.T) {
	m, _, _ := newManager(t)
	rev := m.Revision()
	codeOf := func(err error) mcp.Code {
		if te := mcp.ToolErrorOf(err); te != nil {
			return te.Code
		}
		return ""
	}
	upper := func(_, src string) (string, error) { return strings.ToUpper(src), nil }

	// Guard first: a stale revision runs no edit.
	ran := false
	_, err := m.TransformFile(ctx, Call{ExpectedRevision: Rev(rev - 1)}, "styles.css", "t", func(p, s string) (string, error) { ran = true; return s, nil })
	if codeOf(err) != mcp.CodeWorkspaceRevisionConflict || ran {
		t.Fatalf("stale: %v, edit ran %v", err, ran)
	}
	if _, err := m.TransformFile(ctx, Call{}, "nope.css", "t", upper); codeOf(err) != mcp.CodeWorkspaceFileNotFound {
		t.Fatalf("missing: %v", err)
	}
	if _, err := m.TransformFile(ctx, Call{}, "../x.css", "t", upper); codeOf(err) != mcp.CodeWorkspacePathInvalid {
		t.Fatalf("path: %v", err)
	}
	// The edit's own error is returned as is, and nothing changes.
	boom := errors.New("boom")
	if _, err := m.TransformFile(ctx, Call{}, "styles.css", "t", func(string, string) (string, error) { return "", boom }); !errors.Is(err, boom) {
		t.Fatalf("edit error: %v", err)
	}
	if _, err := m.TransformFile(ctx, Call{}, "styles.css", "t", func(string, string) (string, error) {
		return strings.Repeat("x", MaxSourceChars+1), nil
	}); codeOf(err) != mcp.CodeWorkspaceSourceLimit {
		t.Fatalf("budget: %v", err)
	}
	if m.Revision() != rev {
		t.Fatalf("a refused transform moved the revision %d → %d", rev, m.Revision())
	}
	// Success: one revision, the edit sees the normalized path; an unchanged source still adds one.
	var seen string
	res, err := m.TransformFile(ctx, Call{ExpectedRevision: Rev(rev)}, "./styles.css", "t", func(p, s string) (string, error) { seen = p; return strings.ToUpper(s), nil })
	if err != nil || res.Revision != rev+1 || !res.Changed || seen != "styles.css" {
		t.Fatalf("transform: %+v %v (path %q)", res, err, seen)
	}
	if r, _ := m.ReadFile("styles.css"); r.Source != strings.ToUpper(r.Source) {
		t.Fatal("source not stored")
	}
	res, err = m.TransformFile(ctx, Call{}, "styles.css", "t", func(_, s string) (string, error) { return s, nil })
	if err != nil || res.Revision != rev+2 {
		t.Fatalf("unchanged source: %+v %v", res, err)
	}
}
