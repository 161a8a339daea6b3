package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/webcoding/studio/host/wasmhost"
)

// Pipelined tools/call requests reach the core in the order they were read: in each of three
// rounds, a slow createFile and then 100 writes of styles.css are sent back to back, without
// waiting; the writes get revisions that rise with their ids, and the file ends with the last
// write (tester report, session 9: an older write could win).
//
// The SDK starts one goroutine per request; with several Ps they reach the core in whatever
// order the scheduler picks, so the test runs with GOMAXPROCS 8 (a client machine's usual
// core count) to make that disorder likely even on a 2-core test machine.
func TestPipelinedCallsRunInArrivalOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	h, err := wasmhost.New(context.Background(), wasmhost.Options{ModulePath: testModule, AbandonOnDeadline: true, FolderDir: seedFolder(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	srv, err := New(context.Background(), h, Options{Approval: Approval{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	s := startRaw(t, srv, 0)
	s.initialize(t)
	const n = 100
	for round := range 3 {
		// A slow call first, so that the writes pile up behind it.
		s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":"big%d","method":"tools/call","params":{"name":"workspace_createFile","arguments":{"path":"big%d.html","source":"<p>%s"}}}`,
			round, round, strings.Repeat("<i>x</i>", 9000)))
		first := 10 + 1000*round
		for i := first; i < first+n; i++ {
			s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"workspace_writeFile","arguments":{"path":"styles.css","source":"/* %d */"}}}`, i, i))
		}
		rev := map[int]float64{}
		for range n + 1 {
			r := s.recv(t)
			if strings.HasPrefix(string(r.ID), `"big`) {
				continue
			}
			var id int
			var res struct {
				IsError           bool           `json:"isError"`
				StructuredContent map[string]any `json:"structuredContent"`
			}
			if json.Unmarshal(r.ID, &id) != nil || r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.IsError {
				t.Fatalf("round %d: response %s: %+v %s", round, r.ID, r.Error, r.Result)
			}
			rev[id], _ = res.StructuredContent["revision"].(float64)
		}
		for i := first + 1; i < first+n; i++ {
			if rev[i] <= rev[i-1] {
				t.Errorf("round %d: request %d ran at revision %v, not after request %d (revision %v)", round, i, rev[i], i-1, rev[i-1])
			}
		}
		s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":"read%d","method":"tools/call","params":{"name":"workspace_readFile","arguments":{"path":"styles.css"}}}`, round))
		r := s.recv(t)
		var res struct {
			StructuredContent struct {
				Source string `json:"source"`
			} `json:"structuredContent"`
		}
		_ = json.Unmarshal(r.Result, &res)
		if want := fmt.Sprintf("/* %d */", first+n-1); res.StructuredContent.Source != want {
			t.Errorf("round %d: styles.css is %q, want the last write %q", round, res.StructuredContent.Source, want)
		}
	}
}

// A call queued behind an earlier one can still be cancelled: it never reaches the core, it is
// answered TOOL_CANCELLED, and the call read after it runs once the first one finishes.
func TestQueuedCallCanBeCancelled(t *testing.T) {
	srv, core := newFakeServer(t, Options{})
	s := startRaw(t, srv, 0)
	s.initialize(t)
	callLine := func(id, tool string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":%q,"arguments":{},"_meta":{"toolCallId":%q}}}`, id, tool, id)
	}
	s.send(t, callLine("b", "demo_block"))
	<-core.started
	s.send(t, callLine("q", "demo_read"))
	s.send(t, callLine("r", "demo_read"))
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"q"}}`)
	got := map[string]string{}
	r := s.recv(t) // q's answer comes while b still runs
	got[string(r.ID)] = string(r.Result)
	close(core.release)
	for range 2 {
		r := s.recv(t)
		got[string(r.ID)] = string(r.Result)
	}
	if !strings.Contains(got[`"q"`], "TOOL_CANCELLED") {
		t.Errorf("cancelled queued call answered %s", got[`"q"`])
	}
	if !strings.Contains(got[`"r"`], `"ok":true`) || !strings.Contains(got[`"b"`], `"structuredContent":{}`) {
		t.Errorf("b %s, r %s", got[`"b"`], got[`"r"`])
	}
	core.mu.Lock()
	defer core.mu.Unlock()
	for _, c := range core.calls {
		if strings.Contains(c, `"toolCallId":"q"`) {
			t.Errorf("the cancelled call reached the core: %s", c)
		}
		if strings.Contains(c, arrivalMetaKey) {
			t.Errorf("the arrival ticket reached the core: %s", c)
		}
	}
}
