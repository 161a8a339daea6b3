package openrouter

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Stream limits (issue 16). Each is enforced at one point, through checkBound; going over one
// fails the response with OPENROUTER_INVALID_RESPONSE (not retryable), details
// {"limit": "line"|"bytes"|"calls", "max"}.
const (
	// MaxStreamLineBytes bounds one SSE line and one event's joined data (bytes): one chunk of
	// JSON. 256 KiB is far above any chunk of a 1200-token answer.
	MaxStreamLineBytes = 256 << 10
	// MaxStreamBytes bounds a whole streamed body (bytes), like the host's MaxResponseBytes.
	MaxStreamBytes = 8 << 20
	// MaxStreamCalls bounds the tool-call indexes of one streamed answer: index 0..63. A batch
	// over the run's remaining calls (MaxToolCalls) is refused by the loop, whole, as for a
	// non-streamed answer.
	MaxStreamCalls = 64
)

type bound string

const (
	boundLine  bound = "line"
	boundBytes bound = "bytes"
	boundCalls bound = "calls"
)

// checkBound returns nil when n is within the limit of b, else the OPENROUTER_INVALID_RESPONSE
// error that stops the stream.
func checkBound(b bound, n int) error {
	max, what := MaxStreamLineBytes, "an SSE line or event of more than %d bytes"
	switch b {
	case boundBytes:
		max, what = MaxStreamBytes, "more than %d bytes"
	case boundCalls:
		max, what = MaxStreamCalls, "more than %d tool calls"
	}
	if n <= max {
		return nil
	}
	return mcp.NewError(mcp.CodeOpenRouterInvalidResponse, false, map[string]any{"limit": string(b), "max": max},
		"OpenRouter returned an invalid response: the stream carries "+what+".", max)
}

// StreamDecoder decodes a streamed chat-completions answer (`"stream": true`, a
// text/event-stream body) as its bytes arrive, into the same outcomes as DecodeResponse:
//
//	data: {"choices":[{"index":0,"delta":{"role"?,"content"?,"tool_calls"?:[…]},"finish_reason"?}],"usage"?}
//	: OPENROUTER PROCESSING          (a comment: skipped)
//	data: {"choices":[],"usage":{…}} (the usage-only last chunk)
//	data: [DONE]
//
// Assistant text is handed to OnText as each content delta arrives. Tool-call deltas are
// assembled by their "index": id, type and function.name may come only on a call's first
// delta (a later delta may repeat them, never change them); function.arguments arrives as
// string fragments that are joined, and parsed only once the answer is complete. Only
// choice index 0 is read. The last usage object seen is the answer's Usage.
//
// Nothing of an incomplete answer is ever run: Finish returns a Completion only when a
// finish_reason arrived, and its calls go through the same validation as DecodeResponse's
// (an argument string that is not a complete JSON object is OPENROUTER_INVALID_TOOL_CALL,
// reason "truncated" under finish_reason "length" — also when no argument fragment arrived).
// Bounds: MaxStreamLineBytes, MaxStreamBytes, MaxStreamCalls. The zero value is ready (set
// OnText first); one decoder reads one body. Not safe for concurrent use.
type StreamDecoder struct {
	// OnText receives each non-empty content fragment, in order (nil: dropped). It runs
	// inside Feed.
	OnText func(text string)

	sse    sseParser
	read   int
	chunks int
	stop   bool // the outcome is decided: read no further
	done   bool // "data: [DONE]" arrived
	err    error
	pe     *ProviderError
	finish string

	text     []byte
	textSeen bool
	calls    map[int]*streamCall
	last     int // index of the last call a delta touched
	usage    *Usage

	reasoning []byte            // delta.reasoning fragments, joined
	details   []json.RawMessage // delta.reasoning_details blocks, in arrival order
}

// streamCall is one tool call being assembled.
type streamCall struct {
	id, name string
	args     []byte
	argsObj  bool // the arguments arrived as one JSON object, not string fragments
}

// Feed decodes the next bytes of the body. It returns true once the outcome is decided (an
// error, an error event, [DONE]) and the rest of the body need not be read; bytes fed after
// that are ignored.
func (d *StreamDecoder) Feed(p []byte) (stop bool) {
	if d.stop {
		return true
	}
	d.read += len(p)
	if err := checkBound(boundBytes, d.read); err != nil {
		d.err, d.stop = err, true
		return true
	}
	if err := d.sse.Feed(p, d.event); err != nil && err != errStop {
		d.err = err
	}
	d.stop = d.stop || d.err != nil || d.pe != nil
	return d.stop
}

// errStop ends the SSE parse once the outcome is decided; it is never an outcome.
var errStop = errors.New("openrouter: stream stopped")

// event handles one SSE event's data.
func (d *StreamDecoder) event(data []byte) error {
	if d.stop {
		return errStop
	}
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		d.done, d.stop = true, true
		return errStop
	}
	d.chunks++
	if err := d.chunk(data); err != nil {
		d.err = err
	}
	if d.err != nil || d.pe != nil {
		d.stop = true
		return errStop
	}
	return nil
}

// chunk applies one chat.completion.chunk.
func (d *StreamDecoder) chunk(data []byte) error {
	if err := mcp.CheckJSON(data); err != nil {
		return invalid("stream chunk %d is not JSON (%s)", d.chunks, trimErr(err))
	}
	var top map[string]json.RawMessage
	if mcp.JSONKind(data) != "object" || json.Unmarshal(data, &top) != nil {
		return invalid("stream chunk %d is a JSON %s, not an object", d.chunks, mcp.JSONKind(data))
	}
	if raw, ok := top["error"]; ok && mcp.JSONKind(raw) != "null" {
		d.pe = parseProviderError(raw, top["http_status"])
		return nil
	}
	if u := parseUsage(top["usage"]); u != nil {
		d.usage = u
	}
	choices, err := d.optArray(top["choices"], "choices")
	if err != nil {
		return err
	}
	for _, rc := range choices {
		var choice map[string]json.RawMessage
		if mcp.JSONKind(rc) != "object" || json.Unmarshal(rc, &choice) != nil {
			return invalid("stream chunk %d: a choice is a JSON %s, not an object", d.chunks, mcp.JSONKind(rc))
		}
		if k := mcp.JSONKind(choice["index"]); k != "nothing" && k != "null" && string(choice["index"]) != "0" {
			continue // only choice 0 is asked for
		}
		if raw, ok := choice["error"]; ok && mcp.JSONKind(raw) == "object" {
			d.pe = parseProviderError(raw, nil)
			return nil
		}
		if err := d.delta(choice["delta"]); err != nil {
			return err
		}
		if raw := choice["finish_reason"]; mcp.JSONKind(raw) == "string" {
			var f string
			_ = json.Unmarshal(raw, &f)
			if f != "" {
				d.finish = f
			}
		}
	}
	return nil
}

// delta applies choices[0].delta.
func (d *StreamDecoder) delta(raw json.RawMessage) error {
	switch mcp.JSONKind(raw) {
	case "nothing", "null":
		return nil
	case "object":
	default:
		return invalid("stream chunk %d: delta is a JSON %s, not an object", d.chunks, mcp.JSONKind(raw))
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	if r, ok := m["role"]; ok && mcp.JSONKind(r) != "null" {
		var role string
		if mcp.JSONKind(r) != "string" || json.Unmarshal(r, &role) != nil || (role != RoleAssistant && role != "") {
			return invalid("stream chunk %d: delta.role is %s, not \"assistant\"", d.chunks, excerptJSON(r))
		}
	}
	switch r := m["content"]; mcp.JSONKind(r) {
	case "nothing", "null":
	case "string":
		var s string
		_ = json.Unmarshal(r, &s)
		d.textSeen = true
		if s != "" {
			d.text = append(d.text, s...)
			if d.OnText != nil {
				d.OnText(s)
			}
		}
	default:
		return invalid("stream chunk %d: delta.content is a JSON %s, not a string or null", d.chunks, mcp.JSONKind(r))
	}
	switch r := m["reasoning"]; mcp.JSONKind(r) {
	case "nothing", "null":
	case "string":
		var s string
		_ = json.Unmarshal(r, &s)
		if d.reasoning = append(d.reasoning, s...); len(d.reasoning) > MaxReasoningBytes {
			return reasoningTooLarge("the streamed reasoning")
		}
	default:
		return invalid("stream chunk %d: delta.reasoning is a JSON %s, not a string or null", d.chunks, mcp.JSONKind(r))
	}
	details, err := appendDetails(d.details, m["reasoning_details"], chunkField(d.chunks, "delta.reasoning_details"))
	if err != nil {
		return err
	}
	d.details = details
	items, err := d.optArray(m["tool_calls"], "delta.tool_calls")
	if err != nil {
		return err
	}
	for _, item := range items {
		if err := d.callDelta(item); err != nil {
			return err
		}
	}
	return nil
}

// callDelta applies one tool_calls delta {"index", "id"?, "type"?, "function"?: {"name"?,
// "arguments"?}}. A delta without an index (some OpenAI-compatible servers) starts a new call
// when it names a new id and continues the last call otherwise.
func (d *StreamDecoder) callDelta(item json.RawMessage) error {
	var m map[string]json.RawMessage
	if mcp.JSONKind(item) != "object" || json.Unmarshal(item, &m) != nil {
		return invalid("stream chunk %d: a tool_calls delta is a JSON %s, not an object", d.chunks, mcp.JSONKind(item))
	}
	id, err := d.optString(m["id"], "id")
	if err != nil {
		return err
	}
	idx := d.last
	switch raw := m["index"]; mcp.JSONKind(raw) {
	case "nothing", "null":
		if prev := d.calls[d.last]; prev != nil && id != "" && prev.id != "" && id != prev.id {
			idx = len(d.calls)
		}
	case "number":
		var f float64
		if json.Unmarshal(raw, &f) != nil || f < 0 || f != math.Trunc(f) {
			return invalid("stream chunk %d: a tool call index is %s, not a whole number ≥ 0", d.chunks, excerptJSON(raw))
		}
		if err := checkBound(boundCalls, int(min(f, MaxStreamCalls+1))+1); err != nil {
			return err
		}
		idx = int(f)
	default:
		return invalid("stream chunk %d: a tool call index is a JSON %s, not a number", d.chunks, mcp.JSONKind(raw))
	}
	if d.calls == nil {
		d.calls = map[int]*streamCall{}
	}
	c := d.calls[idx]
	if c == nil {
		if err := checkBound(boundCalls, len(d.calls)+1); err != nil {
			return err
		}
		c = &streamCall{}
		d.calls[idx] = c
	}
	d.last = idx
	if err := keep(&c.id, id, idx, "id"); err != nil {
		return err
	}
	if raw, ok := m["type"]; ok && mcp.JSONKind(raw) != "null" {
		var typ string
		if mcp.JSONKind(raw) != "string" || json.Unmarshal(raw, &typ) != nil || typ != "function" {
			return invalid("tool_calls[%d].type is %s, not \"function\"", idx, excerptJSON(raw))
		}
	}
	switch fn := m["function"]; mcp.JSONKind(fn) {
	case "nothing", "null":
		return nil
	case "object":
	default:
		return invalid("tool_calls[%d] has no function object", idx)
	}
	var fn map[string]json.RawMessage
	_ = json.Unmarshal(m["function"], &fn)
	name, err := d.optString(fn["name"], "function.name")
	if err != nil {
		return err
	}
	if err := keep(&c.name, name, idx, "function.name"); err != nil {
		return err
	}
	switch raw := fn["arguments"]; mcp.JSONKind(raw) {
	case "nothing", "null":
	case "string":
		var s string
		_ = json.Unmarshal(raw, &s)
		if c.argsObj && s != "" {
			return invalid("tool_calls[%d].function.arguments mixes an object and string fragments", idx)
		}
		c.args = append(c.args, s...)
	case "object":
		if len(c.args) > 0 {
			return invalid("tool_calls[%d].function.arguments mixes string fragments and an object", idx)
		}
		c.args, c.argsObj = append([]byte(nil), raw...), true
	default:
		return invalid("tool_calls[%d].function.arguments is a JSON %s, not a string", idx, mcp.JSONKind(raw))
	}
	return nil
}

// optArray reads an optional array member: nil when absent or null.
func (d *StreamDecoder) optArray(raw json.RawMessage, what string) ([]json.RawMessage, error) {
	var items []json.RawMessage
	switch mcp.JSONKind(raw) {
	case "nothing", "null":
		return nil, nil
	case "array":
		_ = json.Unmarshal(raw, &items)
		return items, nil
	}
	return nil, invalid("stream chunk %d: %s is a JSON %s, not an array", d.chunks, what, mcp.JSONKind(raw))
}

// optString reads an optional string member: "" when absent or null.
func (d *StreamDecoder) optString(raw json.RawMessage, what string) (string, error) {
	switch mcp.JSONKind(raw) {
	case "nothing", "null":
		return "", nil
	case "string":
		var s string
		_ = json.Unmarshal(raw, &s)
		return s, nil
	}
	return "", invalid("stream chunk %d: a tool call's %s is a JSON %s, not a string", d.chunks, what, mcp.JSONKind(raw))
}

// keep sets *dst to v on a call's first mention; a later delta may repeat it, never change it.
func keep(dst *string, v string, idx int, what string) error {
	switch {
	case v == "" || v == *dst:
	case *dst == "":
		*dst = v
	default:
		return invalid("tool_calls[%d].%s changed within the stream (%s, then %s)", idx, what, Excerpt(*dst, 40), Excerpt(v, 40))
	}
	return nil
}

// Finish ends the body (its end was reached, or Feed said stop) and returns exactly one of
// DecodeResponse's outcomes, plus, for an answer that never completed, a retryable error:
//   - an error object in a chunk (or finish_reason "error") → *ProviderError;
//   - the body ended without [DONE] and without a finish_reason (a cut stream) →
//     OPENROUTER_NETWORK_ERROR, details {"reason": "stream-cut"};
//   - [DONE] without a finish_reason → OPENROUTER_PROVIDER_ERROR, details
//     {"reason": "no-finish"};
//   - a malformed chunk or an exceeded bound → OPENROUTER_INVALID_RESPONSE;
//   - else the *Completion (Content nil when no content delta arrived), with Usage.
func (d *StreamDecoder) Finish() (*Completion, *ProviderError, error) {
	d.stop = true
	switch {
	case d.err != nil:
		return nil, nil, d.err
	case d.pe != nil:
		return nil, d.pe, nil
	case d.finish == "error":
		return nil, &ProviderError{Message: "the provider ended the stream with finish_reason \"error\""}, nil
	case d.finish == "" && !d.done:
		return nil, nil, mcp.NewError(mcp.CodeOpenRouterNetworkError, true, map[string]any{"reason": "stream-cut"},
			"OpenRouter's stream ended before the answer was complete (no finish_reason); nothing of it was run.")
	case d.finish == "":
		return nil, nil, mcp.NewError(mcp.CodeOpenRouterProviderError, true, map[string]any{"reason": "no-finish"},
			"OpenRouter's stream ended ([DONE]) without a finish_reason; nothing of it was run.")
	}
	c := &Completion{FinishReason: d.finish, Usage: d.usage, Reasoning: string(d.reasoning), ReasoningDetails: d.details}
	if d.textSeen {
		s := string(d.text)
		c.Content, c.ContentPresent = &s, true
	}
	idxs := make([]int, 0, len(d.calls))
	for i := range d.calls {
		idxs = append(idxs, i)
	}
	sort.Ints(idxs)
	items := make([]json.RawMessage, 0, len(idxs))
	for _, i := range idxs {
		sc := d.calls[i]
		var args any = string(sc.args)
		if sc.argsObj {
			args = json.RawMessage(sc.args)
		}
		item, err := json.Marshal(map[string]any{"id": sc.id, "type": "function",
			"function": map[string]any{"name": sc.name, "arguments": args}})
		if err != nil {
			return nil, nil, invalid("tool_calls[%d] could not be assembled", i)
		}
		items = append(items, item)
	}
	calls, err := decodeCalls(items, d.finish)
	if err != nil {
		return nil, nil, err
	}
	for i, idx := range idxs {
		if sc := d.calls[idx]; d.finish == "length" && !sc.argsObj && strings.TrimSpace(string(sc.args)) == "" && calls[i].ArgError == nil {
			calls[i].Arguments, calls[i].ArgError = nil, badArgs("no arguments arrived before the answer was cut off (finish_reason \"length\")", "truncated", d.finish)
		}
	}
	c.Calls = calls
	return c, nil, nil
}

// DecodeStream decodes a whole streamed body at once (a transport that cannot hand bytes over
// as they arrive): StreamDecoder semantics, with onText called for each fragment before it
// returns.
func DecodeStream(body []byte, onText func(string)) (*Completion, *ProviderError, error) {
	d := &StreamDecoder{OnText: onText}
	d.Feed(body)
	return d.Finish()
}

// isEventStream reports whether a 2xx answer is a server-sent event stream: its Content-Type
// is text/event-stream, or, without a Content-Type, its first non-blank byte is not "{" (an
// endpoint that ignored "stream": true answers with one JSON object).
func isEventStream(header map[string]string, head []byte) bool {
	ct := strings.ToLower(strings.TrimSpace(HeaderValue(header, "Content-Type")))
	if ct != "" {
		return strings.HasPrefix(ct, "text/event-stream")
	}
	head = bytes.TrimLeft(head, " \t\r\n\uFEFF")
	return len(head) > 0 && head[0] != '{'
}
