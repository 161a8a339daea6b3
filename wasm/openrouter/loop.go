package openrouter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/provider"
	"github.com/webcoding/studio/wasm/registry"
)

// Budgets (REFERENCE §4).
const (
	// MaxTurns is how many chat requests one run makes at most (OPENROUTER_TOOL_LOOP_LIMIT).
	MaxTurns = 5
	// MaxToolCalls is how many tool calls one run executes at most
	// (OPENROUTER_TOOL_CALL_LIMIT, checked before a batch runs).
	MaxToolCalls = 12
	// MaxOutputBytes is the maxOutputBytes of every model-originated call (64 KiB): a larger
	// result becomes TOOL_OUTPUT_LIMIT_EXCEEDED, which the model reads instead.
	MaxOutputBytes = 64 << 10
	// MaxConversationBytes bounds the content carried from one prompt to the next; beyond it
	// the oldest tool results are replaced by ElidedResult first.
	MaxConversationBytes = 96 << 10
)

// ElidedResult replaces an old tool result when the conversation outgrows
// MaxConversationBytes.
const ElidedResult = `{"status":"elided","message":"Older tool result elided to keep the conversation bounded."}`

// Notice is a retry notice: Text is "retrying provider request <Attempt>/<Max>", shown by
// the UI and the CLI while the backoff of Delay runs. Code is the transient failure and
// Status its HTTP status (0 for a network error or a timeout). The request that follows the
// backoff is attempt Attempt+1 of Max+1.
type Notice struct {
	Attempt int           `json:"attempt"`
	Max     int           `json:"max"`
	Delay   time.Duration `json:"delayNs"`
	Code    mcp.Code      `json:"code"`
	Status  int           `json:"status,omitempty"`
	Text    string        `json:"text"`
}

// Conversation is the chat history that a follow-up prompt continues (the provider's view;
// the visible transcript is the caller's projection of Reports). The zero value is an empty
// chat ("New chat" is Reset). It is not safe for concurrent runs.
type Conversation struct {
	messages []Message
}

// Messages returns a copy of the history, system message first.
func (c *Conversation) Messages() []Message { return append([]Message(nil), c.messages...) }

// Reset empties the conversation.
func (c *Conversation) Reset() { c.messages = nil }

// Options are the inputs of Run besides the prompt.
type Options struct {
	Config
	// Transport performs the HTTP requests (required).
	Transport Transport
	// ListTools fetches one tools/list page (required); every page is read
	// (registry.ListAllTools) and converted with provider.ToOpenAI.
	ListTools registry.ListPageFunc
	// Exec runs one tools/call through the registry (required).
	Exec planner.Executor
	// SessionID is the sessionId of every call of this run ("" → none).
	SessionID string
	// Conversation, when non-nil, is continued and updated; nil starts a fresh chat.
	Conversation *Conversation
	// OnNotice receives retry notices; nil drops them (they are also in Report.Notices).
	OnNotice func(Notice)
	// Sleep waits d or until ctx is done, returning ctx's error then (nil: a timer).
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for Retry-After dates (nil: time.Now).
	Now func() time.Time
	// OnRefused receives each call the loop answers itself without dispatching it through
	// the registry — arguments that are not a JSON object (OPENROUTER_INVALID_TOOL_CALL), or
	// a call cut short by cancellation before it started — with its params (canonical name,
	// _meta with the provider's call id; no arguments for an invalid call) and error result,
	// so the caller can emit the failed lifecycle event the registry would have (nil: none).
	OnRefused func(p mcp.CallToolParams, res *mcp.CallToolResult)
	// OnText receives the assistant text of a streamed answer (Config.Stream) as it arrives,
	// one fragment at a time, with the turn and attempt it belongs to; a new attempt of the
	// same turn (a retry) starts the turn's text again. nil: dropped (the final text is still
	// Report.Summary).
	OnText func(TextDelta)
	// Budget bounds the run's reported usage (zero: no limit); see Budget.
	Budget Budget
}

// TextDelta is one fragment of streamed assistant text: Turn (1..MaxTurns) and Attempt
// (1..MaxRetries+1) say which request it came from.
type TextDelta struct {
	Turn    int    `json:"turn"`
	Attempt int    `json:"attempt"`
	Text    string `json:"text"`
}

// Report is the outcome of Run: the local agent's Report (calls, summary, failed,
// errorCode, retryable, failedTool) plus the provider facts:
//
//	{"calls", "summary", "failed", "failedTool"?, "errorCode"?, "retryable"?,
//	 "provider": "openrouter", "model", "turns", "cancelled"?, "error"?, "notices"?,
//	 "usage"?: Usage, "turnUsage"?: [Usage…]}
//
// Usage totals what the answers of the run reported (absent when none did); TurnUsage has
// one entry per answered turn, in order (Responses 0 for a turn whose answer reported none).
// A run fails (failed true, error set) only on a provider or budget error; tool errors are
// results the model reads. A cancelled run is cancelled, not failed.
type Report struct {
	planner.Report
	Provider  string         `json:"provider"`
	Model     string         `json:"model"`
	Turns     int            `json:"turns"`
	Cancelled bool           `json:"cancelled,omitempty"`
	Error     *mcp.ToolError `json:"error,omitempty"`
	Notices   []string       `json:"notices,omitempty"`
	Usage     *Usage         `json:"usage,omitempty"`
	TurnUsage []Usage        `json:"turnUsage,omitempty"`
	// Reasoning is the reasoning text the run's answers returned, joined by blank lines and
	// bounded by MaxReportReasoningBytes ("" when none; reasoning.go).
	Reasoning string `json:"reasoning,omitempty"`
}

// errCancelled marks a run stopped by its context.
var errCancelled = errors.New("cancelled")

// Run sends prompt (with the conversation so far) to the provider and runs the tool calls it
// asks for, turn after turn, until the model answers with text (REFERENCE §7.5):
//   - at most MaxTurns requests; still calling tools after the last → OPENROUTER_TOOL_LOOP_LIMIT;
//   - each request retried at most MaxRetries times on a transient failure, after Backoff
//     (Retry-After honoured), with a Notice each time; cancellation during the backoff stops
//     the run without another request;
//   - a batch whose calls would bring the run over MaxToolCalls is refused before any runs
//     (OPENROUTER_TOOL_CALL_LIMIT);
//   - each call is dispatched under its canonical name with _meta {toolCallId: the provider's
//     id, sessionId, source "model", mode "agent", maxOutputBytes 65536}; null members of the
//     arguments that the tool does not require are dropped first (null means absent);
//   - calls whose arguments were unusable are not run: their result is the
//     OPENROUTER_INVALID_TOOL_CALL error, which the model reads;
//   - with Config.Stream the answer is read as server-sent events (StreamDecoder), text
//     reaching OnText as it arrives; only a complete answer (one with a finish_reason) runs
//     any call, and the limits above apply to it unchanged;
//   - before every request after the first, the usage reported so far is checked against
//     Options.Budget (OPENROUTER_BUDGET_EXCEEDED).
//
// Run never panics on provider input and never returns the API key in any field.
func Run(ctx context.Context, prompt string, opts Options) Report {
	l := &loop{opts: opts, rep: Report{Provider: "openrouter", Model: opts.model()}}
	l.rep.Calls = []planner.Step{}
	if opts.Conversation == nil {
		l.conv = &Conversation{}
	} else {
		l.conv = opts.Conversation
	}
	l.run(ctx, prompt)
	return l.rep
}

type loop struct {
	opts     Options
	rep      Report
	conv     *Conversation
	names    *provider.NameMap
	required map[string]map[string]bool
	tools    []provider.OpenAITool

	reasoningFull bool // Report.Reasoning reached MaxReportReasoningBytes
}

func (l *loop) run(ctx context.Context, prompt string) {
	if l.opts.Transport == nil || l.opts.ListTools == nil || l.opts.Exec == nil {
		l.fail(mcp.NewError(mcp.CodeOpenRouterConfigurationError, false, nil, "OpenRouter run is missing its transport, tool list or executor."))
		return
	}
	if err := l.loadTools(ctx); err != nil {
		if ctx.Err() != nil {
			l.cancel()
			return
		}
		l.fail(mcp.NewError(mcp.CodeOpenRouterConfigurationError, false, nil, "The tool catalog could not be prepared for OpenRouter: %s.", err.Error()))
		return
	}
	if len(l.conv.messages) == 0 {
		l.conv.messages = append(l.conv.messages, Message{Role: RoleSystem, Content: text(SystemPrompt)})
	}
	l.conv.messages = appendPrompt(l.conv.messages, prompt)
	completed := 0
	for turn := 1; turn <= MaxTurns; turn++ {
		if terr := l.opts.Budget.exceeded(l.used(), turn-1); terr != nil {
			l.fail(terr)
			return
		}
		l.rep.Turns = turn
		boundConversation(l.conv)
		comp, terr := l.request(ctx, turn)
		if errors.Is(terr, errCancelled) {
			l.cancel()
			return
		}
		if terr != nil {
			l.fail(mcp.ToolErrorOf(terr))
			return
		}
		l.count(comp.Usage)
		l.addReasoning(comp.Reasoning)
		if len(comp.Calls) == 0 {
			final := ""
			if comp.Content != nil {
				final = *comp.Content
			}
			l.conv.messages = append(l.conv.messages, Message{Role: RoleAssistant, Content: text(final), ReasoningDetails: comp.ReasoningDetails})
			if strings.TrimSpace(final) == "" {
				final = Relabel(fmt.Sprintf("OpenRouter completed %d tool call(s).", completed), l.label())
			}
			l.rep.Summary = l.scrub(strings.TrimSpace(final))
			return
		}
		if completed+len(comp.Calls) > MaxToolCalls {
			l.fail(mcp.NewError(mcp.CodeOpenRouterToolCallLimit, false,
				map[string]any{"completed": completed, "requested": len(comp.Calls), "limit": MaxToolCalls},
				"OpenRouter requested %d more tool call(s) after %d; a run allows at most %d.", len(comp.Calls), completed, MaxToolCalls))
			return
		}
		l.runBatch(ctx, comp)
		completed += len(comp.Calls)
		if terr := cutByLength(comp); terr != nil {
			l.fail(terr)
			return
		}
		if ctx.Err() != nil {
			l.cancel()
			return
		}
	}
	l.fail(mcp.NewError(mcp.CodeOpenRouterToolLoopLimit, false, map[string]any{"turns": MaxTurns, "toolCalls": completed},
		"OpenRouter was still calling tools after %d turns.", MaxTurns))
}

func (l *loop) loadTools(ctx context.Context) error {
	all, err := registry.ListAllTools(ctx, l.opts.ListTools, registry.ListAllOptions{})
	if err != nil {
		return err
	}
	if l.tools, err = provider.ToOpenAI(all); err != nil {
		return err
	}
	names := make([]string, len(all))
	l.required = make(map[string]map[string]bool, len(all))
	for i, t := range all {
		names[i] = t.Name
		var s struct {
			Required []string `json:"required"`
		}
		_ = json.Unmarshal(t.InputSchema, &s)
		req := map[string]bool{}
		for _, r := range s.Required {
			req[r] = true
		}
		l.required[t.Name] = req
	}
	l.names, err = provider.NewNameMap(names)
	return err
}

// runBatch appends the assistant tool-call message, then runs every call and appends its
// tool message. After a cancellation the remaining calls are answered TOOL_CANCELLED without
// running, so the history stays well-formed.
func (l *loop) runBatch(ctx context.Context, comp *Completion) {
	am := Message{Role: RoleAssistant, Content: comp.Content, ReasoningDetails: comp.ReasoningDetails}
	if comp.Content != nil && *comp.Content == "" {
		am.Content = text("")
	}
	for _, c := range comp.Calls {
		args := "{}"
		if c.ArgError == nil {
			args = string(c.Arguments)
		}
		am.ToolCalls = append(am.ToolCalls, ToolCall{ID: c.ID, Type: "function", Function: ToolCallFunction{Name: c.Name, Arguments: args}})
	}
	l.conv.messages = append(l.conv.messages, am)
	limit := float64(MaxOutputBytes)
	for _, c := range comp.Calls {
		name, ok := l.names.ToCanonical(c.Name)
		if !ok {
			name = c.Name // unknown: the registry answers TOOL_NOT_FOUND
		}
		p := mcp.CallToolParams{Name: name, Meta: &mcp.CallMeta{ToolCallID: c.ID, SessionID: l.opts.SessionID,
			Source: mcp.SourceModel, Mode: mcp.ModeAgent, MaxOutputBytes: &limit}}
		var res *mcp.CallToolResult
		refused := true // answered here, never dispatched (OnRefused)
		switch {
		case c.ArgError != nil:
			res = mcp.ErrorResult(c.ID, c.ArgError)
		case ctx.Err() != nil:
			p.Arguments = c.Arguments
			res = mcp.ErrorResult(c.ID, mcp.NewError(mcp.CodeToolCancelled, true, nil, "Tool call cancelled before it started."))
		default:
			refused = false
			p.Arguments = dropOptionalNulls(c.Arguments, l.required[name])
			res = l.opts.Exec(ctx, p)
		}
		if refused && l.opts.OnRefused != nil {
			l.opts.OnRefused(p, res)
		}
		l.rep.Calls = append(l.rep.Calls, planner.Step{Request: p, Result: res})
		l.conv.messages = append(l.conv.messages, Message{Role: RoleTool, ToolCallID: c.ID, Content: text(SerializeResult(res))})
	}
}

// dropOptionalNulls removes top-level members whose value is null and whose name is not
// required; required nulls stay, so validation refuses them.
func dropOptionalNulls(args json.RawMessage, required map[string]bool) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return args
	}
	dropped := false
	for k, v := range m {
		if mcp.JSONKind(v) == "null" && !required[k] {
			delete(m, k)
			dropped = true
		}
	}
	if !dropped {
		return args
	}
	b, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return b
}

// count adds one answer's usage (nil: none reported) to the turn and run totals.
func (l *loop) count(u *Usage) {
	var t Usage
	if u != nil {
		t = *u
		total := l.used()
		total.Add(t)
		l.rep.Usage = &total
	}
	l.rep.TurnUsage = append(l.rep.TurnUsage, t)
}

// used is the usage reported so far.
func (l *loop) used() Usage {
	if l.rep.Usage == nil {
		return Usage{}
	}
	return *l.rep.Usage
}

// request performs one turn's request with retries. It returns errCancelled when ctx ended.
func (l *loop) request(ctx context.Context, turn int) (*Completion, error) {
	req, err := BuildRequest(l.opts.Config, l.conv.messages, l.tools)
	if err != nil {
		return nil, mcp.NewError(mcp.CodeOpenRouterConfigurationError, false, nil, "The OpenRouter request could not be built: %s.", err.Error())
	}
	for attempt := 0; ; attempt++ {
		comp, terr, retryAfter := l.once(ctx, req, l.textSink(turn, attempt+1))
		if ctx.Err() != nil {
			return nil, errCancelled
		}
		if terr == nil {
			return comp, nil
		}
		if !Transient(terr.Code) || attempt >= MaxRetries {
			if d, ok := terr.Details.(map[string]any); ok {
				d["attempts"] = attempt + 1
			} else if terr.Details == nil {
				terr.Details = map[string]any{"attempts": attempt + 1}
			}
			return nil, terr
		}
		delay := Backoff(attempt, retryAfter)
		n := Notice{Attempt: attempt + 1, Max: MaxRetries, Delay: delay, Code: terr.Code,
			Text: fmt.Sprintf("retrying provider request %d/%d", attempt+1, MaxRetries)}
		if d, ok := terr.Details.(map[string]any); ok {
			n.Status, _ = d["status"].(int)
		}
		l.rep.Notices = append(l.rep.Notices, n.Text)
		if l.opts.OnNotice != nil {
			l.opts.OnNotice(n)
		}
		if err := l.sleep(ctx, delay); err != nil || ctx.Err() != nil {
			return nil, errCancelled
		}
	}
}

// textSink is the OnText callback of one attempt (nil without Options.OnText).
func (l *loop) textSink(turn, attempt int) func(string) {
	if l.opts.OnText == nil {
		return nil
	}
	return func(s string) { l.opts.OnText(TextDelta{Turn: turn, Attempt: attempt, Text: l.scrub(s)}) }
}

// idleTimer is the timer of a streamed answer read as it arrives (time.AfterFunc's).
type idleTimer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// afterFunc starts an idleTimer (a seam for the tests: export_test.go).
var afterFunc = func(d time.Duration, f func()) idleTimer { return time.AfterFunc(d, f) }

// once performs one HTTP attempt and classifies its outcome. A streamed answer is read as it
// arrives when the transport is a StreamTransport, onText receiving its text; the configured
// wait (Config.RequestTimeout: 20 s remote, 120 s loopback by default) then bounds the wait for
// the headers and each wait for the next bytes (an idle timeout), not the whole answer, so a slow local model that keeps streaming is not cut
// (docs/design.md §5.16); an IdleTransport (the wasip1 host function) watches the same idle
// timeout itself. Any other attempt must end within that wait.
func (l *loop) once(ctx context.Context, req Request, onText func(string)) (*Completion, *mcp.ToolError, time.Duration) {
	var actx context.Context
	var cancel context.CancelFunc
	touch := func() {}
	idle := false
	var fired atomic.Bool
	wait := l.opts.requestTimeout()
	_, streams := l.opts.Transport.(StreamTransport)
	_, idles := l.opts.Transport.(IdleTransport)
	switch {
	case l.opts.Stream && streams:
		idle = true
		actx, cancel = context.WithCancel(ctx)
		tm := afterFunc(wait, func() { fired.Store(true); cancel() })
		defer tm.Stop()
		touch = func() { tm.Reset(wait) }
	case l.opts.Stream && idles: // the transport watches the idle time itself (DoIdle)
		idle = true
		actx, cancel = context.WithCancel(ctx)
	default:
		actx, cancel = context.WithTimeout(ctx, wait)
	}
	defer cancel()
	resp, comp, pe, derr, err := l.exchange(actx, req, onText, touch)
	// A transport that enforces the deadline itself (the wasip1 host function, where the
	// guest's timers cannot fire during the call) reports it as context.DeadlineExceeded.
	timedOut := ctx.Err() == nil && (fired.Load() || (!idle && actx.Err() != nil) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrIdle))
	if ctx.Err() != nil {
		return nil, nil, 0
	}
	if err != nil || timedOut {
		if timedOut && idle && (fired.Load() || errors.Is(err, ErrIdle)) {
			return nil, mcp.NewError(mcp.CodeOpenRouterTimeout, true, map[string]any{"timeoutMs": wait.Milliseconds(), "idle": true},
				"OpenRouter stream sent nothing for %d ms.", wait.Milliseconds()), 0
		}
		if timedOut {
			return nil, mcp.NewError(mcp.CodeOpenRouterTimeout, true, map[string]any{"timeoutMs": wait.Milliseconds()},
				"OpenRouter request timed out after %d ms.", wait.Milliseconds()), 0
		}
		return nil, mcp.NewError(mcp.CodeOpenRouterNetworkError, true, nil, "Network request failed: %s", l.scrub(Excerpt(err.Error(), ExcerptChars))), 0
	}
	retryAfter := RetryAfter(HeaderValue(resp.Header, "Retry-After"), l.now())
	if resp.Status < 200 || resp.Status > 299 {
		detail, code := errorBodyDetail(resp.Body)
		return nil, StatusError(resp.Status, l.scrub(detail), l.scrub(code)), retryAfter
	}
	switch {
	case pe != nil:
		return nil, inBody(StatusError(pe.Status, l.scrub(Excerpt(pe.Message, ExcerptChars)), l.scrub(pe.Code))), retryAfter
	case derr != nil:
		terr := mcp.ToolErrorOf(derr)
		terr.Message = l.scrub(terr.Message)
		return nil, terr, 0
	}
	return comp, nil, 0
}

// exchange sends req and decodes a 2xx answer: as server-sent events when it is an event
// stream (read as it arrives from a StreamTransport), else with DecodeResponse. A non-2xx
// answer comes back with its body (at most MaxStreamBytes of a streamed one) undecoded. err
// is a transport failure, including a body whose reading broke off.
//
// touch is called whenever the streamed answer made progress (headers, bytes).
func (l *loop) exchange(ctx context.Context, req Request, onText func(string), touch func()) (resp Response, comp *Completion, pe *ProviderError, derr, err error) {
	st, streams := l.opts.Transport.(StreamTransport)
	if !l.opts.Stream || !streams {
		if it, idles := l.opts.Transport.(IdleTransport); l.opts.Stream && idles {
			resp, err = it.DoIdle(ctx, req, l.opts.requestTimeout())
		} else {
			resp, err = l.opts.Transport.Do(ctx, req)
		}
		if err != nil || resp.Status < 200 || resp.Status > 299 {
			return resp, nil, nil, nil, err
		}
		if l.opts.Stream && isEventStream(resp.Header, resp.Body) {
			comp, pe, derr = DecodeStream(resp.Body, onText)
		} else {
			comp, pe, derr = DecodeResponse(resp.Body)
		}
		return resp, comp, pe, derr, nil
	}
	resp, body, err := st.DoStream(ctx, req)
	if err != nil {
		return resp, nil, nil, nil, err
	}
	defer body.Close()
	touch()
	buf := make([]byte, 16<<10)
	n, rerr := io.ReadFull(body, buf[:1])
	head := buf[:n]
	if resp.Status < 200 || resp.Status > 299 || !isEventStream(resp.Header, head) {
		rest, rerr2 := io.ReadAll(io.LimitReader(body, MaxStreamBytes))
		if rerr == nil || rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			rerr = rerr2
		}
		resp.Body = append(head, rest...)
		if rerr != nil {
			return resp, nil, nil, nil, rerr
		}
		if resp.Status >= 200 && resp.Status <= 299 {
			comp, pe, derr = DecodeResponse(resp.Body)
		}
		return resp, comp, pe, derr, nil
	}
	d := &StreamDecoder{OnText: onText}
	stop := d.Feed(head)
	for !stop && rerr == nil {
		n, rerr = body.Read(buf)
		if n > 0 {
			touch()
		}
		stop = d.Feed(buf[:n])
		if ctx.Err() != nil {
			return resp, nil, nil, nil, ctx.Err()
		}
	}
	if rerr != nil && rerr != io.EOF && !stop {
		return resp, nil, nil, nil, rerr
	}
	comp, pe, derr = d.Finish()
	return resp, comp, pe, derr, nil
}

func (l *loop) sleep(ctx context.Context, d time.Duration) error {
	if l.opts.Sleep != nil {
		return l.opts.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (l *loop) now() time.Time {
	if l.opts.Now != nil {
		return l.opts.Now()
	}
	return time.Now()
}

// scrub removes the API key from text that came from the network or the transport.
func (l *loop) scrub(s string) string {
	if l.opts.APIKey == "" || len(l.opts.APIKey) < 4 {
		return s
	}
	return strings.ReplaceAll(s, l.opts.APIKey, "[api key redacted]")
}

func (l *loop) fail(terr *mcp.ToolError) {
	if label := l.label(); label != "OpenRouter" { // name the server that was used (docs/design.md §5.16)
		cp := *terr
		cp.Message = Relabel(cp.Message, label)
		terr = &cp
	}
	retry := terr.Retryable
	l.rep.Failed, l.rep.ErrorCode, l.rep.Retryable, l.rep.Error = true, terr.Code, &retry, terr
	l.rep.Summary = terr.Error()
}

func (l *loop) cancel() {
	l.rep.Cancelled = true
	l.rep.Summary = Relabel("OpenRouter run cancelled.", l.label())
}

// boundConversation elides the oldest tool results until the content fits
// MaxConversationBytes (the system message and the newest prompt are never touched).
func boundConversation(c *Conversation) {
	size := 0
	for _, m := range c.messages {
		size += msgSize(m)
	}
	for i := range c.messages {
		if size <= MaxConversationBytes {
			return
		}
		m := &c.messages[i]
		if m.Role != RoleTool || m.Content == nil || *m.Content == ElidedResult {
			continue
		}
		size -= len(*m.Content) - len(ElidedResult)
		m.Content = text(ElidedResult)
	}
}

func msgSize(m Message) int {
	n := 0
	if m.Content != nil {
		n += len(*m.Content)
	}
	for _, tc := range m.ToolCalls {
		n += len(tc.Function.Arguments) + len(tc.Function.Name) + len(tc.ID)
	}
	return n + detailsSize(m.ReasoningDetails)
}

// NoReplyMarker is the assistant message put between an unanswered user message (its run
// failed or was cancelled before any reply) and a different new prompt, so the history never
// holds two user messages in a row (chat templates that require alternating roles refuse
// that). docs/design.md §5.20.
const NoReplyMarker = "(No reply: the request for the message above failed or was cancelled.)"

// appendPrompt appends the user message prompt to msgs. When the last message is an
// unanswered user message, a retry of the same text replaces it (one user message, not
// two), and a different prompt follows NoReplyMarker (docs/design.md §5.20).
func appendPrompt(msgs []Message, prompt string) []Message {
	if n := len(msgs); n > 0 && msgs[n-1].Role == RoleUser {
		if msgs[n-1].Content != nil && *msgs[n-1].Content == prompt {
			msgs = msgs[:n-1]
		} else {
			msgs = append(msgs, Message{Role: RoleAssistant, Content: text(NoReplyMarker)})
		}
	}
	return append(msgs, Message{Role: RoleUser, Content: text(prompt)})
}

// cutByLength returns the run's error when the answer was cut off by the length limit
// (finish_reason "length") inside a tool call's arguments: OPENROUTER_INVALID_TOOL_CALL
// (retryable, REFERENCE §3.3), details {reason: "truncated", finishReason: "length", tool,
// maxTokens}. The cut call was refused without running (runBatch answered it with its
// argument error, so the history stays well-formed); the run ends here instead of asking
// again, because the same request with the same max_tokens (MaxTokens) would be cut the same
// way (docs/design.md §5.16).
func cutByLength(comp *Completion) *mcp.ToolError {
	if comp.FinishReason != "length" {
		return nil
	}
	for _, c := range comp.Calls {
		if c.ArgError == nil {
			continue
		}
		if d, ok := c.ArgError.Details.(map[string]any); ok && d["reason"] == "truncated" {
			return mcp.NewError(mcp.CodeOpenRouterInvalidToolCall, true,
				map[string]any{"reason": "truncated", "finishReason": "length", "tool": c.Name, "maxTokens": MaxTokens},
				"The answer was cut off by the length limit (max_tokens %d) while the model wrote the arguments of %s; "+
					"the cut call was not run. Ask for a smaller step (one file, or a long file in parts).", MaxTokens, c.Name)
		}
	}
	return nil
}

// label is the server's name in this run's messages (ProviderLabel).
func (l *loop) label() string { return ProviderLabel(l.opts.endpoint(), !l.opts.OmitAttribution) }
