package surfaceview

import (
	"strconv"
	"strings"

	. "github.com/webcoding/studio/wasm/ui/markup"
)

// Surface names (the page's <meta name="webcoding-surface"> and the catalog names).
const (
	Live     = "live"
	Realtime = "realtime"
)

// Lock states the status line names (the entry maps the Web Lock's state onto them).
const (
	LockHeld        = "held"
	LockBusy        = "busy"
	LockUnsupported = "unsupported"
	LockBlocked     = "blocked"
)

// ToolID is the card id fragment of a tool (#tool-<ToolID>, #run-<ToolID>, #result-<ToolID>).
func ToolID(name string) string { return IDPart(name) }

// Status is the header status line.
type Status struct {
	Surface  string // Live or Realtime
	Text     string // "Loading…", "Ready", "Failed: …"
	Ready    bool
	Failed   bool
	Tools    int    // tools/list count once ready
	Lock     string // LockHeld, LockBusy, LockUnsupported, LockBlocked ("" unknown)
	Provider string // "local agent" or "OpenRouter (key in this page's memory)"
}

// lockText is what the status line says about the single-writer lock.
func lockText(lock string) string {
	switch lock {
	case LockHeld:
		return "this tab writes the workspace"
	case LockBusy:
		return "read-only: open in another tab"
	case LockUnsupported:
		return "no Web Locks: last write wins"
	case LockBlocked:
		return "site data blocked: edits stay in memory"
	}
	return ""
}

// StatusHTML is #surface-status.
func StatusHTML(s Status) HTML {
	var b Builder
	cls := "status-text"
	switch {
	case s.Failed:
		cls += " failed"
	case !s.Ready:
		cls += " loading"
	}
	text := s.Text
	if s.Ready && s.Tools > 0 {
		text += " · " + strconv.Itoa(s.Tools) + " tools"
	}
	b.Elem("span", text, A("id", "status-text"), A("class", cls), Bool("data-ready", s.Ready))
	if t := lockText(s.Lock); t != "" {
		b.Text(" ")
		b.Elem("span", t, A("id", "lock-state"), A("class", "lock-state lock-"+s.Lock), A("data-lock", s.Lock))
	}
	if s.Provider != "" {
		b.Text(" ")
		b.Elem("span", s.Provider, A("id", "provider-state"), A("class", "provider-state"))
	}
	b.Text(" ")
	b.Elem("a", "Back to the studio", A("id", "studio-link"), A("class", "studio-link"), A("href", "./"))
	return b.HTML()
}

// PreviewLine is the preview's state as the page shows it: the state name and its revision
// ("acknowledged · revision 3"), with a message for an error.
type PreviewLine struct {
	State    string // the iframe port's state: idle, pending, acknowledged, error, timedOut, navigated
	Revision int64
	Message  string
}

func (p PreviewLine) text() string {
	if p.State == "" || p.State == "idle" {
		return "no preview yet"
	}
	s := p.State + " · revision " + strconv.FormatInt(p.Revision, 10)
	if p.Message != "" {
		s += ": " + p.Message
	}
	return s
}

func previewHTML(b *Builder, p PreviewLine) {
	state := p.State
	if state == "" {
		state = "idle"
	}
	b.Open("span", A("class", "clock"))
	b.Text("Preview ")
	b.Elem("output", p.text(), A("id", "preview-state"), A("data-state", state), A("data-revision", strconv.FormatInt(p.Revision, 10)))
	b.Close("span")
	b.Text(" ")
}

func clockHTML(b *Builder, label, id string, n int64) {
	b.Open("span", A("class", "clock"))
	b.Text(label + " ")
	b.Elem("output", strconv.FormatInt(n, 10), A("id", id), A("data-value", strconv.FormatInt(n, 10)))
	b.Close("span")
	b.Text(" ")
}

// conflictHTML is #doc-conflict: a refused edit, and with a held draft the two ways on:
// #conflict-keep (write the draft over the current revision) and #conflict-take (drop it).
func conflictHTML(b *Builder, text string, draft bool) {
	if text == "" {
		return
	}
	b.Open("div", A("id", "doc-conflict"), A("class", "doc-conflict"), A("role", "alert"))
	b.Elem("span", text)
	if draft {
		b.Text(" ")
		b.Elem("button", "Keep my text", A("type", "button"), A("id", "conflict-keep"), A("data-action", "keep-mine"))
		b.Text(" ")
		b.Elem("button", "Take the current text", A("type", "button"), A("id", "conflict-take"), A("data-action", "take-current"))
	}
	b.Close("div")
}

func noticeHTML(b *Builder, id, text string) {
	if text == "" {
		return
	}
	b.Elem("p", text, A("id", id), A("class", "doc-notice"), A("role", "alert"))
}

// LiveDoc is the Live Code Editor's document controls.
type LiveDoc struct {
	Files             []string // text files of editor.listFiles, in its order
	Active            string   // the document's path
	ExampleID         string
	Scenario          string   // the document's scenario
	Scenarios         []string // success, invalid, blocked
	WorkspaceRevision int64
	DocumentRevision  int64
	Preview           PreviewLine
	Dirty             []string // dirtyPaths
	FolderName        string   // the connected folder ("" none)
	FolderPicker      bool     // the browser has a directory picker
	Conflict          string   // the last refused edit
	ConflictDraft     bool     // the refused edit is the editor's text, kept there
	Notice            string   // the last action's failure or outcome
	RecoverSave       string   // the save tool whose outcome is unknown (TOOL_EXECUTION_UNKNOWN), "" none
	Run               *ScenarioRun
	ReadOnly          bool // this tab does not hold the workspace lock
	Busy              bool // an edit or save is in flight
}

// ScenarioRun is the safe runner's answer (editor/runScenario).
type ScenarioRun struct {
	Scenario         string
	DocumentRevision int64
	Runtime          string
	Events           []RunEvent
}

// RunEvent is one step of the safe runner.
type RunEvent struct {
	Step   string
	Passed bool
}

// LiveDocHTML is #surface-doc of the Live page.
func LiveDocHTML(d LiveDoc) HTML {
	var b Builder
	b.Open("div", A("class", "doc-clocks"), A("aria-label", "Revisions and preview"))
	clockHTML(&b, "Workspace revision", "workspace-revision", d.WorkspaceRevision)
	clockHTML(&b, "Document revision", "document-revision", d.DocumentRevision)
	previewHTML(&b, d.Preview)
	b.Close("div")

	b.Open("div", A("class", "doc-files"), A("role", "toolbar"), A("aria-label", "Examples and files"))
	dirty := map[string]bool{}
	for _, p := range d.Dirty {
		dirty[p] = true
	}
	for _, p := range d.Files {
		label := p
		if dirty[p] {
			label += " •"
		}
		b.Elem("button", label, A("type", "button"), A("id", "file-"+IDPart(p)), A("class", "doc-file"),
			A("data-action", "open-file"), A("data-path", p), Bool("aria-pressed", p == d.Active),
			If(dirty[p], A("data-dirty", "true")), Flag("disabled", d.Busy))
	}
	b.Close("div")

	b.Open("div", A("class", "doc-scenarios"), A("role", "toolbar"), A("aria-label", "Scenario"))
	b.Elem("span", "Scenario", A("class", "doc-label"))
	for _, s := range d.Scenarios {
		b.Elem("button", s, A("type", "button"), A("id", "scenario-"+IDPart(s)), A("class", "doc-scenario"),
			A("data-action", "set-scenario"), A("data-scenario", s), Bool("aria-pressed", s == d.Scenario),
			Flag("disabled", d.Busy || d.ReadOnly))
	}
	b.Elem("button", "Run scenario", A("type", "button"), A("id", "run-scenario"), A("data-action", "run-scenario"))
	b.Elem("button", "Reset document", A("type", "button"), A("id", "reset-document"), A("data-action", "reset-document"),
		Flag("disabled", d.Busy || d.ReadOnly))
	b.Close("div")

	b.Open("div", A("class", "doc-folder"), A("aria-label", "Folder"))
	if d.FolderName != "" {
		b.Text("Folder ")
		b.Elem("strong", d.FolderName, A("id", "folder-name"))
	} else {
		b.Elem("span", "No folder connected: saves need one.", A("id", "folder-name"), A("class", "muted"))
	}
	b.Text(" ")
	b.Elem("button", "Connect folder", A("type", "button"), A("id", "connect-folder"), A("data-action", "connect-folder"),
		Flag("disabled", !d.FolderPicker || d.ReadOnly), If(!d.FolderPicker, A("title", "This browser has no folder picker")))
	b.Elem("button", "Save", A("type", "button"), A("id", "save-file"), A("data-action", "save-file"),
		Flag("disabled", d.ReadOnly || d.Busy))
	b.Elem("button", "Save all", A("type", "button"), A("id", "save-all"), A("data-action", "save-all"),
		Flag("disabled", d.ReadOnly || d.Busy))
	switch {
	case len(d.Dirty) > 0:
		b.Elem("span", "Unsaved: "+strings.Join(d.Dirty, ", "), A("id", "dirty-paths"), A("class", "dirty-paths"))
	case d.FolderName == "":
		// Without a linked folder nothing says what the folder holds (after a reload the page
		// cannot know what was saved): never "No unsaved files" then (new-user finding).
		b.Elem("span", "Connect the folder to see what is unsaved", A("id", "dirty-paths"), A("class", "dirty-paths muted"))
	default:
		b.Elem("span", "No unsaved files", A("id", "dirty-paths"), A("class", "dirty-paths muted"))
	}
	b.Close("div")

	conflictHTML(&b, d.Conflict, d.ConflictDraft)
	noticeHTML(&b, "doc-notice", d.Notice)
	if d.RecoverSave != "" {
		// A save cut short: whether the folder holds it is unknown. Checking reads the folder back
		// (editor/recoverSave) and never writes; Save writes again under a new key.
		b.Open("p", A("id", "recover-box"), A("class", "doc-notice"), A("role", "alert"))
		b.Text("The outcome of " + d.RecoverSave + " is unknown: some files may be written. ")
		b.Elem("button", "Check the folder", A("type", "button"), A("id", "recover-save"), A("data-action", "recover-save"),
			Flag("disabled", d.Busy))
		b.Close("p")
	}
	if d.Run != nil {
		b.Open("section", A("id", "scenario-run"), A("class", "scenario-run"), A("aria-label", "Scenario run"),
			A("data-scenario", d.Run.Scenario))
		b.Elem("h3", "Scenario "+d.Run.Scenario+" · document revision "+strconv.FormatInt(d.Run.DocumentRevision, 10)+" · "+d.Run.Runtime)
		b.Open("ol")
		for _, e := range d.Run.Events {
			mark, cls := "✓ ", "run-pass"
			if !e.Passed {
				mark, cls = "✗ ", "run-fail"
			}
			b.Elem("li", mark+e.Step, A("class", cls))
		}
		b.Close("ol")
		b.Close("section")
	}
	return b.HTML()
}

// RealtimeDoc is the realtime page's file tabs and clocks.
type RealtimeDoc struct {
	Files         []string
	Active        string
	Revision      int64
	Preview       PreviewLine
	Conflict      string
	ConflictDraft bool // the refused edit is the editor's text, kept there
	Notice        string
	ReadOnly      bool
}

// RealtimeDocHTML is #surface-doc of the realtime page.
func RealtimeDocHTML(d RealtimeDoc) HTML {
	var b Builder
	b.Open("div", A("class", "doc-clocks"), A("aria-label", "Revision and preview"))
	clockHTML(&b, "Workspace revision", "workspace-revision", d.Revision)
	previewHTML(&b, d.Preview)
	if d.ReadOnly {
		b.Elem("span", "read-only", A("class", "doc-readonly"))
	}
	b.Close("div")
	b.Open("div", A("class", "doc-tabs"), A("role", "tablist"), A("aria-label", "Workspace files"))
	for _, p := range d.Files {
		b.Elem("button", p, A("type", "button"), A("id", "tab-"+IDPart(p)), A("class", "doc-tab"), A("role", "tab"),
			A("data-action", "open-tab"), A("data-path", p), Bool("aria-selected", p == d.Active))
	}
	b.Close("div")
	conflictHTML(&b, d.Conflict, d.ConflictDraft)
	noticeHTML(&b, "doc-notice", d.Notice)
	return b.HTML()
}

// Entry is one chat transcript line. Kind: user, agent, info, error, call (a tool call of a
// run: Text "✓ web.setTheme" or "✗ … [CODE] message").
type Entry struct {
	Key     string // stable per entry (element id chat-entry-<Key>)
	Kind    string
	Text    string
	Details string // optional second line (the local marker, a summary)
	// LocalRetry offers "Use local agent & retry" (#local-retry-<Key>, data-action
	// "local-retry", data-id Key): a failed provider run; the page keeps the prompt.
	LocalRetry bool
}

// Approval is one pending approval card.
type Approval struct {
	ID          string
	Name        string
	Source      string // local, model, mcp
	Description string
	Arguments   string // the registry's safe argument preview
}

// Chat is the chat region's state.
type Chat struct {
	Entries   []Entry
	Approvals []Approval
	Running   bool
	Prompt    string // the composer's text as the user typed it
	Provider  ProviderForm
	ReadOnly  bool
	Hint      string // an example prompt for the placeholder
}

// Provider choices of the chat's provider menu (#provider-kind), agent/openrouter's
// "provider" values.
const (
	ProviderOpenRouter       = "openrouter"
	ProviderOpenAICompatible = "openai-compatible"
)

// ProviderForm is the chat's provider area: the menu, the endpoint and model fields as typed
// (kept by the page so a redraw never loses them), the last refused choice and the provider
// prompts run now. The key is never part of it: its field is always drawn empty.
type ProviderForm struct {
	Kind       string // the menu's choice: ProviderOpenRouter ("" too) or ProviderOpenAICompatible
	Endpoint   string // as typed (OpenAI-compatible only)
	Model      string // as typed
	Error      string // why the last "Use provider" was refused ("" none)
	Active     string // the provider prompts run, e.g. "Ollama · llama3.2 at http://127.0.0.1:11434"; "" the local agent
	ActiveKind string // the provider of Active: ProviderOpenRouter or ProviderOpenAICompatible
	KeySet     bool   // a key is held in this page's memory for Active
}

// ChatHTML is #surface-chat: transcript, approval cards and the composer.
func ChatHTML(c Chat) HTML {
	var b Builder
	b.Open("ol", A("id", "chat-transcript"), A("class", "chat-transcript"), A("aria-label", "Chat transcript"), A("aria-live", "polite"))
	for _, e := range c.Entries {
		kind := e.Kind
		if kind == "" {
			kind = "info"
		}
		b.Open("li", A("id", "chat-entry-"+IDPart(e.Key)), A("class", "chat-entry chat-"+kind), A("data-kind", kind))
		b.Elem("span", e.Text, A("class", "chat-text"))
		if e.Details != "" {
			b.Text(" ")
			b.Elem("span", e.Details, A("class", "chat-details"))
		}
		if e.LocalRetry {
			b.Text(" ")
			b.Elem("button", "Use local agent & retry", A("type", "button"), A("id", "local-retry-"+IDPart(e.Key)), A("class", "local-retry"),
				A("data-action", "local-retry"), A("data-id", e.Key), Flag("disabled", c.Running || c.ReadOnly))
		}
		b.Close("li")
	}
	b.Close("ol")
	if len(c.Approvals) > 0 {
		b.Open("section", A("id", "chat-approvals"), A("class", "chat-approvals"), A("aria-label", "Pending approvals"))
		for i, ap := range c.Approvals {
			n := strconv.Itoa(i)
			b.Open("article", A("id", "approval-"+IDPart(ap.ID)), A("class", "approval-card"), A("data-tool", ap.Name),
				A("aria-label", "Approval for "+ap.Name))
			b.Elem("h3", ap.Name)
			if ap.Description != "" {
				b.Open("details", A("class", "approval-description"))
				b.Elem("summary", "What this tool does")
				b.Elem("p", ap.Description)
				b.Close("details")
			}
			meta := "source " + ap.Source
			if ap.Arguments != "" {
				meta += " · " + ap.Arguments
			}
			b.Elem("p", meta, A("class", "approval-meta"))
			b.Elem("button", "Approve "+ap.Name, A("type", "button"), A("id", "approve-"+n), A("class", "approve"),
				A("data-action", "approve"), A("data-id", ap.ID))
			b.Text(" ")
			b.Elem("button", "Deny", A("type", "button"), A("id", "deny-"+n), A("class", "deny"),
				A("data-action", "deny"), A("data-id", ap.ID))
			b.Close("article")
		}
		b.Close("section")
	}
	b.Open("div", A("class", "chat-composer"))
	b.Elem("label", "Prompt", A("for", "chat-prompt"), A("class", "visually-hidden"))
	ph := "Ask the agent"
	if c.Hint != "" {
		ph += ", e.g. \u201c" + c.Hint + "\u201d"
	}
	b.Elem("textarea", c.Prompt, A("id", "chat-prompt"), A("data-input", "prompt"), A("rows", "2"),
		A("placeholder", ph), Flag("disabled", c.ReadOnly))
	b.Elem("button", "Send", A("type", "button"), A("id", "chat-send"), A("data-action", "send"),
		Flag("disabled", c.Running || c.ReadOnly))
	b.Elem("button", "Cancel", A("type", "button"), A("id", "chat-cancel"), A("data-action", "cancel-run"),
		Flag("disabled", !c.Running && len(c.Approvals) == 0))
	p := c.Provider
	mode, active := "Local agent: answers carry the local-fallback marker.", "local"
	if p.Active != "" {
		mode, active = "Provider: "+p.Active+".", p.ActiveKind
		if p.KeySet {
			mode += " The key is held in this page's memory only."
		}
	}
	b.Elem("p", mode, A("id", "agent-mode"), A("class", "agent-mode"), A("data-provider", active))
	b.Close("div")
	providerHTML(&b, p)
	return b.HTML()
}

// providerHTML is the chat's provider area (.chat-key): #provider-kind, #provider-endpoint
// (disabled for OpenRouter), #provider-model, #openrouter-key (never a value attribute: the key
// stays out of the markup), #set-key ("Use provider"), #forget-key (back to the local agent)
// and #provider-error when the last choice was refused.
func providerHTML(b *Builder, p ProviderForm) {
	compat := p.Kind == ProviderOpenAICompatible
	b.Open("div", A("class", "chat-key"), A("role", "group"), A("aria-label", "Model provider"))
	b.Elem("label", "Provider", A("for", "provider-kind"))
	b.Open("select", A("id", "provider-kind"), A("data-input", "provider-kind"))
	b.Elem("option", "OpenRouter", A("value", ProviderOpenRouter), Flag("selected", !compat))
	b.Elem("option", "OpenAI-compatible server (Ollama, LM Studio, llama.cpp)", A("value", ProviderOpenAICompatible), Flag("selected", compat))
	b.Close("select")
	b.Elem("label", "Endpoint", A("for", "provider-endpoint"))
	b.Void("input", A("id", "provider-endpoint"), A("type", "url"), A("data-input", "provider-endpoint"), A("autocomplete", "off"),
		A("spellcheck", "false"), A("placeholder", "http://127.0.0.1:11434/v1"), A("value", p.Endpoint), Flag("disabled", !compat),
		If(!compat, A("title", "OpenRouter's endpoint is fixed")))
	b.Elem("label", "Model", A("for", "provider-model"))
	ph := "default model (optional)"
	if compat {
		ph = "required, e.g. llama3.2"
	}
	b.Void("input", A("id", "provider-model"), A("data-input", "provider-model"), A("autocomplete", "off"), A("spellcheck", "false"),
		A("placeholder", ph), A("value", p.Model))
	keyLabel := "OpenRouter key"
	keyPh := "sk-or-… (required)"
	if compat {
		keyLabel, keyPh = "API key", "optional for a server on this computer"
	}
	if p.KeySet {
		keyPh = "key set (in memory)"
	}
	b.Elem("label", keyLabel, A("for", "openrouter-key"))
	// Never a value attribute: the key stays out of the markup.
	b.Void("input", A("id", "openrouter-key"), A("type", "password"), A("autocomplete", "off"), A("spellcheck", "false"),
		A("placeholder", keyPh))
	b.Elem("button", "Use provider", A("type", "button"), A("id", "set-key"), A("data-action", "set-key"))
	b.Elem("button", "Use the local agent", A("type", "button"), A("id", "forget-key"), A("data-action", "forget-key"),
		Flag("disabled", p.Active == ""))
	if p.Error != "" {
		b.Elem("p", p.Error, A("id", "provider-error"), A("class", "provider-error"), A("role", "alert"))
	}
	b.Close("div")
}

// TraceRow is one recent tool call (from the registry's lifecycle events).
type TraceRow struct {
	Key    string // the tool call id
	Name   string
	Source string
	Mode   string
	State  string // running, ok, error
	Code   string // the error code of a failed call
	Ms     int64  // duration in milliseconds (finished calls)
}

// TraceHTML is #surface-trace: newest first.
func TraceHTML(rows []TraceRow) HTML {
	var b Builder
	b.Open("ol", A("id", "trace-list"), A("class", "trace-list"), A("aria-label", "Recent tool calls"))
	if len(rows) == 0 {
		b.Elem("li", "No tool calls yet.", A("class", "muted"))
	}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		b.Open("li", A("id", "trace-"+IDPart(r.Key)), A("class", "trace-row trace-"+r.State), A("data-state", r.State), A("data-tool", r.Name))
		mark := map[string]string{"running": "… ", "ok": "✓ ", "error": "✗ "}[r.State]
		b.Elem("span", mark+r.Name, A("class", "trace-name"))
		b.Text(" ")
		meta := r.Source + "/" + r.Mode
		if r.State != "running" {
			meta += " · " + strconv.FormatInt(r.Ms, 10) + " ms"
		}
		if r.Code != "" {
			meta += " · " + r.Code
		}
		b.Elem("span", meta, A("class", "trace-meta"))
		b.Close("li")
	}
	b.Close("ol")
	return b.HTML()
}
