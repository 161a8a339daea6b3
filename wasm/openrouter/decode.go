package openrouter

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Completion is a decoded, validated 2xx chat-completions answer: the first choice's
// assistant message.
type Completion struct {
	// Content is the assistant text; nil when it was null or absent (ContentPresent tells
	// which), "" when the provider sent an empty string.
	Content        *string
	ContentPresent bool
	// FinishReason is choices[0].finish_reason ("" when null or absent).
	FinishReason string
	// Calls are the requested tool calls, in order (ids non-blank and unique).
	Calls []Call
	// Usage is what the provider reported for this answer (nil: no usage object).
	Usage *Usage
	// Reasoning is message.reasoning ("" when absent); ReasoningDetails the
	// message.reasoning_details blocks, compacted (reasoning.go).
	Reasoning        string
	ReasoningDetails []json.RawMessage
}

// Call is one requested tool call. Exactly one of Arguments and ArgError is set:
// Arguments is the compact JSON object to validate and run; ArgError is the
// OPENROUTER_INVALID_TOOL_CALL error that is reported back to the model as this call's result
// instead of running it.
type Call struct {
	ID        string
	Name      string // provider name, as the model sent it
	Arguments json.RawMessage
	ArgError  *mcp.ToolError
}

// ProviderError is an error object found inside a response body:
// {"error": {"code"?: number|string, "message"?, "metadata"?}, "http_status"?}.
type ProviderError struct {
	// Status is the HTTP status the object carries (its numeric code, a numeric string code,
	// or http_status), 0 when it names none.
	Status  int
	Code    string // the code as text ("429", "rate_limit_exceeded", "")
	Message string
}

// DecodeResponse decodes the body of a 2xx chat-completions response (read whole, as text)
// and validates everything the loop relies on before any tool runs.
//
// It returns exactly one of: a *Completion; a *ProviderError (the body carries an error
// object, to be classified like its HTTP status); a *mcp.ToolError with code
//   - OPENROUTER_INVALID_RESPONSE (not retryable): not JSON (mcp.CheckJSON: UTF-8, syntax,
//     depth, repeated keys), not an object, non-array choices, a non-object choice or message,
//     a role other than "assistant", content neither string nor null, tool_calls not an
//     array, a tool call that is not an object, has a missing/blank/non-string or duplicate
//     id, a type other than "function", no function object, a missing/blank name;
//   - OPENROUTER_NO_ASSISTANT_MESSAGE (retryable): no choices[0].message.
//
// Tool-call arguments never fail the response: see parseArguments.
func DecodeResponse(body []byte) (*Completion, *ProviderError, error) {
	if err := mcp.CheckJSON(body); err != nil {
		return nil, nil, invalid("the response body is not JSON (%s)", trimErr(err))
	}
	var top map[string]json.RawMessage
	if mcp.JSONKind(body) != "object" || json.Unmarshal(body, &top) != nil {
		return nil, nil, invalid("the response body is a JSON %s, not an object", mcp.JSONKind(body))
	}
	if raw, ok := top["error"]; ok && mcp.JSONKind(raw) != "null" {
		return nil, parseProviderError(raw, top["http_status"]), nil
	}
	rawChoices, ok := top["choices"]
	if !ok || mcp.JSONKind(rawChoices) == "null" {
		return nil, nil, noMessage()
	}
	var choices []json.RawMessage
	if mcp.JSONKind(rawChoices) != "array" || json.Unmarshal(rawChoices, &choices) != nil {
		return nil, nil, invalid("choices is a JSON %s, not an array", mcp.JSONKind(rawChoices))
	}
	if len(choices) == 0 {
		return nil, nil, noMessage()
	}
	var choice map[string]json.RawMessage
	if mcp.JSONKind(choices[0]) != "object" || json.Unmarshal(choices[0], &choice) != nil {
		return nil, nil, invalid("choices[0] is a JSON %s, not an object", mcp.JSONKind(choices[0]))
	}
	if raw, ok := choice["error"]; ok && mcp.JSONKind(raw) == "object" {
		return nil, parseProviderError(raw, nil), nil
	}
	rawMsg, ok := choice["message"]
	if !ok || mcp.JSONKind(rawMsg) == "null" {
		return nil, nil, noMessage()
	}
	var msg map[string]json.RawMessage
	if mcp.JSONKind(rawMsg) != "object" || json.Unmarshal(rawMsg, &msg) != nil {
		return nil, nil, invalid("choices[0].message is a JSON %s, not an object", mcp.JSONKind(rawMsg))
	}
	c := &Completion{Usage: parseUsage(top["usage"])}
	if raw, ok := choice["finish_reason"]; ok && mcp.JSONKind(raw) == "string" {
		_ = json.Unmarshal(raw, &c.FinishReason)
	}
	if raw, ok := msg["role"]; ok {
		var role string
		if mcp.JSONKind(raw) != "string" || json.Unmarshal(raw, &role) != nil || role != RoleAssistant {
			return nil, nil, invalid("choices[0].message.role is %s, not \"assistant\"", excerptJSON(raw))
		}
	}
	if raw, ok := msg["content"]; ok {
		c.ContentPresent = true
		switch mcp.JSONKind(raw) {
		case "null":
		case "string":
			var s string
			_ = json.Unmarshal(raw, &s)
			c.Content = &s
		default:
			return nil, nil, invalid("choices[0].message.content is a JSON %s, not a string or null", mcp.JSONKind(raw))
		}
	}
	rtext, rdetails, rerr := decodeReasoning(msg, "choices[0].message")
	if rerr != nil {
		return nil, nil, rerr
	}
	c.Reasoning, c.ReasoningDetails = rtext, rdetails
	raw, ok := msg["tool_calls"]
	if !ok || mcp.JSONKind(raw) == "null" {
		return c, nil, nil
	}
	var items []json.RawMessage
	if mcp.JSONKind(raw) != "array" || json.Unmarshal(raw, &items) != nil {
		return nil, nil, invalid("choices[0].message.tool_calls is a JSON %s, not an array", mcp.JSONKind(raw))
	}
	calls, err := decodeCalls(items, c.FinishReason)
	if err != nil {
		return nil, nil, err
	}
	c.Calls = calls
	return c, nil, nil
}

// decodeCalls validates tool_calls items (decodeCall) and refuses a repeated id; the streamed
// and the whole answer share it, so both refuse the same calls.
func decodeCalls(items []json.RawMessage, finish string) ([]Call, error) {
	calls := make([]Call, 0, len(items))
	seen := make(map[string]bool, len(items))
	for i, item := range items {
		call, terr := decodeCall(i, item, finish)
		if terr != nil {
			return nil, terr
		}
		if seen[call.ID] {
			return nil, invalid("tool_calls[%d] repeats the id %q", i, call.ID)
		}
		seen[call.ID] = true
		calls = append(calls, call)
	}
	return calls, nil
}

func decodeCall(i int, item json.RawMessage, finish string) (Call, error) {
	var m map[string]json.RawMessage
	if mcp.JSONKind(item) != "object" || json.Unmarshal(item, &m) != nil {
		return Call{}, invalid("tool_calls[%d] is a JSON %s, not an object", i, mcp.JSONKind(item))
	}
	var call Call
	if mcp.JSONKind(m["id"]) != "string" || json.Unmarshal(m["id"], &call.ID) != nil || strings.TrimSpace(call.ID) == "" {
		return Call{}, invalid("tool_calls[%d] has no id", i)
	}
	if raw, ok := m["type"]; ok {
		var typ string
		if mcp.JSONKind(raw) != "string" || json.Unmarshal(raw, &typ) != nil || typ != "function" {
			return Call{}, invalid("tool_calls[%d].type is %s, not \"function\"", i, excerptJSON(raw))
		}
	}
	var fn map[string]json.RawMessage
	if mcp.JSONKind(m["function"]) != "object" || json.Unmarshal(m["function"], &fn) != nil {
		return Call{}, invalid("tool_calls[%d] has no function object", i)
	}
	if mcp.JSONKind(fn["name"]) != "string" || json.Unmarshal(fn["name"], &call.Name) != nil || strings.TrimSpace(call.Name) == "" {
		return Call{}, invalid("tool_calls[%d].function has no name", i)
	}
	// Surrounding whitespace is not part of either (the original trims both before lookup and
	// correlation; issue 14 item 10): " preview_setTheme\n" is preview_setTheme, and the trimmed
	// id is the one echoed back.
	call.ID, call.Name = strings.TrimSpace(call.ID), strings.TrimSpace(call.Name)
	args, err := parseArguments(fn["arguments"], finish)
	call.Arguments, call.ArgError = args, mcp.ToolErrorOf(err)
	return call, nil
}

// parseArguments applies the argument rules (issue 6):
//   - a JSON string is parsed once; empty or whitespace-only means {} (then validated like any
//     input, so required fields are refused with TOOL_VALIDATION_FAILED by the registry);
//   - absent or null means {};
//   - an object the provider already decoded is accepted as is;
//   - anything else (invalid or truncated JSON, an array, a number, a string that decodes to a
//     non-object) is OPENROUTER_INVALID_TOOL_CALL (retryable), details {reason,
//     finishReason?}; with finish_reason "length" the reason is "truncated".
//
// The accepted object is returned compact (json.Compact).
func parseArguments(raw json.RawMessage, finish string) (json.RawMessage, error) {
	var obj []byte
	switch mcp.JSONKind(raw) {
	case "nothing", "null":
		return json.RawMessage("{}"), nil
	case "object":
		obj = raw
	case "string":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, badArgs("the arguments string could not be read", "invalid-json", finish)
		}
		if strings.TrimSpace(s) == "" {
			return json.RawMessage("{}"), nil
		}
		if mcp.CheckJSON([]byte(s)) != nil {
			if finish == "length" {
				return nil, badArgs("the arguments are not complete JSON: the answer was cut off (finish_reason \"length\")", "truncated", finish)
			}
			return nil, badArgs("the arguments are not valid JSON", "invalid-json", finish)
		}
		if k := mcp.JSONKind([]byte(s)); k != "object" {
			return nil, badArgs("the arguments are a JSON "+k+", not an object", "not-an-object", finish)
		}
		obj = []byte(s)
	default:
		return nil, badArgs("the arguments are a JSON "+mcp.JSONKind(raw)+", not an object or a string", "not-an-object", finish)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, obj); err != nil {
		return nil, badArgs("the arguments are not valid JSON", "invalid-json", finish)
	}
	return json.RawMessage(buf.Bytes()), nil
}

func badArgs(msg, reason, finish string) *mcp.ToolError {
	d := map[string]any{"reason": reason}
	if finish != "" {
		d["finishReason"] = finish
	}
	return mcp.NewError(mcp.CodeOpenRouterInvalidToolCall, true, d, "The model's tool call is invalid: %s.", msg)
}

func parseProviderError(raw, httpStatus json.RawMessage) *ProviderError {
	pe := &ProviderError{}
	var m map[string]json.RawMessage
	if mcp.JSONKind(raw) == "object" && json.Unmarshal(raw, &m) == nil {
		switch mcp.JSONKind(m["code"]) {
		case "number":
			var f float64
			if json.Unmarshal(m["code"], &f) == nil && f == float64(int(f)) {
				pe.Status = int(f)
			}
			pe.Code = string(m["code"])
		case "string":
			_ = json.Unmarshal(m["code"], &pe.Code)
			if n, err := strconv.Atoi(strings.TrimSpace(pe.Code)); err == nil {
				pe.Status = n
			}
		}
		if mcp.JSONKind(m["message"]) == "string" {
			_ = json.Unmarshal(m["message"], &pe.Message)
		}
		if pe.Status == 0 {
			pe.Status = intOf(m["http_status"])
		}
		if pe.Status == 0 {
			pe.Status = intOf(m["status"])
		}
	} else if mcp.JSONKind(raw) == "string" {
		_ = json.Unmarshal(raw, &pe.Message)
	}
	if pe.Status == 0 {
		pe.Status = intOf(httpStatus)
	}
	if pe.Status < 100 || pe.Status > 599 {
		pe.Status = 0
	}
	return pe
}

func intOf(raw json.RawMessage) int {
	var f float64
	switch mcp.JSONKind(raw) {
	case "number":
		if json.Unmarshal(raw, &f) == nil && f == float64(int(f)) {
			return int(f)
		}
	case "string":
		var s string
		_ = json.Unmarshal(raw, &s)
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			return n
		}
	}
	return 0
}

func invalid(format string, args ...any) *mcp.ToolError {
	return mcp.NewError(mcp.CodeOpenRouterInvalidResponse, false, nil, "OpenRouter returned an invalid response: "+format+".", args...)
}

func noMessage() *mcp.ToolError {
	return mcp.NewError(mcp.CodeOpenRouterNoAssistantMessage, true, nil, "OpenRouter returned no assistant message (choices[0].message is missing).")
}

func excerptJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "missing"
	}
	return Excerpt(string(raw), 60)
}

func trimErr(err error) string { return strings.TrimPrefix(err.Error(), "mcp: ") }
