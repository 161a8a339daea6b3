package studio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// Session methods of the OpenRouter provider loop (REFERENCE §7.5, SPEC §3 `agent --provider
// openrouter`). WithOpenRouter adds them to every session a Builder makes.
const (
	// MethodAgentOpenRouter runs one prompt through the OpenRouter loop, continuing the
	// session's chat conversation.
	//
	//	params {"prompt": non-blank string, "model"?: string, "dataPolicy"?: "allow"|"deny"|"zdr",
	//	        "endpoint"?: URL, "sessionId"?: 1..256 characters, "newChat"?: bool,
	//	        "stream"?: bool, "budget"?: {"tokens"?: whole number ≥ 0, "cost"?: number ≥ 0},
	//	        "provider"?: "openrouter"|"openai-compatible", "requestTimeoutMs"?: 5000..600000,
	//	        "reasoning"?: {"effort"?: "low"|"medium"|"high", "maxTokens"?, "exclude"?: bool}}
	//	result openrouter.Report {"calls", "summary", "failed", "errorCode"?, "retryable"?,
	//	       "provider", "model", "turns", "cancelled"?, "error"?, "notices"?, "usage"?,
	//	       "turnUsage"?, "reasoning"?}
	//
	// stream (default false) asks for a streamed answer (openrouter.Config.Stream); its text
	// reaches OpenRouterOptions.OnText as it arrives. budget bounds the run's reported usage
	// (openrouter.Budget; 0 or absent: no limit). provider "openai-compatible" (default
	// "openrouter") leaves out OpenRouter's attribution headers (openrouter.Config.
	// OmitAttribution). requestTimeoutMs is the per-request wait (openrouter.Config.
	// RequestTimeout, checked by openrouter.CheckRequestTimeout; absent: 20 s, or 120 s for a
	// loopback endpoint). A loopback endpoint may run without a key (openrouter.KeyOptional).
	// Absent members take the OpenRouterOptions defaults. sessionId defaults to
	// "openrouter-<n>" (n counts the session's runs), so each prompt run has its own.
	// newChat empties the conversation first ("New chat"). Provider failures are results
	// (failed true), not JSON-RPC errors; bad params are -32602.
	MethodAgentOpenRouter = "agent/openrouter"
	// MethodAgentOpenRouterModels fetches the model catalog for the endpoint and policy.
	//
	//	params {"dataPolicy"?, "endpoint"?} (or absent)
	//	result {"available": bool, "models": [{"id","name","free","tools","label"}…],
	//	       "skipped": n, "error"?: {code, message, retryable}}; available is false for an
	//	       endpoint without a models URL (openrouter.ModelsURL)
	MethodAgentOpenRouterModels = "agent/openrouter/models"
)

// OpenRouterOptions configure WithOpenRouter.
type OpenRouterOptions struct {
	// Transport performs the provider's HTTP requests (the host function headless, fetch in
	// the browser). Required.
	Transport openrouter.Transport
	// Defaults are the endpoint, model, data policy, Referer and Title used when the params
	// do not name them. Defaults.APIKey is sent by the loop itself; headless it stays empty
	// and the host transport adds the Authorization header (SPEC §3).
	Defaults openrouter.Config
	// APIKey, when set, supplies the key of each run (the browser: read from the provider
	// settings when the run starts), so the key never travels in JSON-RPC params, which may
	// be logged or traced. The loop sends it as the Authorization header of the chat requests
	// only and scrubs it from any text that comes back. A supplier that returns "" makes a
	// run fail with OPENROUTER_CONFIGURATION_ERROR before any request. The models method
	// never sends it (the catalog needs no key).
	APIKey func() string
	// OnNotice receives retry notices while a run waits (nil: only Report.Notices).
	OnNotice func(openrouter.Notice)
	// OnText receives the text of streamed answers as it arrives (nil: dropped; the final
	// text is still the report's summary).
	OnText func(openrouter.TextDelta)
	// Sleep and Now replace the backoff timer and the clock (tests); nil: real time.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
	// Observer, when set, receives a started and a failed lifecycle event (owner
	// "openrouter") for each model call the loop refuses without dispatching it — arguments
	// that are not a JSON object (OPENROUTER_INVALID_TOOL_CALL), a call cancelled before it
	// started — with the provider's call id, so the chat and the trace show it like any other
	// failed call (the registry emits the events of dispatched calls). Use the session's
	// Ports.Observer.
	Observer func(audit.ToolCallEvent)
}

// WithOpenRouter wraps a Builder so that every session it builds also answers
// MethodAgentOpenRouter and MethodAgentOpenRouterModels over that session's registry. Each
// session keeps one conversation; session/configure (a rebuild) starts a new one. A nil
// Transport returns b unchanged.
func WithOpenRouter(b rpcsession.Builder, o OpenRouterOptions) rpcsession.Builder {
	if o.Transport == nil {
		return b
	}
	return func(ctx context.Context, cfg rpcsession.Config) (*rpcsession.Session, error) {
		s, err := b(ctx, cfg)
		if err != nil {
			return nil, err
		}
		if s.Methods == nil {
			s.Methods = map[string]rpcsession.Method{}
		}
		or := &openRouterSession{o: o, s: s}
		s.Methods[MethodAgentOpenRouter] = or.run
		s.Methods[MethodAgentOpenRouterModels] = or.models
		s.Methods[MethodAgentOpenRouterHistory] = or.history // openrouter_history.go
		s.Methods[MethodAgentOpenRouterRestore] = or.restore
		return s, nil
	}
}

type openRouterSession struct {
	o    OpenRouterOptions
	s    *rpcsession.Session
	mu   sync.Mutex // one run at a time per conversation
	conv openrouter.Conversation
	runs int
}

// config applies the params' overrides to the defaults.
func (or *openRouterSession) config(m map[string]json.RawMessage, method string) (openrouter.Config, *jsonrpc.Error) {
	cfg := or.o.Defaults
	for _, f := range []struct {
		key string
		dst *string
	}{{"model", &cfg.Model}, {"endpoint", &cfg.Endpoint}} {
		raw, ok := m[f.key]
		if !ok {
			continue
		}
		var v string
		if json.Unmarshal(raw, &v) != nil || strings.TrimSpace(v) == "" || len(v) > openrouter.MaxEndpointChars ||
			(f.key == "model" && openrouter.CheckModel(v) != nil) {
			return cfg, invalidParams(method + ": " + f.key + " must be a non-blank string")
		}
		*f.dst = v
	}
	if raw, ok := m["dataPolicy"]; ok {
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return cfg, invalidParams(method + ": dataPolicy must be allow, deny or zdr")
		}
		p, err := openrouter.ParseDataPolicy(v)
		if err != nil || v == "" {
			return cfg, invalidParams(method + ": dataPolicy must be allow, deny or zdr")
		}
		cfg.DataPolicy = p
	}
	return cfg, nil
}

// configFailure is the failed run of a configuration the provider cannot be called with (no
// key, an endpoint or key openrouter.NormalizeEndpoint / CheckAPIKey refuse):
// OPENROUTER_CONFIGURATION_ERROR, not retryable, no request made. msg never holds the key or
// the endpoint's text.
func configFailure(cfg openrouter.Config, msg string) openrouter.Report {
	terr := mcp.NewError(mcp.CodeOpenRouterConfigurationError, false, nil, "%s", msg)
	retry := false
	model := cfg.Model
	if model == "" {
		model = openrouter.DefaultModel
	}
	rep := openrouter.Report{Provider: "openrouter", Model: model, Error: terr}
	rep.Calls, rep.Failed, rep.ErrorCode, rep.Retryable, rep.Summary = []planner.Step{}, true, terr.Code, &retry, terr.Error()
	return rep
}

func (or *openRouterSession) run(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	const method = MethodAgentOpenRouter
	if len(bytes.TrimSpace(params)) == 0 {
		return nil, invalidParams(method + ": params {prompt, model?, dataPolicy?, endpoint?, sessionId?, newChat?, stream?, budget?, provider?, reasoning?, requestTimeoutMs?} are required")
	}
	m, err := mcp.DecodeObject(params, []string{"prompt", "model", "dataPolicy", "endpoint", "sessionId", "newChat", "stream", "budget", "provider", "reasoning", "requestTimeoutMs"}, nil)
	if err != nil {
		return nil, invalidParams(method + ": " + err.Error())
	}
	var prompt, session string
	if json.Unmarshal(m["prompt"], &prompt) != nil || strings.TrimSpace(prompt) == "" {
		return nil, invalidParams(method + ": prompt must be a non-blank string")
	}
	if raw, ok := m["sessionId"]; ok {
		if json.Unmarshal(raw, &session) != nil || session == "" || len([]rune(session)) > mcp.MaxSessionIDChars {
			return nil, invalidParams(method + ": sessionId must be a string of 1..256 characters")
		}
	}
	newChat := false
	if raw, ok := m["newChat"]; ok && json.Unmarshal(raw, &newChat) != nil {
		return nil, invalidParams(method + ": newChat must be a boolean")
	}
	cfg, rerr := or.config(m, method)
	if rerr != nil {
		return nil, rerr
	}
	if raw, ok := m["stream"]; ok && json.Unmarshal(raw, &cfg.Stream) != nil {
		return nil, invalidParams(method + ": stream must be a boolean")
	}
	if raw, ok := m["provider"]; ok {
		var v string
		if json.Unmarshal(raw, &v) != nil || (v != "openrouter" && v != "openai-compatible") {
			return nil, invalidParams(method + ": provider must be openrouter or openai-compatible")
		}
		cfg.OmitAttribution = v == "openai-compatible"
	}
	if raw, ok := m["requestTimeoutMs"]; ok {
		var ms float64
		if json.Unmarshal(raw, &ms) != nil || ms != math.Trunc(ms) || ms > float64(openrouter.MaxRequestTimeout.Milliseconds()) {
			return nil, invalidParams(method + ": requestTimeoutMs must be a whole number of milliseconds")
		}
		d := time.Duration(ms) * time.Millisecond
		if err := openrouter.CheckRequestTimeout(d); err != nil || d == 0 {
			return nil, invalidParams(method + ": requestTimeoutMs must be 5000..600000")
		}
		cfg.RequestTimeout = d
	}
	var budget openrouter.Budget
	if raw, ok := m["budget"]; ok {
		if budget, err = decodeBudget(raw); err != nil {
			return nil, invalidParams(method + ": " + err.Error())
		}
	}
	if raw, ok := m["reasoning"]; ok {
		if cfg.Reasoning, err = decodeReasoning(raw); err != nil { // openrouter_history.go
			return nil, invalidParams(method + ": " + err.Error())
		}
	}
	if cfg.Endpoint != "" {
		norm, err := openrouter.NormalizeEndpoint(cfg.Endpoint)
		if err != nil {
			return configFailure(cfg, "The provider endpoint cannot be used: "+err.Error()+". Fix it in the provider settings, or use the local agent."), nil
		}
		cfg.Endpoint = norm
	}
	if or.o.APIKey != nil {
		cfg.APIKey = or.o.APIKey()
		ep := cfg.Endpoint
		if ep == "" {
			ep = openrouter.DefaultEndpoint
		}
		if strings.TrimSpace(cfg.APIKey) == "" && openrouter.KeyOptional(ep) {
			cfg.APIKey = "" // a local server (loopback): no key, no Authorization header
		} else if strings.TrimSpace(cfg.APIKey) == "" {
			return configFailure(cfg, "No OpenRouter API key is set: add one in the provider settings, or use the local agent."), nil
		} else if err := openrouter.CheckAPIKey(cfg.APIKey); err != nil {
			return configFailure(cfg, "The OpenRouter API key cannot be sent: "+err.Error()+". Paste it again in the provider settings."), nil
		}
	}
	or.mu.Lock()
	defer or.mu.Unlock()
	if newChat {
		or.conv.Reset()
	}
	or.runs++
	if session == "" {
		session = "openrouter-" + strconv.Itoa(or.runs)
	}
	r := or.s.Registry
	ctx = registry.WithRun(ctx, "agent/openrouter") // "Approve all for this run" scope
	rep := openrouter.Run(ctx, prompt, openrouter.Options{
		Config:    cfg,
		Transport: or.o.Transport,
		ListTools: func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
			res, terr := r.ListTools(ctx, mcp.ListToolsParams{Cursor: cursor})
			if terr != nil {
				return nil, terr
			}
			return res, nil
		},
		Exec:         r.Call,
		SessionID:    session,
		Conversation: &or.conv,
		OnNotice:     or.o.OnNotice,
		OnText:       or.o.OnText,
		Budget:       budget,
		Sleep:        or.o.Sleep,
		Now:          or.o.Now,
		OnRefused:    or.refused,
	})
	return rep, nil
}

// decodeBudget reads the budget param {"tokens"?: whole number 0..2^53, "cost"?: finite
// number ≥ 0}; any other member or value is an error naming it.
func decodeBudget(raw json.RawMessage) (openrouter.Budget, error) {
	var b openrouter.Budget
	m, err := mcp.DecodeObject(raw, []string{"tokens", "cost"}, nil)
	if err != nil {
		return b, fmt.Errorf("budget: %w", err)
	}
	var tokens, cost float64
	if r, ok := m["tokens"]; ok && (json.Unmarshal(r, &tokens) != nil || tokens < 0 || tokens >= 1<<53 || tokens != math.Trunc(tokens)) {
		return b, errors.New("budget.tokens must be a whole number ≥ 0")
	}
	if r, ok := m["cost"]; ok && (json.Unmarshal(r, &cost) != nil || cost < 0 || math.IsInf(cost, 0)) {
		return b, errors.New("budget.cost must be a number ≥ 0")
	}
	return openrouter.Budget{Tokens: int64(tokens), Cost: cost}, nil
}

// refused emits the lifecycle events of a call the loop answered itself (Options.Observer).
func (or *openRouterSession) refused(p mcp.CallToolParams, res *mcp.CallToolResult) {
	if or.o.Observer == nil {
		return
	}
	now := or.o.Now
	if now == nil {
		now = time.Now
	}
	started := audit.Started(p, audit.NewProvenance("openrouter"), now())
	or.o.Observer(started)
	or.o.Observer(started.Finished(res, started.Provenance, now()))
}

// ModelsResult is the agent/openrouter/models result.
type ModelsResult struct {
	Available bool               `json:"available"`
	Models    []openrouter.Model `json:"models"`
	Skipped   int                `json:"skipped"`
	Error     *mcp.ToolError     `json:"error,omitempty"`
}

func (or *openRouterSession) models(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	const method = MethodAgentOpenRouterModels
	m := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(params)) > 0 {
		var err error
		if m, err = mcp.DecodeObject(params, []string{"dataPolicy", "endpoint"}, nil); err != nil {
			return nil, invalidParams(method + ": " + err.Error())
		}
	}
	cfg, rerr := or.config(m, method)
	if rerr != nil {
		return nil, rerr
	}
	if cfg.Endpoint != "" {
		norm, err := openrouter.NormalizeEndpoint(cfg.Endpoint)
		if err != nil {
			return nil, invalidParams(method + ": " + err.Error())
		}
		cfg.Endpoint = norm
	}
	cfg.APIKey = "" // the catalog needs no key
	cat, ok, terr := openrouter.FetchModels(ctx, or.o.Transport, cfg)
	res := ModelsResult{Available: ok, Models: cat.Models, Skipped: cat.Skipped, Error: mcp.ToolErrorOf(terr)}
	if res.Models == nil {
		res.Models = []openrouter.Model{}
	}
	return res, nil
}
