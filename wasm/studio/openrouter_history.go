package studio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"

	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// The provider conversation across reloads and the reasoning setting (issue 16;
// docs/design.md §5.20, §5.21).
const (
	// MethodAgentOpenRouterHistory returns the session's provider conversation, for the
	// browser to keep (wasm/chats) and give back after a reload.
	//
	//	params absent or {}
	//	result {"messages": [openrouter.Message…]}   (system message first; [] for a new chat)
	MethodAgentOpenRouterHistory = "agent/openrouter/history"
	// MethodAgentOpenRouterRestore replaces the session's provider conversation with a kept
	// one, so the next agent/openrouter continues it. It waits for a running run to end.
	//
	//	params {"messages": [openrouter.Message…]}   (at most openrouter.MaxHistoryMessages;
	//	       members other than role, content, tool_calls, tool_call_id, reasoning_details
	//	       are refused; the history must pass openrouter.ValidateHistory)
	//	result {"restored": number of messages}
	//
	// Bad params (-32602) leave the conversation unchanged.
	MethodAgentOpenRouterRestore = "agent/openrouter/restore"
)

func (or *openRouterSession) history(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	const method = MethodAgentOpenRouterHistory
	if p := bytes.TrimSpace(params); len(p) > 0 && string(p) != "null" {
		if _, err := mcp.DecodeObject(p, nil, nil); err != nil {
			return nil, invalidParams(method + ": params must be absent or {}: " + err.Error())
		}
	}
	or.mu.Lock()
	msgs := or.conv.Messages()
	or.mu.Unlock()
	if msgs == nil {
		msgs = []openrouter.Message{}
	}
	return map[string]any{"messages": msgs}, nil
}

func (or *openRouterSession) restore(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	const method = MethodAgentOpenRouterRestore
	m, err := mcp.DecodeObject(params, []string{"messages"}, nil)
	if err == nil && m["messages"] == nil {
		err = errors.New("messages is missing")
	}
	if err != nil {
		return nil, invalidParams(method + ": params {messages} are required: " + err.Error())
	}
	var msgs []openrouter.Message
	dec := json.NewDecoder(bytes.NewReader(m["messages"]))
	dec.DisallowUnknownFields()
	if mcp.JSONKind(m["messages"]) != "array" || dec.Decode(&msgs) != nil {
		return nil, invalidParams(method + ": messages must be an array of chat messages {role, content, tool_calls?, tool_call_id?, reasoning_details?}")
	}
	or.mu.Lock()
	defer or.mu.Unlock()
	if err := or.conv.Restore(msgs); err != nil {
		return nil, invalidParams(method + ": " + err.Error())
	}
	return map[string]any{"restored": len(msgs)}, nil
}

// decodeReasoning reads the agent/openrouter "reasoning" param
// {"effort"?: "low"|"medium"|"high", "maxTokens"?: 1..openrouter.MaxReasoningTokens,
// "exclude"?: bool} through openrouter.ParseReasoning (nil for {}).
func decodeReasoning(raw json.RawMessage) (*openrouter.Reasoning, error) {
	m, err := mcp.DecodeObject(raw, []string{"effort", "maxTokens", "exclude"}, nil)
	if err != nil {
		return nil, errors.New("reasoning: " + err.Error())
	}
	var effort string
	var maxTokens float64
	var exclude bool
	if r, ok := m["effort"]; ok && json.Unmarshal(r, &effort) != nil {
		return nil, errors.New("reasoning.effort must be low, medium or high")
	}
	if r, ok := m["maxTokens"]; ok && (json.Unmarshal(r, &maxTokens) != nil || maxTokens != math.Trunc(maxTokens) || maxTokens < 0 || maxTokens > 1<<30) {
		return nil, errors.New("reasoning.maxTokens must be a whole number")
	}
	if r, ok := m["exclude"]; ok && json.Unmarshal(r, &exclude) != nil {
		return nil, errors.New("reasoning.exclude must be a boolean")
	}
	rs, err := openrouter.ParseReasoning(effort, int(maxTokens), exclude)
	if err != nil {
		return nil, errors.New("reasoning: " + err.Error())
	}
	return rs, nil
}
