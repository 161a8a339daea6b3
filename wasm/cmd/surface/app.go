//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/iframe"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/adapters/weblock"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
	"github.com/webcoding/studio/wasm/workspace"
)

// Bounds of the page's own lists.
const (
	maxEntries   = 200 // chat entries kept (oldest dropped)
	maxTraceRows = 60  // trace rows kept
)

// pageReadPrefix marks the page's own refresh reads (their toolCallId): they are left out of
// the trace region and of the chat, and their completion triggers no refresh.
const pageReadPrefix = "page-read-"

// toolDef is one tools/list entry as the palette reads it.
type toolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations *struct {
		ReadOnlyHint    bool `json:"readOnlyHint"`
		DestructiveHint bool `json:"destructiveHint"`
		IdempotentHint  bool `json:"idempotentHint"`
	} `json:"annotations"`
}

// card is one palette card's state.
type card struct {
	def     toolDef
	fields  []surfaceview.Field
	result  *surfaceview.CardResult
	running bool
}

// state is what the page renders; guarded by app.mu.
type state struct {
	ready, failed bool
	booted        bool // tools listed and the workspace read once
	statusText    string
	lock          string
	cards         []*card
	preview       iframe.Status
	acked         bool // a preview acknowledgement arrived since the last session build

	// The document (Live) or the chosen file (realtime) the editor shows.
	files      []string
	active     string
	source     string
	base       int64 // the revision the editor text is based on (Live: document; realtime: workspace)
	wsRev      int64
	docRev     int64
	scenario   string
	dirty      []string
	folderName string
	rootName   string // Live: the workspace's root name (the folder it came from, or the examples')
	conflict   string
	notice     string
	recover    *unknownSave // Live: a save whose outcome is unknown, until checked
	run        *surfaceview.ScenarioRun
	busy       bool

	entries   []surfaceview.Entry
	approvals []registry.Approval
	running   string // JSON-RPC id of the running prompt, "" when idle
	prompt    string
	provForm  surfaceview.ProviderForm // the provider fields as typed (Kind, Endpoint, Model, Error)
	retries   map[string]string        // entry key → the prompt a failed provider run was given
	trace     []surfaceview.TraceRow
}

type app struct {
	surface string
	names   names
	h       *rpcsession.Handler
	base    studio.Ports

	portMu  sync.Mutex
	port    *iframe.Port            // the current build's preview port
	portGen int                     // numbers the builds; stale ports' changes are dropped
	folder  workspace.FolderAdapter // Live: the connected folder (nil none)

	flushMu sync.Mutex // serializes draft writes

	keyMu  sync.Mutex
	choice studio.ProviderChoice // the provider prompts run (zero: the local agent)
	key    string                // its key ("" none): this page's memory only

	mu       sync.Mutex
	st       state
	entrySeq int
	subs     jsbridge.Subscribers // webcodingSubscribe's callbacks
	editor   editorState
	starts   map[string]time.Time // traced calls' start times

	reqID   atomic.Int64
	dirty   chan struct{}
	refresh chan struct{}

	// render loop only
	lastHTML  map[string]string
	listeners []js.Func
}

func newApp(surface string) *app {
	return &app{surface: surface, dirty: make(chan struct{}, 1), refresh: make(chan struct{}, 1),
		st: state{statusText: "Loading…"}, lastHTML: map[string]string{}}
}

func (a *app) log(level int, msg string) {
	method := "log"
	if level >= 2 {
		method = "warn"
	}
	js.Global().Get("console").Call(method, "webcoding: "+msg)
}

// fatal shows a failure that stops the page (body[data-state=failed]).
func (a *app) fatal(msg string) {
	a.mu.Lock()
	a.st.failed, a.st.statusText = true, "Failed: "+msg
	a.mu.Unlock()
	a.log(2, msg)
	a.markDirty()
}

func (a *app) setLock(s weblock.State) {
	a.mu.Lock()
	a.st.lock = string(s)
	a.mu.Unlock()
	a.markDirty()
}

func (a *app) readOnly() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.st.lock == weblock.Busy
}

func (a *app) markDirty() {
	select {
	case a.dirty <- struct{}{}:
	default:
	}
}

func (a *app) requestRefresh() {
	select {
	case a.refresh <- struct{}{}:
	default:
	}
}

// rpc sends one JSON-RPC request through the handler and decodes the result into out (may be
// nil). The error is the JSON-RPC error's message.
func (a *app) rpc(ctx context.Context, id, method string, params any, out any) error {
	if id == "" {
		id = "ui-" + strconv.FormatInt(a.reqID.Add(1), 10)
	}
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	raw, _ := json.Marshal(req)
	resp := a.h.Handle(ctx, raw)
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return fmt.Errorf("%s: bad response: %w", method, err)
	}
	if r.Error != nil {
		return fmt.Errorf("%s: %s", method, strings.TrimPrefix(r.Error.Message, method+": "))
	}
	if out != nil {
		return json.Unmarshal(r.Result, out)
	}
	return nil
}

// notify sends a JSON-RPC notification.
func (a *app) notify(ctx context.Context, method string, params any) {
	raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	a.h.Handle(ctx, raw)
}

// call runs one tool as the page (source local, mode direct; meta adds _meta members) and
// returns its structuredContent, the *mcp.ToolError of a tool error, or the JSON-RPC error.
func (a *app) call(ctx context.Context, name string, args map[string]any, meta map[string]any) (json.RawMessage, error) {
	if args == nil {
		args = map[string]any{}
	}
	m := map[string]any{"source": "local", "mode": "direct"}
	for k, v := range meta {
		m[k] = v
	}
	var res mcp.CallToolResult
	if err := a.rpc(ctx, "", "tools/call", map[string]any{"name": name, "arguments": args, "_meta": m}, &res); err != nil {
		return nil, err
	}
	if res.IsError {
		if res.Error == nil {
			return nil, &mcp.ToolError{Code: mcp.CodeToolExecutionFailed, Message: name + " failed"}
		}
		return res.StructuredContent, res.Error
	}
	return res.StructuredContent, nil
}

// read is a page refresh read (left out of the trace region: pageReadPrefix).
func (a *app) read(ctx context.Context, name string, args map[string]any, out any) error {
	raw, err := a.call(ctx, name, args, map[string]any{"toolCallId": pageReadPrefix + strconv.FormatInt(a.reqID.Add(1), 10)})
	if err != nil {
		return err
	}
	if out != nil && len(raw) > 0 {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// act runs a button's tool call (one tools/call, direct mode) and shows a failure as the
// document notice (a revision conflict as the conflict line). It returns the result.
func (a *app) act(ctx context.Context, name string, args map[string]any, meta map[string]any) (json.RawMessage, bool) {
	a.setBusy(true)
	raw, err := a.call(ctx, name, args, meta)
	a.setBusy(false)
	a.mu.Lock()
	if err != nil {
		var te *mcp.ToolError
		if errors.As(err, &te) && te.Code == mcp.CodeWorkspaceRevisionConflict {
			a.st.conflict = name + ": " + te.Error()
		} else if key, ok := meta["idempotencyKey"].(string); ok && errors.As(err, &te) && te.Code == mcp.CodeToolExecutionUnknown {
			// A keyed save cut short: offer to check the folder (live.go recoverSave).
			a.st.recover = &unknownSave{tool: name, key: key}
			a.st.notice = name + ": " + err.Error()
		} else {
			a.st.notice = name + ": " + err.Error()
		}
	} else {
		a.st.notice = ""
	}
	a.mu.Unlock()
	a.requestRefresh()
	a.markDirty()
	return raw, err == nil
}

func (a *app) setBusy(on bool) {
	a.mu.Lock()
	a.st.busy = on
	a.mu.Unlock()
	a.markDirty()
}

// handlerEvent follows the dispatcher's events: the pending approvals and a rebuilt session.
// It runs on the goroutine that made the change and must not block.
func (a *app) handlerEvent(e rpcsession.Event) {
	switch e.Kind {
	case "approvals":
		a.mu.Lock()
		a.st.approvals = e.Approvals
		a.mu.Unlock()
		a.emit(map[string]any{"kind": "approvals", "approvals": e.Approvals})
		a.markDirty()
		a.requestRefresh()
	case "session":
		// A new session (folder connected, lock granted): its document and port are new, so
		// the editor takes the new text and the next acknowledgement is awaited again.
		a.mu.Lock()
		a.st.run, a.st.conflict = nil, ""
		a.st.base = 0
		a.mu.Unlock()
		a.dropDraft()
		a.emit(map[string]any{"kind": "session"})
		jsbridge.Go("session.reload", func() {
			a.reload(context.Background())
			a.ensureMounted(context.Background())
		})
	}
}

// observe receives every tool-call lifecycle event (Ports.Observer); it must not block.
func (a *app) observe(e audit.ToolCallEvent) {
	ev := map[string]any{"kind": "tool", "type": e.Type, "name": e.Name, "toolCallId": e.ToolCallID, "source": e.Source, "mode": e.Mode}
	if e.Result != nil {
		ev["isError"] = e.Result.IsError
		if e.Result.Error != nil {
			ev["errorCode"] = e.Result.Error.Code
		}
	}
	a.emit(ev)
	if strings.HasPrefix(e.ToolCallID, pageReadPrefix) {
		return
	}
	a.mu.Lock()
	row := surfaceview.TraceRow{Key: e.ToolCallID, Name: e.Name, Source: e.Source, Mode: e.Mode, State: "running"}
	idx := -1
	for i := range a.st.trace {
		if a.st.trace[i].Key == e.ToolCallID {
			idx = i
		}
	}
	if e.Type != audit.EventStarted {
		row.State = "ok"
		if e.Type == audit.EventFailed || e.Result == nil || e.Result.IsError {
			row.State = "error"
			if e.Result != nil && e.Result.Error != nil {
				row.Code = string(e.Result.Error.Code)
			}
		}
		if idx >= 0 {
			if t := a.traceStart(idx); !t.IsZero() {
				row.Ms = e.At.Sub(t).Milliseconds()
			}
		}
	}
	if idx >= 0 {
		row.Ms = max(row.Ms, 0)
		start := a.st.trace[idx]
		row.Source, row.Mode = firstNonEmpty(row.Source, start.Source), firstNonEmpty(row.Mode, start.Mode)
		a.st.trace[idx] = row
	} else {
		a.st.trace = append(a.st.trace, row)
		a.startTimes(e.ToolCallID, e.At)
		if over := len(a.st.trace) - maxTraceRows; over > 0 {
			a.st.trace = append([]surfaceview.TraceRow(nil), a.st.trace[over:]...)
		}
	}
	a.mu.Unlock()
	if e.Type != audit.EventStarted && e.Mode == "agent" && e.Name != studio.AgentRequestName {
		text := "✓ " + e.Name
		kind := "call"
		if row.State == "error" {
			kind, text = "error", "✗ "+e.Name
			if e.Result != nil && e.Result.Error != nil {
				text += " [" + string(e.Result.Error.Code) + "] " + e.Result.Error.Message
			}
		}
		a.addEntry(surfaceview.Entry{Kind: kind, Text: text})
	}
	if e.Type != audit.EventStarted {
		a.requestRefresh()
	}
	a.markDirty()
}

// startTimes remembers each traced call's start time (guarded by mu; bounded like the rows).
func (a *app) startTimes(id string, at time.Time) {
	if a.starts == nil || len(a.starts) > 4*maxTraceRows {
		a.starts = map[string]time.Time{}
	}
	a.starts[id] = at
}

func (a *app) traceStart(idx int) time.Time { return a.starts[a.st.trace[idx].Key] }

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// addEntry appends a chat entry with a fresh key (so the morph keeps each entry's element).
func (a *app) addEntry(e surfaceview.Entry) {
	a.mu.Lock()
	a.entrySeq++
	if e.Key == "" {
		e.Key = strconv.Itoa(a.entrySeq)
	}
	a.st.entries = append(a.st.entries, e)
	if over := len(a.st.entries) - maxEntries; over > 0 {
		a.st.entries = append([]surfaceview.Entry(nil), a.st.entries[over:]...)
	}
	a.mu.Unlock()
	a.markDirty()
}

// previewChanged is the OnChange of the port of build gen; a stale port's change is dropped.
func (a *app) previewChanged(gen int, s iframe.Status) {
	a.portMu.Lock()
	current := gen == a.portGen
	a.portMu.Unlock()
	if !current {
		return
	}
	a.mu.Lock()
	a.st.preview = s
	if s.State == iframe.StateAcknowledged {
		a.st.acked = true
		// The fallback's "not acknowledged yet" is no longer true (new-user finding: it stayed
		// beside "Preview acknowledged").
		a.st.notice = strings.TrimSpace(strings.ReplaceAll(a.st.notice, noAckNotice, ""))
	}
	a.mu.Unlock()
	a.emit(map[string]any{"kind": "preview", "status": s})
	a.markDirty()
}

// emit sends one event to every webcodingSubscribe callback (from a goroutine;
// jsbridge.Subscribers).
func (a *app) emit(ev map[string]any) { a.subs.Emit(ev) }

// exposeGlobals installs webcodingHandle and webcodingSubscribe (jsbridge: the same globals
// on every page of the site).
func (a *app) exposeGlobals() {
	jsbridge.ExposeHandle(func(ctx context.Context, req []byte) []byte { return a.h.Handle(ctx, req) })
	a.subs.Expose()
}

// boot lists the tools (the palette), reads the workspace, mounts the first preview where the
// surface did not, and starts the refresh loop.
func (a *app) boot(ctx context.Context) {
	var list struct {
		Tools []toolDef `json:"tools"`
	}
	if err := a.rpc(ctx, "", "tools/list", map[string]any{}, &list); err != nil {
		a.fatal(err.Error())
		return
	}
	cards := make([]*card, 0, len(list.Tools))
	for _, t := range list.Tools {
		fields, err := surfaceview.FieldsFromSchema(t.InputSchema, surfaceview.Example(t.Name))
		if err != nil {
			a.log(2, t.Name+": inputSchema: "+err.Error())
		}
		cards = append(cards, &card{def: t, fields: fields})
	}
	a.mu.Lock()
	a.st.cards = cards
	a.st.statusText = "Ready"
	if a.st.lock == weblock.Busy {
		a.st.notice = "Read-only: this workspace is open in another tab of this browser, which saves it. Close that tab to edit here."
	}
	a.mu.Unlock()
	a.reload(ctx)
	a.ensureMounted(ctx)
	a.mu.Lock()
	a.st.booted = true
	a.mu.Unlock()
	a.emit(map[string]any{"kind": "ready", "tools": len(cards)})
	a.markDirty()
	jsbridge.Go("refreshLoop", func() {
		for range a.refresh {
			a.reload(context.Background())
		}
	})
	// The page is usable without an acknowledgement (a preview that never answers says so):
	// after a bounded wait it is ready anyway.
	jsbridge.Go("readyFallback", func() {
		time.Sleep(readyWait)
		a.mu.Lock()
		late := !a.st.acked
		if late {
			a.st.acked = true
			a.st.notice = strings.TrimSpace(a.st.notice + " " + noAckNotice)
		}
		a.mu.Unlock()
		a.markDirty()
	})
}

// noAckNotice is the notice of a page that became ready without an acknowledgement; the first
// acknowledgement removes it.
const noAckNotice = "The preview has not acknowledged a revision yet."

// readyWait bounds how long the page waits for the first acknowledgement before it is ready.
const readyWait = 10 * time.Second

// reload re-reads what the page shows (surface-specific, live.go / realtime.go).
func (a *app) reload(ctx context.Context) {
	if a.surface == surfaceview.Live {
		a.reloadLive(ctx)
	} else {
		a.reloadRealtime(ctx)
	}
	a.markDirty()
}

// ensureMounted mounts the current workspace in a port that shows nothing yet (realtime: the
// surface mounts only on a mutation; Live mounts its document at every build).
func (a *app) ensureMounted(ctx context.Context) {
	if a.surface == surfaceview.Realtime {
		a.mountRealtime(ctx)
	}
}

// jsonIndent formats raw for a result card ("" stays "").
func jsonIndent(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}
