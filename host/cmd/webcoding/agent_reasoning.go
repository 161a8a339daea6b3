package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/webcoding/studio/wasm/openrouter"
)

// reasoningFlags are agent's reasoning flags (issue 16; docs/design.md §5.21):
// --reasoning-effort low|medium|high or --reasoning-max-tokens N (not both), and
// --reasoning-exclude. They become agent/openrouter's "reasoning" param; the loop sends the
// OpenRouter reasoning object and passes reasoning_details back within the run's tool loop.
type reasoningFlags struct {
	effort    string
	maxTokens int
	exclude   bool
}

func (r *reasoningFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&r.effort, "reasoning-effort", "", "reasoning effort low|medium|high for reasoning models (openrouter and openai-compatible; default: the model's)")
	fs.IntVar(&r.maxTokens, "reasoning-max-tokens", 0, fmt.Sprintf("reasoning token budget `N` (1..%d) instead of an effort (openrouter and openai-compatible)", openrouter.MaxReasoningTokens))
	fs.BoolVar(&r.exclude, "reasoning-exclude", false, "let the model reason but return no reasoning text (openrouter and openai-compatible)")
}

// param checks the flags (openrouter.ParseReasoning; a bad combination is a usage error) and
// returns the agent/openrouter "reasoning" param, nil when none is set.
func (r *reasoningFlags) param() (map[string]any, error) {
	rs, err := openrouter.ParseReasoning(r.effort, r.maxTokens, r.exclude)
	if err != nil {
		return nil, usagef("--reasoning-effort / --reasoning-max-tokens: %s", strings.TrimPrefix(err.Error(), "openrouter: "))
	}
	if rs == nil {
		return nil, nil
	}
	p := map[string]any{}
	if rs.Effort != "" {
		p["effort"] = rs.Effort
	}
	if rs.MaxTokens > 0 {
		p["maxTokens"] = rs.MaxTokens
	}
	if rs.Exclude {
		p["exclude"] = true
	}
	return p, nil
}

// printReasoning writes the run's reasoning text (the report's "reasoning", already bounded
// and scrubbed by the loop) to stderr, one "webcoding agent: reasoning:" block, so stdout
// keeps only the answer and the JSON lines.
func printReasoning(e *env, report json.RawMessage) {
	var rep struct {
		Reasoning string `json:"reasoning"`
	}
	if json.Unmarshal(report, &rep) != nil || strings.TrimSpace(rep.Reasoning) == "" {
		return
	}
	fmt.Fprintf(e.stderr, "webcoding agent: reasoning:\n%s\n", rep.Reasoning)
}
