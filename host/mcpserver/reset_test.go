package mcpserver

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcoding/studio/host/wasmhost"
)

// resettingCore is the real core whose next call, when resetNext is set, runs under a deadline
// of 50 µs: the host abandons it and closes the instance (wasmhost.ErrInstanceReset), as a
// --host-timeout does for a slow call.
type resettingCore struct {
	h         *wasmhost.Host
	resetNext atomic.Bool
}

func (c *resettingCore) Handle(ctx context.Context, req []byte) ([]byte, error) {
	if c.resetNext.Swap(false) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 50*time.Microsecond)
		defer cancel()
	}
	return c.h.Handle(ctx, req)
}

// After a reset of the core, revisions go on above the highest one the server answered, so an
// expectedRevision from before the reset is a conflict; the failed call's message and the exit
// line name the paths whose confirmed edits the reset lost (tester report, session 9).
func TestResetNeverReusesRevisionsAndNamesLostEdits(t *testing.T) {
	h, err := wasmhost.New(context.Background(), wasmhost.Options{ModulePath: testModule, AbandonOnDeadline: true, FolderDir: seedFolder(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	core := &resettingCore{h: h}
	var log syncBuffer
	srv, err := New(context.Background(), core, Options{Approval: Approval{All: true}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	before := structured(t, call(t, cs, "workspace_createFile", map[string]any{"path": "a.md", "source": "IMPORTANT"}, nil))["revision"].(float64)

	core.resetNext.Store(true)
	msg := mustFail(t, call(t, cs, "workspace_createFile", map[string]any{"path": "big.html", "source": "<p>" + strings.Repeat("<i>x</i>", 9000)}, nil), "TOOL_EXECUTION_UNKNOWN")
	if !strings.Contains(msg, "a.md") {
		t.Errorf("the reset's message does not name the lost a.md: %q", msg)
	}
	if st := mustSucceed(t, call(t, cs, "workspace_getStatus", map[string]any{}, nil)); st["revision"].(float64) <= before {
		t.Errorf("after the reset the revision is %v, not above %v", st["revision"], before)
	}
	b := mustSucceed(t, call(t, cs, "workspace_createFile", map[string]any{"path": "b.md", "source": "B"}, nil))
	if b["revision"].(float64) <= before {
		t.Errorf("b.md created at revision %v, not above %v from before the reset", b["revision"], before)
	}
	mustFail(t, call(t, cs, "workspace_writeFile", map[string]any{"path": "b.md", "source": "B2", "expectedRevision": before}, nil), "WORKSPACE_REVISION_CONFLICT")

	line := srv.WarnUnsaved(context.Background())
	for _, want := range []string{"b.md", "a.md", "reset"} {
		if !strings.Contains(line, want) {
			t.Errorf("exit line %q does not name %q", line, want)
		}
	}
}
