//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/chats"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/trace"
	"github.com/webcoding/studio/wasm/ui/views"
)

// Conversations survive a reload (issue 16; docs/design.md §5.20). The chat of the
// workspace is kept in IndexedDB (database "web-coding-chats", wasm/adapters/idb.Chats)
// through the core store (wasm/chats: limits, strict decoding, key scrubbing):
//
//   - when a run starts the tab saves at once (chatsRunStarted: the prompt and the running
//     state, before the request goes out); after every other change of the transcript
//     (coalesced, at most one write per chatSaveDelay, a streamed reply's growth included)
//     the tab saves the conversation: the transcript's projection (entries
//     with the typed outcome of each run), the provider history (agent/openrouter/history,
//     read when no run is going) and the trace's metadata rows;
//   - on start, the newest conversation of the workspace is shown again (chats.Restore: only
//     actions that still work after a reload, Retry for a retryable failure, an interrupted
//     run said so) and its history is given back to the session (agent/openrouter/restore),
//     so a follow-up prompt continues it;
//   - "New chat" starts a new conversation (a new record; the old one stays, up to
//     chats.MaxConversations per workspace);
//   - only the tab holding the workspace lock writes (lock.go); a read-only second tab shows
//     the stored conversation but never writes, and re-reads it when it takes over;
//   - in memory mode (IndexedDB unavailable) nothing is kept, and the chat says so once;
//   - the API key never reaches IndexedDB: the store scrubs every key the settings hold from
//     the bytes before they are written, and refuses the write if one remains.
const chatSaveDelay = 400 * time.Millisecond

// chatPartialDetails is what a reply that was still streaming when it was saved says after a
// reload (its text is what the page showed at that save).
const chatPartialDetails = "Interrupted: the reply stopped here when the page closed or reloaded; this is the text saved before that."

// chatsRunStarted keeps the conversation at once when a run starts (its prompt and the
// running state), before the run's first request goes out: a page that reloads right after
// Send still shows the prompt, interrupted, with Retry (nu16 item 5). Later changes are
// coalesced (chatSaveDelay). It blocks on IndexedDB: call it from the run's goroutine.
func chatsRunStarted(a *app) { chatsSaveNow(a) }

// chatsSaveNow saves the conversation without waiting for the coalescing delay, when this tab
// keeps it (it holds the workspace and IndexedDB is available).
func chatsSaveNow(a *app) {
	a.chatState.mu.Lock()
	ok := a.chatState.started && a.chatState.kept
	a.chatState.mu.Unlock()
	if ok {
		chatsSave(a)
	}
}

// chatsRunEnded keeps the conversation at once when a run has closed (its outcome entry, and
// for a provider run its usage line), instead of after the coalescing delay: a page that
// reloads right after a reply finished must show it finished, not "Interrupted"
// (TestChatStreamedAnswerSurvivesReload read the stored reply still streaming after "Ready"
// under load). It blocks on IndexedDB: call it from the run's goroutine.
func chatsRunEnded(a *app) { chatsSaveNow(a) }

// chatsStreamed notes that a streamed reply grew in place (no entry added), so the next
// coalesced save keeps the text shown so far (nu16 item 12).
func (a *app) chatsStreamed() {
	a.chatState.mu.Lock()
	a.chatState.gen++
	a.chatState.mu.Unlock()
}

// chatRestoreKeep are the actions that still work in a new page (recovery by prompt,
// settings, local-agent retry, downloads). Actions bound to the old page's memory (a
// recovery ref, a draft rescue id, a folder handle) are dropped.
var chatRestoreKeep = map[string]bool{
	views.ActionRetryPrompt: true, views.ActionRereadPrompt: true, "provider-local-retry": true,
	"provider-settings": true, "download-zip": true, "refresh-preview": true,
}

// chatMeta is the typed outcome of a run, keyed by its closing entry's Key.
type chatMeta struct {
	State, Prompt, Code string
	Retryable           bool
	Applied             int
}

// chatSession (app.chatState) is the kept conversation's state (guarded by mu).
type chatSession struct {
	mu            sync.Mutex
	store         *chats.Store
	kept          bool // this tab writes chats (lock held, IndexedDB)
	started       bool
	workspace     string
	rec           chats.Record // the current conversation (id, created)
	meta          map[string]chatMeta
	conv          map[string]bool      // keys of the entries that belong to the conversation
	history       []openrouter.Message // the last history read from the session
	lastLen       int
	lastKey       string
	gen           int // bumped when an entry's outcome or text changes in place (a streamed reply)
	lastGen       int
	lastLock      string
	pending       bool
	traceRestored bool
	seq           int
	// written is the last record this tab wrote, without its Updated time (JSON): a save
	// that would write the same conversation again is skipped (chatsSave), so the
	// coalesced save behind an immediate one (chatsRunEnded) rewrites nothing.
	written string
}

func init() {
	registerFeature(&feature{name: "chats", start: chatsStart, render: chatsRender})
}

// chatSecrets are the strings the chat store must never hold: every key the provider
// settings keep (one per endpoint origin).
func (a *app) chatSecrets() []string {
	a.prov.mu.Lock()
	defer a.prov.mu.Unlock()
	out := make([]string, 0, len(a.prov.keys))
	for _, k := range a.prov.keys {
		out = append(out, k)
	}
	return out
}

// chatsStart restores the workspace's newest conversation (or says that chats are not kept).
func chatsStart(a *app, ctx context.Context) {
	a.mu.Lock()
	ws, mode, lock := a.st.rootName, a.st.storageMode, a.lock
	a.mu.Unlock()
	if ws == "" {
		ws = "workspace"
	}
	a.chatState.mu.Lock()
	a.chatState.workspace, a.chatState.lastLock = ws, lock
	a.chatState.kept = mode == "indexed-db" && lock != lockBusy
	a.chatState.mu.Unlock()
	if lock == lockBusy { // read-only: the workspace manager runs in memory mode, IndexedDB is readable
		chatsRestore(a, ctx, ws)
		chatsMarkStarted(a)
		return
	}
	if mode != "indexed-db" {
		a.addEntry(entry{Kind: "info", Text: "Memory only: this chat is not kept. It is gone when the tab closes or reloads."})
		chatsMarkStarted(a)
		return
	}
	chatsRestore(a, ctx, ws)
	chatsMarkStarted(a)
}

func chatsMarkStarted(a *app) {
	a.mu.Lock()
	n := len(a.st.transcript)
	key := ""
	if n > 0 {
		key = a.st.transcript[n-1].Key
	}
	a.mu.Unlock()
	a.chatState.mu.Lock()
	a.chatState.started, a.chatState.lastLen, a.chatState.lastKey = true, n, key
	a.chatState.mu.Unlock()
}

// chatsRestore shows the newest stored conversation of ws before whatever the page already
// shows, and gives its history to the session.
func chatsRestore(a *app, ctx context.Context, ws string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	rec, ok, err := a.chatState.store.Latest(ctx, ws)
	var refused *chats.DecodeError
	switch {
	case errors.As(err, &refused): // a stored record this studio will not show half
		a.addEntry(entry{Kind: "error", Text: "The last conversation could not be restored (" + err.Error() + "). A new one starts; the stored one is left as it was."})
	case err != nil: // the store itself could not be read: nothing is known to be stored
		a.addEntry(entry{Kind: "error", Text: "Kept conversations could not be read from this browser's storage (" + err.Error() + "). This chat starts empty."})
	}
	a.chatState.mu.Lock()
	if !ok {
		a.chatState.seq++
		a.chatState.rec = chats.Record{ID: chats.NewID(time.Now().UnixMilli(), a.chatState.seq), Workspace: ws}
		a.chatState.mu.Unlock()
		return
	}
	a.chatState.rec = chats.Record{ID: rec.ID, Workspace: ws, Created: rec.Created}
	a.chatState.history = rec.History
	restored := chats.Restore(rec, func(act string) bool { return chatRestoreKeep[act] })
	var list []entry
	for i, e := range restored {
		ent := entry{Kind: e.Kind, Text: e.Text, Details: e.Details, Key: "kept-" + rec.ID + "-" + strconv.Itoa(i)}
		for _, x := range e.Actions {
			ent.Actions = append(ent.Actions, entryAction{Label: x.Label, Action: x.Action, Arg: x.Arg})
		}
		a.chatState.conv[ent.Key] = true
		if e.State != "" {
			a.chatState.meta[ent.Key] = chatMeta{State: e.State, Prompt: e.Prompt, Code: e.Code, Retryable: e.Retryable, Applied: e.Applied}
		}
		list = append(list, ent)
	}
	a.chatState.mu.Unlock()
	a.mu.Lock()
	a.st.transcript = append(list, a.st.transcript...)
	if over := len(a.st.transcript) - maxTranscript; over > 0 {
		a.st.transcript = append([]entry(nil), a.st.transcript[over:]...)
	}
	a.mu.Unlock()
	a.markDirty()
	if len(rec.Trace) > 0 && !a.chatState.traceRestored {
		a.chatState.traceRestored = true      // once per page (a takeover restores the chat again)
		a.tracePanel.model.Restore(rec.Trace) // metadata rows only (wasm/trace)
		a.markDirty()
	}
	if len(rec.History) > 0 {
		if err := a.rpc(ctx, "", studio.MethodAgentOpenRouterRestore, map[string]any{"messages": rec.History}, nil); err != nil {
			a.addEntry(entry{Kind: "error", Text: "The conversation is shown again, but the model's history could not be restored (" + err.Error() + "): the next prompt starts a new conversation."})
		}
	}
}

// chatsRender notices a changed transcript (or a lock taken over) and schedules a save. It
// never blocks.
func chatsRender(a *app) {
	a.mu.Lock()
	n := len(a.st.transcript)
	key := ""
	if n > 0 {
		key = a.st.transcript[n-1].Key
	}
	lock := a.lock
	a.mu.Unlock()
	a.chatState.mu.Lock()
	defer a.chatState.mu.Unlock()
	if !a.chatState.started {
		return
	}
	if a.chatState.lastLock == lockBusy && lock == lockHeld {
		// The other tab closed: re-read its conversation, then write from here.
		a.chatState.lastLock = lock
		a.chatState.started = false
		jsbridge.Go("chats.takeOver", func() { chatsTakeOver(a) })
		return
	}
	if !a.chatState.kept || (n == a.chatState.lastLen && key == a.chatState.lastKey && a.chatState.gen == a.chatState.lastGen) {
		return
	}
	a.chatState.lastLen, a.chatState.lastKey, a.chatState.lastGen = n, key, a.chatState.gen
	if a.chatState.pending {
		return
	}
	a.chatState.pending = true
	jsbridge.Go("chats.save", func() {
		time.Sleep(chatSaveDelay)
		a.chatState.mu.Lock()
		a.chatState.pending = false
		a.chatState.mu.Unlock()
		chatsSave(a)
	})
}

// chatsTakeOver runs when this tab becomes the writer: the stored conversation (the other
// tab's last) replaces what this read-only tab showed.
func chatsTakeOver(a *app) {
	for i := 0; i < 50; i++ { // the rebuilt session hydrates from IndexedDB (lock.go)
		a.mu.Lock()
		mode := a.st.storageMode
		a.mu.Unlock()
		if mode == "indexed-db" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	a.mu.Lock()
	ws := a.st.rootName
	mode := a.st.storageMode
	var keep []entry
	for _, e := range a.st.transcript { // keep only what this page said since it opened
		if !strings.HasPrefix(e.Key, "kept-") {
			keep = append(keep, e)
		}
	}
	a.st.transcript = keep
	a.mu.Unlock()
	if ws == "" {
		ws = "workspace"
	}
	a.chatState.mu.Lock()
	a.chatState.kept = mode == "indexed-db"
	a.chatState.workspace = ws
	a.chatState.mu.Unlock()
	if mode == "indexed-db" {
		chatsRestore(a, context.Background(), ws)
	}
	chatsMarkStarted(a)
	a.markDirty()
}

// chatsSave writes the current conversation (a.mu and chatState.mu are taken briefly; the
// IndexedDB write runs without them).
func chatsSave(a *app) {
	a.chatSaveMu.Lock() // one save at a time, in the order of their snapshots
	defer a.chatSaveMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	partialKey := a.streaming.current() // streaming.go: the entry a reply is streaming into
	a.mu.Lock()
	running := a.st.running != ""
	ws := a.st.rootName
	list := append([]entry(nil), a.st.transcript...)
	a.mu.Unlock()
	if !running { // the session's lock is free: read the provider history
		var h struct {
			Messages []openrouter.Message `json:"messages"`
		}
		if err := a.rpc(ctx, "", studio.MethodAgentOpenRouterHistory, nil, &h); err == nil {
			a.chatState.mu.Lock()
			a.chatState.history = h.Messages
			a.chatState.mu.Unlock()
		}
	}
	a.chatState.mu.Lock()
	if !a.chatState.kept || ws == "" && a.chatState.workspace == "" {
		a.chatState.mu.Unlock()
		return
	}
	rec := a.chatState.rec
	rec.Workspace = a.chatState.workspace
	now := time.Now().UnixMilli()
	if rec.Created == 0 {
		rec.Created = now
		a.chatState.rec.Created = now
	}
	rec.Updated = max(now, rec.Created)
	rec.History = a.chatState.history
	var keyOf []string // the transcript key of each kept entry
	for _, e := range list {
		if !a.chatState.conv[e.Key] {
			continue // a page notice (storage, folder, drafts, lock): said again by the next page
		}
		keyOf = append(keyOf, e.Key)
		ce := chats.Entry{Kind: e.Kind, Text: e.Text, Details: e.Details} // chats.Bound repairs the shape
		for _, x := range e.Actions {
			ce.Actions = append(ce.Actions, chats.Action{Label: x.Label, Action: x.Action, Arg: x.Arg})
		}
		if m, ok := a.chatState.meta[e.Key]; ok {
			ce.State, ce.Prompt, ce.Code, ce.Retryable, ce.Applied = m.State, m.Prompt, m.Code, m.Retryable, m.Applied
		}
		rec.Entries = append(rec.Entries, ce)
	}
	if running {
		// The reply streaming now is incomplete: kept as such, so a page that goes away mid
		// stream comes back with the text saved so far marked interrupted, not as an answer
		// (docs/design.md §5.20).
		for i := range rec.Entries {
			if rec.Entries[i].Kind == "agent" && partialKey != "" && keyOf[i] == partialKey {
				rec.Entries[i].Kind, rec.Entries[i].Details = "partial", chatPartialDetails
			}
		}
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].Kind == "user" {
				rec.Running = list[i].Text
				break
			}
		}
	}
	a.chatState.mu.Unlock()
	if len(rec.Entries) == 0 && len(rec.History) == 0 {
		return // nothing said yet: no record
	}
	for _, r := range a.tracePanel.model.Rows(trace.Filter{}) {
		if trace.UIRead(r) {
			continue // the page's own refresh reads: noise the next page makes again
		}
		rec.Trace = append(rec.Trace, r.ExportRow)
	}
	same := rec
	same.Updated = 0
	fp, _ := json.Marshal(same)
	a.chatState.mu.Lock()
	unchanged := string(fp) == a.chatState.written
	a.chatState.mu.Unlock()
	if unchanged {
		return
	}
	if err := a.chatState.store.Save(ctx, rec); err == nil {
		a.chatState.mu.Lock()
		a.chatState.written = string(fp)
		a.chatState.mu.Unlock()
	} else {
		a.log(2, "chat not kept: "+err.Error())
		a.addEntry(entry{Kind: "error", Text: "This chat could not be kept in this browser (" + err.Error() + "). It stays in this page only."})
		a.chatState.mu.Lock()
		a.chatState.kept = false // one message, not one per change
		a.chatState.mu.Unlock()
	}
}

// chatsNew starts a new conversation (New chat): the session's provider history is emptied
// at once (so no save in between can read the old one into the new record), and the next
// save writes a new record. It blocks on the session: call it from a goroutine.
func chatsNew(a *app) {
	if err := a.rpc(context.Background(), "", studio.MethodAgentOpenRouterRestore, map[string]any{"messages": []any{}}, nil); err != nil {
		a.log(2, "new chat: the provider history could not be emptied: "+err.Error())
	}
	now := time.Now().UnixMilli()
	a.chatState.mu.Lock()
	a.chatState.seq++
	a.chatState.rec = chats.Record{ID: chats.NewID(now, a.chatState.seq), Workspace: a.chatState.workspace, Created: now, Updated: now}
	a.chatState.history = nil
	a.chatState.meta = map[string]chatMeta{}
	a.chatState.conv = map[string]bool{}
	rec, kept := a.chatState.rec, a.chatState.kept
	a.chatState.mu.Unlock()
	if !kept {
		return
	}
	// The new, empty conversation is now the workspace's last one: a reload shows it, not the
	// previous one.
	a.chatSaveMu.Lock()
	defer a.chatSaveMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.chatState.store.Save(ctx, rec); err != nil {
		a.addEntry(entry{Kind: "error", Text: "The new chat could not be kept in this browser (" + err.Error() + ")."})
	}
}

// chatsNote classifies an entry as it is added (app.addEntry, under a.mu): the prompt and
// everything said while a run is going belong to the kept conversation; the entry that
// closes a run is added by chatRunEnded / chatLocalRunEnded. Everything else is a page
// notice, which the next page says again if it still holds, so it is not kept.
func (a *app) chatsNote(e entry, running bool) {
	if !running && e.Kind != "user" {
		return
	}
	a.chatState.mu.Lock()
	a.chatState.conv[e.Key] = true
	a.chatState.mu.Unlock()
}

// chatKeepLast marks the transcript's last entry as part of the kept conversation (the
// usage line a provider run ends with).
func (a *app) chatKeepLast() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.st.transcript); n > 0 {
		a.chatState.mu.Lock()
		a.chatState.conv[a.st.transcript[n-1].Key] = true
		a.chatState.gen++
		a.chatState.mu.Unlock()
	}
}

// chatLocalRunEnded marks the entry that closed a local agent run (the transcript's last) as
// part of the conversation, with its outcome.
func (a *app) chatLocalRunEnded(prompt string, cancelled, failed bool) {
	m := chatMeta{State: chats.StateDone, Prompt: prompt}
	switch {
	case cancelled:
		m.State = chats.StateCancelled
	case failed:
		m.State = chats.StateFailed
	}
	a.mu.Lock()
	defer a.markDirty()
	defer a.mu.Unlock()
	if n := len(a.st.transcript); n > 0 {
		k := a.st.transcript[n-1].Key
		a.chatState.mu.Lock()
		a.chatState.meta[k], a.chatState.conv[k] = m, true
		a.chatState.gen++
		a.chatState.mu.Unlock()
	}
}

// chatRunEnded records the typed outcome of the provider run that just closed (its entry is
// the transcript's last) and shows its reasoning text, collapsed, before that entry.
// provider.go calls it once per run.
func (a *app) chatRunEnded(prompt string, rep providerReport, cancelled bool, err error) {
	m := chatMeta{State: chats.StateDone, Prompt: prompt}
	switch {
	case cancelled:
		m.State = chats.StateCancelled
	case err != nil:
		m.State, m.Code = chats.StateFailed, "OPENROUTER_CONFIGURATION_ERROR"
	case rep.Failed:
		m.State = chats.StateFailed
		if rep.Error != nil {
			m.Code, m.Retryable = rep.Error.Code, rep.Error.Retryable
		}
	}
	for _, c := range rep.Calls {
		if !c.Result.IsError && !readOnlyTools[strings.ReplaceAll(c.Request.Name, "_", ".")] && !strings.Contains(c.Request.Name, ".get") &&
			!strings.Contains(c.Request.Name, ".list") && !strings.Contains(c.Request.Name, ".read") {
			m.Applied++
		}
	}
	m.Applied = min(m.Applied, openrouter.MaxToolCalls)
	a.mu.Lock()
	defer a.markDirty()
	defer a.mu.Unlock()
	n := len(a.st.transcript)
	if n == 0 {
		return
	}
	a.chatState.mu.Lock()
	defer a.chatState.mu.Unlock()
	a.chatState.meta[a.st.transcript[n-1].Key] = m
	a.chatState.conv[a.st.transcript[n-1].Key] = true
	a.chatState.gen++ // a streamed final answer adds no entry: save anyway
	if cancelled {    // what it applied stays applied: say so, here and after a reload
		a.st.transcript[n-1].Text = chats.CancelledText(m.Applied)
	}
	if r := strings.TrimSpace(rep.Reasoning); r != "" {
		a.entrySeq++
		re := entry{Kind: "reasoning", Text: "Reasoning", Details: r, Key: strconv.FormatInt(a.entrySeq, 10)}
		a.chatState.conv[re.Key] = true
		a.st.transcript = append(a.st.transcript[:n-1:n-1], re, a.st.transcript[n-1])
	}
}

// providerCall is the part of a report's calls chatRunEnded reads.
type providerCall struct {
	Request struct {
		Name string `json:"name"`
	} `json:"request"`
	Result struct {
		IsError bool `json:"isError"`
	} `json:"result"`
}
