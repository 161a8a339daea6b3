package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/webcoding/studio/wasm/jsonstring"
	"github.com/webcoding/studio/wasm/mcp"
)

// OpenAITool is one entry of an OpenAI (and OpenRouter) chat-completions "tools" array:
//
//	{"type": "function", "function": {"name": "workspace_getStatus",
//	 "description"?: "…", "parameters": {"type": "object", …}}}
type OpenAITool struct {
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function of an OpenAITool. Name is the provider name (NameMap).
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// AnthropicTool is one entry of an Anthropic Messages "tools" array:
// {"name": "workspace_getStatus", "description"?: "…", "input_schema": {…}}.
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// ErrInvalidTool is wrapped by export errors about a tool definition other than its name:
// an input schema that is missing, not a JSON object, or not acceptable JSON (mcp.CheckJSON);
// an output schema, when present, that is not a JSON object.
var ErrInvalidTool = errors.New("provider: invalid tool definition")

// Validate checks canonical definitions and returns their NameMap.
//
// # Errors
//   - a *NameError (ErrNameNotRepresentable, ErrDuplicateName, ErrNameCollision), see NewNameMap;
//   - ErrInvalidTool: a schema is missing or not a JSON object.
func Validate(tools []mcp.Tool) (*NameMap, error) {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
		if err := checkSchema(t.InputSchema, true); err != nil {
			return nil, fmt.Errorf("%w: %q input schema: %v", ErrInvalidTool, t.Name, err)
		}
		if err := checkSchema(t.OutputSchema, false); err != nil {
			return nil, fmt.Errorf("%w: %q output schema: %v", ErrInvalidTool, t.Name, err)
		}
	}
	return NewNameMap(names)
}

func checkSchema(raw json.RawMessage, required bool) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		if required {
			return errors.New("missing")
		}
		return nil
	}
	if err := mcp.CheckJSON(raw); err != nil {
		return err
	}
	if t := bytes.TrimSpace(raw); t[0] != '{' {
		return errors.New("not a JSON object")
	}
	return nil
}

// Filter returns the tools whose canonical name is in allow, in the order of tools. Names in
// allow that are not in tools are ignored: filtering only ever removes tools, so a tool hidden
// before the list reached Filter cannot be re-added. A nil or empty allow yields no tools
// (fail closed); use the unfiltered exports for "everything". Provider names in allow do not
// match: the allowlist speaks canonical names.
func Filter(tools []mcp.Tool, allow []string) []mcp.Tool {
	set := make(map[string]bool, len(allow))
	for _, a := range allow {
		set[a] = true
	}
	out := make([]mcp.Tool, 0, min(len(tools), len(allow)))
	for _, t := range tools {
		if set[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// ToMCP returns validated copies of the canonical definitions, names unchanged (MCP form,
// SPEC §2.1). Errors as Validate.
func ToMCP(tools []mcp.Tool) ([]mcp.Tool, error) {
	if _, err := Validate(tools); err != nil {
		return nil, err
	}
	out := make([]mcp.Tool, len(tools))
	for i, t := range tools {
		out[i] = cloneTool(t)
	}
	return out, nil
}

// ToMCPFiltered is ToMCP(Filter(tools, allow)).
func ToMCPFiltered(tools []mcp.Tool, allow []string) ([]mcp.Tool, error) {
	return ToMCP(Filter(tools, allow))
}

// ToMCPProviderNames is ToMCP with every name replaced by its provider name: the form the
// MCP server serves by default, because real MCP clients reject dotted names (SPEC §2.1).
// Input and output schemas are kept whole, "$schema" included. Errors as Validate.
func ToMCPProviderNames(tools []mcp.Tool) ([]mcp.Tool, error) {
	names, err := Validate(tools)
	if err != nil {
		return nil, err
	}
	out := make([]mcp.Tool, len(tools))
	for i, t := range tools {
		out[i] = cloneTool(t)
		out[i].Name, _ = names.ToProvider(t.Name)
	}
	return out, nil
}

// ToOpenAI returns the OpenAI/OpenRouter function tools for the canonical definitions, in
// order, with provider names and the input schemas without top-level "$schema". Errors as
// Validate.
func ToOpenAI(tools []mcp.Tool) ([]OpenAITool, error) {
	names, err := Validate(tools)
	if err != nil {
		return nil, err
	}
	out := make([]OpenAITool, len(tools))
	for i, t := range tools {
		name, _ := names.ToProvider(t.Name)
		schema, err := providerSchema(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("%w: %q input schema: %v", ErrInvalidTool, t.Name, err)
		}
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{Name: name, Description: t.Description, Parameters: schema}}
	}
	return out, nil
}

// ToOpenAIFiltered is ToOpenAI(Filter(tools, allow)).
func ToOpenAIFiltered(tools []mcp.Tool, allow []string) ([]OpenAITool, error) {
	return ToOpenAI(Filter(tools, allow))
}

// ToAnthropic returns the Anthropic tools for the canonical definitions, in order, with
// provider names and the input schemas without top-level "$schema". Errors as Validate.
func ToAnthropic(tools []mcp.Tool) ([]AnthropicTool, error) {
	names, err := Validate(tools)
	if err != nil {
		return nil, err
	}
	out := make([]AnthropicTool, len(tools))
	for i, t := range tools {
		name, _ := names.ToProvider(t.Name)
		schema, err := providerSchema(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("%w: %q input schema: %v", ErrInvalidTool, t.Name, err)
		}
		out[i] = AnthropicTool{Name: name, Description: t.Description, InputSchema: schema}
	}
	return out, nil
}

// ToAnthropicFiltered is ToAnthropic(Filter(tools, allow)).
func ToAnthropicFiltered(tools []mcp.Tool, allow []string) ([]AnthropicTool, error) {
	return ToAnthropic(Filter(tools, allow))
}

func cloneTool(t mcp.Tool) mcp.Tool {
	t.InputSchema = bytes.Clone(t.InputSchema)
	t.OutputSchema = bytes.Clone(t.OutputSchema)
	if t.Annotations != nil {
		a := *t.Annotations
		t.Annotations = &a
	}
	return t
}

// providerSchema returns a copy of schema (a JSON object already checked by Validate, so
// mcp.CheckJSON passed and jsonstring's walk applies) without its top-level "$schema" member,
// escaped or not; the other members keep their order and bytes.
func providerSchema(schema json.RawMessage) (json.RawMessage, error) {
	out := make([]byte, 0, len(schema))
	dropped := false
	out = append(out, '{')
	n := 0
	pos := jsonstring.SkipSpace(schema, 0) + 1 // '{'
	pos = jsonstring.SkipSpace(schema, pos)
	for pos < len(schema) && schema[pos] != '}' {
		kStart := pos
		kEnd, _ := jsonstring.SkipString(schema, pos)
		pos = jsonstring.SkipSpace(schema, kEnd) + 1 // ':'
		pos = jsonstring.SkipSpace(schema, pos)
		vEnd := jsonstring.SkipValue(schema, pos)
		if jsonstring.Decode(schema[kStart:kEnd]) == "$schema" {
			dropped = true
		} else {
			if n > 0 {
				out = append(out, ',')
			}
			out = append(out, schema[kStart:kEnd]...)
			out = append(out, ':')
			out = append(out, schema[pos:vEnd]...)
			n++
		}
		pos = jsonstring.SkipSpace(schema, vEnd)
		if pos < len(schema) && schema[pos] == ',' {
			pos = jsonstring.SkipSpace(schema, pos+1)
		}
	}
	if !dropped {
		return bytes.Clone(schema), nil
	}
	return append(out, '}'), nil
}
