package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Method names (MCP specification, "Tools": https://modelcontextprotocol.io/specification/2025-06-18/server/tools).
const (
	MethodToolsList = "tools/list"
	MethodToolsCall = "tools/call"
)

// Tool is one entry of a tools/list result.
//
// Shape: {"name", "title"?, "description"?, "inputSchema", "outputSchema"?, "annotations"?}.
// InputSchema and OutputSchema are JSON Schema 2020-12 documents kept as raw bytes so that
// they are emitted exactly as registered (SPEC §2.2).
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
}

// ToolAnnotations are the MCP behaviour hints of a tool. All four hints are always emitted,
// because MCP's defaults differ per hint (destructiveHint and openWorldHint default to true)
// and a client must not have to guess.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// ListToolsParams are the params of a tools/list request: {"cursor"?}.
// The cursor is opaque: only a nextCursor from an earlier result is valid.
type ListToolsParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// ListToolsResult is a tools/list result page: {"tools": [...], "nextCursor"?}.
// NextCursor is empty on the last page.
type ListToolsResult struct {
	Tools      []Tool `json:"tools"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// CallToolParams are the params of a tools/call request: {"name", "arguments"?, "_meta"?}.
// Arguments, when present, is a JSON object (kept raw: it is validated against the tool's
// closed input schema before it is decoded). Registry options and call context ride in _meta
// (SPEC §3, `webcoding call`).
type CallToolParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Meta      *CallMeta       `json:"_meta,omitempty"`
}

// CallMeta is the _meta object of a tools/call request as the studio reads it.
//
// Limits: ToolCallID and SessionID 1..256 characters; IdempotencyKey 1..256 characters
// (REFERENCE §4); TimeoutMs finite and >= 0; MaxOutputBytes a positive integer.
// Source is one of "local", "model", "mcp"; Mode one of "agent", "direct".
//
// CoalesceKey (1..256 characters) marks one editor typing burst: workspace.writeFile passes it
// to the workspace manager, which folds consecutive writes with the same key into one history
// checkpoint (workspace.Call.CoalesceKey). It is honoured only for source "local" with mode
// "direct" (the page's own editor); agent, model and MCP writes never coalesce.
type CallMeta struct {
	ToolCallID     string   `json:"toolCallId,omitempty"`
	SessionID      string   `json:"sessionId,omitempty"`
	Source         string   `json:"source,omitempty"`
	Mode           string   `json:"mode,omitempty"`
	IdempotencyKey *string  `json:"idempotencyKey,omitempty"`
	TimeoutMs      *float64 `json:"timeoutMs,omitempty"`
	MaxOutputBytes *float64 `json:"maxOutputBytes,omitempty"`
	CoalesceKey    string   `json:"coalesceKey,omitempty"`
}

// Content is one MCP content block. Only the MCP block types are used: "text", "image" and
// "resource" (SPEC §2.10: MCP has no JSON block; JSON goes in structuredContent and, serialized,
// in a text block).
type Content struct {
	Type     string            `json:"type"`
	Text     string            `json:"text,omitempty"`
	Data     string            `json:"data,omitempty"`
	MimeType string            `json:"mimeType,omitempty"`
	Resource *ResourceContents `json:"resource,omitempty"`
}

// ResourceContents is the payload of a "resource" content block.
type ResourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// TextContent returns a text content block.
func TextContent(text string) Content { return Content{Type: "text", Text: text} }

// CallToolResult is the canonical tools/call result (SPEC §2.10): an MCP CallToolResult
// extended with toolCallId and, on failure, error.
//
// Shape: {"content": [...], "structuredContent"?, "isError", "toolCallId", "error"?}.
// On failure, structuredContent carries the same {code, message, retryable, details} object
// as error, and the first text block reads "[CODE] message".
type CallToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
	ToolCallID        string          `json:"toolCallId"`
	Error             *ToolError      `json:"error,omitempty"`
	// Replay is set when the result is the replay of an earlier call with the same
	// idempotencyKey whose effect was checked where the caller looks (issue 14).
	Replay *Replay `json:"replay,omitempty"`
}

// Replay says where a replayed success's effect was found (issue 14 item 4):
//
//	{"operationKey": "...", "instance": "same"|"other", "superseded"?: true, "supersededPaths"?: [...]}
//
// instance "same": the call ran in this workspace instance; superseded says that some of the
// paths it touched changed since (a later edit; never a reason to run it again). instance
// "other": it ran in another workspace instance and its effect was found here (the paths hold
// what the call left). A replay whose effect is absent here is not a success: it is
// TOOL_IDEMPOTENCY_NOT_APPLIED.
type Replay struct {
	OperationKey    string   `json:"operationKey,omitempty"`
	Instance        string   `json:"instance"`
	Superseded      bool     `json:"superseded,omitempty"`
	SupersededPaths []string `json:"supersededPaths,omitempty"`
}

// Replay instances.
const (
	ReplaySameInstance  = "same"
	ReplayOtherInstance = "other"
)

// ToolError is the structured error of a failed tool call: {code, message, retryable, details?}.
// It implements error so handlers can return it; the registry keeps its code, message and
// details end to end and only adjusts Retryable as REFERENCE §3.1 says.
type ToolError struct {
	Code      Code   `json:"code"`
	Message   string `json:"message"`
	Retryable bool   `json:"retryable"`
	Details   any    `json:"details,omitempty"`
}

// Error renders the error as "[CODE] message", the text every view shows (REFERENCE §3.2).
func (e *ToolError) Error() string { return fmt.Sprintf("[%s] %s", e.Code, e.Message) }

// ToolErrorOf returns the *ToolError in err's chain (errors.As). Any other non-nil error
// becomes TOOL_EXECUTION_FAILED with err's text as the message, so no failure is lost; nil
// stays nil. Functions return error, never a typed *ToolError that could be a nil pointer
// inside a non-nil interface; the places that need the structured form call this.
func ToolErrorOf(err error) *ToolError {
	if err == nil {
		return nil
	}
	var te *ToolError
	if errors.As(err, &te) {
		return te
	}
	return &ToolError{Code: CodeToolExecutionFailed, Message: err.Error()}
}

// Bound cuts s to at most n code points (bytes kept as they are): the bound of a text, such as
// an underlying error, quoted in a ToolError's message or details.
func Bound(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// NewError returns a ToolError with the given code, retryability and details.
func NewError(code Code, retryable bool, details any, format string, args ...any) *ToolError {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &ToolError{Code: code, Message: msg, Retryable: retryable, Details: details}
}
