package studio

import (
	"context"
	"encoding/json"
	"strconv"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// AgentRequestName is the Name of the lifecycle events that bracket one prompt run
// (REFERENCE §8: trace entries of method agent.request).
const AgentRequestName = "agent.request"

// promptMethods are the session methods that run a prompt, with the source their tool calls
// carry.
var promptMethods = map[string]string{
	MethodAgentRun:        mcp.SourceLocal,
	MethodAgentOpenRouter: mcp.SourceModel,
}

var agentRequestSeq atomic.Int64

// WithAgentRequests wraps a Builder so that every prompt run of the sessions it builds —
// agent/run and agent/openrouter, whichever the session answers — is bracketed by
// agent.request lifecycle events on p.Observer, the same observer the registry reports tool
// calls to (issue 9). It must wrap the outermost Builder (after WithOpenRouter), so that it
// sees every prompt method; it is the one place these events come from.
//
// Events (audit.ToolCallEvent): Name AgentRequestName, ToolCallID "agent-request-<n>",
// Source "local" (agent/run) or "model" (agent/openrouter), Mode "agent", SessionID the
// params' sessionId when given, Request.Arguments {"method", "promptChars"} — never the
// prompt itself, which may carry search/replace text. The started event is emitted before
// the run; the finished one after it returns:
//
//   - completed: structuredContent {"toolCalls": n};
//   - failed: structuredContent {"toolCalls", "failedTool"?, "errorCode"?} and error
//     {code, message, retryable} from the report (a provider failure before any tool call
//     keeps its OPENROUTER_* code); a JSON-RPC error of the method (bad params) fails with
//     TOOL_VALIDATION_FAILED;
//   - cancelled (failed event, provenance state "cancelled", error TOOL_CANCELLED) when the
//     run's context was cancelled (notifications/cancelled, Escape in the studio) or the
//     report says cancelled.
//
// A nil p.Observer returns b unchanged.
func WithAgentRequests(b rpcsession.Builder, p Ports) rpcsession.Builder {
	if p.Observer == nil {
		return b
	}
	return func(ctx context.Context, cfg rpcsession.Config) (*rpcsession.Session, error) {
		s, err := b(ctx, cfg)
		if err != nil || s == nil {
			return s, err
		}
		for name, source := range promptMethods {
			if m, ok := s.Methods[name]; ok {
				s.Methods[name] = bracket(p, name, source, m)
			}
		}
		return s, nil
	}
}

// bracket wraps one prompt method.
func bracket(p Ports, method, source string, m rpcsession.Method) rpcsession.Method {
	now := p.Clock
	if now == nil {
		now = time.Now
	}
	return func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		var in struct {
			Prompt    string `json:"prompt"`
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(params, &in)
		args, _ := json.Marshal(map[string]any{"method": method, "promptChars": utf8.RuneCountInString(in.Prompt)})
		id := "agent-request-" + strconv.FormatInt(agentRequestSeq.Add(1), 10)
		req := mcp.CallToolParams{Name: AgentRequestName, Arguments: args,
			Meta: &mcp.CallMeta{ToolCallID: id, SessionID: in.SessionID, Source: source, Mode: mcp.ModeAgent}}
		started := audit.Started(req, audit.NewProvenance("studio"), now())
		p.Observer(started)
		out, rerr := m(ctx, params)
		res, state := agentResult(id, out, rerr, ctx.Err() != nil)
		prov := started.Provenance
		prov.State = state
		prov.ElapsedMs = now().Sub(started.At).Milliseconds()
		if raw, err := json.Marshal(res); err == nil {
			prov.UsedOutputBytes = int64(len(raw))
		}
		p.Observer(started.Finished(res, prov, now()))
		return out, rerr
	}
}

// agentResult turns a prompt method's answer into the bracket's result and provenance state.
func agentResult(id string, out any, rerr *jsonrpc.Error, cancelled bool) (*mcp.CallToolResult, audit.ProvenanceState) {
	var rep struct {
		Calls      []json.RawMessage `json:"calls"`
		Failed     bool              `json:"failed"`
		FailedTool string            `json:"failedTool"`
		ErrorCode  mcp.Code          `json:"errorCode"`
		Retryable  *bool             `json:"retryable"`
		Cancelled  bool              `json:"cancelled"`
		Error      *mcp.ToolError    `json:"error"`
		// NotUnderstood: the local agent found no request (issue 14); its own outcome in the trace.
		NotUnderstood bool `json:"notUnderstood"`
	}
	if out != nil {
		if raw, err := json.Marshal(out); err == nil {
			_ = json.Unmarshal(raw, &rep)
		}
	}
	sc := map[string]any{"toolCalls": len(rep.Calls)}
	if rep.FailedTool != "" {
		sc["failedTool"] = rep.FailedTool
	}
	if rep.ErrorCode != "" {
		sc["errorCode"] = rep.ErrorCode
	}
	fail := func(terr *mcp.ToolError) *mcp.CallToolResult {
		r := mcp.ErrorResult(id, terr)
		r.StructuredContent, _ = json.Marshal(sc)
		return r
	}
	switch {
	case cancelled || rep.Cancelled:
		sc["cancelled"] = true
		return fail(mcp.NewError(mcp.CodeToolCancelled, false, nil, "The prompt run was cancelled.")), audit.StateCancelled
	case rerr != nil:
		return fail(mcp.NewError(mcp.CodeToolValidationFailed, false, nil, "%s", rerr.Message)), audit.StateFailed
	case rep.NotUnderstood:
		sc["notUnderstood"] = true
		return fail(mcp.NewError(mcp.CodeToolExecutionFailed, false, map[string]any{"reason": "not-understood"},
			"The local agent did not understand the prompt; nothing ran.")), audit.StateFailed
	case rep.Failed:
		terr := rep.Error
		if terr == nil {
			code := rep.ErrorCode
			if code == "" {
				code = mcp.CodeToolExecutionFailed
			}
			msg := "The prompt run failed."
			if rep.FailedTool != "" {
				msg = "The prompt run failed at " + rep.FailedTool + "."
			}
			terr = mcp.NewError(code, rep.Retryable != nil && *rep.Retryable, nil, "%s", msg)
		}
		return fail(terr), audit.StateFailed
	}
	raw, _ := json.Marshal(sc)
	return &mcp.CallToolResult{Content: []mcp.Content{{Type: "text", Text: string(raw)}}, StructuredContent: raw, ToolCallID: id}, audit.StateCompleted
}
