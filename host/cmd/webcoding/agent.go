package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/webcoding/studio/host/httpclient"
	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

// OpenRouterRunTimeout is the host deadline of one `agent --provider openrouter` run when
// --host-timeout is not given: every turn's request with all its retries timing out
// (MaxTurns × (MaxRetries+1) × RequestTimeout = 5 × 3 × 20 s), every backoff at its cap
// (5 × 2 × 4 s) and a minute for the tool calls themselves: 6 min 40 s.
const OpenRouterRunTimeout = openrouter.MaxTurns*(openrouter.MaxRetries+1)*openrouter.RequestTimeout +
	openrouter.MaxTurns*openrouter.MaxRetries*openrouter.MaxBackoff + time.Minute

// runTimeout is OpenRouterRunTimeout for a per-request wait other than 20 s (--request-timeout,
// or the 120 s default of a loopback endpoint): MaxTurns × (MaxRetries+1) × wait, the
// backoffs at their cap, and a minute for the tool calls.
func runTimeout(wait time.Duration) time.Duration {
	return openrouter.MaxTurns*(openrouter.MaxRetries+1)*wait + openrouter.MaxTurns*openrouter.MaxRetries*openrouter.MaxBackoff + time.Minute
}

// apiKeyEnv is the environment variable holding the OpenRouter key: it is sent only to the
// OpenRouter origin (openrouter.DefaultEndpoint's). endpointKeyEnv holds the key of any other
// --endpoint (docs/cli.md), so an OpenRouter key never reaches a local or third-party server.
const (
	apiKeyEnv      = "OPENROUTER_API_KEY"
	endpointKeyEnv = "WEBCODING_ENDPOINT_API_KEY"
)

func init() {
	register(&command{
		Name:    "agent",
		Usage:   `[--surface studio|realtime|live] [--dir DIR] [--provider local|openrouter|openai-compatible] [--endpoint URL] [--model ID] [--data-policy allow|deny|zdr] [--stream=false] [--request-timeout D] [--budget-tokens N] [--budget-cost C] [--reasoning-effort low|medium|high | --reasoning-max-tokens N] [--reasoning-exclude] [--approve all|none|TOOL,...] [--save] [--downloads DIR] [--durable memory|redis://…|postgres://…] [--module PATH] [--host-timeout D] "prompt"`,
		Summary: "run the local agent (or OpenRouter, key from OPENROUTER_API_KEY) on a prompt; JSON Lines of its calls and results, then the summary",
		Run:     runAgent,
	})
}

// agentFlags are the flags of `agent` (SPEC §3).
type agentFlags struct {
	provider, endpoint, model, dataPolicy string
	approve, durable                      string
	save, stream                          bool
	budgetTokens                          int64
	budgetCost                            float64
	requestTimeout                        time.Duration
	reasoning                             reasoningFlags // agent_reasoning.go
	ws                                    *workspaceFlags
}

// agentCall is one output line per tool call: the tools/call params the agent (or --save)
// sent and the canonical result.
type agentCall struct {
	Request json.RawMessage `json:"request"`
	Result  json.RawMessage `json:"result"`
}

// agentSummary is the last output line: the agent's report without its calls, whether the
// changes were written (saved), what is left unsaved and a sentence saying so.
type agentSummary struct {
	Summary          string          `json:"summary"`
	Failed           bool            `json:"failed"`
	FailedTool       string          `json:"failedTool,omitempty"`
	ErrorCode        string          `json:"errorCode,omitempty"`
	Retryable        *bool           `json:"retryable,omitempty"`
	RevisionConflict bool            `json:"revisionConflict,omitempty"`
	NotUnderstood    bool            `json:"notUnderstood,omitempty"`
	Saved            bool            `json:"saved"`
	Unsaved          *unsavedChanges `json:"unsaved,omitempty"`
	Message          string          `json:"message,omitempty"`
	// Usage is what the provider reported for the run (openrouter.Usage; absent for the
	// local agent and when no answer reported usage).
	Usage *openrouter.Usage `json:"usage,omitempty"`
}

type unsavedChanges struct {
	DirtyPaths   []string `json:"dirtyPaths"`
	DeletedPaths []string `json:"deletedPaths"`
}

// runAgent runs the local agent (agent/run: the deterministic planner of REFERENCE §7,
// executing through the registry with source local, mode agent, so approvals apply) on the
// prompt, over --dir or the seed workspace; with --provider openrouter it runs the OpenRouter
// loop in the module instead (agent/openrouter, REFERENCE §7.5: calls with source model, mode
// agent). --approve (default none) becomes the session's static approver. Output, JSON Lines:
//
//	{"response":n,"text":"…"}                                    openrouter: streamed text, as it arrives
//	{"request":{tools/call params},"result":{CallToolResult}}   one per call, in order
//	{"summary","failed","failedTool"?,"errorCode"?,"retryable"?,"saved","unsaved"?,"message"?,
//	 "usage"?}
//
// --save ends with workspace.saveAll through the registry (agent mode, so --approve decides;
// its call is printed like the agent's) unless the run failed, so a half-done plan is never
// written; saved is true when it succeeded. Without --save, or when saving failed or was
// skipped, unsaved lists what was not written and message says so.
//
// OpenRouter (SPEC §3): the key comes from OPENROUTER_API_KEY (exit 2 when it is missing,
// blank, or refused by openrouter.CheckAPIKey), and only for the OpenRouter origin; any other
// --endpoint takes WEBCODING_ENDPOINT_API_KEY (optional for loopback). openai-compatible needs
// --model and refuses --data-policy. --request-timeout (openrouter.CheckRequestTimeout; default
// openrouter.DefaultRequestTimeout of the endpoint) is each request's wait, in the module
// (requestTimeoutMs) and as the host's cap; the host performs the module's HTTP requests and adds the Authorization header
// itself, only to the --endpoint's origin (default openrouter.DefaultEndpoint) — the key
// never enters the module and is never printed. --model defaults to openrouter.DefaultModel,
// --data-policy to allow. Retry notices go to stderr while the run waits; a provider failure
// is a failed summary (errorCode OPENROUTER_…, exit 0) plus a sentence on stderr. Offline,
// every attempt fails to connect: OPENROUTER_NETWORK_ERROR after 2 retries (about a second).
// Unless --host-timeout is given, the host deadline is runTimeout of that wait
// (OpenRouterRunTimeout for 20 s).
//
// Streaming (issue 16, default on; --stream=false for endpoints without it): the module asks
// for a streamed answer, and while the host reads it (Content-Type text/event-stream) its
// text is printed as {"response": n, "text"} lines as it arrives — n counts the streamed
// answers of the run, so a retry's text starts a new n. The module still decodes the whole
// answer itself and alone decides what runs; the summary line is authoritative. The usage
// the answers reported is the summary's "usage" and one sentence on stderr. --budget-tokens
// and --budget-cost (0: none) stop the run before its next request once the reported usage
// reaches them (OPENROUTER_BUDGET_EXCEEDED).
//
// Errors: exit 2 for bad flags, a missing/blank prompt, or (openrouter) a missing key or an
// endpoint that is not an http(s) URL; exit 1 when the module cannot start, fails, or refuses
// agent/run (agent/openrouter).
func runAgent(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("agent", e)
	f := agentFlags{ws: addWorkspaceFlags(fs, true)}
	fs.StringVar(&f.provider, "provider", "local", "the model: local (the deterministic local agent), openrouter (key from $"+apiKeyEnv+"; the host deadline then defaults to "+OpenRouterRunTimeout.String()+") or openai-compatible (any chat-completions server named by --endpoint, e.g. Ollama's http://127.0.0.1:11434/v1/chat/completions; key from $"+endpointKeyEnv+", optional for a server on this computer; $"+apiKeyEnv+" is only ever sent to openrouter.ai)")
	fs.StringVar(&f.endpoint, "endpoint", "", "chat-completions `URL` (openrouter: default "+openrouter.DefaultEndpoint+"; required for openai-compatible)")
	fs.StringVar(&f.model, "model", "", "model `ID` (openrouter: default "+openrouter.DefaultModel+"; required for openai-compatible)")
	fs.StringVar(&f.dataPolicy, "data-policy", "", "OpenRouter's provider data policy allow|deny|zdr (openrouter only; default allow)")
	fs.DurationVar(&f.requestTimeout, "request-timeout", 0, fmt.Sprintf("the wait `D` for each request: for a plain answer the whole answer, for a streamed one its first bytes and then each next piece (openrouter and openai-compatible; %v..%v; 0: %v, or %v for a server on this computer)",
		openrouter.MinRequestTimeout, openrouter.MaxRequestTimeout, openrouter.RequestTimeout, openrouter.LoopbackRequestTimeout))
	fs.BoolVar(&f.stream, "stream", true, "ask for a streamed answer and print its text as it arrives (openrouter and openai-compatible; --stream=false for endpoints without streaming)")
	fs.Int64Var(&f.budgetTokens, "budget-tokens", 0, "stop before the next request once the run's reported tokens reach `N` (openrouter and openai-compatible; 0: no limit)")
	fs.Float64Var(&f.budgetCost, "budget-cost", 0, "stop before the next request once the run's reported cost reaches `C` credits (openrouter and openai-compatible; 0: no limit; applies only when the endpoint reports a cost, which local servers do not)")
	f.reasoning.add(fs)
	fs.StringVar(&f.approve, "approve", "none", "approvals: all, none, or a comma-separated list of tool names")
	fs.BoolVar(&f.save, "save", false, "end with workspace.saveAll (through the registry, so --approve applies)")
	fs.StringVar(&f.durable, "durable", "", "durable operations backend: memory, or a redis://… or postgres://… `URL` (records outlive the command)")
	surface := addSurfaceFlag(fs)
	hf := addHostFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	if fs.NArg() != 1 || strings.TrimSpace(fs.Arg(0)) == "" {
		return usagef("give exactly one non-blank prompt after the flags (got %d arguments)", fs.NArg())
	}
	prompt := fs.Arg(0)
	if err := validateApprove(f.approve); err != nil {
		return err
	}
	catalog, err := surfaceCatalog(*surface, f.ws.dir, map[bool]string{true: "--save"}[f.save])
	if err != nil {
		return err
	}
	if catalog != "" && f.provider != "local" {
		// The provider loop's system prompt names the studio's tools (wasm/openrouter); a
		// model run over web.* or editor.* needs its own prompt, which is not written yet.
		return usagef("--surface %s runs the local agent only (--provider local); the provider loop for web.* and editor.* is not built yet", *surface)
	}
	switch f.dataPolicy {
	case "", "allow", "deny", "zdr":
	default:
		return usagef("--data-policy must be allow, deny or zdr, got %q", f.dataPolicy)
	}
	if err := openrouter.CheckRequestTimeout(f.requestTimeout); err != nil {
		return usagef("--request-timeout: %s", err.Error())
	}
	if f.budgetTokens < 0 || f.budgetCost < 0 || math.IsInf(f.budgetCost, 0) || math.IsNaN(f.budgetCost) {
		return usagef("--budget-tokens and --budget-cost must be 0 (no limit) or positive")
	}
	method := "agent/run"
	paramsMap := map[string]any{"prompt": prompt}
	var text *textPrinter
	switch f.provider {
	case "local":
		if f.endpoint != "" || f.model != "" || f.dataPolicy != "" || f.budgetTokens != 0 || f.budgetCost != 0 || f.requestTimeout != 0 {
			fmt.Fprintln(e.stderr, "webcoding agent: --endpoint, --model, --data-policy, --request-timeout and the budgets apply to --provider openrouter and openai-compatible only; ignored with the local agent")
		}
	case "openrouter", "openai-compatible":
		method = "agent/openrouter"
		if f.provider == "openai-compatible" {
			if f.endpoint == "" {
				return usagef("--provider openai-compatible needs --endpoint URL (the server's chat-completions URL, e.g. http://127.0.0.1:11434/v1/chat/completions for Ollama)")
			}
			if strings.TrimSpace(f.model) == "" {
				return usagef("--provider openai-compatible needs --model ID (a model the server has, e.g. llama3.2 for Ollama; its /v1/models lists them)")
			}
			if f.dataPolicy != "" {
				return usagef("--data-policy is OpenRouter's provider routing and applies to --provider openrouter only; another server would ignore it, so leave it out")
			}
			paramsMap["provider"] = "openai-compatible"
		}
		opts, err := openRouterHTTP(e, &f)
		if err != nil {
			return err
		}
		hf.http = opts
		hostTimeoutSet := false
		fs.Visit(func(fl *flag.Flag) { hostTimeoutSet = hostTimeoutSet || fl.Name == "host-timeout" })
		if !hostTimeoutSet {
			hf.timeout = runTimeout(opts.Timeout)
		}
		paramsMap["endpoint"] = f.endpoint
		paramsMap["requestTimeoutMs"] = opts.Timeout.Milliseconds()
		if f.model != "" {
			paramsMap["model"] = f.model
		}
		if f.dataPolicy != "" {
			paramsMap["dataPolicy"] = f.dataPolicy
		}
		if f.stream {
			paramsMap["stream"] = true
			text = &textPrinter{w: e.stdout, key: opts.APIKey}
			opts.OnResponse = text.onResponse
		}
		if r, err := f.reasoning.param(); err != nil {
			return err
		} else if r != nil {
			paramsMap["reasoning"] = r
		}
		if f.budgetTokens > 0 || f.budgetCost > 0 {
			paramsMap["budget"] = openrouter.Budget{Tokens: f.budgetTokens, Cost: f.budgetCost}
		}
	default:
		return usagef("--provider must be local, openrouter or openai-compatible, got %q", f.provider)
	}
	durable, closeDurable, err := setupDurable(ctx, "agent", f.durable, hf)
	if err != nil {
		return err
	}
	defer closeDurable() // after the host is closed (deferred later, runs first)
	if err := f.ws.checkDir(); err != nil {
		return err
	}
	f.ws.apply(hf)
	hf.journal = "agent"

	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	c := &rpcClient{h: h}
	if err := configureSession(ctx, c, sessionConfig{approval: true, approve: f.approve, durable: durable.name, catalog: catalog}); err != nil {
		return err
	}
	params, err := marshal(paramsMap)
	if err != nil {
		return err
	}
	raw, rerr, err := c.call(ctx, method, params)
	if err != nil {
		return err
	}
	if rerr != nil {
		return fmt.Errorf("%s: the core answered %v", method, rerr)
	}
	var rep struct {
		Calls []agentCall `json:"calls"`
		agentSummary
		Provider  string `json:"provider"`
		Cancelled bool   `json:"cancelled"`
		Error     *struct {
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		return fmt.Errorf("%s: the module answered something that is not a report: %v", method, err)
	}
	if method == "agent/openrouter" && rep.Provider != "openrouter" {
		return fmt.Errorf("%s: the module answered a report without provider openrouter: %.200s", method, raw)
	}
	if text != nil && text.err != nil {
		return text.err
	}
	if rep.Failed && method == "agent/openrouter" {
		reason := ""
		if rep.Error != nil {
			reason, _ = rep.Error.Details["reason"].(string)
		}
		label := openrouter.ProviderLabel(f.endpoint, f.provider == "openrouter")
		fmt.Fprintf(e.stderr, "webcoding agent: the %s run failed: %s%s\n", strings.TrimPrefix(label, "the "), rep.Summary, providerHint(rep.ErrorCode, reason, hf.http.Timeout))
	}
	printReasoning(e, raw)
	if u := rep.Usage; u != nil {
		fmt.Fprintf(e.stderr, "webcoding agent: %s\n", usageSentence(*u))
	}
	if method == "agent/openrouter" && f.budgetCost > 0 && (rep.Usage == nil || rep.Usage.Cost == nil) {
		fmt.Fprintln(e.stderr, "webcoding agent: --budget-cost did not apply: the endpoint reported no cost for this run (local servers never do); use --budget-tokens to bound it")
	}
	out := bufio.NewWriter(e.stdout)
	for _, call := range rep.Calls {
		if err := writeJSONLine(out, call); err != nil {
			return err
		}
	}
	sum := rep.agentSummary
	how := "run again with --save to write them"
	switch {
	case f.save && rep.Failed:
		how = "--save was skipped because the run failed"
	case f.save:
		p, res, r, err := toolCall(ctx, c, "workspace.saveAll", nil, mcp.ModeAgent, "cli-save-")
		if err != nil {
			return err
		}
		if err := writeJSONLine(out, agentCall{Request: p, Result: res}); err != nil {
			return err
		}
		sum.Saved = !r.IsError
		if r.IsError && r.Error != nil {
			how = fmt.Sprintf("workspace.saveAll failed with %s", r.Error.Code)
		}
	}
	var u *unsaved
	if catalog == "" { // the other surfaces keep no studio workspace state (live saves through its own tools)
		if u, err = workspaceStatus(ctx, c); err != nil {
			return err
		}
	}
	switch {
	case u != nil && u.any():
		sum.Unsaved = &unsavedChanges{DirtyPaths: u.DirtyPaths, DeletedPaths: u.DeletedPaths}
		sum.Message = unsavedNote(f.ws.dir, how)
	case f.save && rep.Failed:
		sum.Message = "workspace.saveAll was not run because the run failed; nothing was written."
	}
	if err := writeJSONLine(out, sum); err != nil {
		return err
	}
	// The local agent did not do what was asked: exit 1 (issue 14), the report stays on stdout.
	switch {
	case rep.NotUnderstood:
		return errors.New("the local agent did not understand the request and changed nothing (see the summary line for what it can do)")
	case rep.Failed && method == "agent/run":
		return fmt.Errorf("the local agent's run failed at %s: %s", rep.FailedTool, rep.Summary)
	}
	return nil
}

// writeJSONLine writes v as one JSON line (no HTML escaping) and flushes.
func writeJSONLine(out *bufio.Writer, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	return writeLine(out, b)
}

// openRouterHTTP checks the provider flags and the key and returns the host's HTTP options:
// the key, only the endpoint's origin allowed, and the per-request wait (--request-timeout, or
// openrouter.DefaultRequestTimeout of the endpoint) as the host's cap. It fills f.endpoint
// with the default when empty. The key (docs/cli.md): OPENROUTER_API_KEY for the OpenRouter
// origin only (openrouter.DefaultEndpoint's), WEBCODING_ENDPOINT_API_KEY for any other
// endpoint, so an OpenRouter key never reaches another server. Errors (exit 2): no key where
// one is needed (a loopback endpoint needs none: openrouter.KeyOptional); a key
// openrouter.CheckAPIKey refuses (the browser's check: spaces, control or non-ASCII
// characters, over 512 bytes); an endpoint that is not an absolute http(s) URL, or plain http
// to a host that is not loopback (openrouter.NormalizeEndpoint).
func openRouterHTTP(e *env, f *agentFlags) (*wasmhost.HTTPOptions, error) {
	if f.endpoint != "" {
		// One validator with the browser (docs/design.md §5.16): plain http only to loopback.
		norm, err := openrouter.NormalizeEndpoint(f.endpoint)
		if err != nil {
			return nil, usagef("--endpoint cannot be used: %s", err.Error())
		}
		if note := openrouter.EndpointCompletion(f.endpoint); note != "" {
			fmt.Fprintf(e.stderr, "webcoding agent: %s\n", note)
		}
		f.endpoint = norm
	}
	if f.endpoint == "" {
		f.endpoint = openrouter.DefaultEndpoint
	}
	origin, err := httpclient.Origin(f.endpoint)
	if err != nil {
		return nil, usagef("--endpoint must be an absolute http(s) URL, got %q", httpclient.Redact(f.endpoint))
	}
	keyEnv := endpointKeyEnv
	if openrouter.EndpointOrigin(f.endpoint) == openrouter.EndpointOrigin(openrouter.DefaultEndpoint) {
		keyEnv = apiKeyEnv
	}
	key := strings.TrimSpace(e.getenv(keyEnv))
	switch {
	case key == "" && openrouter.KeyOptional(f.endpoint):
		// A server on this computer (Ollama, LM Studio, llama.cpp): no key, no Authorization.
	case key == "" && keyEnv == apiKeyEnv:
		return nil, usagef("--provider openrouter needs an API key in %s: create one at https://openrouter.ai/keys, then `export %s=sk-or-...` (or use --provider local, which needs no key)", apiKeyEnv, apiKeyEnv)
	case key == "":
		return nil, usagef("the endpoint %s needs an API key in %s (%s is only ever sent to openrouter.ai)", origin, endpointKeyEnv, apiKeyEnv)
	}
	if err := openrouter.CheckAPIKey(key); err != nil {
		return nil, usagef("%s cannot be sent: %s", keyEnv, err.Error())
	}
	wait := openrouter.Config{Endpoint: f.endpoint, RequestTimeout: f.requestTimeout}.EffectiveRequestTimeout()
	return &wasmhost.HTTPOptions{APIKey: key, AllowedOrigins: []string{origin}, Timeout: wait}, nil
}

// textPrinter prints the text of streamed answers as JSON Lines while the host reads them
// (wasmhost.HTTPOptions.OnResponse): one {"response": n, "text"} line per fragment, n
// counting the run's streamed answers from 1. The key is scrubbed from the text. The first
// write error is kept in err and stops the printing.
type textPrinter struct {
	w   io.Writer
	key string
	n   int
	err error
}

// onResponse returns the body sink of one response: a stream decoder for a 2xx
// text/event-stream answer, nil otherwise. The sink says stop once the decoder has its
// outcome ([DONE], an error event), so a stream held open after [DONE] does not stall the run.
func (p *textPrinter) onResponse(status int, header map[string]string) func([]byte) bool {
	ct := strings.ToLower(openrouter.HeaderValue(header, "Content-Type"))
	if status < 200 || status > 299 || !strings.HasPrefix(ct, "text/event-stream") {
		return nil
	}
	p.n++
	n := p.n
	d := &openrouter.StreamDecoder{OnText: func(s string) {
		if p.err != nil {
			return
		}
		if p.key != "" {
			s = strings.ReplaceAll(s, p.key, "[api key redacted]")
		}
		b, err := marshal(struct {
			Response int    `json:"response"`
			Text     string `json:"text"`
		}{n, s})
		if err == nil {
			_, err = p.w.Write(append(b, '\n'))
		}
		p.err = err
	}}
	return d.Feed
}

// usageSentence is the stderr line of a run's usage, e.g. "usage: 6486 tokens (6421 prompt,
// 2048 of them cached; 65 completion, 0 of them reasoning) over 2 answers, cost 0.00100215".
func usageSentence(u openrouter.Usage) string {
	s := fmt.Sprintf("usage: %d tokens (%d prompt, %d of them cached; %d completion, %d of them reasoning) over %d answer(s)",
		u.TotalTokens, u.PromptTokens, u.CachedTokens, u.CompletionTokens, u.ReasoningTokens, u.Responses)
	if u.Cost != nil {
		s += fmt.Sprintf(", cost %.8g", *u.Cost)
	} else {
		s += ", no cost reported"
	}
	return s
}

// providerHint is a sentence after a failed provider run saying what to do about code and its
// details.reason ("stream-cut": the endpoint answered, then its stream broke off); wait is the
// run's per-request wait.
func providerHint(code, reason string, wait time.Duration) string {
	switch mcp.Code(code) {
	case mcp.CodeOpenRouterNetworkError:
		if reason == "stream-cut" {
			return " (the endpoint answered, but its stream broke off 3 times: try again, or use --stream=false)"
		}
		return " (the endpoint could not be reached after 2 retries: check the network connection or --endpoint; --provider local works offline)"
	case mcp.CodeOpenRouterTimeout:
		return fmt.Sprintf(" (no answer within %v, 3 attempts; a slow or local model may need a longer --request-timeout, up to %v; or try again or pick another --model)", wait, openrouter.MaxRequestTimeout)
	case mcp.CodeOpenRouterAuthenticationFailed:
		return " (check " + apiKeyEnv + ")"
	case mcp.CodeOpenRouterBudgetExceeded:
		return " (raise --budget-tokens or --budget-cost, or leave them 0 for no limit)"
	case mcp.CodeOpenRouterAccessDenied, mcp.CodeOpenRouterConfigurationError:
		return " (check --model, --endpoint, --data-policy and the key's settings)"
	}
	return ""
}
