//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/fetch"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/studio"
)

// The OpenRouter provider in the page (issue 6; REFERENCE §7.5). With a key in the provider
// settings, prompts and recipes run agent/openrouter (calls with source "model", mode
// "agent": writes wait for approval cards exactly as the local agent's); without one they
// run the local agent (agent/run).
//
// How the key reaches the loop: studio.OpenRouterOptions.APIKey is prov.apiKey, read when a
// run starts; the loop sends it as the Authorization header of the chat requests and
// scrubs it from returned text. The JSON-RPC params of agent/openrouter carry prompt, model,
// endpoint and data policy only, so nothing that logs or traces requests sees the key, and
// the fetch transport contacts only the configured endpoint's origin (prov.allowed).

// providerOptions wires the loop for the page: the fetch transport limited to the configured
// endpoint's origin, the key supplier, the page origin as HTTP-Referer and retry notices
// shown in the chat while the run waits.
func providerOptions(a *app) studio.OpenRouterOptions {
	origin := ""
	if loc := js.Global().Get("location"); loc.Type() == js.TypeObject {
		origin = loc.Get("origin").String()
	}
	return studio.OpenRouterOptions{
		Transport: fetch.Transport{Allowed: a.prov.allowed},
		Defaults:  openrouter.Config{Referer: origin},
		APIKey:    a.prov.apiKey,
		OnNotice: func(n openrouter.Notice) {
			a.addEntry(entry{Kind: "info", Text: noticeText(n)})
		},
		// Calls the loop refuses (invalid arguments) reach the chat and the trace as failed
		// calls with the provider's call id, like the registry's own events.
		Observer: func(e audit.ToolCallEvent) { a.observe(e) },
		// Streamed text reaches the chat as it arrives (streaming.go).
		OnText: a.onStreamText,
	}
}

// noticeText is the chat line of a retry notice, e.g.
// "Retrying in 0.7 s (attempt 3 of 3) after HTTP 503…".
func noticeText(n openrouter.Notice) string {
	cause := string(n.Code)
	switch {
	case n.Status > 0:
		cause = "HTTP " + strconv.Itoa(n.Status)
	case n.Code == mcp.CodeOpenRouterNetworkError:
		cause = "a network error"
	case n.Code == mcp.CodeOpenRouterTimeout:
		cause = "a timeout"
	}
	return fmt.Sprintf("Retrying in %.1f s (attempt %d of %d) after %s…", n.Delay.Seconds(), n.Attempt+1, n.Max+1, cause)
}

// settingsCodes are the provider failures whose fix is in the settings (REFERENCE §3.3 UI):
// they offer "Open provider settings" and "Use local agent & retry". A network error or a
// timeout (offline, endpoint unreachable) offers "Use local agent & retry" only.
var settingsCodes = map[string]bool{
	string(mcp.CodeOpenRouterConfigurationError):   true,
	string(mcp.CodeOpenRouterAuthenticationFailed): true,
	string(mcp.CodeOpenRouterAccessDenied):         true,
	string(mcp.CodeOpenRouterInvalidResponse):      true,
	string(mcp.CodeOpenRouterBudgetExceeded):       true, // raise the per-run budget
}

func init() {
	registerFeature(&feature{name: "provider", action: providerAction})
	registerRecovery(func(f failure) []entryAction {
		if !f.Provider {
			return nil
		}
		if (f.Code == string(mcp.CodeOpenRouterNetworkError) || f.Code == string(mcp.CodeOpenRouterTimeout)) && f.Prompt != "" {
			// Offline (or the endpoint is unreachable): the local agent works without a network.
			return []entryAction{{Label: "Use local agent & retry", Action: "provider-local-retry", Arg: f.Prompt}}
		}
		if !settingsCodes[f.Code] {
			return nil
		}
		acts := []entryAction{{Label: "Open provider settings", Action: "provider-settings"}}
		if f.Prompt != "" {
			acts = append(acts, entryAction{Label: "Use local agent & retry", Action: "provider-local-retry", Arg: f.Prompt})
		}
		return acts
	})
}

func providerAction(a *app, act uiAction) bool {
	switch act.Name {
	case "provider-local-retry":
		prompt := act.Get("arg")
		if strings.TrimSpace(prompt) == "" {
			return true
		}
		// One request through the local agent; the key stays saved.
		a.prov.mu.Lock()
		a.prov.forceLocal = true
		a.prov.mu.Unlock()
		a.runPrompt(prompt)
	case "provider-new-chat":
		newChat(a)
	default:
		return false
	}
	return true
}

// newChatBusy is why New chat cannot start now: the button's title while it is disabled
// (render.go) and the answer to any other way of asking.
const newChatBusy = "Cancel the running prompt before starting a new chat."

// newChat empties the transcript and makes the next provider run start a new conversation.
func newChat(a *app) {
	a.mu.Lock()
	if a.st.running != "" {
		a.mu.Unlock()
		a.addEntry(entry{Kind: "info", Text: newChatBusy})
		return
	}
	a.st.transcript = nil
	a.mu.Unlock()
	chatsNew(a) // chats.go: the next save starts a new kept conversation
	a.prov.mu.Lock()
	a.prov.newChat = true
	a.prov.mu.Unlock()
	a.addEntry(entry{Kind: "info", Text: "New chat: the next prompt starts a fresh conversation."})
	announceKeptDrafts(a) // keptdrafts.go: a new chat never drops a kept draft
}

// ensureNewChatButton adds the "New chat" button beside Send/Cancel (once).
func ensureNewChatButton() {
	if !byID("new-chat").IsNull() {
		return
	}
	bar := js.Global().Get("document").Call("querySelector", "#chat-form .chat-actions")
	if bar.IsNull() {
		return
	}
	b := js.Global().Get("document").Call("createElement", "button")
	b.Set("type", "button")
	b.Set("id", "new-chat")
	b.Set("textContent", "New chat")
	b.Call("setAttribute", "data-action", "provider-new-chat")
	b.Call("setAttribute", "aria-label", "Start a new chat")
	b.Set("title", "Start a new chat")
	bar.Call("appendChild", b)
}

// providerReport is the part of openrouter.Report the chat reads.
type providerReport struct {
	Summary   string             `json:"summary"`
	Failed    bool               `json:"failed"`
	Cancelled bool               `json:"cancelled"`
	Turns     int                `json:"turns"`
	Usage     *openrouter.Usage  `json:"usage"`
	TurnUsage []openrouter.Usage `json:"turnUsage"`
	// Calls and Reasoning feed the kept conversation (chats.go).
	Calls     []providerCall `json:"calls"`
	Reasoning string         `json:"reasoning"`
	Error     *struct {
		Code      string          `json:"code"`
		Message   string          `json:"message"`
		Retryable bool            `json:"retryable"`
		Details   json.RawMessage `json:"details"`
	} `json:"error"`
}

// runProviderPrompt runs text, with the context blocks of atts after it, through
// agent/openrouter when a model is set up, and reports whether it did (false: the caller runs
// the local agent). The chat shows text and one "With context" line per chip, not the blocks.
// It is called by runPrompt for the chat form and the recipes.
func (a *app) runProviderPrompt(text string, atts []planner.Attachment) bool {
	prompt := text // what the model gets: the user's text, then the chips' context blocks
	if len(atts) > 0 {
		prompt += "\n\n" + planner.ContextBlock(atts)
	}
	a.prov.mu.Lock()
	if a.prov.forceLocal {
		a.prov.forceLocal = false
		a.prov.mu.Unlock()
		return false
	}
	a.prov.mu.Unlock()
	_, model, endpoint, policy, _ := a.prov.snapshot()
	if !a.prov.enabled() { // no key, and not a local server: the local agent answers
		return false
	}
	f := a.prov.form()
	label := a.prov.presetLabel()
	ctx := context.Background()
	a.flushDraft(ctx)
	id := "openrouter-run-" + strconv.FormatInt(a.providerRunSeq.Add(1), 10)
	a.mu.Lock()
	if a.st.running != "" {
		a.mu.Unlock()
		a.addEntry(entry{Kind: "info", Text: "A run is already in progress."})
		return true
	}
	a.st.running, a.cancelled, a.st.statusText = id, false, "Running… ("+label+" · "+model+")"
	a.mu.Unlock()
	a.addEntry(entry{Kind: "user", Text: text}) // the chips show as one line each, as for the local agent
	for _, at := range atts {
		a.addEntry(entry{Kind: "info", Text: "With context: " + at.Label()})
	}
	chatsRunStarted(a) // chats.go: kept before the request goes out
	params := map[string]any{"prompt": prompt, "model": model, "endpoint": endpoint, "dataPolicy": string(policy), "stream": !f.noStream}
	if f.preset != openrouter.PresetOpenRouter {
		params["provider"] = "openai-compatible" // no OpenRouter attribution headers
	}
	if f.budget.Tokens > 0 || f.budget.Cost > 0 {
		b := map[string]any{}
		if f.budget.Tokens > 0 {
			b["tokens"] = f.budget.Tokens
		}
		if f.budget.Cost > 0 {
			b["cost"] = f.budget.Cost
		}
		params["budget"] = b
	}
	if f.timeout > 0 {
		params["requestTimeoutMs"] = f.timeout.Milliseconds() // else the endpoint's default
	}
	if r := reasoningParam(); r != nil { // reasoning_setting.go
		params["reasoning"] = r
	}
	a.prov.mu.Lock()
	if a.prov.newChat {
		params["newChat"] = true
		a.prov.newChat = false
	}
	a.prov.mu.Unlock()
	var rep providerReport
	a.streaming.begin(id)
	err := a.rpc(ctx, id, studio.MethodAgentOpenRouter, params, &rep)
	streamed := a.streaming.end()
	last, cut := "", ""
	if len(streamed) > 0 {
		last = streamed[len(streamed)-1]
		// The reply that was cut: the last turn's, when it streamed (an earlier turn's text
		// was complete before its tool calls ran).
		if rep.Turns == 0 || last == id+"-t"+strconv.Itoa(rep.Turns) {
			cut = last
		}
	}
	a.mu.Lock()
	cancelled := a.cancelled || rep.Cancelled
	a.st.running = ""
	a.st.statusText = "Ready"
	if cancelled {
		a.st.statusText = "Execution cancelled."
	}
	a.mu.Unlock()
	switch {
	case cancelled && cut != "":
		// The reply so far stays, marked as cut off by Cancel.
		a.markStreamed(cut, "partial", "Cancelled: the reply stopped here; the stream was aborted.")
		a.addEntry(entry{Kind: "info", Text: "Execution cancelled."})
	case cancelled:
		a.addEntry(entry{Kind: "info", Text: "Execution cancelled."})
	case err != nil: // a refused request (bad params): typed like every run failure, with its recovery
		msg := strings.TrimPrefix(err.Error(), studio.MethodAgentOpenRouter+": ")
		f := failure{Code: string(mcp.CodeOpenRouterConfigurationError), Message: msg, Prompt: prompt, Provider: true}
		a.addEntry(entry{Kind: "error", Text: "[" + f.Code + "] " + msg, Actions: recoveryActions(f)})
	case rep.Failed && rep.Error != nil:
		if cut != "" && rep.Error.Code != string(mcp.CodeOpenRouterBudgetExceeded) {
			a.markStreamed(cut, "partial", "Incomplete: this reply did not finish ("+rep.Error.Code+"); nothing it started was run.")
		}
		f := failure{Code: rep.Error.Code, Message: rep.Error.Message, Retryable: rep.Error.Retryable, Prompt: prompt, Provider: true}
		details := ""
		if len(rep.Error.Details) > 0 && string(rep.Error.Details) != "null" {
			var v any
			if json.Unmarshal(rep.Error.Details, &v) == nil {
				b, _ := json.MarshalIndent(v, "", "  ")
				details = string(b)
			}
		}
		a.addEntry(entry{Kind: "error", Text: "[" + rep.Error.Code + "] " + rep.Error.Message, Details: details, Actions: recoveryActions(f)})
	case rep.Failed:
		a.addEntry(entry{Kind: "error", Text: rep.Summary})
	case cut != "":
		// The final turn streamed into its entry: that entry is the answer. It takes the
		// final text as the loop reports it (trimmed, scrubbed), so a reply ending in
		// whitespace is not shown twice (docs/design.md §5.16).
		a.setStreamedText(cut, rep.Summary)
	case last != "" && strings.TrimSpace(a.streamedText(last)) == rep.Summary:
		// An earlier turn's streamed entry already holds the final answer.
	default:
		a.addEntry(entry{Kind: "agent", Text: rep.Summary})
	}
	a.chatRunEnded(prompt, rep, cancelled, err) // chats.go (before the usage line: it reads the outcome entry)
	if u := a.usageEntry(rep.Usage, rep.TurnUsage); u != "" {
		a.addEntry(entry{Kind: "usage", Text: u})
		a.chatKeepLast() // chats.go: the usage line is part of the kept conversation
	}
	chatsRunEnded(a) // chats.go: the closed run is kept at once
	a.requestRefresh()
	return true
}
