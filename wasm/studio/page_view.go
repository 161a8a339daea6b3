package studio

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// MethodPageView is the page's own refresh read (issue 15): what the studio page shows of the
// workspace after every change — the workspace.getStatus and workspace.listFiles results and
// the active file's text — in one read. Like MethodCurrentFiles it is not a tool call and
// emits no lifecycle event, so the page's refreshes (183 of 231 trace rows in a short session
// when they went through the tools) never crowd the execution trace; the trace keeps what
// users, agents, models and MCP clients asked for. Anything the user explicitly triggers
// still goes through the tools (and is traced).
//
//	params {} or {"knownPath": string, "knownRevision": integer ≥ 0} — the active file and
//	       revision the page already shows
//	result {"status": the workspace.getStatus structuredContent, "files": the
//	       workspace.listFiles files, "source"?: the active text file's full text, present
//	       unless the active path is empty or an asset, or equals knownPath at knownRevision}
//
// Status, files and source are read at one revision: a change between the reads makes it read
// again (at most pageViewTries times; the last read wins, each part still whole).
const MethodPageView = "workspace/view"

const pageViewTries = 3

// pageView is MethodPageView's result.
type pageView struct {
	Status workspace.Status     `json:"status"`
	Files  []workspace.FileInfo `json:"files"`
	Source *string              `json:"source,omitempty"`
}

func (e *studioSession) pageViewMethod() rpcsession.Method {
	return func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		knownPath, knownRev := "", int64(-1)
		if len(bytes.TrimSpace(params)) > 0 {
			m, err := mcp.DecodeObject(params, []string{"knownPath", "knownRevision"}, nil)
			if err != nil {
				return nil, invalidParams(MethodPageView + ": " + err.Error())
			}
			if raw, ok := m["knownPath"]; ok && json.Unmarshal(raw, &knownPath) != nil {
				return nil, invalidParams(MethodPageView + ": knownPath must be a string")
			}
			if raw, ok := m["knownRevision"]; ok && (json.Unmarshal(raw, &knownRev) != nil || knownRev < 0) {
				return nil, invalidParams(MethodPageView + ": knownRevision must be a non-negative integer")
			}
		}
		var v pageView
		for try := 0; try < pageViewTries; try++ {
			v = pageView{Status: e.m.Status(ctx)}
			l := e.m.ListFiles()
			v.Files = l.Files
			if l.Revision != v.Status.Revision {
				continue
			}
			active := l.ActivePath
			if active == "" || (active == knownPath && l.Revision == knownRev) {
				break
			}
			asset := false
			for _, f := range l.Files {
				asset = asset || (f.Path == active && f.Kind == workspace.KindAsset)
			}
			if asset {
				break
			}
			rf, terr := e.m.ReadFile(active)
			if terr != nil || rf.Revision != l.Revision {
				v.Source = nil
				continue
			}
			v.Source = &rf.Source
			break
		}
		return v, nil
	}
}
