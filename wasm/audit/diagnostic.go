package audit

import (
	"github.com/webcoding/studio/wasm/mcp"
)

// Fixed texts of the sanitized durable diagnostic (REFERENCE §6.6).
const (
	DiagnosticText      = "Tool execution diagnostic retained in redacted form."
	AmbiguousReasonText = "Tool execution ended with an ambiguous outcome; reconcile before retrying."
)

// Diagnostic is the sanitized durable projection of an error result:
// {"result": {...}, "reason": "Tool execution ended with TOOL_TIMEOUT; reconcile before retrying."}.
type Diagnostic struct {
	Result mcp.CallToolResult `json:"result"`
	Reason string             `json:"reason"`
}

// DurableDiagnostic applies the default policy; see Policy.DurableDiagnostic.
func DurableDiagnostic(r *mcp.CallToolResult) (Diagnostic, bool) {
	return DefaultPolicy().DurableDiagnostic(r)
}

// DurableDiagnostic returns what a durable store may keep of the error result r
// (REFERENCE §6.6): one text block reading DiagnosticText; isError true; error with the same
// code and retryable, the message replaced by DiagnosticText and details passed through
// p.Redact (so bounded by MaxBytes); structuredContent and toolCallId dropped. Reason reads
// "Tool execution ended with <CODE>; reconcile before retrying.".
//
// A code that fails mcp.ValidCode (or a missing error object) is not copied: the diagnostic
// carries TOOL_EXECUTION_UNKNOWN, no details, and Reason is AmbiguousReasonText.
//
// ok is false, and the Diagnostic empty, when r is nil or not an error result: successes
// are stored as they are, without toolCallId.
func (p Policy) DurableDiagnostic(r *mcp.CallToolResult) (d Diagnostic, ok bool) {
	if r == nil || !r.IsError {
		return Diagnostic{}, false
	}
	e := &mcp.ToolError{Code: mcp.CodeToolExecutionUnknown, Message: DiagnosticText}
	d.Reason = AmbiguousReasonText
	if r.Error != nil {
		e.Retryable = r.Error.Retryable
		if mcp.ValidCode(r.Error.Code) {
			e.Code = r.Error.Code
			d.Reason = "Tool execution ended with " + string(e.Code) + "; reconcile before retrying."
			if r.Error.Details != nil {
				e.Details = p.Redact(r.Error.Details)
			}
		}
	}
	d.Result = mcp.CallToolResult{
		Content: []mcp.Content{mcp.TextContent(DiagnosticText)},
		IsError: true,
		Error:   e,
	}
	return d, true
}
