//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/hack-pad/safejs"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/ui/markup"
	"github.com/webcoding/studio/wasm/ui/views"
)

// Provider settings (issue 6; REFERENCE §7.5, §11 labels "Open OpenRouter settings",
// "Save settings", "Clear key"). The settings live in localStorage under the seed's names;
// when storage is blocked (it throws) they live in this tab's memory only and the dialog says
// so. Other tabs of the same origin pick changes up through the window's storage event.
//
// The API key is read by the provider loop through providerOptions' key supplier (provider.go)
// at the start of each run; it is never rendered into markup (the dialog's input gets it as
// a DOM property when the dialog opens), never logged, never emitted to webcodingSubscribe
// and never part of JSON-RPC params.
//
// Keys are stored per endpoint origin (issue 16; docs/design.md §5.16) in storeKeys, one JSON
// object {"<origin>": "<key>"} (openrouter.Keys): the key of a run is the one saved for the
// saved endpoint's origin, so a key only ever goes to the origin it was saved for. The old
// single key (storeKey, SPEC §2.9's name) is moved once, on load, under the origin of the
// endpoint it was saved with, and its entry removed.
const (
	storeKey          = "context-action.openrouter.api-key" // legacy: migrated, then removed
	storeKeys         = "context-action.openrouter.keys"
	storeModel        = "context-action.openrouter.model"
	storeEndpoint     = "context-action.openrouter.endpoint"
	storePolicy       = "context-action.openrouter.data-policy"
	storePreset       = "context-action.openrouter.preset"
	storeStream       = "context-action.openrouter.stream"        // "off": plain requests
	storeBudgetTokens = "context-action.openrouter.budget-tokens" // whole number > 0
	storeBudgetCost   = "context-action.openrouter.budget-cost"   // number > 0 (credits)
	// storeRequestTimeout is the per-request wait in whole seconds (openrouter.
	// CheckRequestTimeout: 5..600); absent: the endpoint's default (20 s, 120 s loopback).
	storeRequestTimeout = "context-action.openrouter.request-timeout"
	storePrefix         = "context-action.openrouter."
)

// settingKeys are every stored setting but the legacy key.
var settingKeys = []string{storeKeys, storeModel, storeEndpoint, storePolicy, storePreset, storeStream, storeBudgetTokens, storeBudgetCost, storeRequestTimeout}

// newProviderSettings is the settings before the stored ones are read (app.prov).
func newProviderSettings() *providerSettings {
	return &providerSettings{mem: map[string]string{}, policy: openrouter.DataAllow, keys: openrouter.Keys{}}
}

// providerSettings is the settings feature's state (guarded by mu).
type providerSettings struct {
	mu       sync.Mutex
	keys     openrouter.Keys // per endpoint origin
	model    string
	endpoint string
	policy   openrouter.DataPolicy
	preset   string // openrouter.Preset ID ("" → openrouter)
	noStream bool   // plain (non-streamed) requests, for endpoints without streaming
	budget   openrouter.Budget
	timeout  time.Duration     // per-request wait (0: the endpoint's default)
	memory   bool              // localStorage is blocked: settings are session-only
	mem      map[string]string // the session-only store

	// The key field of the open dialog was filled with formKey for formKeyOrigin: saved
	// unchanged for another origin it is not carried there (saveSettings).
	formKey, formKeyOrigin string

	catalog        []openrouter.Model
	catalogState   string // "", "loading", "ready", "none" (endpoint without a catalog), "error"
	catalogError   string
	catalogSkipped int
	catalogOrigin  string // origin of the endpoint whose catalog the dialog loads
	catalogFor     string // the (typed, normalized) endpoint whose catalog was loaded
	freeOnly       bool
	formError      string

	forceLocal bool // the next prompt runs through the local agent ("Use local agent & retry")
	newChat    bool // the next provider run starts a new conversation
}

func init() {
	registerFeature(&feature{name: "provider-settings", bind: bindSettings, render: renderSettings,
		action: settingsAction, key: settingsKey})
}

// --- storage -----------------------------------------------------------------------------

// localStorage returns window.localStorage, or an error when the browser blocks it (opaque
// origins and some privacy modes throw on the property access itself). The property is read
// with Reflect.get through a call: wasm_exec.js catches exceptions of calls but not of
// property reads, so a throwing getter read with Get would end the Go program.
func localStorage() (safejs.Value, error) { return webStorage("localStorage") }

// webStorage returns window[name] ("localStorage" or "sessionStorage") read with Reflect.get
// (see localStorage), or an error when it is blocked or missing. Every storage access of the
// page goes through it: a plain Get of a blocked storage ends the Go program.
func webStorage(name string) (safejs.Value, error) {
	reflect, err := safejs.Global().Get("Reflect")
	if err != nil {
		return safejs.Undefined(), err
	}
	st, err := reflect.Call("get", safejs.Global(), name)
	if err != nil {
		return safejs.Undefined(), err
	}
	if st.IsNull() || st.IsUndefined() {
		return safejs.Undefined(), errNoStorage
	}
	return st, nil
}

type storageError string

func (e storageError) Error() string { return string(e) }

const errNoStorage = storageError("localStorage is not available")

// storeGet reads one setting ("" when absent) and reports whether storage worked.
func storeGet(name string) (string, bool) {
	ls, err := localStorage()
	if err != nil {
		return "", false
	}
	v, err := ls.Call("getItem", name)
	if err != nil {
		return "", false
	}
	if v.Type() != safejs.TypeString {
		return "", true
	}
	s, _ := v.String()
	return s, true
}

// storeSet writes one setting ("" removes it) and reports whether storage worked (a full or
// blocked storage throws).
func storeSet(name, value string) bool {
	ls, err := localStorage()
	if err != nil {
		return false
	}
	if value == "" {
		_, err = ls.Call("removeItem", name)
	} else {
		_, err = ls.Call("setItem", name, value)
	}
	return err == nil
}

// load reads every setting from localStorage (or keeps the session-only values when storage
// is blocked).
func (p *providerSettings) load() {
	vals := map[string]string{}
	ok := true
	for _, k := range append([]string{storeKey}, settingKeys...) {
		v, good := storeGet(k)
		ok = ok && good
		vals[k] = v
	}
	if ok && vals[storeKey] != "" { // the one-time move of the single key (SPEC §2.9's entry)
		keys, _ := openrouter.ParseKeys(vals[storeKeys])
		if openrouter.MigrateLegacyKey(keys, vals[storeKey], vals[storeEndpoint]) && storeSet(storeKeys, keys.Encode()) {
			storeSet(storeKey, "")
			vals[storeKeys] = keys.Encode()
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !ok {
		p.memory = true
		vals = p.mem
	}
	p.keys, _ = openrouter.ParseKeys(vals[storeKeys])
	p.preset = openrouter.PresetByID(vals[storePreset]).ID
	p.noStream = vals[storeStream] == "off"
	p.budget = parseBudget(vals[storeBudgetTokens], vals[storeBudgetCost])
	p.timeout, _ = parseRequestTimeout(vals[storeRequestTimeout])
	p.model = strings.TrimSpace(vals[storeModel])
	p.endpoint = strings.TrimSpace(vals[storeEndpoint])
	pol, err := openrouter.ParseDataPolicy(vals[storePolicy])
	if err != nil {
		pol = openrouter.DataAllow // REFERENCE §7.5: anything else is allow
	}
	p.policy = pol
}

// parseBudget reads the stored budget; anything but a positive number is no limit.
func parseBudget(tokens, cost string) openrouter.Budget {
	var b openrouter.Budget
	if n, err := strconv.ParseInt(strings.TrimSpace(tokens), 10, 64); err == nil && n > 0 {
		b.Tokens = n
	}
	if c, err := strconv.ParseFloat(strings.TrimSpace(cost), 64); err == nil && c > 0 && c < 1e9 {
		b.Cost = c
	}
	return b
}

// parseRequestTimeout reads the request timeout field or its stored value: whole seconds
// within openrouter.MinRequestTimeout..MaxRequestTimeout (openrouter.CheckRequestTimeout, the
// one check), or "" for the endpoint's default (0). Anything else is an error for the dialog
// (a stored value that fails it is the default).
func parseRequestTimeout(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 || n > 1e6 {
		return 0, fmt.Errorf("give a whole number of seconds from %d to %d, or leave it empty for the default",
			int(openrouter.MinRequestTimeout/time.Second), int(openrouter.MaxRequestTimeout/time.Second))
	}
	d := time.Duration(n) * time.Second
	if err := openrouter.CheckRequestTimeout(d); err != nil {
		return 0, err
	}
	return d, nil
}

// formatBudget is the stored (and shown) text of a budget ("" for no limit).
func formatBudget(b openrouter.Budget) (tokens, cost string) {
	if b.Tokens > 0 {
		tokens = strconv.FormatInt(b.Tokens, 10)
	}
	if b.Cost > 0 {
		cost = strconv.FormatFloat(b.Cost, 'f', -1, 64)
	}
	return tokens, cost
}

// providerForm is what the dialog saves.
type providerForm struct {
	key, model, endpoint string
	policy               openrouter.DataPolicy
	preset               string
	noStream             bool
	budget               openrouter.Budget
	timeout              time.Duration // 0: the endpoint's default
}

// form returns the saved settings as a providerForm (the key: the saved endpoint's).
func (p *providerSettings) form() providerForm {
	key, model, endpoint, policy, _ := p.snapshot()
	p.mu.Lock()
	defer p.mu.Unlock()
	return providerForm{key: key, model: model, endpoint: endpoint, policy: policy, preset: p.preset, noStream: p.noStream, budget: p.budget, timeout: p.timeout}
}

// save stores the settings, the key under the endpoint's origin (an empty key removes that
// origin's key only); when localStorage refuses, they stay in this tab's memory.
func (p *providerSettings) save(f providerForm) {
	key, model, endpoint, policy := f.key, f.model, f.endpoint, f.policy
	p.mu.Lock()
	keys := openrouter.Keys{}
	for o, k := range p.keys {
		keys[o] = k
	}
	p.mu.Unlock()
	ep := endpoint
	if ep == "" {
		ep = openrouter.DefaultEndpoint
	}
	_ = keys.Set(ep, key) // saveSettings checked the endpoint, the key and the store's bound
	bt, bc := formatBudget(f.budget)
	vals := map[string]string{storeKeys: keys.Encode(), storeModel: model, storeEndpoint: endpoint, storePolicy: string(policy),
		storePreset: f.preset, storeStream: "", storeBudgetTokens: bt, storeBudgetCost: bc, storeRequestTimeout: ""}
	if f.timeout > 0 {
		vals[storeRequestTimeout] = strconv.Itoa(int(f.timeout / time.Second))
	}
	if f.noStream {
		vals[storeStream] = "off"
	}
	if f.preset == openrouter.PresetOpenRouter {
		vals[storePreset] = ""
	}
	if model == openrouter.DefaultModel {
		vals[storeModel] = ""
	}
	if endpoint == openrouter.DefaultEndpoint {
		vals[storeEndpoint] = ""
	}
	if policy == openrouter.DataAllow {
		vals[storePolicy] = ""
	}
	ok := true
	for k, v := range vals {
		ok = storeSet(k, v) && ok
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys, p.model, p.endpoint, p.policy = keys, model, endpoint, policy
	p.preset, p.noStream, p.budget, p.timeout = openrouter.PresetByID(f.preset).ID, f.noStream, f.budget, f.timeout
	if !ok {
		p.memory = true
	}
	if p.memory {
		p.mem = vals
	}
}

// snapshot returns the current settings with defaults filled in; key is the one saved for
// the endpoint's origin.
func (p *providerSettings) snapshot() (key, model, endpoint string, policy openrouter.DataPolicy, memory bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	model, endpoint = p.model, p.endpoint
	if model == "" {
		model = openrouter.DefaultModel
	}
	if endpoint == "" {
		endpoint = openrouter.DefaultEndpoint
	}
	return p.keys.For(endpoint), model, endpoint, p.policy, p.memory
}

// apiKey is the key supplier of the provider loop (studio.OpenRouterOptions.APIKey): the
// key saved for the saved endpoint's origin, "" when none (a loopback endpoint then runs
// without one).
func (p *providerSettings) apiKey() string {
	key, _, _, _, _ := p.snapshot()
	return key
}

// enabled reports whether prompts go to the provider: a key is saved for the endpoint, or
// the endpoint is a local server (loopback), which needs none (openrouter.KeyOptional).
func (p *providerSettings) enabled() bool {
	key, _, endpoint, _, _ := p.snapshot()
	return key != "" || openrouter.KeyOptional(endpoint)
}

// presetLabel is the saved preset's label ("OpenRouter", "Ollama"…).
func (p *providerSettings) presetLabel() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return openrouter.PresetByID(p.preset).Label
}

// originOf returns scheme://host[:port] of an endpoint openrouter.NormalizeEndpoint accepts,
// lower-cased ("" otherwise).
func originOf(raw string) string {
	norm, err := openrouter.NormalizeEndpoint(raw)
	if err != nil {
		return ""
	}
	u, err := url.Parse(norm)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// allowed is the fetch transport's origin check: a request may go to the saved endpoint's
// origin (the chat endpoint and its models catalog), so the key can reach no other host even
// if a JSON-RPC caller names another endpoint in params; a request without an Authorization
// header may also go to the origin of the catalog the dialog is loading (an endpoint typed
// but not saved yet).
func (p *providerSettings) allowed(req openrouter.Request) bool {
	_, _, endpoint, _, _ := p.snapshot()
	o := originOf(req.URL)
	if o == "" {
		return false
	}
	if o == originOf(endpoint) {
		return true
	}
	p.mu.Lock()
	catalog := p.catalogOrigin
	p.mu.Unlock()
	return o == catalog && openrouter.HeaderValue(req.Header, "Authorization") == ""
}

// --- DOM ---------------------------------------------------------------------------------

var settingsForm = `<form id="settings-form" class="settings-form" novalidate>
<h2 id="settings-dialog-title">Provider settings</h2>
<p id="settings-key-status" class="settings-status" role="status"></p>
<label for="settings-preset">Provider</label>
<select id="settings-preset">` + presetOptions + `</select>
<p id="settings-preset-help" class="settings-hint"></p>
<label for="settings-endpoint">Endpoint (chat-completions URL)</label>
<input id="settings-endpoint" type="url" autocomplete="off" spellcheck="false">
<label for="settings-key">API key</label>
<input id="settings-key" type="password" autocomplete="off" spellcheck="false" placeholder="sk-or-v1-…">
<p class="settings-hint">Kept in this browser only, saved for the endpoint's origin and sent only there. Optional for a server on this computer (127.0.0.1); without a key for a remote endpoint the local agent answers prompts.</p>
<label for="settings-policy">Data policy</label>
<select id="settings-policy">
<option value="allow">allow — default routing</option>
<option value="deny">deny — skip providers that collect prompts</option>
<option value="zdr">zdr — zero-data-retention endpoints only</option>
</select>
<label for="settings-model">Model</label>
<input id="settings-model" autocomplete="off" spellcheck="false">
<label class="settings-check"><input type="checkbox" id="settings-stream" checked> Stream replies (turn off for servers without streaming)</label>
<label for="settings-request-timeout">Request timeout (seconds)</label>
<input id="settings-request-timeout" inputmode="numeric" autocomplete="off" spellcheck="false" placeholder="20, or 120 for a server on this computer">
<p class="settings-hint">How long to wait for a reply to start, and then for each next piece of a streamed reply (a reply that is not streamed must arrive whole within it): 5 to 600. Empty: 20 s, or 120 s for a server on this computer, where a model on a CPU can take minutes before its first word.</p>
<fieldset class="settings-budget">
<legend>Budget per run (empty: no limit)</legend>
<label for="settings-budget-tokens">Tokens</label>
<input id="settings-budget-tokens" inputmode="numeric" autocomplete="off" spellcheck="false" placeholder="e.g. 50000">
<label for="settings-budget-cost">Cost (credits, US$ on OpenRouter; applies only where the server reports a cost, which servers on this computer do not)</label>
<input id="settings-budget-cost" inputmode="decimal" autocomplete="off" spellcheck="false" placeholder="e.g. 0.05">
</fieldset>
<fieldset class="settings-catalog">
<legend>Model catalog (tool-capable models)</legend>
<div class="settings-catalog-head"><label class="settings-check"><input type="checkbox" id="settings-free-only"> Free only</label>
<button type="button" id="settings-load-models" data-action="provider-load-models">Load models</button></div>
<select id="settings-model-picker" size="6" aria-label="Tool-capable models"></select>
<p id="settings-catalog-status" class="settings-catalog-status" role="status"></p>
</fieldset>
<p id="settings-form-error" class="settings-error" role="alert"></p>
<div class="dialog-actions">
<button type="submit" id="settings-save" data-action="provider-save">Save settings</button>
<button type="button" id="settings-clear-key" data-action="provider-clear-key">Clear key</button>
<button type="button" id="settings-close" data-action="provider-close" aria-label="Close provider settings">Close</button>
</div>
</form>`

// presetOptions are the provider select's options (openrouter.Presets; constant text).
var presetOptions = func() string {
	var b strings.Builder
	for _, p := range openrouter.Presets {
		b.WriteString(`<option value="` + p.ID + `">` + p.Label + `</option>`)
	}
	return b.String()
}()

func byID(id string) js.Value { return js.Global().Get("document").Call("getElementById", id) }

func inputValue(id string) string {
	el := byID(id)
	if el.IsNull() {
		return ""
	}
	return strings.TrimSpace(el.Get("value").String())
}

func setInput(id, v string) {
	if el := byID(id); !el.IsNull() {
		el.Set("value", v)
	}
}

// bindSettings fills the dialog, loads the settings and listens for other tabs' changes and
// for the dialog's own inputs.
func bindSettings(a *app) {
	a.prov.load()
	dlg := byID("settings-dialog")
	if !dlg.IsNull() {
		dlg.Set("innerHTML", settingsForm)
		a.on(dlg, "change", func(_ js.Value, args []js.Value) any {
			t := args[0].Get("target")
			id := t.Get("id").String()
			switch id {
			case "settings-free-only":
				on := t.Get("checked").Bool()
				jsbridge.Go("settings.free", func() {
					a.prov.mu.Lock()
					a.prov.freeOnly = on
					a.prov.mu.Unlock()
					a.markDirty()
				})
			case "settings-model-picker":
				if v := t.Get("value").String(); v != "" {
					byID("settings-model").Set("value", v)
				}
			case "settings-preset":
				if pr := openrouter.PresetByID(t.Get("value").String()); pr.Endpoint != "" {
					setInput("settings-endpoint", pr.Endpoint)
				}
				jsbridge.Go("settings.preset", func() { a.refillKey(); a.markDirty() })
			case "settings-endpoint":
				jsbridge.Go("settings.endpoint", func() { a.refillKey() })
			}
			switch id {
			case "settings-policy", "settings-endpoint", "settings-preset":
				jsbridge.Go("settings.catalog", func() {
					a.prov.mu.Lock()
					loaded := a.prov.catalogState != ""
					a.prov.mu.Unlock()
					if loaded { // the zdr variant (or another endpoint) has another catalog
						loadCatalog(a)
					}
				})
			}
			return nil
		})
		if form := byID("settings-form"); !form.IsNull() {
			a.on(form, "submit", func(_ js.Value, args []js.Value) any {
				args[0].Call("preventDefault")
				jsbridge.Go("settings.save", func() { saveSettings(a) })
				return nil
			})
		}
	}
	a.on(js.Global(), "storage", func(_ js.Value, args []js.Value) any {
		k := args[0].Get("key")
		if k.Type() == js.TypeString && !strings.HasPrefix(k.String(), storePrefix) {
			return nil
		}
		jsbridge.Go("settings.storage", func() {
			a.prov.load()
			if settingsOpen() {
				a.fillForm()
			}
			a.markDirty()
		})
		return nil
	})
}

func settingsOpen() bool {
	dlg := byID("settings-dialog")
	return !dlg.IsNull() && dlg.Get("open").Truthy()
}

// fillForm puts the current settings into the dialog's inputs (the key as a DOM property,
// never as markup).
func (a *app) fillForm() {
	f := a.prov.form()
	a.setKeyField(f.key, f.endpoint)
	setInput("settings-model", f.model)
	setInput("settings-endpoint", f.endpoint)
	setInput("settings-policy", string(f.policy))
	setInput("settings-preset", openrouter.PresetByID(f.preset).ID)
	if el := byID("settings-stream"); !el.IsNull() {
		el.Set("checked", !f.noStream)
	}
	bt, bc := formatBudget(f.budget)
	setInput("settings-budget-tokens", bt)
	setInput("settings-budget-cost", bc)
	rt := ""
	if f.timeout > 0 {
		rt = strconv.Itoa(int(f.timeout / time.Second))
	}
	setInput("settings-request-timeout", rt)
}

// setKeyField puts key (saved for endpoint's origin) into the key field and remembers for
// which origin, so saveSettings never carries it to another origin.
func (a *app) setKeyField(key, endpoint string) {
	setInput("settings-key", key)
	a.prov.mu.Lock()
	a.prov.formKey, a.prov.formKeyOrigin = key, openrouter.EndpointOrigin(endpoint)
	a.prov.mu.Unlock()
}

// refillKey shows the key saved for the origin now typed in the endpoint field, when the
// key field still holds the key filled in for another origin (a key the user typed stays).
func (a *app) refillKey() {
	ep := inputValue("settings-endpoint")
	if ep == "" {
		ep = openrouter.DefaultEndpoint
	}
	o := openrouter.EndpointOrigin(ep)
	a.prov.mu.Lock()
	filled, origin, key := a.prov.formKey, a.prov.formKeyOrigin, a.prov.keys.For(ep)
	a.prov.mu.Unlock()
	if o != origin && inputValue("settings-key") == filled {
		a.setKeyField(key, ep)
	}
}

// openSettings shows the dialog (header button, recovery action).
func openSettings(a *app) {
	dlg := byID("settings-dialog")
	if dlg.IsNull() || dlg.Get("showModal").Type() != js.TypeFunction {
		return
	}
	a.prov.mu.Lock()
	a.prov.formError = ""
	a.prov.mu.Unlock()
	a.fillForm()
	if !dlg.Get("open").Truthy() {
		dlg.Call("showModal")
	}
	byID("settings-key").Call("focus")
	a.markDirty()
}

func closeSettings() {
	if dlg := byID("settings-dialog"); !dlg.IsNull() && dlg.Get("open").Truthy() {
		dlg.Call("close")
	}
}

// saveSettings validates and stores the dialog's values, then closes it.
func saveSettings(a *app) {
	key, model, endpoint := inputValue("settings-key"), inputValue("settings-model"), inputValue("settings-endpoint")
	preset := openrouter.PresetByID(inputValue("settings-preset")).ID
	noStream := !byID("settings-stream").IsNull() && !byID("settings-stream").Get("checked").Bool()
	bt, bc := inputValue("settings-budget-tokens"), inputValue("settings-budget-cost")
	budget := parseBudget(bt, bc)
	timeout, terr := parseRequestTimeout(inputValue("settings-request-timeout"))
	policy, err := openrouter.ParseDataPolicy(inputValue("settings-policy"))
	if err != nil {
		policy = openrouter.DataAllow
	}
	if endpoint == "" {
		endpoint = openrouter.DefaultEndpoint
	}
	if model == "" {
		model = openrouter.DefaultModel
	}
	msg := ""
	norm, eerr := openrouter.NormalizeEndpoint(endpoint) // the core's validator (agent/openrouter uses it too)
	kerr := openrouter.CheckAPIKey(key)
	switch {
	case eerr != nil:
		msg = "Endpoint: " + eerr.Error() + "."
	case kerr != nil:
		msg = "API key: " + kerr.Error() + "."
	case len(model) > 256:
		msg = "A value is too long."
	case bt != "" && budget.Tokens == 0:
		msg = "Budget: tokens must be a whole number above 0 (or empty for no limit)."
	case bc != "" && budget.Cost == 0:
		msg = "Budget: cost must be a number above 0 (or empty for no limit)."
	case terr != nil:
		msg = "Request timeout: " + terr.Error() + "."
	}
	note := openrouter.EndpointCompletion(endpoint) // a base URL (…/v1) completed: say so
	endpoint = norm
	a.prov.mu.Lock()
	if msg == "" && key == a.prov.formKey && openrouter.EndpointOrigin(endpoint) != a.prov.formKeyOrigin {
		// The field still shows the key filled in for another origin: never carry it over.
		key = a.prov.keys.For(endpoint)
	}
	if msg == "" && key != "" && a.prov.keys.For(endpoint) == "" {
		if err := (openrouter.Keys{}).Set(endpoint, key); err != nil {
			msg = "API key: " + err.Error() + "."
		} else if len(a.prov.keys) >= openrouter.MaxStoredKeys {
			msg = "API key: at most 32 endpoints can keep a key: clear one first."
		}
	}
	a.prov.mu.Unlock()
	a.prov.mu.Lock()
	a.prov.formError = msg
	a.prov.mu.Unlock()
	if msg != "" {
		a.markDirty()
		return
	}
	a.prov.save(providerForm{key: key, model: model, endpoint: endpoint, policy: policy, preset: preset, noStream: noStream, budget: budget, timeout: timeout})
	closeSettings()
	if note != "" {
		a.addEntry(entry{Kind: "info", Text: note})
	}
	a.markDirty()
}

// clearKey forgets the saved endpoint's key (this browser, and through the storage event every other tab).
func clearKey(a *app) {
	f := a.prov.form()
	f.key = ""
	a.prov.save(f)
	a.setKeyField("", f.endpoint)
	a.markDirty()
}

// loadCatalog fetches the tool-capable models for the dialog's endpoint and data policy
// through agent/openrouter/models (no key is sent).
func loadCatalog(a *app) {
	endpoint := inputValue("settings-endpoint")
	if endpoint == "" {
		endpoint = openrouter.DefaultEndpoint
	}
	policy := inputValue("settings-policy")
	if _, err := openrouter.ParseDataPolicy(policy); err != nil || policy == "" {
		policy = string(openrouter.DataAllow)
	}
	a.prov.mu.Lock()
	a.prov.catalogState, a.prov.catalogError, a.prov.catalogOrigin = "loading", "", originOf(endpoint)
	a.prov.catalogFor = ""
	if norm, err := openrouter.NormalizeEndpoint(endpoint); err == nil {
		a.prov.catalogFor = norm // never the raw text: it may hold credentials
	}
	a.prov.mu.Unlock()
	a.markDirty()
	var res struct {
		Available bool               `json:"available"`
		Models    []openrouter.Model `json:"models"`
		Skipped   int                `json:"skipped"`
		Error     *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	err := a.rpc(context.Background(), "", "agent/openrouter/models", map[string]any{"endpoint": endpoint, "dataPolicy": policy}, &res)
	a.prov.mu.Lock()
	switch {
	case err != nil:
		a.prov.catalogState, a.prov.catalogError, a.prov.catalog = "error", err.Error(), nil
	case res.Error != nil:
		a.prov.catalogState, a.prov.catalogError, a.prov.catalog = "error", "["+res.Error.Code+"] "+res.Error.Message, nil
	case !res.Available:
		a.prov.catalogState, a.prov.catalog = "none", nil
	default:
		a.prov.catalogState, a.prov.catalog, a.prov.catalogSkipped = "ready", res.Models, res.Skipped
	}
	a.prov.mu.Unlock()
	a.markDirty()
}

// --- hooks -------------------------------------------------------------------------------

func settingsAction(a *app, act uiAction) bool {
	switch act.Name {
	case "provider-settings":
		openSettings(a)
	case "provider-save":
		saveSettings(a)
	case "provider-clear-key":
		clearKey(a)
	case "provider-close":
		closeSettings()
	case "provider-load-models":
		loadCatalog(a)
	default:
		return false
	}
	return true
}

// settingsKey closes the dialog on Escape itself, so the studio's Escape (cancel the run)
// does not fire while the dialog is open.
func settingsKey(a *app, k keyInfo) bool {
	if k.Key != "Escape" || !settingsOpen() {
		return false
	}
	closeSettings()
	return true
}

// providerLabel is the header's provider text.
func (a *app) providerLabel() string {
	_, model, _, _, _ := a.prov.snapshot()
	if !a.prov.enabled() {
		return "local agent"
	}
	return a.prov.presetLabel() + " · " + model
}

// renderSettings draws the header button and label and the dialog's live parts.
func renderSettings(a *app) {
	setText("provider-label", a.providerLabel())
	if byID("provider-actions").IsNull() {
		if host := byID("header-actions"); !host.IsNull() {
			span := js.Global().Get("document").Call("createElement", "span")
			span.Set("id", "provider-actions")
			span.Set("className", "provider-actions")
			host.Call("appendChild", span)
			delete(a.lastHTML, "provider-actions")
		}
	}
	if byID("provider-usage").IsNull() {
		if host := byID("header-actions"); !host.IsNull() {
			span := js.Global().Get("document").Call("createElement", "span")
			span.Set("id", "provider-usage")
			span.Set("className", "provider-usage")
			span.Set("title", "Provider usage of this page since it loaded (tokens and cost as reported; a reload starts again at zero)")
			host.Call("appendChild", span)
		}
	}
	a.setRegion("provider-actions", markup.HTML(`<button type="button" id="provider-settings-open" data-action="provider-settings" aria-label="Open OpenRouter settings">Provider settings</button>`))
	ensureNewChatButton()

	key, model, endpoint, _, memory := a.prov.snapshot()
	a.prov.mu.Lock()
	state, cerr, skipped, freeOnly, formErr := a.prov.catalogState, a.prov.catalogError, a.prov.catalogSkipped, a.prov.freeOnly, a.prov.formError
	if a.prov.catalogFor != "" {
		endpoint = a.prov.catalogFor // the catalog messages name the endpoint typed in the dialog
	}
	cat := openrouter.Catalog{Models: a.prov.catalog}
	a.prov.mu.Unlock()
	// The key line describes the provider the dialog shows (its preset, endpoint, key field and
	// model), which is the saved one until the user changes a field.
	label, kEndpoint, kModel, hasKey := a.prov.presetLabel(), endpoint, model, key != ""
	if settingsOpen() {
		label = openrouter.PresetByID(inputValue("settings-preset")).Label
		kEndpoint, hasKey = strings.TrimSpace(inputValue("settings-endpoint")), strings.TrimSpace(inputValue("settings-key")) != ""
		if m := strings.TrimSpace(inputValue("settings-model")); m != "" {
			kModel = m
		}
	}
	setText("settings-key-status", views.KeyStatus(label, openrouter.EndpointOrigin(kEndpoint), kModel, hasKey, openrouter.KeyOptional(kEndpoint), memory))
	setText("settings-form-error", formErr)
	if settingsOpen() {
		setText("settings-preset-help", openrouter.PresetByID(inputValue("settings-preset")).Help)
	}
	shown := cat.ToolModels(freeOnly)
	opts := make([]views.ModelOption, len(shown))
	for i, m := range shown {
		opts[i] = views.ModelOption{ID: m.ID, Label: m.Label}
	}
	a.setRegion("settings-model-picker", views.ModelOptionsHTML(opts, model))
	cs := ""
	switch state {
	case "":
		cs = "Load the catalog to pick a model (no key needed)."
	case "loading":
		cs = "Loading models…"
	case "none":
		cs = "This endpoint (" + endpoint + ") has no model catalog: type the model id."
	case "error":
		cs = "The catalog could not be loaded: " + cerr
	case "ready":
		tools, unknown := 0, 0
		for _, m := range cat.ToolModels(false) {
			if m.Tools {
				tools++
			} else {
				unknown++
			}
		}
		cs = views.CatalogCount(tools, unknown, len(cat.ToolModels(true)), len(shown), skipped)
	}
	setText("settings-catalog-status", cs)
}
