//go:build js && wasm

package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/hack-pad/safejs"

	"github.com/webcoding/studio/wasm/openrouter"
)

// The reasoning setting (issue 16; docs/design.md §5.21): a fieldset in the provider settings
// dialog — effort (model default, low, medium, high), or a reasoning token budget instead,
// and "Hide reasoning text" (exclude). It is kept in localStorage under reasoningStoreKey as
// {"effort", "maxTokens", "exclude"} (no secret) as soon as a control changes, checked by
// openrouter.ParseReasoning, and sent as agent/openrouter's "reasoning" param by every
// provider run. The reasoning text a run returns is shown in the transcript collapsed
// (a "reasoning" entry, views.TranscriptHTML).
const reasoningStoreKey = "web-coding-studio:reasoning"

const reasoningFieldset = `<fieldset id="settings-reasoning" class="settings-catalog">
<legend>Reasoning (reasoning models only)</legend>
<label for="settings-reasoning-effort">Effort</label>
<select id="settings-reasoning-effort">
<option value="">model default</option>
<option value="low">low</option>
<option value="medium">medium</option>
<option value="high">high</option>
</select>
<label for="settings-reasoning-max">Or a token budget (1–` + "MAXTOKENS" + `, empty for none)</label>
<input id="settings-reasoning-max" type="number" min="1" max="MAXTOKENS" inputmode="numeric">
<label class="settings-check"><input type="checkbox" id="settings-reasoning-exclude"> Hide reasoning text (the model still reasons)</label>
<p id="settings-reasoning-status" class="settings-catalog-status" role="status"></p>
</fieldset>`

type reasoningStored struct {
	Effort    string `json:"effort"`
	MaxTokens int    `json:"maxTokens"`
	Exclude   bool   `json:"exclude"`
}

func init() {
	registerFeature(&feature{name: "reasoning-setting", render: reasoningRender})
}

func reasoningStorage() js.Value {
	ls, err := localStorage()
	if err != nil {
		return js.Undefined()
	}
	return safejs.Unsafe(ls)
}

func loadReasoning() (r reasoningStored) {
	defer func() { _ = recover() }()
	ls := reasoningStorage()
	if ls.Type() != js.TypeObject {
		return r
	}
	if v := ls.Call("getItem", reasoningStoreKey); v.Type() == js.TypeString {
		_ = json.Unmarshal([]byte(v.String()), &r)
	}
	return r
}

// reasoningParam is the agent/openrouter "reasoning" param of the stored setting, nil when
// none is set or the stored value is not valid.
func reasoningParam() map[string]any {
	s := loadReasoning()
	r, err := openrouter.ParseReasoning(s.Effort, s.MaxTokens, s.Exclude)
	if err != nil || r == nil {
		return nil
	}
	p := map[string]any{}
	if r.Effort != "" {
		p["effort"] = r.Effort
	}
	if r.MaxTokens > 0 {
		p["maxTokens"] = r.MaxTokens
	}
	if r.Exclude {
		p["exclude"] = true
	}
	return p
}

// reasoningRender adds the fieldset to the settings form once the form exists (settings.go
// fills the dialog) and wires it.
func reasoningRender(a *app) {
	if !byID("settings-reasoning").IsNull() {
		return
	}
	form := byID("settings-form")
	errP := byID("settings-form-error")
	if form.IsNull() || errP.IsNull() {
		return
	}
	html := strings.ReplaceAll(reasoningFieldset, "MAXTOKENS", strconv.Itoa(openrouter.MaxReasoningTokens))
	errP.Call("insertAdjacentHTML", "beforebegin", html)
	s := loadReasoning()
	setInput("settings-reasoning-effort", s.Effort)
	if s.MaxTokens > 0 {
		setInput("settings-reasoning-max", strconv.Itoa(s.MaxTokens))
	}
	byID("settings-reasoning-exclude").Set("checked", s.Exclude)
	a.on(byID("settings-reasoning"), "change", func(js.Value, []js.Value) any {
		reasoningSave()
		return nil
	})
}

// reasoningSave checks and keeps the fieldset's values, saying in its status line what was
// kept or why not.
func reasoningSave() {
	status := byID("settings-reasoning-status")
	say := func(s string) {
		if !status.IsNull() {
			status.Set("textContent", s)
		}
	}
	s := reasoningStored{Effort: inputValue("settings-reasoning-effort"), Exclude: byID("settings-reasoning-exclude").Get("checked").Truthy()}
	if v := inputValue("settings-reasoning-max"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			say("The reasoning token budget must be a whole number.")
			return
		}
		s.MaxTokens = n
	}
	if _, err := openrouter.ParseReasoning(s.Effort, s.MaxTokens, s.Exclude); err != nil {
		say("Not saved: " + strings.TrimPrefix(err.Error(), "openrouter: ") + ".")
		return
	}
	raw, _ := json.Marshal(s)
	ok := func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		ls := reasoningStorage()
		if ls.Type() != js.TypeObject {
			return false
		}
		ls.Call("setItem", reasoningStoreKey, string(raw))
		return true
	}()
	if !ok {
		say("Not saved: this browser blocks storage.")
		return
	}
	say("Reasoning setting saved.")
}
