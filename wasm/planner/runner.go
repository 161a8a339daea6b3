package planner

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Executor runs one tools/call exactly as a model's call would run (the registry's Call) and
// returns the canonical result; it never returns nil.
type Executor func(ctx context.Context, p mcp.CallToolParams) *mcp.CallToolResult

// RunOptions are the workspace facts a run plans with (REFERENCE §7.2/§7.3).
type RunOptions struct {
	// SessionID is the session segment of call ids and the _meta sessionId ("" →
	// DefaultSession in ids, no sessionId in _meta).
	SessionID string
	// FolderLinked reports a linked, writable folder (saveAll vs saveCheckpoint).
	FolderLinked bool
	// ActivePath is the active file (the download target when the prompt names none).
	ActivePath string
	// Revision is the workspace revision when the run starts: the first planned revision.
	Revision int64
	// LiveRevision returns the workspace revision now; it is asked after a revision-producing
	// call whose result carried no revision. Nil keeps the planned revision.
	LiveRevision func() int64
	// PreviewExecuted reports that the session's preview runs the page (the browser's sandbox
	// iframe acknowledges each mount). False (headless hosts: the document is compiled, never
	// run) makes the summary say so (SuccessSummary).
	PreviewExecuted bool
	// Attachments are the context chips sent with the prompt (picked elements, runtime
	// errors): data only. With an element chip, a request about "this" element ("make this
	// bigger", "change this text to 'Hello'") edits that element (planPicked); nothing in
	// an attachment is ever read as a request.
	Attachments []Attachment
}

// Step is one executed call: {"request": tools/call params, "result": CallToolResult}.
type Step struct {
	Request mcp.CallToolParams  `json:"request"`
	Result  *mcp.CallToolResult `json:"result"`
}

// Report is the outcome of Run:
//
//	{"calls": [Step…], "summary", "failed", "failedTool"?, "errorCode"?, "retryable"?,
//	 "revisionConflict"?}
//
// failedTool, errorCode, retryable and revisionConflict are set only when failed. retryable is
// the error's retryable flag, or true for a revision conflict (REFERENCE §7.3).
type Report struct {
	Calls            []Step   `json:"calls"`
	Summary          string   `json:"summary"`
	Failed           bool     `json:"failed"`
	FailedTool       string   `json:"failedTool,omitempty"`
	ErrorCode        mcp.Code `json:"errorCode,omitempty"`
	Retryable        *bool    `json:"retryable,omitempty"`
	RevisionConflict bool     `json:"revisionConflict,omitempty"`
	// NotUnderstood: the planner found no request in the prompt; no call ran, Failed is true
	// and Summary is NotUnderstoodSummary (issue 14: never a ✓ for a request not understood).
	NotUnderstood bool `json:"notUnderstood,omitempty"`
}

// Run plans prompt (Build) and executes the plan through exec, call by call, exactly like a
// model (REFERENCE §7.3): each call gets _meta {toolCallId: CallID(session, index, tool),
// sessionId?, source: "local", mode: "agent"}, so the registry's policy and approvals apply;
// revision-guarded calls get expectedRevision = the planned revision (ThreadRevision), which
// then follows each result (NextPlannedRevision). The run stops at the first failed call and
// answers with FailureSummary; otherwise with SuccessSummary.
func Run(ctx context.Context, exec Executor, prompt string, opts RunOptions) Report {
	plan := Build(prompt, opts.FolderLinked, opts.ActivePath)
	planned := opts.Revision
	rep := Report{Calls: make([]Step, 0, len(plan.Calls))}
	// With several element chips, "this" is the one picked last (the newest chip).
	for i := len(opts.Attachments) - 1; i >= 0; i-- {
		att := opts.Attachments[i]
		if att.Kind != AttachElement {
			continue
		}
		calls, failure, ok := planPicked(prompt, att)
		if !ok {
			break
		}
		if failure != "" { // understood, but there is nothing to edit: no ✓
			retry := false
			rep.Failed, rep.FailedTool, rep.Retryable = true, ToolApplyPatch, &retry
			rep.Summary = FailureSummary(nil, ToolApplyPatch, failure)
			return rep
		}
		plan = Plan{Calls: calls}
		break
	}
	if plan.Ambiguous == NotUnderstood {
		retry := false
		rep.Failed, rep.NotUnderstood, rep.Retryable = true, true, &retry
		rep.Summary = NotUnderstoodSummary(prompt)
		return rep
	}
	var called []string
	for i, call := range plan.Calls {
		call = call.clone()
		if call.Element != "" { // fill the search from the file just read (Call.Element)
			inner, ok := ElementSearch(lastReadSource(rep.Calls), call.Element)
			if !ok {
				path, _ := call.Arguments["path"].(string)
				retry := false
				rep.Failed, rep.FailedTool, rep.Retryable = true, call.Name, &retry
				rep.Summary = FailureSummary(called, call.Name, "there is no "+call.Element+" with plain text in "+path+"; nothing was changed. Quote the exact text to replace instead: Change \"old text\" to \"new text\".")
				return rep
			}
			call.Arguments["search"] = inner
		}
		if call.Picked != nil { // fill search and replace from the file just read (PickedPatch)
			search, replace, reason, ok := PickedPatch(lastReadSource(rep.Calls), *call.Picked)
			if !ok {
				path, _ := call.Arguments["path"].(string)
				retry := false
				rep.Failed, rep.FailedTool, rep.Retryable = true, call.Name, &retry
				rep.Summary = FailureSummary(called, call.Name, "the picked element cannot be edited in "+path+" ("+reason+"); nothing was changed. If the file changed since the pick, pick it again after the preview refreshes; otherwise edit its source, or quote the exact text to replace: Change \"old\" to \"new\".")
				return rep
			}
			call.Arguments["search"], call.Arguments["replace"] = search, replace
		}
		ThreadRevision(&call, planned)
		res, ok := runStep(ctx, exec, opts.SessionID, i, call, called, &rep)
		if !ok {
			return rep
		}
		called = append(called, call.Name)
		live := planned
		if opts.LiveRevision != nil && IsRevisionProducing(call.Name) {
			live = opts.LiveRevision()
		}
		planned = NextPlannedRevision(call.Name, resultRevision(res), live, planned)
	}
	rep.Summary = SuccessSummary(plan.Ambiguous, called, opts.PreviewExecuted)
	// A status request answers with the status itself, in words (issue 14 item 7).
	if n := len(rep.Calls); n == 1 {
		if words, ok := StatusWords(rep.Calls[0].Request.Name, rep.Calls[0].Result.StructuredContent); ok {
			rep.Summary = words
		}
	}
	// Saving without a linked folder saves a checkpoint in this browser: say what ran (issue
	// 14 item 8), never a quiet substitute for "Save to folder".
	for _, c := range called {
		if c == ToolSaveCheckpoint && strings.Contains(strings.ToLower(prompt), "folder") {
			rep.Summary = "No folder is linked, so nothing was written to a folder: saved a checkpoint in this browser instead (workspace.saveCheckpoint). Open a folder to save to it."
		}
	}
	return rep
}

// lastReadSource is the source of the newest successful workspace.readFile in steps ("" none).
func lastReadSource(steps []Step) string {
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if s.Request.Name != ToolReadFile || s.Result == nil || s.Result.IsError {
			continue
		}
		var v struct {
			Source string `json:"source"`
		}
		if json.Unmarshal(s.Result.StructuredContent, &v) == nil {
			return v.Source
		}
	}
	return ""
}

// errorText is a failed result's text: "[CODE] message" for a coded error, else its first
// text block.
func errorText(res *mcp.CallToolResult) string {
	if res.Error != nil {
		return res.Error.Error()
	}
	for _, c := range res.Content {
		if c.Type == "text" {
			return c.Text
		}
	}
	return "the call failed without a message"
}

// resultRevision reads structuredContent.revision when it is an integer.
func resultRevision(res *mcp.CallToolResult) *int64 {
	if len(res.StructuredContent) == 0 {
		return nil
	}
	var v struct {
		Revision *json.Number `json:"revision"`
	}
	if json.Unmarshal(res.StructuredContent, &v) != nil || v.Revision == nil {
		return nil
	}
	n, err := v.Revision.Int64()
	if err != nil {
		return nil
	}
	return &n
}

// runStep sends call, the i-th call of a plan, through exec as an agent-mode tools/call of
// session sessionID from the local agent, and records it in rep. When it fails (no result,
// or isError) it fills rep's failure fields and summary — called are the calls that
// succeeded before it — and returns false; the caller then answers rep.
func runStep(ctx context.Context, exec Executor, sessionID string, i int, call Call, called []string, rep *Report) (*mcp.CallToolResult, bool) {
	args, err := json.Marshal(call.Arguments)
	if err != nil { // arguments are strings, numbers and booleans; cannot happen
		args = []byte("{}")
	}
	req := mcp.CallToolParams{Name: call.Name, Arguments: args, Meta: &mcp.CallMeta{
		ToolCallID: CallID(sessionID, i, call.Name), SessionID: sessionID,
		Source: mcp.SourceLocal, Mode: mcp.ModeAgent}}
	res := exec(ctx, req)
	rep.Calls = append(rep.Calls, Step{Request: req, Result: res})
	if res != nil && !res.IsError {
		return res, true
	}
	rep.Failed, rep.FailedTool = true, call.Name
	text := "the call returned no result"
	if res != nil {
		text = errorText(res)
		if res.Error != nil {
			rep.ErrorCode = res.Error.Code
		}
	}
	rep.RevisionConflict = IsRevisionConflict(rep.ErrorCode, text)
	retry := rep.RevisionConflict || (res != nil && res.Error != nil && res.Error.Retryable)
	rep.Retryable = &retry
	rep.Summary = FailureSummary(called, call.Name, text)
	return res, false
}
