package audit

import (
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/webcoding/studio/wasm/jsonstring"
	"github.com/webcoding/studio/wasm/mcp"
)

// Observation is what an observability sink may keep of a lifecycle event
// (REFERENCE §8, "Observation projection"): identifiers, argument names, the shape of the
// result and redacted context metadata — never argument values, result content or messages.
//
//	{"schemaVersion": "context-action-tool-observation.v1", "type": "completed",
//	 "toolCallId": "call-1", "name": "workspace.writeFile", "source": "model", "mode": "agent",
//	 "argumentNames": ["path", "source"],
//	 "result": {"isError": false, "contentTypes": ["text"], "hasStructuredContent": true},
//	 "provenance": {...}, "context": {...}, "at": "…", "retention": {...}}
//
// ArgumentNames are sorted and capped at MaxObjectEntries names of at most MaxStringLength
// code points; OmittedArgumentNames counts the names beyond the cap.
type Observation struct {
	SchemaVersion        string            `json:"schemaVersion"`
	Type                 EventType         `json:"type"`
	ToolCallID           string            `json:"toolCallId,omitempty"`
	Name                 string            `json:"name"`
	Source               string            `json:"source,omitempty"`
	Mode                 string            `json:"mode,omitempty"`
	SessionID            string            `json:"sessionId,omitempty"`
	ArgumentNames        []string          `json:"argumentNames"`
	OmittedArgumentNames int               `json:"omittedArgumentNames,omitempty"`
	Result               *ObservedResult   `json:"result,omitempty"`
	Provenance           Provenance        `json:"provenance"`
	Context              any               `json:"context,omitempty"`
	At                   time.Time         `json:"at"`
	Retention            RetentionMetadata `json:"retention"`
}

// ObservedResult is the shape of a result: {"isError", "errorCode"?, "retryable"?,
// "contentTypes", "hasStructuredContent"}. ErrorCode is present only when it matches
// mcp.ValidCode; Retryable only on errors.
type ObservedResult struct {
	IsError              bool     `json:"isError"`
	ErrorCode            mcp.Code `json:"errorCode,omitempty"`
	Retryable            *bool    `json:"retryable,omitempty"`
	ContentTypes         []string `json:"contentTypes"`
	HasStructuredContent bool     `json:"hasStructuredContent"`
}

// Observe projects e for a sink. context is caller metadata (revision, trigger, UI state…);
// it is passed through Redact. The tool name, identifiers, source and mode are bounded to
// MaxStringLength code points.
func (p Policy) Observe(e ToolCallEvent, context any) Observation {
	p = p.normalized()
	names := ArgumentNames(e.Request.Arguments)
	omitted := 0
	if len(names) > p.MaxObjectEntries {
		omitted = len(names) - p.MaxObjectEntries
		names = names[:p.MaxObjectEntries]
	}
	for i, n := range names {
		names[i] = truncate(n, p.MaxStringLength)
	}
	o := Observation{
		SchemaVersion:        ObservationSchemaVersion,
		Type:                 e.Type,
		ToolCallID:           truncate(e.ToolCallID, p.MaxStringLength),
		Name:                 truncate(e.Name, p.MaxStringLength),
		Source:               truncate(e.Source, p.MaxStringLength),
		Mode:                 truncate(e.Mode, p.MaxStringLength),
		SessionID:            truncate(e.SessionID, p.MaxStringLength),
		ArgumentNames:        names,
		OmittedArgumentNames: omitted,
		Result:               ObserveResult(e.Result),
		Provenance:           e.Provenance,
		At:                   e.At,
		Retention:            p.RetentionAt(e.At),
	}
	if context != nil {
		o.Context = p.Redact(context)
	}
	return o
}

// ObserveResult returns the shape of r, or nil when r is nil.
func ObserveResult(r *mcp.CallToolResult) *ObservedResult {
	if r == nil {
		return nil
	}
	o := &ObservedResult{IsError: r.IsError, ContentTypes: []string{}, HasStructuredContent: len(r.StructuredContent) > 0}
	seen := map[string]bool{}
	for _, c := range r.Content {
		t := truncate(c.Type, 64)
		if !seen[t] {
			seen[t] = true
			o.ContentTypes = append(o.ContentTypes, t)
		}
	}
	if r.Error != nil {
		if mcp.ValidCode(r.Error.Code) {
			o.ErrorCode = r.Error.Code
		}
		retryable := r.Error.Retryable
		o.Retryable = &retryable
	}
	return o
}

// ArgumentNames returns the sorted top-level keys of a tools/call arguments object. Omitted,
// null or non-object arguments have no names (an empty, non-nil slice).
func ArgumentNames(args json.RawMessage) []string {
	names := []string{}
	if len(args) == 0 || !json.Valid(args) {
		return names
	}
	eachMember(args, func(rawKey, _ []byte) { names = append(names, jsonstring.Decode(rawKey)) })
	sort.Strings(names)
	return slices.Compact(names) // a repeated key is one name
}
