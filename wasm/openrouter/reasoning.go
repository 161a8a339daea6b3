package openrouter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Reasoning (issue 16; docs/design.md §5.21). OpenRouter normalizes the reasoning controls of
// reasoning models into one request object and returns the model's reasoning beside the
// answer: message.reasoning (plain text, possibly a summary) and message.reasoning_details
// (an array of typed blocks: reasoning.text, reasoning.summary, reasoning.encrypted). For a
// tool loop with a reasoning model the blocks must go back unchanged on the assistant
// message that made the calls, else the provider loses (or refuses) the reasoning the calls
// were based on. The loop therefore keeps ReasoningDetails on each assistant message of the
// conversation and sends them on every later request; the text is shown to the user only
// (Report.Reasoning), never sent back.

// Reasoning limits (one place; the CLI flags and the browser setting are checked here).
const (
	// MaxReasoningTokens bounds Reasoning.MaxTokens: it must leave at least 200 of the
	// request's MaxTokens for the answer itself.
	MaxReasoningTokens = MaxTokens - 200
	// MaxReasoningDetails is how many reasoning_details blocks one answer may carry.
	MaxReasoningDetails = 256
	// MaxReasoningBytes bounds the reasoning of one answer: its text, and separately the JSON
	// of its reasoning_details. Beyond it the answer is OPENROUTER_INVALID_RESPONSE.
	MaxReasoningBytes = 256 << 10
	// MaxReportReasoningBytes bounds Report.Reasoning (the run's reasoning text shown in the
	// transcript); longer text is cut at a rune boundary and ends with "…".
	MaxReportReasoningBytes = 16 << 10
)

// Reasoning efforts.
const (
	EffortLow    = "low"
	EffortMedium = "medium"
	EffortHigh   = "high"
)

// Reasoning is the request's "reasoning" object:
//
//	{"effort"?: "low"|"medium"|"high", "max_tokens"?: 1..MaxReasoningTokens, "exclude"?: true}
//
// Effort and MaxTokens are exclusive (OpenRouter takes one or the other). Exclude asks the
// model to reason without returning the reasoning text. A nil *Reasoning sends no object
// (the model's default).
type Reasoning struct {
	Effort    string `json:"effort,omitempty"`
	MaxTokens int    `json:"max_tokens,omitempty"`
	Exclude   bool   `json:"exclude,omitempty"`
}

// ParseReasoning builds the setting from the CLI flags or the browser setting: effort ""
// (none), low, medium or high; maxTokens 0 (none) or 1..MaxReasoningTokens; exclude. It
// returns nil, nil when nothing is set; an error names the bad value (effort and max tokens
// together, an unknown effort, a count out of range). exclude alone is allowed (reason with
// the default effort, return no text).
func ParseReasoning(effort string, maxTokens int, exclude bool) (*Reasoning, error) {
	effort = strings.TrimSpace(strings.ToLower(effort))
	switch effort {
	case "", EffortLow, EffortMedium, EffortHigh:
	default:
		return nil, fmt.Errorf("openrouter: reasoning effort %q is not low, medium or high", effort)
	}
	if maxTokens < 0 || maxTokens > MaxReasoningTokens {
		return nil, fmt.Errorf("openrouter: reasoning max tokens %d is outside 1..%d", maxTokens, MaxReasoningTokens)
	}
	if effort != "" && maxTokens > 0 {
		return nil, fmt.Errorf("openrouter: give a reasoning effort or reasoning max tokens, not both")
	}
	if effort == "" && maxTokens == 0 && !exclude {
		return nil, nil
	}
	return &Reasoning{Effort: effort, MaxTokens: maxTokens, Exclude: exclude}, nil
}

// decodeReasoning reads message.reasoning (string or null) and message.reasoning_details
// (array of objects, or null) of a whole answer. Anything else, or more than the bounds, is
// OPENROUTER_INVALID_RESPONSE.
func decodeReasoning(msg map[string]json.RawMessage, where string) (string, []json.RawMessage, error) {
	var text string
	switch r := msg["reasoning"]; mcp.JSONKind(r) {
	case "nothing", "null":
	case "string":
		_ = json.Unmarshal(r, &text)
		if len(text) > MaxReasoningBytes {
			return "", nil, reasoningTooLarge(where + ".reasoning")
		}
	default:
		return "", nil, invalid("%s.reasoning is a JSON %s, not a string or null", where, mcp.JSONKind(r))
	}
	details, err := appendDetails(nil, msg["reasoning_details"], where+".reasoning_details")
	if err != nil {
		return "", nil, err
	}
	return text, details, nil
}

// appendDetails appends the blocks of raw (an array of objects, or null/absent) to dst,
// compacted, within MaxReasoningDetails and MaxReasoningBytes.
func appendDetails(dst []json.RawMessage, raw json.RawMessage, what string) ([]json.RawMessage, error) {
	switch mcp.JSONKind(raw) {
	case "nothing", "null":
		return dst, nil
	case "array":
	default:
		return nil, invalid("%s is a JSON %s, not an array", what, mcp.JSONKind(raw))
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, invalid("%s could not be read", what)
	}
	size := detailsSize(dst)
	for i, it := range items {
		if mcp.JSONKind(it) != "object" {
			return nil, invalid("%s[%d] is a JSON %s, not an object", what, i, mcp.JSONKind(it))
		}
		c, err := compactJSON(it)
		if err != nil {
			return nil, invalid("%s[%d] could not be read", what, i)
		}
		size += len(c)
		if len(dst) >= MaxReasoningDetails || size > MaxReasoningBytes {
			return nil, reasoningTooLarge(what)
		}
		dst = append(dst, c)
	}
	return dst, nil
}

func compactJSON(raw json.RawMessage) (json.RawMessage, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	return json.RawMessage(buf.Bytes()), nil
}

func detailsSize(d []json.RawMessage) int {
	n := 0
	for _, x := range d {
		n += len(x)
	}
	return n
}

func reasoningTooLarge(what string) error {
	return mcp.NewError(mcp.CodeOpenRouterInvalidResponse, false,
		map[string]any{"limit": "reasoning", "maxBlocks": MaxReasoningDetails, "maxBytes": MaxReasoningBytes},
		"OpenRouter returned an invalid response: %s exceeds %d blocks or %d bytes.", what, MaxReasoningDetails, MaxReasoningBytes)
}

// addReasoning appends one answer's reasoning text to the run's report, within
// MaxReportReasoningBytes.
func (l *loop) addReasoning(s string) {
	s = strings.TrimSpace(l.scrub(s))
	if s == "" || l.reasoningFull {
		return
	}
	if l.rep.Reasoning != "" {
		s = "\n\n" + s
	}
	room := MaxReportReasoningBytes - len(l.rep.Reasoning)
	if len(s) > room {
		cut := room - len("…")
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		if cut < 0 {
			cut = 0
		}
		s = s[:cut] + "…"
		l.reasoningFull = true
	}
	l.rep.Reasoning += s
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// chunkField names a member of stream chunk n in an error ("stream chunk 3: delta.x").
func chunkField(n int, member string) string {
	return fmt.Sprintf("stream chunk %d: %s", n, member)
}
