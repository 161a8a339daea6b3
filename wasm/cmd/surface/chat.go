//go:build js && wasm

package main

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/fetch"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
)

// The chat: a prompt runs agent/run (the surface's local agent, no key) or, with an
// OpenRouter key set in this page, agent/openrouter (the provider loop over the same
// registry). Either way every tool call goes through the registry in agent mode, so the
// calls the policy puts to approval wait for the cards' Approve/Deny.

// localMarker labels the local agent's answers (issue 18: the local agent carries the
// local-fallback marker).
const localMarker = "local agent (local-fallback): no model key in this page"

// openRouterOptions are the provider loop's options: fetch to OpenRouter's origin only, the
// key read from this page's memory when a run starts.
func (a *app) openRouterOptions() studio.OpenRouterOptions {
	origin := ""
	if loc := js.Global().Get("location"); loc.Type() == js.TypeObject {
		origin = loc.Get("origin").String()
	}
	return studio.OpenRouterOptions{
		Transport: fetch.Transport{Allowed: allowOpenRouter},
		Defaults:  openrouter.Config{Referer: origin},
		APIKey:    a.apiKey,
		OnNotice: func(n openrouter.Notice) {
			a.addEntry(surfaceview.Entry{Kind: "info", Text: n.Text})
		},
		Observer: a.observe,
	}
}

// allowOpenRouter lets requests reach OpenRouter's origin only (the key goes nowhere else).
func allowOpenRouter(req openrouter.Request) bool {
	u, err := url.Parse(req.URL)
	d, derr := url.Parse(openrouter.DefaultEndpoint)
	return err == nil && derr == nil && u.Scheme == "https" && u.Host == d.Host
}

func (a *app) apiKey() string {
	a.keyMu.Lock()
	defer a.keyMu.Unlock()
	return a.key
}

func (a *app) keySet() bool { return a.apiKey() != "" }

// setKey keeps key in memory ("" forgets it) and says so; the key itself is never shown.
func (a *app) setKey(key string) {
	a.keyMu.Lock()
	a.key = key
	a.keyMu.Unlock()
	text := "OpenRouter key forgotten: prompts run the local agent."
	if key != "" {
		text = "OpenRouter key set for this page only (memory; never stored): prompts run the provider loop."
	}
	a.addEntry(surfaceview.Entry{Kind: "info", Text: text})
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
	busy := a.st.running != ""
	ro := a.st.lock == "busy"
	if prompt == "" || busy || ro {
		a.mu.Unlock()
		if busy {
			a.addEntry(surfaceview.Entry{Kind: "info", Text: "A run is already in progress: your prompt stays in the box."})
		}
		return
	}
	id := "prompt-" + strconv.FormatInt(a.reqID.Add(1), 10)
	a.st.prompt, a.st.running = "", id
	a.mu.Unlock()
	a.flushDraft(ctx)
	a.addEntry(surfaceview.Entry{Kind: "user", Text: prompt})
	method, details := "agent/run", localMarker
	params := map[string]any{"prompt": prompt}
	if a.keySet() {
		method, details = studio.MethodAgentOpenRouter, "OpenRouter"
	}
	var rep runReport
	err := a.rpc(ctx, id, method, params, &rep)
	a.mu.Lock()
	a.st.running = ""
	a.mu.Unlock()
	switch {
	case err != nil:
		a.addEntry(surfaceview.Entry{Kind: "error", Text: err.Error()})
	default:
		kind := "agent"
		if rep.Failed {
			kind = "error"
		}
		if rep.Model != "" {
			details += " · " + rep.Model
		}
		details += " · " + strconv.Itoa(len(rep.Calls)) + " tool call(s)"
		if rep.ErrorCode != "" {
			details += " · " + rep.ErrorCode
		}
		a.addEntry(surfaceview.Entry{Kind: kind, Text: rep.Summary, Details: details})
	}
	a.requestRefresh()
	a.markDirty()
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
	return surfaceview.Chat{Entries: st.entries, Approvals: aps, Running: st.running != "", Prompt: st.prompt,
		KeySet: a.keySet(), ReadOnly: st.lock == "busy", Hint: surfaceview.PromptHint(a.surface)}
}
