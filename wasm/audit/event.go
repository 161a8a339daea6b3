package audit

import (
	"time"

	"github.com/webcoding/studio/wasm/mcp"
)

// EventType is the lifecycle phase a ToolCallEvent reports.
type EventType string

// Lifecycle event types (issue 2, REFERENCE §3.1: started after the option checks, completed
// or failed after the output budget).
const (
	EventStarted   EventType = "started"
	EventCompleted EventType = "completed"
	EventFailed    EventType = "failed"
)

// ToolCallEvent is one lifecycle event of a tools/call, as the registry emits it:
//
//	{"type": "started", "toolCallId": "call-1", "name": "workspace.getStatus",
//	 "source": "model", "mode": "agent", "sessionId"?: "s-1",
//	 "request": {"name": "workspace.getStatus", "arguments": {}},
//	 "provenance": {...}, "result"?: {...}, "at": "2026-11-30T01:15:00Z"}
//
// Request is the canonical tools/call params as the registry saw them (after the request
// guard); Result is set on completed and failed events only. The event is plain data: it
// holds the unredacted request and result, so a sink that keeps it must project it first
// (Policy.Observe, Policy.Redact). Source is "local", "model" or "mcp"; Mode "agent" or
// "direct" (mcp.Source*, mcp.Mode*).
type ToolCallEvent struct {
	Type       EventType           `json:"type"`
	ToolCallID string              `json:"toolCallId"`
	Name       string              `json:"name"`
	Source     string              `json:"source"`
	Mode       string              `json:"mode"`
	SessionID  string              `json:"sessionId,omitempty"`
	Request    mcp.CallToolParams  `json:"request"`
	Provenance Provenance          `json:"provenance"`
	Result     *mcp.CallToolResult `json:"result,omitempty"`
	At         time.Time           `json:"at"`
}

// Started returns the started event of a call. The name, toolCallId, sessionId, source and
// mode are read from req (its _meta); callers that resolved defaults (a generated toolCallId,
// source "model") set the fields afterwards. prov should be pending (NewProvenance).
func Started(req mcp.CallToolParams, prov Provenance, at time.Time) ToolCallEvent {
	e := ToolCallEvent{Type: EventStarted, Name: req.Name, Request: req, Provenance: prov, At: at}
	if m := req.Meta; m != nil {
		e.ToolCallID, e.SessionID, e.Source, e.Mode = m.ToolCallID, m.SessionID, m.Source, m.Mode
	}
	return e
}

// Finished returns the event that ends the call started by e: completed when result is a
// success, failed otherwise (a nil result counts as failed). prov.State is set from the
// result (StateForResult) when prov is still pending.
func (e ToolCallEvent) Finished(result *mcp.CallToolResult, prov Provenance, at time.Time) ToolCallEvent {
	f := e
	f.Type = EventCompleted
	if result == nil || result.IsError {
		f.Type = EventFailed
	}
	if prov.State == StatePending || prov.State == "" {
		prov.State = StateForResult(result)
	}
	f.Provenance = prov
	f.Result = result
	f.At = at
	return f
}
