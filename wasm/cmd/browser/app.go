//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/idb"
	"github.com/webcoding/studio/wasm/adapters/iframe"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/chats"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/toolcatalog"
	"github.com/webcoding/studio/wasm/trace"
	"github.com/webcoding/studio/wasm/ui/markup"
	"github.com/webcoding/studio/wasm/ui/views"
)

// Bounds of the UI's own lists.
const (
	maxTranscript = 200 // transcript entries kept (oldest dropped)
	maxLogLines   = 50
)

// fileRow is one workspace.listFiles entry.
type fileRow struct {
	Path     string `json:"path"`
	Language string `json:"language"`
	Size     int    `json:"size"`
	Kind     string `json:"kind"`
	Dirty    bool   `json:"dirty"`
}

// entry is one transcript line (wasm/ui/views.Entry).
type entry = views.Entry

// state is everything the UI renders; guarded by app.mu.
type state struct {
	ready        bool
	tools        int
	statusText   string
	rootName     string
	activePath   string
	revision     int64
	storageMode  string
	storageError string
	saving       bool // a mutating call is running and not waiting for approval (writing)
	files        []fileRow
	source       string
	sourcePath   string
	sourceRev    int64
	approvals    []registry.Approval
	transcript   []entry
	running      string // JSON-RPC id of the running agent/run, "" when idle
	preview      iframe.Status
	focusApprove bool
	persistence  string // "persistent storage granted" / "… not granted" / ""
	notice       string // a page-level notice (read-only second tab), "" for none
	updateReady  bool   // a new deployment took over: offer "Reload studio"
}

type app struct {
	h    *rpcsession.Handler
	port *iframe.Port
	lock string // lockHeld, lockBusy, lockUnsupported or lockBlocked (set before the loops start)

	mu   sync.Mutex
	st   state
	subs jsbridge.Subscribers // webcodingSubscribe's callbacks

	reqID    atomic.Int64
	runSeq   atomic.Int64
	dirty    chan struct{} // coalesced render requests
	refresh  chan struct{} // coalesced workspace re-reads
	firstAck atomic.Bool
	// deferRender: the next render waits for a fresh JavaScript task (markDirtyAfterTask).
	deferRender atomic.Bool

	// guarded by mu
	writes     map[string]bool // toolCallId → running mutating call (observe, savingLocked)
	entrySeq   int64           // the last transcript entry key (addEntry)
	cancelled  bool            // the running agent/run was cancelled
	draftPath  string          // editor draft not yet written ("" none)
	draftText  string
	draftGen   int
	flushedGen int          // the draftGen last written
	shownPath  string       // the file the editor widget shows
	shownText  string       // the text the editor widget holds (set by Go or typed)
	cursor     editorCursor // the widget's caret and line count
	// caretPath/caretLine: a caret move (a palette result) waiting for the editor to show
	// caretPath; renderEditor applies it (palette.go requestCaret).
	caretPath  string
	caretLine  int
	flushMu    sync.Mutex     // serializes draft flushes
	dialog     *pendingDialog // the open file dialog's request, nil when closed
	fullscreen bool           // the preview panel fills the window

	// The features' own state, grouped by the part of the page it belongs to (embedded, so a
	// feature reads a.tabs, a.catalog…). Nothing mutable lives in package-level variables:
	// wasm/layout_test.go TestBrowserNoMutableGlobals (docs/design.md §5.28).
	chatUI
	workspaceUI
	panelsUI
	renderUI
}

// chatUI is the chat's state: the kept conversation, the running prompts and provider runs,
// streamed replies, denials, recovery buttons, rescued drafts, pick chips and confirmations.
type chatUI struct {
	chatState      chatSession       // chats.go
	chatSaveMu     sync.Mutex        // serializes conversation saves (chats.go)
	runPrompts     runPromptTable    // recovery.go
	recoveryStore  recoveryTable     // recovery.go
	denials        denialTable       // denial.go
	approvalDiffs  approvalDiffTable // approval.go
	rescued        rescuedDrafts     // draftrescue.go
	streaming      *streamState      // streaming.go
	sessionUsage   usageTotal        // streaming.go
	providerRunSeq atomic.Int64      // numbers the provider runs' JSON-RPC ids (provider.go)
	pickUI         pickState         // pick.go
	confirmDialog  confirmState      // feature.go
}

// workspaceUI is the state of the explorer, tabs, editor drafts, history and folder link.
type workspaceUI struct {
	tree            *treeState      // tree.go
	tabs            *tabsState      // tabs.go
	folderUIState   *folderState    // folder.go
	hist            historyState    // history.go
	histState       undoRedoState   // undo_redo_buttons.go
	kept            keptDrafts      // keptdrafts.go
	overBudgetShown overBudgetNote  // draftstore.go
	burst           typingBurst     // editor.go
	typingWriting   typingWriteFlag // editor.go
}

// panelsUI is the state of the inspector panels, dialogs, preview options and settings.
type panelsUI struct {
	inspector   inspectorState    // inspector.go
	tracePanel  tracePanelState   // trace.go
	catalog     catalogPanel      // catalog.go
	palette     paletteState      // palette.go
	auditState  auditPanel        // preview_audit.go
	deviceState deviceChoice      // preview_device.go
	prov        *providerSettings // settings.go
	focusState  focusTracker      // focus.go
}

// renderUI is the render loop's own memory (render loop only, no lock) and the page's
// listeners.
type renderUI struct {
	// lastHTML remembers what each region holds, so unchanged regions are not touched at all.
	lastHTML map[string]string
	// The larger regions' HTML memoized on its input (render.go transcriptHTML, consoleHTML).
	memoEntries     []entry
	memoEntryHT     markup.HTML
	memoConsole     []iframe.ConsoleLine
	memoConsHT      markup.HTML
	transcriptStats transcriptCounts // streaming.go
	listeners       []js.Func        // kept referenced for the life of the page (events.go on)
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func newApp() *app {
	a := &app{dirty: make(chan struct{}, 1), refresh: make(chan struct{}, 1),
		st: state{statusText: "Loading…", storageMode: "loading"}}
	a.chatState = chatSession{store: &chats.Store{Backend: idb.NewChats(), Secrets: a.chatSecrets}, meta: map[string]chatMeta{}, conv: map[string]bool{}}
	a.rescued.drafts = map[string]rescuedDraft{}
	a.streaming = &streamState{}
	a.tree = &treeState{collapsed: map[string]bool{}, byID: map[string]*treeNode{}, parent: map[string]*treeNode{}}
	a.tabs = &tabsState{ids: map[string]string{}}
	a.folderUIState = &folderState{perm: "disconnected", refresh: make(chan struct{}, 1)}
	a.hist.refresh = make(chan struct{}, 1)
	a.kept.store, a.kept.drafts = idb.NewDrafts(), map[string]idb.Draft{}
	a.tracePanel.model, a.tracePanel.expanded = trace.New(trace.Options{}), map[string]bool{}
	a.catalog.scope = toolcatalog.ScopeAll
	a.prov = newProviderSettings()
	a.lastHTML = map[string]string{}
	return a
}

func (a *app) log(level int, msg string) {
	method := "log"
	if level >= 2 {
		method = "warn"
	}
	js.Global().Get("console").Call(method, "webcoding: "+msg)
}

// rpc sends one JSON-RPC request through the handler and decodes the result into out (may be
// nil). The error is the JSON-RPC error message, if any.
func (a *app) rpc(ctx context.Context, id, method string, params any, out any) error {
	if id == "" {
		id = "ui-" + strconv.FormatInt(a.reqID.Add(1), 10)
	}
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	raw, _ := json.Marshal(req)
	resp := a.handle(ctx, raw)
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return fmt.Errorf("%s: bad response: %w", method, err)
	}
	if r.Error != nil { // the core's message may already name the method: name it once
		return fmt.Errorf("%s: %s", method, bytes.TrimPrefix([]byte(r.Error.Message), []byte(method+": ")))
	}
	if out != nil {
		return json.Unmarshal(r.Result, out)
	}
	return nil
}

// handle is the one way into the core.
func (a *app) handle(ctx context.Context, req []byte) []byte {
	return a.h.Handle(ctx, req)
}

// toolResult is the part of a CallToolResult the UI reads.
type toolResult struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Error             *struct {
		Code      string          `json:"code"`
		Message   string          `json:"message"`
		Retryable bool            `json:"retryable"`
		Details   json.RawMessage `json:"details"`
	} `json:"error"`
}

// tool calls a tool in direct mode as the UI (source local), decoding structuredContent
// into out. A tool error is returned as a *toolCallError ("[CODE] message"; recovery.go).
func (a *app) tool(ctx context.Context, name string, args any, out any) error {
	if args == nil {
		args = map[string]any{}
	}
	if !readOnlyTools[name] { // typed text lands before any UI change (draftrescue.go)
		a.flushPending(ctx)
	}
	var res toolResult
	params := map[string]any{"name": name, "arguments": args, "_meta": map[string]any{"source": "local", "mode": "direct"}}
	if err := a.rpc(ctx, "", "tools/call", params, &res); err != nil {
		return err
	}
	if res.IsError {
		if res.Error != nil {
			return &toolCallError{Tool: name, Args: args, Code: res.Error.Code, Message: res.Error.Message,
				Retryable: res.Error.Retryable, Details: res.Error.Details}
		}
		return fmt.Errorf("%s failed", name)
	}
	if out != nil && len(res.StructuredContent) > 0 {
		return json.Unmarshal(res.StructuredContent, out)
	}
	return nil
}

// handlerEvent follows the dispatcher's events (rpcsession.Handler.Subscribe): the pending
// approvals, and a session replaced by session/configure. It runs on the goroutine that made
// the change and must not block. Nothing here inspects request bytes.
func (a *app) handlerEvent(e rpcsession.Event) {
	switch e.Kind {
	case "approvals":
		a.approvalsChanged(e.Approvals)
		a.requestRefresh() // a resolved approval may have changed what the page shows
	case "session":
		a.requestRefresh()
	}
}

// approvalsChanged runs on the goroutine that changed the queue; it must not block.
func (a *app) approvalsChanged(list []registry.Approval) {
	a.mu.Lock()
	grew := len(list) > 0 && (len(a.st.approvals) == 0 || list[0].ID != a.st.approvals[0].ID)
	a.st.approvals = list
	if grew {
		a.st.focusApprove = true
	}
	a.mu.Unlock()
	a.emit(map[string]any{"kind": "approvals", "approvals": list})
	a.markDirty()
}

// readOnlyTools are the reads the UI itself makes on every refresh; their completion does not
// trigger another refresh.
var readOnlyTools = map[string]bool{"workspace.listFiles": true, "workspace.getStatus": true,
	"workspace.readFile": true, "preview.getStatus": true, "workspace.openFile": false, "preview.audit": true}

// trackWrite keeps the running mutating calls (a tool without readOnlyHint; before the
// catalog is loaded, any tool but the page's own reads): such a call returns only after its
// IndexedDB write (docs/design.md §5.38), so while one runs — and is not waiting for the
// user's approval — the header says "Saving…" rather than "Saved in this browser".
func (a *app) trackWrite(e audit.ToolCallEvent) {
	if e.ToolCallID == "" || e.Name == studio.AgentRequestName {
		return
	}
	a.catalog.mu.Lock()
	mutating := !readOnlyTools[e.Name]
	if t, ok := a.catalogToolLocked(e.Name); ok {
		mutating = t.Annotations == nil || !t.Annotations.ReadOnlyHint
	}
	a.catalog.mu.Unlock()
	if !mutating {
		return
	}
	a.mu.Lock()
	if a.writes == nil {
		a.writes = map[string]bool{}
	}
	if e.Type == audit.EventStarted {
		a.writes[e.ToolCallID] = true
	} else {
		delete(a.writes, e.ToolCallID)
	}
	a.mu.Unlock()
	a.markDirtyAfterTask() // off the call's own path, like the preview's renders
}

// savingLocked reports whether a running mutating call is not waiting for approval; a.mu held.
func (a *app) savingLocked() bool {
	for id := range a.writes {
		waiting := false
		for _, ap := range a.st.approvals {
			if ap.ToolCallID == id {
				waiting = true
				break
			}
		}
		if !waiting {
			return true
		}
	}
	return false
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
	a.trackWrite(e)
	for _, f := range features {
		if f.observe != nil {
			f.observe(a, e)
		}
	}
	if e.Type == audit.EventStarted || (e.Mode != "agent" && readOnlyTools[e.Name]) || e.Name == studio.AgentRequestName {
		return // the agent.request bracket is for the trace; the run reports itself
	}
	if e.Mode == "agent" {
		text := "✓ " + e.Name
		kind := "result"
		if e.Result == nil || e.Result.IsError {
			kind, text = "error", "✗ "+e.Name
			if e.Result != nil && e.Result.Error != nil {
				msg := e.Result.Error.Message
				if m, ok := a.takeDenial(e); ok { // the user's Deny (denial.go)
					msg = m
				}
				text += " [" + string(e.Result.Error.Code) + "] " + msg
			}
		}
		ent := entry{Kind: kind, Text: text}
		if kind == "error" {
			ent = a.agentCallFailure(ent, e) // details and recovery actions (recovery.go)
		}
		a.addEntry(ent)
	}
	a.requestRefresh()
}

// addEntry appends e to the transcript. Every entry gets a Key from a counter (unless it has
// one), so its element id stays the same when older entries are dropped and the morph keeps
// every entry's element (and a streamed reply can append to it).
func (a *app) addEntry(e entry) {
	a.mu.Lock()
	if e.Key == "" {
		a.entrySeq++
		e.Key = strconv.FormatInt(a.entrySeq, 10)
	}
	a.st.transcript = append(a.st.transcript, e)
	a.chatsNote(e, a.st.running != "") // chats.go: run entries belong to the kept conversation
	if over := len(a.st.transcript) - maxTranscript; over > 0 {
		a.st.transcript = append([]entry(nil), a.st.transcript[over:]...)
	}
	a.mu.Unlock()
	a.markDirty()
}

// previewChanged is the iframe port's OnChange (called from a goroutine).
func (a *app) previewChanged(s iframe.Status) {
	a.mu.Lock()
	a.st.preview = s
	a.mu.Unlock()
	if s.State == iframe.StateAcknowledged && a.firstAck.CompareAndSwap(false, true) {
		setTiming("firstAck", s.AckAt)
	}
	a.emit(map[string]any{"kind": "preview", "status": s})
	a.markDirtyAfterTask()
}

func setTiming(name string, ms float64) {
	t := js.Global().Get("webcodingTimings")
	if t.Type() != js.TypeObject {
		t = js.Global().Get("Object").New()
		js.Global().Set("webcodingTimings", t)
	}
	t.Set(name, ms)
}

// now is performance.now() in ms.
func now() float64 { return js.Global().Get("performance").Call("now").Float() }

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

// emit sends one event to every webcodingSubscribe callback (from a goroutine;
// jsbridge.Subscribers).
func (a *app) emit(ev map[string]any) { a.subs.Emit(ev) }

// exposeGlobals installs webcodingHandle and webcodingSubscribe (jsbridge: the same globals
// on every page of the site).
func (a *app) exposeGlobals() {
	jsbridge.ExposeHandle(func(ctx context.Context, req []byte) []byte { return a.handle(ctx, req) })
	a.subs.Expose()
}

// start lists the tools (the session is already in approval queue mode, browserBuilder),
// mounts the first preview, and runs the render and refresh
// loops. It returns once the loops run.
func (a *app) start(ctx context.Context) {
	a.bindDOM()
	go a.renderLoop()
	jsbridge.Go("refreshLoop", a.refreshLoop)
	jsbridge.Go("boot", func() {
		var list struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := a.rpc(ctx, "", "tools/list", map[string]any{}, &list); err != nil {
			a.fail(err)
			return
		}
		a.mu.Lock()
		a.st.ready, a.st.tools, a.st.statusText = true, len(list.Tools), "Ready"
		if a.lock == lockBusy {
			a.st.notice = "Read-only: this workspace is open in another tab. Changes here are not saved; close the other tab and reload to edit."
		}
		a.mu.Unlock()
		setTiming("coreReady", now())
		a.emit(map[string]any{"kind": "ready", "tools": len(list.Tools)})
		a.reload(ctx)
		jsbridge.Go("persist", a.requestPersistence)
		if err := a.bootPreview(ctx); err != nil {
			a.addEntry(entry{Kind: "error", Text: "Preview: " + err.Error()})
		}
		a.reload(ctx)
		for _, f := range features {
			if f.start != nil {
				f := f
				jsbridge.Go("start."+f.name, func() { f.start(a, ctx) })
			}
		}
	})
}

// bootPreview mounts the workspace at start-up (preview.refresh). The first mount competes
// with the studio's own first render for the main thread, so on a slow or busy machine its
// acknowledgement can miss the 2.5 s budget although the page is fine; no caller waits on it.
// Then (and only for an acknowledgement timeout) it mounts once more in a fresh frame, after
// a short pause, and says so in the chat; a page that times out twice (a script that never
// ends) stays "timed out" (design.md §5.30).
func (a *app) bootPreview(ctx context.Context) error {
	err := a.tool(ctx, "preview.refresh", nil, nil)
	var te *toolCallError
	if !errors.As(err, &te) || te.Code != string(mcp.CodePreviewAckTimeout) {
		return err
	}
	select {
	case <-ctx.Done():
		return err
	case <-time.After(bootRetryPause):
	}
	if err := a.tool(ctx, "preview.refresh", nil, nil); err != nil {
		return err
	}
	a.addEntry(entry{Kind: "info", Text: "Preview: the first mount did not answer within 2.5 s while the studio was starting; it was mounted again and answered."})
	return nil
}

// bootRetryPause is how long bootPreview waits before its one second mount.
const bootRetryPause = 300 * time.Millisecond

func (a *app) fail(err error) {
	a.mu.Lock()
	a.st.statusText = "Studio failed to start: " + err.Error()
	a.mu.Unlock()
	a.markDirty()
}

// refreshLoop re-reads the workspace after changes (coalesced).
func (a *app) refreshLoop() {
	for range a.refresh {
		a.reload(context.Background())
	}
}

// reload re-reads what the page shows (file list, status, the active file's text) in one
// untraced studio.MethodPageView read: the page's own refreshes add no trace rows (issue 15).
func (a *app) reload(ctx context.Context) {
	a.mu.Lock()
	knownPath, knownRev := a.st.sourcePath, a.st.sourceRev
	a.mu.Unlock()
	var view struct {
		Status struct {
			RootName     string `json:"rootName"`
			ActivePath   string `json:"activePath"`
			Revision     int64  `json:"revision"`
			StorageMode  string `json:"storageMode"`
			StorageError string `json:"storageError"`
			History      struct {
				CanUndo bool `json:"canUndo"`
				CanRedo bool `json:"canRedo"`
			} `json:"history"`
		} `json:"status"`
		Files  []fileRow `json:"files"`
		Source *string   `json:"source"`
	}
	params := map[string]any{"knownPath": knownPath, "knownRevision": knownRev}
	if err := a.rpc(ctx, "", studio.MethodPageView, params, &view); err != nil {
		a.log(2, "page view: "+err.Error())
		return
	}
	st := view.Status
	a.setHistoryState(st.History.CanUndo, st.History.CanRedo) // undo_redo_buttons.go
	a.mu.Lock()
	a.st.activePath, a.st.revision, a.st.files = st.ActivePath, st.Revision, view.Files
	a.st.storageMode, a.st.storageError, a.st.rootName = st.StorageMode, st.StorageError, st.RootName
	if st.ActivePath != "" && (st.ActivePath != a.st.sourcePath || st.Revision != a.st.sourceRev) {
		src, known := "", view.Source != nil
		if known {
			src = *view.Source
		}
		for _, f := range view.Files {
			if f.Path == st.ActivePath && f.Kind == "asset" {
				src, known = "(binary asset: "+strconv.Itoa(f.Size)+" bytes)", true
			}
		}
		// No source: the read was for the text the page already showed when it asked (a
		// concurrent reload has moved on since); keep what is shown.
		if known {
			a.st.source, a.st.sourcePath, a.st.sourceRev = src, st.ActivePath, st.Revision
		}
	}
	a.mu.Unlock()
	a.markDirtyAfterTask()
}

// renderLoop renders after every state change (coalesced; at most one render per frame).
//
// Measured alternative (docs/performance.md): waiting for the next paint after a keystroke
// (requestAnimationFrame, so the render leaves the keystroke's callback) made keystroke → paint
// worse while model writes recompiled the preview — more JS → Go entries per key — and was
// removed.
//
// A render requested by markDirtyAfterTask (a preview change, the re-read after a tool call)
// first waits for a fresh JavaScript task, so it never runs inside the callback that
// delivered the preview's acknowledgement (docs/performance.md, "Edit → ack A/B
// (2026-12-06)": the tool's Promise resolved 17–22 ms later for that render).
//
// A panic inside one render is recovered and logged, and the next change renders again
// (views.RenderLoop): one bad render never freezes the UI.
func (a *app) renderLoop() {
	next := newTaskYield()
	views.RenderLoop(a.dirty, func() {
		if a.deferRender.Swap(false) {
			next.wait()
		}
		a.render()
	}, func(v any, stack []byte) {
		a.log(2, fmt.Sprintf("render failed: %v\n%s", v, stack))
	}, 8*time.Millisecond)
}

// taskYield lets the render loop wait for a fresh JavaScript task: wait posts a message on
// its own MessageChannel and returns when that message's task runs (a message is not
// throttled or clamped like a timer, and runs in hidden tabs too).
type taskYield struct {
	ch   chan struct{}
	port js.Value
}

func newTaskYield() *taskYield {
	y := &taskYield{ch: make(chan struct{}, 1)}
	mc := js.Global().Get("MessageChannel").New()
	// Kept for the life of the page, like the render loop.
	fn := jsbridge.Func("render.yield", func(js.Value, []js.Value) any {
		select {
		case y.ch <- struct{}{}:
		default:
		}
		return nil
	})
	mc.Get("port1").Set("onmessage", fn)
	y.port = mc.Get("port2")
	return y
}

func (y *taskYield) wait() {
	y.port.Call("postMessage", 0)
	<-y.ch
}

// markDirtyAfterTask is markDirty for a change the page learns inside a JavaScript callback on
// the preview's path — a mount, the frame's acknowledgement, a tool call's completion — whose
// render the Go scheduler would otherwise run inside that callback, before control returns to
// JavaScript (before the tool's Promise resolves, before the frame's next message is read).
// The render loop then renders at the start of a fresh task instead.
func (a *app) markDirtyAfterTask() {
	a.deferRender.Store(true)
	a.markDirty()
}

// requestPersistence asks for persistent storage (navigator.storage.persist) so the browser
// does not evict the workspace under storage pressure, and shows the answer.
func (a *app) requestPersistence() {
	storage := navigatorProp("storage") // lock.go
	if storage.Type() != js.TypeObject || storage.Get("persist").Type() != js.TypeFunction {
		a.setPersistence("persistent storage unavailable")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := jsbridge.Await(ctx, storage.Call("persist"))
	switch {
	case err != nil:
		a.setPersistence("persistent storage unavailable")
	case v.Truthy():
		a.setPersistence("persistent storage granted")
	default:
		a.setPersistence("persistent storage not granted")
	}
}

func (a *app) setPersistence(s string) {
	a.mu.Lock()
	a.st.persistence = s
	a.mu.Unlock()
	a.markDirty()
}
