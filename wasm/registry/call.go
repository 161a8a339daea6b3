package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/schema"
)

// Call is what a handler receives: the validated call and its context.
type Call struct {
	Name       string
	ToolCallID string
	Source     string // mcp.SourceLocal, SourceModel or SourceMCP
	Mode       string // mcp.ModeAgent or ModeDirect
	SessionID  string
	// CoalesceKey is _meta.coalesceKey ("" when absent): an editor typing burst's key. Only
	// handlers that support it read it, and only for source local + mode direct.
	CoalesceKey string
	// IdempotencyKey is _meta.idempotencyKey ("" when absent). The registry already scopes
	// replays by it (OperationKey); a handler reads it only to key records of its own that a
	// recovery must find again (wasm/livesurface's save plans, docs/design.md §5.27).
	IdempotencyKey string
	// Arguments is the validated arguments object ("{}" when the request omitted it).
	Arguments json.RawMessage

	// args is the tree the registry decoded Arguments into for validation (schema.DecodeValid:
	// its strings share the request's memory), or nil for a Call built by hand.
	args map[string]any
}

// Decode unmarshals the validated arguments into v. The arguments already passed the closed
// input schema, so field names are exact and no unknown field is present. A number the schema
// admits as an integer but written 1.0 or 1e1 decodes into an integer field as 1 or 10
// (schema.PlainIntegers); a number no field of v can hold (beyond int64, negative for an
// unsigned field) is TOOL_VALIDATION_FAILED with details {issues: [{path, keyword: "type",
// message}]}, not an execution failure.
func (c *Call) Decode(v any) error {
	err := json.Unmarshal(c.Arguments, v)
	var te *json.UnmarshalTypeError
	if err == nil || !errors.As(err, &te) || !strings.HasPrefix(te.Value, "number") {
		return err
	}
	if plain, changed := schema.PlainIntegers(c.Arguments); changed {
		if err = json.Unmarshal(plain, v); err == nil {
			return nil
		}
		if !errors.As(err, &te) || !strings.HasPrefix(te.Value, "number") {
			return err
		}
	}
	issue := schema.Issue{Path: "/" + strings.ReplaceAll(te.Field, ".", "/"), Keyword: "type", Message: schema.BoundMessage(numberRange(te))}
	return mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"issues": []schema.Issue{issue}},
		"Arguments for %q do not match what the tool accepts: %s: %s", c.Name, issue.Path, issue.Message)
}

// numberRange says which numbers the Go field of a type error holds.
func numberRange(te *json.UnmarshalTypeError) string {
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int64:
		return fmt.Sprintf("%s must be an integer from %d to %d", te.Value, int64(math.MinInt64), int64(math.MaxInt64))
	case reflect.Int32:
		return fmt.Sprintf("%s must be an integer from %d to %d", te.Value, math.MinInt32, math.MaxInt32)
	case reflect.Uint, reflect.Uint64:
		return fmt.Sprintf("%s must be an integer from 0 to %d", te.Value, uint64(math.MaxUint64))
	case reflect.Uint32:
		return fmt.Sprintf("%s must be an integer from 0 to %d", te.Value, math.MaxUint32)
	}
	return fmt.Sprintf("%s cannot be held by this field (%s)", te.Value, te.Type)
}

// StringArg returns the top-level string argument name and true, or "" and false when it is
// absent or not a string. It reads the tree the registry already decoded for validation, so a
// handler whose arguments are a few strings decodes nothing a second time; the returned
// string is a copy that shares no memory with the request. On a Call built by hand it decodes
// Arguments first (and reports false when they are not a JSON object), keeping the tree in c,
// so such a Call must not be read from two goroutines at once.
func (c *Call) StringArg(name string) (string, bool) {
	if c.args == nil {
		v, _ := schema.Decode(c.Arguments)
		m, _ := v.(map[string]any)
		if m == nil {
			return "", false
		}
		c.args = m
	}
	v, ok := c.args[name].(string)
	if !ok {
		return "", false
	}
	return strings.Clone(v), true
}

// Defaults for calls whose _meta leaves them out: the most restrictive context.
const (
	DefaultSource = mcp.SourceModel
	DefaultMode   = mcp.ModeAgent
)

// maxSafeInteger is 2^53-1, the largest integer every JSON peer represents exactly.
const maxSafeInteger = 1<<53 - 1

var emptyObject = json.RawMessage(`{}`)

// CallRaw guards untrusted tools/call params bytes (mcp.ParseCallToolParams) and runs Call.
// It never panics and never returns nil.
func (r *Registry) CallRaw(ctx context.Context, raw []byte) *mcp.CallToolResult {
	p, terr := mcp.ParseCallToolParams(raw)
	if terr != nil {
		return mcp.ErrorResult(r.echoCallID(raw), mcp.ToolErrorOf(terr))
	}
	return r.Call(ctx, p)
}

// CallRawChecked is CallRaw for params that already passed mcp.CheckJSON as part of a larger
// message (rpcsession checks each JSON-RPC request once): the bytes are not scanned again.
func (r *Registry) CallRawChecked(ctx context.Context, raw []byte) *mcp.CallToolResult {
	p, terr := mcp.ParseCheckedCallToolParams(raw)
	if terr != nil {
		return mcp.ErrorResult(r.echoCallID(raw), mcp.ToolErrorOf(terr))
	}
	return r.Call(ctx, p)
}

// echoCallID returns the caller's _meta.toolCallId from params that failed the guard, when it
// can be read unambiguously, so that even a refused call is correlated; else a generated id.
func (r *Registry) echoCallID(raw []byte) string {
	if mcp.CheckJSON(raw) == nil {
		var probe struct {
			Meta struct {
				ToolCallID any `json:"toolCallId"`
			} `json:"_meta"`
		}
		if json.Unmarshal(raw, &probe) == nil {
			if id, ok := probe.Meta.ToolCallID.(string); ok && id != "" && utf8.RuneCountInString(id) <= mcp.MaxToolCallIDChars {
				return id
			}
		}
	}
	return r.newCallID()
}

// options are the checked per-call options.
type options struct {
	idempotencyKey string
	timeout        time.Duration
	timeoutMs      *float64
	maxOutputBytes int64
}

func checkOptions(m *mcp.CallMeta) (options, error) {
	var o options
	if m == nil {
		return o, nil
	}
	if m.IdempotencyKey != nil {
		n := utf8.RuneCountInString(*m.IdempotencyKey)
		if n < 1 || n > mcp.MaxIdempotencyKeyChars {
			return o, mcp.NewError(mcp.CodeToolInvalidOptions, false, map[string]any{"option": "idempotencyKey", "length": n, "maxLength": mcp.MaxIdempotencyKeyChars},
				"idempotencyKey must be 1..%d characters, got %d.", mcp.MaxIdempotencyKeyChars, n)
		}
		o.idempotencyKey = *m.IdempotencyKey
	}
	if m.TimeoutMs != nil {
		t := *m.TimeoutMs
		if math.IsNaN(t) || math.IsInf(t, 0) || t < 0 {
			return o, mcp.NewError(mcp.CodeToolInvalidOptions, false, map[string]any{"option": "timeoutMs"},
				"timeoutMs must be a finite number >= 0.")
		}
		o.timeoutMs = m.TimeoutMs
		o.timeout = time.Duration(t * float64(time.Millisecond))
	}
	if m.MaxOutputBytes != nil {
		b := *m.MaxOutputBytes
		if math.IsNaN(b) || b <= 0 || b != math.Trunc(b) || b > maxSafeInteger {
			return o, mcp.NewError(mcp.CodeToolInvalidOptions, false, map[string]any{"option": "maxOutputBytes"},
				"maxOutputBytes must be a positive integer.")
		}
		o.maxOutputBytes = int64(b)
	}
	return o, nil
}

// callState carries one call through the pipeline.
type callState struct {
	// provTimeout and provMaxOut are the provenance copies of the options (see emit); they
	// point at timeoutVal and maxOutVal, which live in this (already allocated) state.
	provTimeout, provMaxOut *int64
	timeoutVal, maxOutVal   int64
	// hcall is the handler's copy of call (invoke): a handler may change what it is given
	// without touching what the events and the result report.
	hcall Call

	r       *Registry
	call    Call
	params  mcp.CallToolParams
	opts    options
	started time.Time
}

// Call runs the tools/call pipeline (see the package documentation) and returns the canonical
// result. It never panics and never returns nil. Options ride in p.Meta: idempotencyKey,
// timeoutMs (0 = no deadline; the deadline covers the handler, not a person's approval),
// maxOutputBytes; call context: toolCallId (generated when absent), source (default "model"),
// mode (default "agent"), sessionId.
func (r *Registry) Call(ctx context.Context, p mcp.CallToolParams) (res *mcp.CallToolResult) {
	meta := p.Meta
	if meta == nil {
		meta = &mcp.CallMeta{}
	}
	s := &callState{r: r, params: p, started: r.opts.Clock(), call: Call{
		Name: p.Name, ToolCallID: meta.ToolCallID, Source: meta.Source, Mode: meta.Mode, SessionID: meta.SessionID,
		CoalesceKey: meta.CoalesceKey, Arguments: p.Arguments,
	}}
	if s.call.ToolCallID == "" {
		s.call.ToolCallID = r.newCallID()
	}
	if s.call.Source == "" {
		s.call.Source = DefaultSource
	}
	if s.call.Mode == "" {
		s.call.Mode = DefaultMode
	}
	if len(s.call.Arguments) == 0 {
		s.call.Arguments = emptyObject
	}
	defer func() {
		if v := recover(); v != nil {
			res = mcp.ErrorResult(s.call.ToolCallID, mcp.NewError(mcp.CodeToolExecutionFailed, false,
				map[string]any{"handlerId": p.Name, "message": fmt.Sprint(v)}, "Tool %q failed: internal error.", p.Name))
		}
	}()
	// 1. request guard, for callers that built params in Go.
	if p.Name == "" {
		return mcp.ErrorResult(s.call.ToolCallID, mcp.NewError(mcp.CodeToolValidationFailed, false,
			map[string]any{"reason": "missing", "field": "name"}, "Invalid tools request: tools/call params need a \"name\" string."))
	}
	if len(p.Arguments) > 0 {
		if err := mcp.CheckJSON(p.Arguments); err != nil || p.Arguments[0] != '{' {
			return mcp.ErrorResult(s.call.ToolCallID, mcp.NewError(mcp.CodeToolValidationFailed, false,
				map[string]any{"reason": "type", "field": "arguments"}, "Invalid tools request: Tool \"arguments\" must be a JSON object."))
		}
	}
	// 2. options.
	opts, err := checkOptions(meta)
	if err != nil {
		return mcp.ErrorResult(s.call.ToolCallID, mcp.ToolErrorOf(err))
	}
	s.opts = opts
	s.call.IdempotencyKey = opts.idempotencyKey
	// 3. started.
	s.emit(audit.EventStarted, nil, audit.StatePending, 0)
	res = s.run(ctx)
	return res
}

func (s *callState) run(ctx context.Context) *mcp.CallToolResult {
	r := s.r
	// 4. lookup.
	r.mu.RLock()
	e := r.byName[s.call.Name]
	allowed := r.allowed == nil || r.allowed[s.call.Name]
	r.mu.RUnlock()
	if e == nil {
		return s.fail(mcp.NewError(mcp.CodeToolNotFound, false, map[string]any{"name": s.call.Name},
			"Tool %q not found in registry.", s.call.Name), audit.StateFailed)
	}
	// 5. allowlist.
	if !allowed {
		return s.fail(mcp.NewError(mcp.CodeToolNotAllowed, false, map[string]any{"name": s.call.Name},
			"Tool %q is not allowed in this context.", s.call.Name), audit.StateFailed)
	}
	// 6. strict validation, before any policy.
	// Arguments passed mcp.CheckJSON in the request guard.
	in, _, err := e.compiled()
	if err != nil {
		// A catalog bug that Check finds in tests (docs/design.md §5.14); never reached by a
		// shipped catalog.
		return s.fail(mcp.NewError(mcp.CodeToolExecutionFailed, false,
			map[string]any{"handlerId": s.call.Name, "message": "schema does not compile: " + err.Error()},
			"Tool %q has a schema that does not compile.", s.call.Name), audit.StateFailed)
	}
	tree := schema.DecodeValid(s.call.Arguments)
	s.call.args, _ = tree.(map[string]any) // for Call.StringArg: decoded once
	issues := in.ValidateValue(tree)
	if len(issues) > 0 {
		switch r.opts.Validation {
		case ValidationWarn:
			if r.opts.Warn != nil {
				r.opts.Warn(s.call.Name, issues)
			}
		case ValidationSilent:
		default:
			return s.fail(mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"issues": issues},
				"Arguments for %q do not match its input schema: %s", s.call.Name, summarizeIssues(issues)), audit.StateFailed)
		}
	}
	// 7. policy.
	if err := s.decide(ctx, e); err != nil {
		terr := mcp.ToolErrorOf(err)
		state := audit.StateFailed
		if terr.Code == mcp.CodeToolCancelled {
			state = audit.StateCancelled
		}
		return s.fail(terr, state)
	}
	// 8. readiness.
	if r.opts.Ready != nil {
		if err := r.opts.Ready(); err != nil {
			return s.fail(mcp.NewError(mcp.CodeToolRegistryNotReady, true, nil,
				"The tool registry is not ready: %v", err), audit.StateFailed)
		}
	}
	// 9-12. execution (shared when idempotent), output checks.
	out := s.execute(ctx, e)
	if out.err != nil {
		return s.fail(out.err, out.state)
	}
	// 12. output budget.
	used := int64(2 * len(out.sc))
	if s.opts.maxOutputBytes > 0 && used > s.opts.maxOutputBytes {
		details := map[string]any{"maxOutputBytes": s.opts.maxOutputBytes, "usedOutputBytes": used}
		msg := fmt.Sprintf("Tool %q produced %d output bytes, over the limit of %d.", s.call.Name, used, s.opts.maxOutputBytes)
		if e.def.Annotations == nil || !e.def.Annotations.ReadOnlyHint {
			// The handler ran: its effects stand, only the result is withheld. Say so, so that
			// nobody retries a mutation that already happened (SPEC §2.13's spirit).
			details["executed"] = true
			msg += " The call did run and its changes were applied; only its result was withheld: do not repeat it."
		}
		return s.fail(mcp.NewError(mcp.CodeToolOutputLimitExceeded, false, details, "%s", msg), audit.StateFailed)
	}
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.TextContent(string(out.sc))},
		StructuredContent: out.sc,
		ToolCallID:        s.call.ToolCallID,
		Replay:            out.replay,
	}
	s.emit(audit.EventCompleted, res, audit.StateCompleted, used)
	return res
}

func summarizeIssues(issues []schema.Issue) string {
	parts := make([]string, 0, 3)
	for i, is := range issues {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(issues)-3))
			break
		}
		path := is.Path
		if path == "" {
			path = "(root)"
		}
		parts = append(parts, path+": "+is.Message)
	}
	return strings.Join(parts, "; ") + "."
}

// decide runs the policy; nil means allowed.
func (s *callState) decide(ctx context.Context, e *entry) (terr error) {
	defer func() {
		if v := recover(); v != nil {
			terr = mcp.NewError(mcp.CodeToolPolicyFailed, true, nil, "Policy for %q failed: %v", s.call.Name, v)
		}
	}()
	d, err := s.r.opts.Policy.Decide(ctx, PolicyRequest{Tool: e.def, ToolCallID: s.call.ToolCallID,
		Source: s.call.Source, Mode: s.call.Mode, SessionID: s.call.SessionID, Arguments: s.call.Arguments})
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return mcp.NewError(mcp.CodeToolCancelled, true, nil, "Tool call cancelled while waiting for policy.")
		}
		return mcp.NewError(mcp.CodeToolPolicyFailed, true, nil, "Policy for %q failed: %v", s.call.Name, err)
	}
	switch d {
	case Allow:
		return nil
	case Ask:
		return mcp.NewError(mcp.CodeToolApprovalRequired, true, map[string]any{"name": s.call.Name},
			"Tool %q needs approval before it can run.", s.call.Name)
	default:
		return mcp.NewError(mcp.CodeToolPolicyDenied, false, map[string]any{"name": s.call.Name},
			"Tool %q was denied by policy.", s.call.Name)
	}
}

// execute runs the handler (or joins the shared idempotent run) and applies output checks.
func (s *callState) execute(ctx context.Context, e *entry) outcome {
	hctx, cancel := ctx, context.CancelFunc(func() {})
	if s.opts.timeout > 0 {
		hctx, cancel = context.WithTimeout(ctx, s.opts.timeout)
	}
	defer cancel()

	var ex *execution
	if s.opts.idempotencyKey != "" {
		key := s.call.SessionID
		if key == "" {
			key = "default"
		}
		scoped, _ := json.Marshal([]string{key, s.call.Name, s.opts.idempotencyKey})
		fp := audit.Fingerprint(s.call.Name, s.call.Arguments)
		var owner, conflict bool
		ex, owner, conflict = s.r.idem.claim(string(scoped), fp)
		if conflict {
			return outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolIdempotencyConflict, false,
				map[string]any{"idempotencyKey": s.opts.idempotencyKey},
				"idempotencyKey was already used with different arguments for %q.", s.call.Name)}
		}
		if !owner {
			return s.wait(ctx, hctx, ex)
		}
		if s.r.opts.Durable != nil {
			return s.durableRun(ctx, hctx, e, ex, string(scoped), fp)
		}
	}

	if ex == nil && s.opts.timeout == 0 {
		// No deadline to enforce and no shared execution to outlive this caller: run inline.
		// Cancellation is cooperative here — the handler sees ctx and a handler that returns
		// ctx's error becomes TOOL_CANCELLED — so a handler that finishes anyway reports what it
		// really did. (A goroutine per call doubled the cost of a call inside wasm; the channel
		// and closure of the detached path cost three allocations, so this path has neither.)
		return s.invoke(hctx, ctx, e)
	}
	done := make(chan outcome, 1)
	runOnce := func(runCtx context.Context) {
		var out outcome
		if ex != nil {
			out = s.invokeStamped(runCtx, ctx, e)
			s.r.idem.settle(ex, out)
		} else {
			out = s.invoke(runCtx, ctx, e)
		}
		done <- out
	}
	go runOnce(hctx)
	select {
	case out := <-done:
		return out
	case <-hctx.Done():
		return s.interrupted(ctx)
	}
}

// wait joins an execution owned by another call with the same idempotency key.
func (s *callState) wait(ctx, hctx context.Context, ex *execution) outcome {
	select {
	case <-ex.done:
	case <-hctx.Done():
		return s.interrupted(ctx)
	}
	if ex.out.aborted {
		return outcome{state: audit.StateUnknown, err: mcp.NewError(mcp.CodeToolExecutionAborted, true,
			map[string]any{"idempotencyKey": s.opts.idempotencyKey},
			"The shared execution for this idempotencyKey ended without a reliable result.")}
	}
	return s.checkReplay(ctx, "", ex.out)
}

// interrupted classifies a wait that ended because of the caller's context or the timeout.
func (s *callState) interrupted(ctx context.Context) outcome {
	if ctx.Err() != nil {
		return outcome{state: audit.StateCancelled, err: mcp.NewError(mcp.CodeToolCancelled, true, nil,
			"Tool call %q was cancelled.", s.call.Name)}
	}
	ms := int64(0)
	if s.opts.timeoutMs != nil {
		ms = int64(*s.opts.timeoutMs)
	}
	return outcome{state: audit.StateUnknown, err: mcp.NewError(mcp.CodeToolTimeout, true,
		map[string]any{"timeoutMs": ms, "executionState": "detached"},
		"Tool %q did not finish within %d ms; it may still complete in the background.", s.call.Name, ms)}
}

// invoke calls the handler once, recovering panics, and turns its return into an outcome.
func (s *callState) invoke(runCtx, callerCtx context.Context, e *entry) (out outcome) {
	defer func() {
		if v := recover(); v != nil {
			out = outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolExecutionFailed, false,
				map[string]any{"handlerId": s.call.Name, "message": "panic: " + fmt.Sprint(v)},
				"Tool %q failed: its handler panicked.", s.call.Name)}
		}
	}()
	s.hcall = s.call
	v, err := e.handle(runCtx, &s.hcall)
	if err != nil {
		return s.classify(runCtx, callerCtx, err)
	}
	var sc json.RawMessage
	var inst any
	_, outSchema, _ := e.compiled()
	proven := false // the result's Go type cannot violate the output schema (schema.AdmitsType)
	switch x := v.(type) {
	case json.RawMessage:
		sc = x
		inst, _ = schema.Decode(sc) // handler-made bytes: check them
	case []byte:
		sc = x
		inst, _ = schema.Decode(sc)
	case map[string]any:
		// Already a generic JSON value: validate it as is and marshal once (no decode).
		if sc, err = json.Marshal(x); err == nil && genericJSON(x, 0) {
			inst = x
		} else if err == nil {
			inst = schema.DecodeValid(sc)
		}
	default:
		if sc, err = json.Marshal(v); err == nil {
			if outSchema != nil && outSchema.AdmitsType(reflect.TypeOf(v)) {
				// Every value of this type marshals to an object that outSchema accepts (the
				// proof is per type, cached; docs/performance.md "Native tools/call A/B
				// (2026-12-06)"): the output check cannot fail, so it is not run.
				proven = true
			} else {
				inst = schema.DecodeValid(sc) // encoding/json output is valid JSON
			}
		}
	}
	if err != nil {
		return outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolExecutionFailed, false,
			map[string]any{"handlerId": s.call.Name, "message": "result is not serializable: " + err.Error()},
			"Tool %q returned a result that cannot be serialized.", s.call.Name)}
	}
	if proven {
		return outcome{sc: sc, state: audit.StateCompleted}
	}
	if _, isObj := inst.(map[string]any); !isObj {
		return outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolOutputValidationFailed, false,
			map[string]any{"issues": []schema.Issue{{Keyword: "type", Message: "structuredContent must be a JSON object"}}},
			"Tool %q returned a result that is not a JSON object.", s.call.Name)}
	}
	if outSchema != nil {
		if issues := outSchema.ValidateValue(inst); len(issues) > 0 {
			return outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolOutputValidationFailed, false,
				map[string]any{"issues": issues},
				"Tool %q returned a result that does not match its output schema: %s", s.call.Name, summarizeIssues(issues))}
		}
	}
	return outcome{sc: sc, state: audit.StateCompleted}
}

// genericJSON reports whether v holds only the types the schema validator understands
// (map[string]any, []any, string, bool, nil, json.Number, float64, int, int64), so it can be
// validated without a marshal/decode round trip. Non-finite floats are refused (they do not
// marshal).
func genericJSON(v any, depth int) bool {
	if depth > mcp.MaxJSONDepth {
		return false
	}
	switch x := v.(type) {
	case nil, bool, string, json.Number, int, int64:
		return true
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case []any:
		for _, e := range x {
			if !genericJSON(e, depth+1) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !genericJSON(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// classify maps a handler error to an outcome (REFERENCE §3.1 retryable rules).
func (s *callState) classify(runCtx, callerCtx context.Context, err error) outcome {
	timedOut := errors.Is(runCtx.Err(), context.DeadlineExceeded) && callerCtx.Err() == nil
	cancelled := callerCtx.Err() != nil
	var te *mcp.ToolError
	if errors.As(err, &te) && (!mcp.ValidCode(te.Code) || strings.TrimSpace(te.Message) == "") {
		// A coded error the canonical result cannot carry (its own validator would refuse it):
		// the canonical TOOL_EXECUTION_FAILED instead (issue 14 item 11).
		return outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolExecutionFailed, false,
			map[string]any{"handlerId": s.call.Name, "reason": "invalid-tool-error", "code": boundRunes(string(te.Code), 128), "message": boundRunes(te.Message, 512)},
			"Tool %q failed with an error that has no valid code or message.", s.call.Name)}
	}
	if errors.As(err, &te) {
		c := *te
		if timedOut || cancelled {
			c.Retryable = true
		}
		state := audit.StateFailed
		switch c.Code {
		case mcp.CodeToolTimeout, mcp.CodeToolExecutionAborted, mcp.CodeToolExecutionUnknown:
			state = audit.StateUnknown
		case mcp.CodeToolCancelled:
			state = audit.StateCancelled
		}
		return outcome{err: &c, state: state, aborted: state == audit.StateUnknown}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		switch {
		case cancelled:
			o := s.interrupted(callerCtx)
			o.aborted = true
			return o
		case timedOut:
			o := s.interrupted(callerCtx)
			o.aborted = true
			return o
		}
		return outcome{state: audit.StateUnknown, aborted: true, err: mcp.NewError(mcp.CodeToolExecutionAborted, true,
			map[string]any{"handlerId": s.call.Name}, "Tool %q was aborted before it finished.", s.call.Name)}
	}
	return outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolExecutionFailed, false,
		map[string]any{"handlerId": s.call.Name, "message": err.Error()}, "Tool %q failed: %s", s.call.Name, err.Error())}
}

// fail builds the error result and emits the failed event.
func (s *callState) fail(terr *mcp.ToolError, state audit.ProvenanceState) *mcp.CallToolResult {
	res := mcp.ErrorResult(s.call.ToolCallID, terr)
	s.emit(audit.EventFailed, res, state, int64(len(res.Content[0].Text)+len(res.StructuredContent)))
	return res
}

// emit sends one lifecycle event to the observer, if any.
func (s *callState) emit(kind audit.EventType, res *mcp.CallToolResult, state audit.ProvenanceState, used int64) {
	obs := s.r.opts.Observer
	if obs == nil {
		return
	}
	now := s.r.opts.Clock()
	prov := audit.NewProvenance(s.r.opts.OwnerID)
	prov.State = state
	prov.UsedOutputBytes = used
	prov.ElapsedMs = now.Sub(s.started).Milliseconds()
	// The started and finished events share one copy of the option values.
	if s.opts.timeoutMs != nil && s.provTimeout == nil {
		s.timeoutVal = int64(*s.opts.timeoutMs)
		s.provTimeout = &s.timeoutVal
	}
	if s.opts.maxOutputBytes > 0 && s.provMaxOut == nil {
		s.maxOutVal = s.opts.maxOutputBytes
		s.provMaxOut = &s.maxOutVal
	}
	prov.TimeoutMs, prov.MaxOutputBytes = s.provTimeout, s.provMaxOut
	params := s.params
	params.Arguments = s.call.Arguments
	obs(audit.ToolCallEvent{
		Type: kind, ToolCallID: s.call.ToolCallID, Name: s.call.Name, Source: s.call.Source, Mode: s.call.Mode,
		SessionID: s.call.SessionID, Request: params, Provenance: prov, Result: res, At: now,
	})
}

// decodeMembers splits a JSON object into raw members (used for argument key lists).
func decodeMembers(raw []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	err := json.Unmarshal(raw, &m)
	return m, err
}

// boundRunes cuts s to at most n code points.
func boundRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
