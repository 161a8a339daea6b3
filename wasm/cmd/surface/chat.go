//go:build js && wasm

package main

import (
	"context"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/fetch"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
)

// The chat: a prompt runs agent/run (the surface's local agent, no key) or, with a provider
// set up in this page (OpenRouter with its key, or an OpenAI-compatible server: a loopback one
// needs no key), agent/openrouter (the provider loop over the same registry). Either way every
// tool call goes through the registry in agent mode, so the calls the policy puts to approval
// wait for the cards' Approve/Deny. A failed provider run offers "Use local agent & retry".

// localMarker labels the local agent's answers (issue 18: the local agent carries the
// local-fallback marker).
const localMarker = "local agent (local-fallback): no model provider in this page"

// openRouterOptions are the provider loop's options: fetch to the chosen endpoint's origin only
// (studio.ProviderChoice.Allows), the key read from this page's memory when a run starts.
func (a *app) openRouterOptions() studio.OpenRouterOptions {
	origin := ""
	if loc := js.Global().Get("location"); loc.Type() == js.TypeObject {
		origin = loc.Get("origin").String()
	}
	return studio.OpenRouterOptions{
		Transport: fetch.Transport{Allowed: a.allowed},
		Defaults:  openrouter.Config{Referer: origin},
		APIKey:    a.apiKey,
		OnNotice: func(n openrouter.Notice) {
			a.addEntry(surfaceview.Entry{Kind: "info", Text: n.Text})
		},
		Observer: a.observe,
	}
}

// allowed lets requests reach the chosen provider's origin only (OpenRouter's https origin or
// the configured endpoint's): the key goes nowhere else, and without a choice nothing goes.
func (a *app) allowed(req openrouter.Request) bool {
	c, _ := a.provider()
	return c.Allows(req)
}

// provider is the provider prompts run and its key (zero choice: the local agent).
func (a *app) provider() (studio.ProviderChoice, string) {
	a.keyMu.Lock()
	defer a.keyMu.Unlock()
	return a.choice, a.key
}

func (a *app) apiKey() string {
	_, key := a.provider()
	return key
}

// setProviderField keeps a provider field as typed, so a redraw shows it again (never the key).
func (a *app) setProviderField(field, value string) {
	a.mu.Lock()
	switch field {
	case "provider-kind":
		a.st.provForm.Kind = value
	case "provider-endpoint":
		a.st.provForm.Endpoint = value
	case "provider-model":
		a.st.provForm.Model = value
	}
	a.mu.Unlock()
	if field == "provider-kind" {
		a.markDirty() // the endpoint field's state and the placeholders follow the menu
	}
}

// useProvider checks a provider choice with the core's rules (studio.CheckProviderChoice) and
// keeps it and the key in memory; a refused choice is shown (#provider-error) and changes
// nothing, so nothing is sent. An empty key field keeps the key already held for the same
// origin. The key is never shown, logged or stored.
func (a *app) useProvider(kind, endpoint, model, key string) {
	if kind == "" {
		kind = studio.ProviderOpenRouter
	}
	if cur, curKey := a.provider(); strings.TrimSpace(key) == "" && curKey != "" {
		// An empty key field keeps the key held for the same origin (the field is never
		// drawn with it), so changing the model needs no second paste; never another origin's.
		if c, err := studio.CheckProviderChoice(kind, endpoint, model, curKey); err == nil && c.Origin() == cur.Origin() {
			key = curKey
		}
	}
	c, err := studio.CheckProviderChoice(kind, endpoint, model, key)
	a.mu.Lock()
	a.st.provForm.Kind, a.st.provForm.Endpoint, a.st.provForm.Model = kind, endpoint, model
	a.st.provForm.Error = ""
	if err != nil {
		a.st.provForm.Error = err.Error() + " Prompts still run " + a.providerName() + "."
	}
	a.mu.Unlock()
	if err != nil {
		a.markDirty()
		return
	}
	key = strings.TrimSpace(key)
	a.keyMu.Lock()
	a.choice, a.key = c, key
	a.keyMu.Unlock()
	text := "Prompts run " + c.Label() + " · " + c.ModelLabel() + " at " + c.Origin() + " (this page's memory only; never stored)."
	if key != "" {
		text += " The key is sent there only."
	}
	a.addEntry(surfaceview.Entry{Kind: "info", Text: text})
}

// providerName is what prompts run now, for messages ("the local agent", "Ollama · llama3.2").
func (a *app) providerName() string {
	c, _ := a.provider()
	if c.Provider == "" {
		return "the local agent"
	}
	return c.Label() + " · " + c.ModelLabel()
}

// forgetProvider drops the provider and its key: prompts run the local agent again.
func (a *app) forgetProvider() {
	a.keyMu.Lock()
	a.choice, a.key = studio.ProviderChoice{}, ""
	a.keyMu.Unlock()
	a.mu.Lock()
	a.st.provForm.Error = ""
	a.mu.Unlock()
	a.addEntry(surfaceview.Entry{Kind: "info", Text: "Provider and key forgotten: prompts run the local agent."})
}

// runReport is the part of a planner or provider report the chat shows.
type runReport struct {
	Summary   string `json:"summary"`
	Failed    bool   `json:"failed"`
	ErrorCode string `json:"errorCode"`
	Model     string `json:"model"`
	Cancelled bool   `json:"cancelled"`
	Calls     []any  `json:"calls"`
}

// send runs the composer's prompt.
func (a *app) send(ctx context.Context) {
	a.mu.Lock()
	prompt := strings.TrimSpace(a.st.prompt)
	a.mu.Unlock()
	if prompt == "" {
		return
	}
	a.runPrompt(ctx, prompt, false)
}

// localRetry runs the prompt of the failed provider run of entry key again with the local
// agent ("Use local agent & retry"); the provider stays set for the next prompt.
func (a *app) localRetry(ctx context.Context, key string) {
	a.mu.Lock()
	prompt := a.st.retries[key]
	a.mu.Unlock()
	if prompt != "" {
		a.runPrompt(ctx, prompt, true)
	}
}

// runPrompt runs prompt with agent/run (local, or no provider set) or agent/openrouter under
// the provider choice. A prompt from the composer (local false) leaves the box when it starts;
// while a run is in progress, or in a read-only tab, nothing runs.
func (a *app) runPrompt(ctx context.Context, prompt string, local bool) {
	a.mu.Lock()
	busy := a.st.running != ""
	ro := a.st.lock == "busy"
	if busy || ro {
		a.mu.Unlock()
		if busy {
			a.addEntry(surfaceview.Entry{Kind: "info", Text: "A run is already in progress: your prompt stays in the box."})
		}
		return
	}
	id := "prompt-" + strconv.FormatInt(a.reqID.Add(1), 10)
	a.st.running = id
	if !local {
		a.st.prompt = ""
	}
	a.mu.Unlock()
	a.flushDraft(ctx)
	a.addEntry(surfaceview.Entry{Kind: "user", Text: prompt})
	method, details := "agent/run", localMarker
	params := map[string]any{"prompt": prompt}
	c, _ := a.provider()
	if c.Provider != "" && !local {
		method, details, params = studio.MethodAgentOpenRouter, c.Label(), c.Params(prompt)
	}
	var rep runReport
	err := a.rpc(ctx, id, method, params, &rep)
	a.mu.Lock()
	a.st.running = ""
	a.mu.Unlock()
	provider := method == studio.MethodAgentOpenRouter
	switch {
	case err != nil:
		e := surfaceview.Entry{Kind: "error", Text: err.Error()}
		if provider {
			e.Text = "[" + string(mcp.CodeOpenRouterConfigurationError) + "] " + strings.TrimPrefix(err.Error(), studio.MethodAgentOpenRouter+": ")
			e.Details, e.LocalRetry = details+" · "+c.ModelLabel(), true
		}
		a.addRetryEntry(e, prompt)
	default:
		kind, text := "agent", rep.Summary
		if rep.Failed {
			kind = "error"
		}
		if rep.Model != "" {
			details += " · " + rep.Model
		}
		details += " · " + strconv.Itoa(len(rep.Calls)) + " tool call(s)"
		if rep.ErrorCode != "" {
			details += " · " + rep.ErrorCode
			if !strings.Contains(text, rep.ErrorCode) {
				text = "[" + rep.ErrorCode + "] " + text
			}
		}
		a.addRetryEntry(surfaceview.Entry{Kind: kind, Text: text, Details: details, LocalRetry: provider && rep.Failed && !rep.Cancelled}, prompt)
	}
	a.requestRefresh()
	a.markDirty()
}

// addRetryEntry adds e, keeping prompt for its "Use local agent & retry" button when it has one.
func (a *app) addRetryEntry(e surfaceview.Entry, prompt string) {
	if !e.LocalRetry {
		a.addEntry(e)
		return
	}
	a.mu.Lock()
	a.entrySeq++
	e.Key = "r" + strconv.Itoa(a.entrySeq)
	if a.st.retries == nil {
		a.st.retries = map[string]string{}
	}
	a.st.retries[e.Key] = prompt
	a.mu.Unlock()
	a.addEntry(e)
}

// cancelRun denies the pending approvals and cancels the running prompt.
func (a *app) cancelRun(ctx context.Context) {
	a.mu.Lock()
	id := a.st.running
	a.mu.Unlock()
	_ = a.rpc(ctx, "", "approvals/denyAll", nil, nil)
	if id != "" {
		a.notify(ctx, "notifications/cancelled", map[string]any{"requestId": id, "reason": "cancelled in the page"})
	}
	a.markDirty()
}

// chatView is the chat region's view state.
func (a *app) chatView(st state) surfaceview.Chat {
	aps := make([]surfaceview.Approval, len(st.approvals))
	for i, ap := range st.approvals {
		aps[i] = surfaceview.Approval{ID: ap.ID, Name: ap.Name, Source: ap.Source, Description: ap.Description, Arguments: ap.SafeArgumentPreview}
	}
	pf := st.provForm
	if c, key := a.provider(); c.Provider != "" {
		pf.Active, pf.ActiveKind, pf.KeySet = c.Label()+" · "+c.ModelLabel()+" at "+c.Origin(), c.Provider, key != ""
	}
	return surfaceview.Chat{Entries: st.entries, Approvals: aps, Running: st.running != "", Prompt: st.prompt,
		Provider: pf, ReadOnly: st.lock == "busy", Hint: surfaceview.PromptHint(a.surface)}
}
