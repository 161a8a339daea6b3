package openrouter

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Model is one entry of the model catalog (REFERENCE §7.5).
type Model struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Free  bool   `json:"free"`  // id ends with ":free", or prompt and completion prices are both 0
	Tools bool   `json:"tools"` // supported_parameters contains "tools"
	Label string `json:"label"` // "Name (id)", plus " · free" when Free, " · tools unknown" when ToolsUnknown
	// ToolsUnknown: the entry has no supported_parameters (local OpenAI-compatible servers
	// such as Ollama, LM Studio and llama.cpp list bare ids), so it is offered; a model that
	// then refuses tools fails with details.reason "tools_unsupported" (StatusError).
	ToolsUnknown bool `json:"toolsUnknown,omitempty"`
}

// Catalog is a parsed models response: the usable models, in the provider's order, and how
// many entries were skipped as malformed (no string id, non-object entry, bad field types).
type Catalog struct {
	Models  []Model `json:"models"`
	Skipped int     `json:"skipped"`
}

// ModelsURL derives the models endpoint from a chat-completions endpoint: the URL with its
// trailing "/chat/completions" replaced by
// "/models?output_modalities=text&supported_parameters=tools", plus "&zdr=true" for DataZDR.
// A custom endpoint that does not end in "/chat/completions" has no catalog (ok false).
func ModelsURL(endpoint string, policy DataPolicy) (string, bool) {
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	if i := strings.IndexAny(endpoint, "?#"); i >= 0 {
		endpoint = endpoint[:i]
	}
	base, ok := strings.CutSuffix(strings.TrimRight(endpoint, "/"), "/chat/completions")
	if !ok || base == "" {
		return "", false
	}
	u := base + "/models?output_modalities=text&supported_parameters=tools"
	if policy == DataZDR {
		u += "&zdr=true"
	}
	return u, true
}

// ParseModels decodes a models response body {"data": [{"id", "name"?, "pricing"?:
// {"prompt", "completion"}, "supported_parameters"?: [...]}, …]}. Entries without a non-blank
// string id, or with fields of the wrong type, are skipped and counted; a name that is
// missing falls back to the id. Prices may be strings ("0", "0.000001") or numbers.
//
// # Errors
// OPENROUTER_INVALID_RESPONSE when the body is not a JSON object with a "data" array.
func ParseModels(body []byte) (Catalog, error) {
	if err := mcp.CheckJSON(body); err != nil || mcp.JSONKind(body) != "object" {
		return Catalog{}, invalid("the models response is not a JSON object")
	}
	var top struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &top); err != nil || top.Data == nil {
		return Catalog{}, invalid("the models response has no data array")
	}
	cat := Catalog{Models: make([]Model, 0, len(top.Data))}
	for _, raw := range top.Data {
		m, ok := parseModel(raw)
		if !ok {
			cat.Skipped++
			continue
		}
		cat.Models = append(cat.Models, m)
	}
	return cat, nil
}

func parseModel(raw json.RawMessage) (Model, bool) {
	var e struct {
		ID      json.RawMessage `json:"id"`
		Name    json.RawMessage `json:"name"`
		Pricing *struct {
			Prompt     json.RawMessage `json:"prompt"`
			Completion json.RawMessage `json:"completion"`
		} `json:"pricing"`
		Params json.RawMessage `json:"supported_parameters"`
	}
	if mcp.JSONKind(raw) != "object" || json.Unmarshal(raw, &e) != nil {
		return Model{}, false
	}
	var m Model
	if mcp.JSONKind(e.ID) != "string" || json.Unmarshal(e.ID, &m.ID) != nil || strings.TrimSpace(m.ID) == "" {
		return Model{}, false
	}
	switch mcp.JSONKind(e.Name) {
	case "nothing", "null":
		m.Name = m.ID
	case "string":
		_ = json.Unmarshal(e.Name, &m.Name)
		if strings.TrimSpace(m.Name) == "" {
			m.Name = m.ID
		}
	default:
		return Model{}, false
	}
	switch mcp.JSONKind(e.Params) {
	case "nothing", "null":
		m.ToolsUnknown = true
	case "array":
		var ps []string
		if json.Unmarshal(e.Params, &ps) != nil {
			return Model{}, false
		}
		for _, p := range ps {
			m.Tools = m.Tools || p == "tools"
		}
	default:
		return Model{}, false
	}
	free := strings.HasSuffix(m.ID, ":free")
	if e.Pricing != nil {
		p, okP := price(e.Pricing.Prompt)
		c, okC := price(e.Pricing.Completion)
		free = free || (okP && okC && p == 0 && c == 0)
	}
	m.Free = free
	m.Label = m.Name + " (" + m.ID + ")"
	if free {
		m.Label += " · free"
	}
	if m.ToolsUnknown {
		m.Label += " · tools unknown"
	}
	return m, true
}

// price reads a price given as a string or a number.
func price(raw json.RawMessage) (float64, bool) {
	switch mcp.JSONKind(raw) {
	case "number":
		var f float64
		return f, json.Unmarshal(raw, &f) == nil
	case "string":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, false
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return f, err == nil
	}
	return 0, false
}

// ToolModels returns the models that support tools or do not say (ToolsUnknown), only the
// free ones when freeOnly.
func (c Catalog) ToolModels(freeOnly bool) []Model {
	var out []Model
	for _, m := range c.Models {
		if (m.Tools || m.ToolsUnknown) && (!freeOnly || m.Free) {
			out = append(out, m)
		}
	}
	return out
}

// FetchModels GETs the catalog for cfg's endpoint and policy through t (no retries; the
// models endpoint needs no key, so none is sent). ok is false when the endpoint has no models
// URL (ModelsURL). HTTP errors are classified like chat errors (StatusError); a transport
// failure is OPENROUTER_NETWORK_ERROR.
func FetchModels(ctx context.Context, t Transport, cfg Config) (cat Catalog, ok bool, terr error) {
	u, ok := ModelsURL(cfg.Endpoint, cfg.DataPolicy)
	if !ok {
		return Catalog{}, false, nil
	}
	h := map[string]string{"Accept": "application/json"}
	resp, err := t.Do(ctx, Request{Method: "GET", URL: u, Header: h})
	if err != nil {
		return Catalog{}, true, mcp.NewError(mcp.CodeOpenRouterNetworkError, true, nil, "Network request failed: %s", Excerpt(err.Error(), ExcerptChars))
	}
	if resp.Status < 200 || resp.Status > 299 {
		detail, code := errorBodyDetail(resp.Body)
		terr := StatusError(resp.Status, detail, code)
		terr.Message = Relabel(terr.Message, ProviderLabel(cfg.endpoint(), !cfg.OmitAttribution))
		return Catalog{}, true, terr
	}
	cat, perr := ParseModels(resp.Body)
	if te, ok := perr.(*mcp.ToolError); ok && te != nil {
		te.Message = Relabel(te.Message, ProviderLabel(cfg.endpoint(), !cfg.OmitAttribution))
		return cat, true, te
	}
	return cat, true, perr
}
