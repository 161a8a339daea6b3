package studio

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// write calls workspace.writeFile with the given _meta context and coalesceKey.
func write(t *testing.T, r *registry.Registry, source, mode, key, text string) {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"path": "app.js", "source": text})
	ok(t, r.Call(context.Background(), mcp.CallToolParams{Name: ToolWorkspaceWriteFile, Arguments: args,
		Meta: &mcp.CallMeta{Source: source, Mode: mode, CoalesceKey: key}}))
}

func checkpoints(t *testing.T, s *rpcsession.Session) historyList {
	t.Helper()
	var list historyList
	if err := json.Unmarshal(method(t, s, MethodHistoryList, `{}`), &list); err != nil {
		t.Fatal(err)
	}
	return list
}

// TestTypingBurstCoalesces: the editor's flushes of one typing burst (_meta.coalesceKey, source
// local, mode direct) fold into one checkpoint; an agent write in between ends the burst; the
// key is ignored for agent-mode and model writes; and a long burst cannot push the agent's
// checkpoint out of the 100-checkpoint history.
func TestTypingBurstCoalesces(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
	r := s.Registry
	start := len(checkpoints(t, s).Checkpoints)
	for i := 0; i < 20; i++ {
		write(t, r, mcp.SourceLocal, mcp.ModeDirect, "type:app.js#1", "typed "+strconv.Itoa(i))
	}
	if n := len(checkpoints(t, s).Checkpoints); n != start+1 {
		t.Fatalf("20 flushes of one burst: %d checkpoints, want %d", n, start+1)
	}

	// An agent write (same key offered, ignored) gets its own checkpoint and ends the burst.
	write(t, r, mcp.SourceLocal, mcp.ModeAgent, "type:app.js#1", "agent edit")
	write(t, r, mcp.SourceLocal, mcp.ModeDirect, "type:app.js#1", "typed after the agent")
	write(t, r, mcp.SourceLocal, mcp.ModeDirect, "type:app.js#1", "typed after the agent, more")
	list := checkpoints(t, s)
	if n := len(list.Checkpoints); n != start+3 {
		t.Fatalf("after agent + burst: %d checkpoints, want %d: %+v", n, start+3, list)
	}
	// Model writes and direct writes without a key never coalesce.
	write(t, r, mcp.SourceModel, mcp.ModeDirect, "type:app.js#1", "model 1")
	write(t, r, mcp.SourceModel, mcp.ModeDirect, "type:app.js#1", "model 2")
	write(t, r, mcp.SourceLocal, mcp.ModeDirect, "", "button 1")
	write(t, r, mcp.SourceLocal, mcp.ModeDirect, "", "button 2")
	if n := len(checkpoints(t, s).Checkpoints); n != start+7 {
		t.Fatalf("uncoalesced writes: %d checkpoints, want %d", n, start+7)
	}

	// An agent checkpoint survives 300 flushes of the next burst.
	write(t, r, mcp.SourceLocal, mcp.ModeAgent, "", "agent again")
	agentRev := checkpoints(t, s).Revision
	for i := 0; i < 300; i++ {
		write(t, r, mcp.SourceLocal, mcp.ModeDirect, "type:app.js#2", "burst "+strconv.Itoa(i))
	}
	list = checkpoints(t, s)
	found := false
	for _, c := range list.Checkpoints {
		found = found || (c.Revision == agentRev && c.Tool == ToolWorkspaceWriteFile)
	}
	if !found || len(list.Checkpoints) > workspace.MaxHistory {
		t.Fatalf("the agent checkpoint (revision %d) was pushed out by typing: %+v", agentRev, list)
	}
	if n := len(list.Checkpoints); n != start+9 {
		t.Fatalf("300 flushes of one burst: %d checkpoints, want %d", n, start+9)
	}
}
