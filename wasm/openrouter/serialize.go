package openrouter

import (
	"encoding/json"

	"github.com/webcoding/studio/wasm/mcp"
)

// SerializeResult renders a canonical result as the content of the role "tool" message the
// provider receives (REFERENCE §7.5):
//   - a result that is not canonical (mcp.ValidateCallToolResult) →
//     {"status": "error", "code": "TOOL_RESULT_VALIDATION_FAILED", "message"};
//   - a failed result → {"status": "error", "code", "message", "retryable", "details"?};
//   - a successful result → its structuredContent, else {"status": "completed", "content":
//     the text of mcp.StringifyToolContent};
//   - a value that cannot be serialized (details or structuredContent that is not JSON) →
//     {"status": "error", "code": "TOOL_RESULT_SERIALIZATION_FAILED", "message"}, keeping the
//     code, message and retryable of a failed result under "originalError" but not its details.
//
// It never fails: the loop always has something to tell the model.
func SerializeResult(res *mcp.CallToolResult) string {
	if err := mcp.ValidateCallToolResult(res); err != nil {
		return mustJSON(map[string]any{"status": "error", "code": mcp.CodeToolResultValidationFailed,
			"message": "The tool returned a result that is not a canonical tools/call result: " + trimErr(err) + "."})
	}
	if res.IsError {
		v := map[string]any{"status": "error", "code": res.Error.Code, "message": res.Error.Message, "retryable": res.Error.Retryable}
		if res.Error.Details != nil {
			v["details"] = res.Error.Details
		}
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
		return serializationFailed(res.Error)
	}
	if len(res.StructuredContent) > 0 {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			return string(b)
		}
		return serializationFailed(nil)
	}
	return mustJSON(map[string]any{"status": "completed", "content": mcp.StringifyToolContent(res)})
}

func serializationFailed(orig *mcp.ToolError) string {
	v := map[string]any{"status": "error", "code": mcp.CodeToolResultSerializationFailed,
		"message": "The tool result could not be serialized as JSON."}
	if orig != nil {
		v["originalError"] = map[string]any{"code": orig.Code, "message": orig.Message, "retryable": orig.Retryable}
	}
	return mustJSON(v)
}

// mustJSON marshals values built from strings, codes and booleans only.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"status":"error","code":"TOOL_RESULT_SERIALIZATION_FAILED","message":"The tool result could not be serialized as JSON."}`
	}
	return string(b)
}
