package openrouter

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/webcoding/studio/wasm/provider"
)

// Defaults and limits (REFERENCE §4, §7.5).
const (
	// DefaultEndpoint is the public chat-completions URL.
	DefaultEndpoint = "https://openrouter.ai/api/v1/chat/completions"
	// DefaultModel is the model used when Config.Model is blank.
	DefaultModel = "openai/gpt-4o-mini"
	// DefaultTitle is the X-Title header value.
	DefaultTitle = "Context-Action Web Coding Studio"
	// MaxTokens is the max_tokens of every chat request.
	MaxTokens = 1200
)

// DataPolicy is the data-collection preference sent with every request: DataAllow (default
// routing, no provider object), DataDeny (provider.data_collection "deny") or DataZDR
// (provider.zdr true: zero-data-retention endpoints only).
type DataPolicy string

// Data policies (REFERENCE §7.5).
const (
	DataAllow DataPolicy = "allow"
	DataDeny  DataPolicy = "deny"
	DataZDR   DataPolicy = "zdr"
)

// ParseDataPolicy returns the policy named s; "" is DataAllow. Any other string is an error
// (the CLI refuses it as a bad flag; the browser settings fall back to allow themselves).
func ParseDataPolicy(s string) (DataPolicy, error) {
	switch DataPolicy(s) {
	case "", DataAllow:
		return DataAllow, nil
	case DataDeny, DataZDR:
		return DataPolicy(s), nil
	}
	return "", fmt.Errorf("openrouter: data policy %q is not allow, deny or zdr", s)
}

// Config is what a run sends where. The zero value targets DefaultEndpoint with DefaultModel,
// policy allow, no HTTP-Referer and no Authorization header (the transport adds it).
type Config struct {
	// Endpoint is the chat-completions URL ("" → DefaultEndpoint).
	Endpoint string
	// Model is the model id ("" → DefaultModel).
	Model string
	// DataPolicy selects the provider routing object ("" → DataAllow).
	DataPolicy DataPolicy
	// Referer is the HTTP-Referer header (the page origin); "" omits the header.
	Referer string
	// Title is the X-Title header ("" → DefaultTitle).
	Title string
	// APIKey, when non-empty, is sent as "Authorization: Bearer <key>". Leave it empty when
	// the transport adds the header (the wasip1 host). It is never logged or echoed.
	APIKey string
	// Stream asks for a streamed answer ("stream": true, server-sent events; issue 16): text
	// reaches Options.OnText as it arrives. false sends the plain request, for endpoints
	// without streaming. An endpoint that answers a streamed request with one JSON object is
	// read like a plain answer.
	Stream bool
	// Reasoning is the "reasoning" object of every chat request (nil: none sent; see
	// ParseReasoning).
	Reasoning *Reasoning
	// OmitAttribution leaves out OpenRouter's attribution headers (HTTP-Referer, X-Title):
	// set for any other OpenAI-compatible server (docs/design.md §5.16), whose CORS
	// allow-list need not name them.
	OmitAttribution bool
	// RequestTimeout is the wait of one attempt (timeout.go): the whole of a plain answer, or
	// each wait for the next bytes of a streamed one. 0: DefaultRequestTimeout of the
	// endpoint (20 s remote, 120 s loopback); otherwise within MinRequestTimeout..
	// MaxRequestTimeout (CheckRequestTimeout).
	RequestTimeout time.Duration
}

func (c Config) endpoint() string {
	if c.Endpoint == "" {
		return DefaultEndpoint
	}
	return c.Endpoint
}

func (c Config) model() string {
	if c.Model == "" {
		return DefaultModel
	}
	return c.Model
}

// Roles of chat messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one chat-completions message as sent back to the provider:
//
//	{"role", "content": string|null, "tool_calls"?: [ToolCall…], "tool_call_id"?}
//
// Content is a pointer so that an assistant message whose content was null or absent is sent
// as "content": null, and one whose content was "" as "" (REFERENCE §7.5: history keeps what
// the provider said).
//
// ReasoningDetails are the reasoning blocks of an assistant message, kept exactly as the
// provider returned them (compacted) and sent back with it (reasoning.go).
type Message struct {
	Role             string            `json:"role"`
	Content          *string           `json:"content"`
	ToolCalls        []ToolCall        `json:"tool_calls,omitempty"`
	ToolCallID       string            `json:"tool_call_id,omitempty"`
	ReasoningDetails []json.RawMessage `json:"reasoning_details,omitempty"`
}

// ToolCall is an assistant tool call as sent back: {"id", "type": "function",
// "function": {"name": provider name, "arguments": compact JSON string}}.
type ToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function ToolCallFunction `json:"function"`
}

// ToolCallFunction is the function of a ToolCall.
type ToolCallFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func text(s string) *string { return &s }

// SystemPrompt is the system message of every conversation (REFERENCE §7.5).
const SystemPrompt = "You are a coding assistant for a small HTML/CSS/JS workspace shown in a sandboxed live preview. " +
	"Change the workspace only through the tools. Inspect before you change anything: call workspace_getStatus " +
	"(and workspace_listFiles or workspace_readFile when you need file contents) before any mutation. Map the " +
	"user's intent to the most specific tool (preview_setTheme for colours, preview_addFeature, preview_updateHero, " +
	"workspace_applyPatch or workspace_writeFile for code). Call workspace_reset, workspace_reloadFolder or " +
	"workspace_saveCheckpoint only when the user explicitly asks for it, and only after workspace_getStatus. Pass the " +
	"latest returned revision as expectedRevision to the tools that take it. Prefer the preview_* tools for visual " +
	"requests. A tool result with status \"error\" carries a code and a message: read it before retrying. Finish " +
	"with a short explanation of what you changed."

// chatRequest is the chat-completions request body.
type chatRequest struct {
	Model      string                `json:"model"`
	Messages   []Message             `json:"messages"`
	Tools      []provider.OpenAITool `json:"tools,omitempty"`
	ToolChoice string                `json:"tool_choice,omitempty"`
	MaxTokens  int                   `json:"max_tokens"`
	Provider   map[string]any        `json:"provider,omitempty"`
	Stream     bool                  `json:"stream,omitempty"`
	// StreamOptions asks OpenAI-compatible servers for the usage-only last chunk; OpenRouter
	// always sends it and ignores the member.
	StreamOptions map[string]any `json:"stream_options,omitempty"`
	Reasoning     *Reasoning     `json:"reasoning,omitempty"`
}

// BuildRequest returns the HTTP request for one turn: POST cfg's endpoint with
//
//	{"model", "messages", "tools"?, "tool_choice": "auto" (with tools), "max_tokens": 1200,
//	 "provider"?: {"data_collection": "deny"} | {"zdr": true},
//	 "stream"?: true, "stream_options"?: {"include_usage": true},   (these two with cfg.Stream)
//	 "reasoning"?: Reasoning}                                       (with cfg.Reasoning)
//
// and the headers Content-Type, X-Title and HTTP-Referer (when cfg.Referer is set; neither
// with cfg.OmitAttribution),
// Authorization (when cfg.APIKey is set) and Accept: text/event-stream (cfg.Stream). It fails only when a message cannot be marshalled.
func BuildRequest(cfg Config, messages []Message, tools []provider.OpenAITool) (Request, error) {
	body := chatRequest{Model: cfg.model(), Messages: messages, Tools: tools, MaxTokens: MaxTokens, Reasoning: cfg.Reasoning}
	if len(tools) > 0 {
		body.ToolChoice = "auto"
	}
	if cfg.Stream {
		body.Stream, body.StreamOptions = true, map[string]any{"include_usage": true}
	}
	switch cfg.DataPolicy {
	case DataDeny:
		body.Provider = map[string]any{"data_collection": "deny"}
	case DataZDR:
		body.Provider = map[string]any{"zdr": true}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return Request{}, err
	}
	h := map[string]string{"Content-Type": "application/json"}
	if !cfg.OmitAttribution {
		h["X-Title"] = cfg.Title
		if cfg.Title == "" {
			h["X-Title"] = DefaultTitle
		}
		if cfg.Referer != "" {
			h["HTTP-Referer"] = cfg.Referer
		}
	}
	if cfg.APIKey != "" {
		h["Authorization"] = "Bearer " + cfg.APIKey
	}
	if cfg.Stream {
		h["Accept"] = "text/event-stream"
	}
	return Request{Method: "POST", URL: cfg.endpoint(), Header: h, Body: raw}, nil
}
