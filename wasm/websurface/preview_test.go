package websurface

import (
	"context"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// scriptedPort answers every Await with one outcome at once: an ack with status (and
// message), or timeout. Its runtime is the browser's, so a synced ack reads "rendered".
type scriptedPort struct {
	status, message string
	timeout         bool
}

func (p scriptedPort) Mount(context.Context, preview.Mount) error { return nil }
func (p scriptedPort) Await(_ context.Context, rev int64, _ time.Duration) (preview.Ack, error) {
	if p.timeout {
		return preview.Ack{}, preview.ErrAckTimeout
	}
	return preview.Ack{Revision: rev, Status: p.status, Message: p.message, Runtime: preview.RuntimeSandboxIframe}, nil
}
func (p scriptedPort) Runtime() string { return preview.RuntimeSandboxIframe }

func portRegistry(t *testing.T, port preview.Port) *registry.Registry {
	t.Helper()
	opts, _ := rpcsession.RegistryOptions(rpcsession.Config{})
	r := registry.New(opts)
	m := workspace.New(workspace.Options{Seed: Seed})
	m.Hydrate(context.Background())
	s := &surface{m: m, port: port, ackTimeout: time.Second}
	for _, tl := range s.tools() {
		if err := r.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// TestPreviewOutcomes: a page that ran reports "rendered"; a preview that did not acknowledge
// or reported an error fails with the typed code, and the result says the change was applied
// (docs/design.md §2.13) — the revision moved and a retry with the old guard is refused.
func TestPreviewOutcomes(t *testing.T) {
	r := portRegistry(t, scriptedPort{status: workspace.PreviewSynced})
	out := ok(t, call(t, r, ToolSetTheme, map[string]any{"theme": "rose", "expectedRevision": 2}))
	if pv := out["preview"].(map[string]any); pv["state"] != StateRendered || pv["runtime"] != preview.RuntimeSandboxIframe {
		t.Fatalf("rendered: %v", pv)
	}
	if out := ok(t, call(t, r, ToolRunPreview, nil)); out["note"] != nil || out["preview"].(map[string]any)["state"] != StateRendered {
		t.Fatalf("runPreview in a page: %v", out)
	}

	for _, c := range []struct {
		port      scriptedPort
		code      mcp.Code
		retryable bool
		state     string
	}{
		{scriptedPort{timeout: true}, mcp.CodePreviewAckTimeout, true, StatePending},
		{scriptedPort{status: workspace.PreviewError, message: "ReferenceError: x"}, mcp.CodePreviewRuntimeError, false, StateError},
	} {
		r := portRegistry(t, c.port)
		e := fails(t, call(t, r, ToolAddFeature, map[string]any{"title": "t", "description": "d", "expectedRevision": 2}), c.code)
		d := details(t, e)
		if e.Retryable != c.retryable || d["applied"] != true || d["revision"] != float64(3) {
			t.Fatalf("%s: %+v", c.code, e)
		}
		if revision(t, r) != 3 {
			t.Fatalf("%s: the applied change is not there", c.code)
		}
		fails(t, call(t, r, ToolAddFeature, map[string]any{"title": "t", "description": "d", "expectedRevision": 2}), mcp.CodeWorkspaceRevisionConflict)
		if st := ok(t, call(t, r, ToolRunPreview, nil))["preview"].(map[string]any)["state"]; st != c.state {
			t.Fatalf("%s: runPreview state %v, want %s", c.code, st, c.state)
		}
	}
}
