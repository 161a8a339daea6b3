package openrouter

import (
	"encoding/json"
	"errors"
	"net/netip"
	"net/url"
	"sort"
	"strings"
)

// Preset is a kind of OpenAI-compatible server the settings offer (issue 16; docs/design.md
// §5.16): ID is stored, Label shown (the header says "<Label> · <model>"), Endpoint is the
// chat-completions URL the preset fills in, Attribution whether OpenRouter's attribution
// headers (HTTP-Referer, X-Title) are sent (a local server's CORS allow-list need not know
// them), and Help the settings' one-line setup note (the CORS switch a local server needs).
type Preset struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Endpoint    string `json:"endpoint"`
	Attribution bool   `json:"attribution"`
	Help        string `json:"help"`
}

// Preset ids.
const (
	PresetOpenRouter = "openrouter"
	PresetOllama     = "ollama"
	PresetLMStudio   = "lmstudio"
	PresetLlamaCpp   = "llamacpp"
	PresetCustom     = "custom"
)

// localNote is the part of every local preset's help about the browser's side: the studio's
// page is https, so Chrome asks once for the local-network permission.
const localNote = " Chrome may ask once to let this site reach devices on your local network: allow it."

// Presets are the servers the settings offer, in menu order. The local ones use 127.0.0.1,
// never "localhost" (which may resolve to ::1 while the server listens on IPv4 only).
var Presets = []Preset{
	{ID: PresetOpenRouter, Label: "OpenRouter", Endpoint: DefaultEndpoint, Attribution: true,
		Help: "OpenRouter needs an API key (openrouter.ai/keys)."},
	{ID: PresetOllama, Label: "Ollama", Endpoint: "http://127.0.0.1:11434/v1/chat/completions",
		Help: "No key needed. Start Ollama with OLLAMA_ORIGINS set to this site's origin (or *) so it answers the browser's CORS requests." + localNote},
	{ID: PresetLMStudio, Label: "LM Studio", Endpoint: "http://127.0.0.1:1234/v1/chat/completions",
		Help: "No key needed. In LM Studio's Developer tab start the server with \"Enable CORS\" on." + localNote},
	{ID: PresetLlamaCpp, Label: "llama.cpp server", Endpoint: "http://127.0.0.1:8080/v1/chat/completions",
		Help: "No key needed. Run llama-server with a tool-capable model and --jinja (tool calls); it answers CORS requests by default." + localNote},
	{ID: PresetCustom, Label: "Custom", Endpoint: "",
		Help: "Any OpenAI-compatible chat-completions URL: https, or http on this computer (127.0.0.1, [::1])."},
}

// PresetByID returns the preset with id; an unknown or empty id is OpenRouter.
func PresetByID(id string) Preset {
	for _, p := range Presets {
		if p.ID == id {
			return p
		}
	}
	return Presets[0]
}

// IsLoopback reports whether the endpoint's host is this computer: 127.0.0.0/8, ::1 or
// "localhost" (any case). It is false for anything that does not parse.
func IsLoopback(endpoint string) bool {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Unmap().IsLoopback()
}

// KeyOptional reports whether a run may go without an API key: only for a loopback endpoint
// (a local server; docs/design.md §5.16). Elsewhere a missing key stays
// OPENROUTER_CONFIGURATION_ERROR.
func KeyOptional(endpoint string) bool { return IsLoopback(endpoint) }

// EndpointOrigin returns scheme://host[:port] of an endpoint NormalizeEndpoint accepts
// ("" otherwise): the key store's index.
func EndpointOrigin(endpoint string) string {
	norm, err := NormalizeEndpoint(endpoint)
	if err != nil {
		return ""
	}
	u, err := url.Parse(norm)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// MaxStoredKeys bounds the per-origin key store (entries).
const MaxStoredKeys = 32

// Keys is the browser's per-origin API key store (issue 16; docs/design.md §5.16): origin
// (EndpointOrigin) → key. A key is only ever read for the origin it was saved for, so it can
// only be sent there. Stored as one JSON object, at most MaxStoredKeys entries, each key
// passing CheckAPIKey.
type Keys map[string]string

// ParseKeys reads the stored JSON object {"<origin>": "<key>"…}. Entries whose origin is not
// an origin EndpointOrigin would produce or whose key fails CheckAPIKey are dropped (a
// hand-edited store never sends a malformed key anywhere); an unreadable value is an error
// and an empty store.
func ParseKeys(raw string) (Keys, error) {
	out := Keys{}
	if strings.TrimSpace(raw) == "" {
		return out, nil
	}
	var m map[string]string
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return out, errors.New("the stored API keys are not a JSON object of strings")
	}
	for o, k := range m {
		if o == "" || EndpointOrigin(o) != o || k == "" || CheckAPIKey(k) != nil {
			continue
		}
		out[o] = k
	}
	return out, nil
}

// For returns the key saved for endpoint's origin ("" when none or the endpoint is invalid).
func (k Keys) For(endpoint string) string {
	o := EndpointOrigin(endpoint)
	if o == "" {
		return ""
	}
	return k[o]
}

// Set saves key for endpoint's origin ("" removes it). Errors: an invalid endpoint, a key
// CheckAPIKey refuses, a store already holding MaxStoredKeys other origins.
func (k Keys) Set(endpoint, key string) error {
	o := EndpointOrigin(endpoint)
	if o == "" {
		return errors.New("the endpoint is not a valid http(s) URL")
	}
	if key == "" {
		delete(k, o)
		return nil
	}
	if err := CheckAPIKey(key); err != nil {
		return err
	}
	if _, has := k[o]; !has && len(k) >= MaxStoredKeys {
		return errors.New("at most 32 endpoints can keep a key: clear one first")
	}
	k[o] = key
	return nil
}

// Encode is the stored JSON (origins sorted; "" for an empty store).
func (k Keys) Encode() string {
	if len(k) == 0 {
		return ""
	}
	origins := make([]string, 0, len(k))
	for o := range k {
		origins = append(origins, o)
	}
	sort.Strings(origins)
	m := make(map[string]string, len(k))
	for _, o := range origins {
		m[o] = k[o]
	}
	b, _ := json.Marshal(m) // encoding/json sorts map keys
	return string(b)
}

// MigrateLegacyKey moves the single key of the old shared entry (SPEC §2.9
// "context-action.openrouter.api-key") into k, under the origin of the endpoint it was saved
// with (savedEndpoint; "" or invalid → DefaultEndpoint, i.e. OpenRouter): the only origin
// that key was ever sent to. An entry already present for that origin wins. It reports
// whether the caller must remove the legacy entry (legacy was non-empty): once moved — or
// found unusable — it is never read again.
func MigrateLegacyKey(k Keys, legacy, savedEndpoint string) (removeLegacy bool) {
	legacy = strings.TrimSpace(legacy)
	if legacy == "" {
		return false
	}
	ep := savedEndpoint
	if EndpointOrigin(ep) == "" {
		ep = DefaultEndpoint
	}
	if k.For(ep) == "" {
		_ = k.Set(ep, legacy) // a key CheckAPIKey refuses is dropped, not carried over
	}
	return true
}

// ProviderLabel names the server a run talks to in user-visible messages (issue 16; docs/design.md
// §5.16): "OpenRouter" when OpenRouter's attribution is sent (the openrouter provider), else the
// label of the preset whose endpoint matches ("Ollama", "LM Studio", "llama.cpp server"), else
// "the endpoint". Error codes keep their OPENROUTER_* names whatever the label.
func ProviderLabel(endpoint string, openRouter bool) string {
	if openRouter {
		return "OpenRouter"
	}
	e := strings.TrimRight(strings.TrimSpace(endpoint), "/")
	for _, p := range Presets {
		if p.ID != PresetOpenRouter && p.Endpoint != "" && strings.EqualFold(e, p.Endpoint) {
			return p.Label
		}
	}
	return "the endpoint"
}

// Relabel rewrites a message worded for OpenRouter so that it names label (ProviderLabel)
// instead: a leading "OpenRouter" or "OpenRouter's", "OpenRouter provider error", "The
// OpenRouter request" and "for OpenRouter". A label of "OpenRouter" or "" leaves msg as it is.
// Text quoted from the server (after the first ": ") is not touched.
func Relabel(msg, label string) string {
	if label == "" || label == "OpenRouter" {
		return msg
	}
	head, tail, quoted := strings.Cut(msg, ": ")
	sentence := strings.ToUpper(label[:1]) + label[1:]
	switch {
	case strings.HasPrefix(head, "OpenRouter provider error"):
		head = "Provider error from " + label + strings.TrimPrefix(head, "OpenRouter provider error")
	case strings.HasPrefix(head, "OpenRouter"):
		head = sentence + strings.TrimPrefix(head, "OpenRouter")
	}
	head = strings.ReplaceAll(head, "The OpenRouter request", "The request to "+label)
	head = strings.ReplaceAll(head, "for OpenRouter", "for "+label)
	if quoted {
		return head + ": " + tail
	}
	return head
}
