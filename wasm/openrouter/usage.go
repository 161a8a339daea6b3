package openrouter

import (
	"encoding/json"
	"math"

	"github.com/webcoding/studio/wasm/mcp"
)

// Usage is what a provider reported a response (or a sum of responses) cost:
//
//	{"promptTokens", "completionTokens", "reasoningTokens"?, "cachedTokens"?, "totalTokens",
//	 "cost"?, "responses"}
//
// Token counts are the provider's own (its tokenizer). ReasoningTokens is part of
// CompletionTokens and CachedTokens part of PromptTokens (the OpenAI convention OpenRouter
// follows), never added on top. TotalTokens is the provider's total_tokens, or prompt +
// completion when it sent none. Cost is in the provider's credits (US dollars on OpenRouter),
// nil when no response reported one. Responses counts the responses that carried a usage
// object.
type Usage struct {
	PromptTokens     int64    `json:"promptTokens"`
	CompletionTokens int64    `json:"completionTokens"`
	ReasoningTokens  int64    `json:"reasoningTokens,omitempty"`
	CachedTokens     int64    `json:"cachedTokens,omitempty"`
	TotalTokens      int64    `json:"totalTokens"`
	Cost             *float64 `json:"cost,omitempty"`
	Responses        int      `json:"responses"`
}

// Add adds u's counts and cost to s.
func (s *Usage) Add(u Usage) {
	s.PromptTokens += u.PromptTokens
	s.CompletionTokens += u.CompletionTokens
	s.ReasoningTokens += u.ReasoningTokens
	s.CachedTokens += u.CachedTokens
	s.TotalTokens += u.TotalTokens
	s.Responses += u.Responses
	if u.Cost != nil {
		c := *u.Cost
		if s.Cost != nil {
			c += *s.Cost
		}
		s.Cost = &c
	}
}

// parseUsage reads a chat-completions "usage" object:
//
//	{"prompt_tokens", "completion_tokens", "total_tokens"?, "cost"?,
//	 "prompt_tokens_details"?: {"cached_tokens"}, "completion_tokens_details"?: {"reasoning_tokens"}}
//
// It is lenient by design: usage never decides what runs, so a member that is missing, not a
// non-negative whole number below 2^53 (cost: a finite non-negative number) counts as 0 (cost:
// not reported). It returns nil when raw is not an object.
func parseUsage(raw json.RawMessage) *Usage {
	var m map[string]json.RawMessage
	if mcp.JSONKind(raw) != "object" || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	u := &Usage{Responses: 1, PromptTokens: count(m["prompt_tokens"]), CompletionTokens: count(m["completion_tokens"])}
	u.TotalTokens = count(m["total_tokens"])
	if u.TotalTokens == 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	u.CachedTokens = count(member(m["prompt_tokens_details"], "cached_tokens"))
	u.ReasoningTokens = count(member(m["completion_tokens_details"], "reasoning_tokens"))
	var cost float64
	if mcp.JSONKind(m["cost"]) == "number" && json.Unmarshal(m["cost"], &cost) == nil && cost >= 0 && !math.IsInf(cost, 0) {
		u.Cost = &cost
	}
	return u
}

// count is raw as a token count: a non-negative whole JSON number below 2^53, else 0.
func count(raw json.RawMessage) int64 {
	var f float64
	if mcp.JSONKind(raw) != "number" || json.Unmarshal(raw, &f) != nil || f < 0 || f >= 1<<53 || f != math.Trunc(f) {
		return 0
	}
	return int64(f)
}

// member is obj[key] when obj is a JSON object, else nil.
func member(obj json.RawMessage, key string) json.RawMessage {
	var m map[string]json.RawMessage
	if mcp.JSONKind(obj) != "object" || json.Unmarshal(obj, &m) != nil {
		return nil
	}
	return m[key]
}

// Budget bounds what one run may spend (issue 16). A zero field is no limit. The loop checks
// it before every request after the first, against the usage the provider reported so far
// (Report.Usage): once TotalTokens ≥ Tokens, or the reported cost ≥ Cost, the run stops
// with OPENROUTER_BUDGET_EXCEEDED before sending another request. A response's own usage is
// known only after it arrived, so a run can end above its budget by at most one response.
type Budget struct {
	// Tokens bounds Usage.TotalTokens (prompt + completion, as reported).
	Tokens int64 `json:"tokens,omitempty"`
	// Cost bounds Usage.Cost, in the provider's credits (US dollars on OpenRouter). Responses
	// that report no cost add nothing.
	Cost float64 `json:"cost,omitempty"`
}

// exceeded returns the OPENROUTER_BUDGET_EXCEEDED error when used reaches b, else nil.
// details: {"limit": "tokens"|"cost", "used", "budget", "turns"}.
func (b Budget) exceeded(used Usage, turns int) *mcp.ToolError {
	switch {
	case b.Tokens > 0 && used.TotalTokens >= b.Tokens:
		return mcp.NewError(mcp.CodeOpenRouterBudgetExceeded, false,
			map[string]any{"limit": "tokens", "used": used.TotalTokens, "budget": b.Tokens, "turns": turns},
			"The run's token budget is used up: %d of %d tokens after %d turn(s); no further request was sent.", used.TotalTokens, b.Tokens, turns)
	case b.Cost > 0 && used.Cost != nil && *used.Cost >= b.Cost:
		return mcp.NewError(mcp.CodeOpenRouterBudgetExceeded, false,
			map[string]any{"limit": "cost", "used": *used.Cost, "budget": b.Cost, "turns": turns},
			"The run's cost budget is used up: %.6g of %.6g credits after %d turn(s); no further request was sent.", *used.Cost, b.Cost, turns)
	}
	return nil
}
