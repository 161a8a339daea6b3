//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/ui/views"
)

// Chat recovery actions (issue 9 owns the mechanism; REFERENCE §3.2 recovery mapping,
// SPEC §2.13). A failed tool call or prompt run becomes a transcript entry whose Actions are
// the union of every registered rule's answer for its typed error. Features add rules for
// their own codes from an init function (folders: Reconnect folder / Grant folder access;
// provider: Open provider settings / Use local agent & retry), so the mechanism stays in one
// place.
//
// The built-in rule (this file) gives:
//   - "Retry" for retryable errors only, when the failure can be run again (Ref set, or a
//     Prompt): the same prompt, or the same direct call with the same arguments;
//   - "Re-read & retry" for revision conflicts: workspace.getStatus first, then the prompt
//     again (its calls ask for approval again) or the direct call with the fresh
//     expectedRevision;
//   - "Refresh preview" for PREVIEW_ACK_TIMEOUT, PREVIEW_REVISION_SUPERSEDED and
//     PREVIEW_RUNTIME_ERROR; a mutation that was applied (details.applied) is never re-run;
//   - nothing for a cancelled call or run (Cancelled, TOOL_CANCELLED): cancelled is its own
//     state.

// failure is a typed error as the chat saw it (views.Failure).
type failure = views.Failure

// recoveryRules are the registered rules, in registration order.
var recoveryRules []views.RecoveryRule

// registerRecovery adds a rule; call it from an init function.
func registerRecovery(rule views.RecoveryRule) {
	recoveryRules = append(recoveryRules, rule)
}

// recoveryActions returns the built-in rule's actions and then every registered rule's for f,
// without duplicate labels (views.RecoveryActions).
func recoveryActions(f failure) []entryAction { return views.RecoveryActions(f, recoveryRules) }

// Recovery action names (data-action) and labels of the built-in rule (views).
const (
	actionRetry        = views.ActionRetry
	actionReread       = views.ActionReread
	actionRetryPrompt  = views.ActionRetryPrompt
	actionRereadPrompt = views.ActionRereadPrompt
	labelRetry         = views.LabelRetry
	labelReread        = views.LabelReread
)

func isRevisionConflict(f failure) bool { return views.IsRevisionConflict(f) }

func init() {
	registerFeature(&feature{name: "recovery", action: recoveryAction})
}

// rerun runs a failure again; reread asks it to re-inspect the workspace first.
type rerun func(ctx context.Context, a *app, reread bool) error

// maxRecoveryTargets bounds the stored re-runs (older failures lose their buttons' effect
// and say so).
const maxRecoveryTargets = 64

// recoveryTable (app.recoveryStore) holds the recovery buttons' re-runs by reference.
type recoveryTable struct {
	mu    sync.Mutex
	next  int
	items map[string]rerun
	order []string
}

// storeRerun keeps fn and returns its ref.
func (a *app) storeRerun(fn rerun) string {
	a.recoveryStore.mu.Lock()
	defer a.recoveryStore.mu.Unlock()
	if a.recoveryStore.items == nil {
		a.recoveryStore.items = map[string]rerun{}
	}
	a.recoveryStore.next++
	ref := "r" + strconv.Itoa(a.recoveryStore.next)
	a.recoveryStore.items[ref] = fn
	a.recoveryStore.order = append(a.recoveryStore.order, ref)
	if len(a.recoveryStore.order) > maxRecoveryTargets {
		delete(a.recoveryStore.items, a.recoveryStore.order[0])
		a.recoveryStore.order = a.recoveryStore.order[1:]
	}
	return ref
}

// recoveryAction handles the built-in Retry and Re-read & retry buttons.
func recoveryAction(a *app, act uiAction) bool {
	switch act.Name {
	case actionRetryPrompt, actionRereadPrompt:
		prompt := act.Get("arg")
		if strings.TrimSpace(prompt) == "" {
			return true
		}
		if act.Name == actionRereadPrompt {
			if _, err := a.freshRevision(context.Background()); err != nil {
				a.addEntry(a.failureEntry(err))
				return true
			}
		}
		a.runPrompt(prompt)
		return true
	case actionRetry, actionReread:
	default:
		return false
	}
	a.recoveryStore.mu.Lock()
	fn := a.recoveryStore.items[act.Get("arg")]
	a.recoveryStore.mu.Unlock()
	if fn == nil {
		a.addEntry(entry{Kind: "info", Text: "This failure is too old to run again."})
		return true
	}
	if err := fn(context.Background(), a, act.Name == actionReread); err != nil {
		a.addEntry(a.failureEntry(err))
	}
	return true
}

// toolCallError is a failed tools/call as a.tool returns it: Error() is "[CODE] message";
// the rest lets the chat offer recovery (REFERENCE §3.2).
type toolCallError struct {
	Tool      string
	Args      any
	Code      string
	Message   string
	Retryable bool
	Details   json.RawMessage
}

func (e *toolCallError) Error() string { return "[" + e.Code + "] " + e.Message }

func detailsApplied(details json.RawMessage) bool { return views.DetailsApplied(details) }

func prettyDetails(details json.RawMessage) string { return views.PrettyDetails(details) }

// failureEntry turns an error of a UI call into a transcript entry. A failed direct tool call
// (toolCallError) gets its details and recovery actions: Retry re-calls the tool with the
// same arguments; Re-read & retry re-reads the revision with workspace.getStatus and calls it
// again with that expectedRevision (when the arguments carry one).
func (a *app) failureEntry(err error) entry {
	var te *toolCallError
	if !errors.As(err, &te) {
		return entry{Kind: "error", Text: err.Error()}
	}
	raw, _ := json.Marshal(te.Args)
	f := failure{Code: te.Code, Message: te.Message, Retryable: te.Retryable, Applied: detailsApplied(te.Details),
		Tool: te.Tool, Arguments: raw}
	if !f.Applied {
		name, args := te.Tool, te.Args
		f.Ref = a.storeRerun(func(ctx context.Context, a *app, reread bool) error {
			return a.recall(ctx, name, args, reread)
		})
	}
	return entry{Kind: "error", Text: te.Tool + ": " + err.Error(), Details: prettyDetails(te.Details), Actions: recoveryActions(f)}
}

// recall runs a direct call again (Retry / Re-read & retry) and reloads the workspace.
func (a *app) recall(ctx context.Context, name string, args any, reread bool) error {
	if reread {
		fresh, err := a.freshRevision(ctx)
		if err != nil {
			return err
		}
		args = withExpectedRevision(args, fresh)
	}
	err := a.tool(ctx, name, args, nil)
	a.reload(ctx)
	if err == nil {
		a.addEntry(entry{Kind: "result", Text: "✓ " + name + " (retried)"})
	}
	return err
}

// freshRevision re-inspects the workspace (workspace.getStatus) and returns its revision.
func (a *app) freshRevision(ctx context.Context) (int64, error) {
	var st struct {
		Revision int64 `json:"revision"`
	}
	if err := a.tool(ctx, "workspace.getStatus", nil, &st); err != nil {
		return 0, err
	}
	a.reload(ctx)
	return st.Revision, nil
}

// withExpectedRevision returns a copy of args whose expectedRevision (if it has one) is rev.
func withExpectedRevision(args any, rev int64) any {
	raw, err := json.Marshal(args)
	if err != nil {
		return args
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return args
	}
	if _, ok := m["expectedRevision"]; ok {
		m["expectedRevision"] = rev
	}
	return m
}

// runPromptTable (app.runPrompts) remembers the prompt of each running agent run (by JSON-RPC id) so a failing
// call of the run can offer to run the prompt again.
type runPromptTable struct {
	mu sync.Mutex
	m  map[string]string
}

// rememberRun records id's prompt (runPrompt calls it when a run starts); forgetRun drops it.
func (a *app) rememberRun(id, prompt string) {
	a.runPrompts.mu.Lock()
	defer a.runPrompts.mu.Unlock()
	if a.runPrompts.m == nil {
		a.runPrompts.m = map[string]string{}
	}
	a.runPrompts.m[id] = prompt
}

func (a *app) forgetRun(id string) {
	a.runPrompts.mu.Lock()
	defer a.runPrompts.mu.Unlock()
	delete(a.runPrompts.m, id)
}

// agentCallFailure completes the entry of a failed agent call (observe): details, and the
// recovery actions for its error with the run's prompt as the thing to run again. It must
// not block (it only takes mutexes).
func (a *app) agentCallFailure(ent entry, e audit.ToolCallEvent) entry {
	a.mu.Lock()
	running, cancelled := a.st.running, a.cancelled
	a.mu.Unlock()
	a.runPrompts.mu.Lock()
	prompt := a.runPrompts.m[running]
	a.runPrompts.mu.Unlock()
	f := failure{Tool: e.Name, Prompt: prompt, Cancelled: cancelled}
	if e.Result != nil && e.Result.Error != nil {
		te := e.Result.Error
		f.Code, f.Message, f.Retryable = string(te.Code), te.Message, te.Retryable
		raw, _ := json.Marshal(te.Details)
		f.Applied = detailsApplied(raw)
		ent.Details = prettyDetails(raw)
	}
	if prompt != "" && !f.Applied && !f.Cancelled {
		f.Ref = a.storeRerun(func(ctx context.Context, a *app, reread bool) error {
			if reread {
				if _, err := a.freshRevision(ctx); err != nil {
					return err
				}
			}
			a.runPrompt(prompt)
			return nil
		})
	}
	ent.Actions = recoveryActions(f)
	return ent
}
