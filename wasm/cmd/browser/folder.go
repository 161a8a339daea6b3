//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/fsa"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/views"
)

// The folder feature (issue 8): #folder-region in the header shows the linked folder's name,
// its permission (granted / prompt / denied / unknown / disconnected) and whether the
// workspace holds changes not yet written to the folder, with the buttons Open folder
// (Ctrl/Cmd+O), Save to folder (Ctrl/Cmd+S while linked), Reload folder, Disconnect and Grant
// folder access; without showDirectoryPicker it offers the directory-upload fallback
// ("Choose workspace folder"). Every action is one registry path: the workspace.* tools
// (saveAll, reloadFolder, disconnectFolder) or the folder session methods of
// wasm/studio/folder_ops.go (open, reconnect, grant, upload, resolve). The page reconnects a
// persisted folder at start; the beforeunload guard is active only while the linked folder
// has unsaved changes.

// Data-actions of the folder feature.
const (
	actFolderOpen       = "folder-open"
	actFolderSave       = "folder-save"
	actFolderReload     = "folder-reload"
	actFolderDisconnect = "folder-disconnect"
	actFolderGrant      = "folder-grant"
	actFolderReconnect  = "folder-reconnect"
	actFolderKeep       = "folder-keep" // arg: path; keep the folder's version
	actFolderOurs       = "folder-ours" // arg: path; write the workspace version
	actFolderSaveLocal  = "folder-save-browser"
	labelReconnect      = "Reconnect folder"
	labelReconcile      = "Reconcile folder"
	labelGrant          = "Grant folder access"
	uploadInputID       = "folder-upload"
	folderStatusRegion  = "folder-region"
	folderSyncElementID = "folder-sync"
)

// folderState is the feature's own state (not app.state).
type folderState struct {
	mu      sync.Mutex
	a       *app
	host    *folderHost
	linked  bool
	name    string // the linked folder, or the persisted one not linked yet
	perm    string
	dirty   int
	deleted int
	unknown string
	busy    bool
	// lost is the folder whose link was lost (WORKSPACE_FOLDER_STALE) and not linked again:
	// its name is persisted (idb.SaveLostFolder, never the handle); while set, Ctrl+S never
	// falls back to the browser-only save and Open folder always asks first.
	lost       string
	lastLinked string // the last folder seen linked (names the lost one)
	saving     bool   // a Save to folder runs: saveDone of saveTotal writes/deletes finished
	saveDone   int
	saveTotal  int
	refresh    chan struct{}
	sess       *rpcsession.Session // the session the link belongs to (session/configure builds a new one)
}

var folderUIState = &folderState{perm: "disconnected", refresh: make(chan struct{}, 1)}

// changed asks the status loop to re-read workspace.getStatus (never blocks).
func (s *folderState) changed() {
	select {
	case s.refresh <- struct{}{}:
	default:
	}
}

// unsavedToFolder reports whether the linked folder has changes not yet written.
func (s *folderState) unsavedToFolder() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.linked && (s.dirty > 0 || s.deleted > 0 || s.unknown != "")
}

func init() {
	registerFeature(&feature{name: "folder", bind: folderBind, start: folderStart, render: folderRender,
		action: folderAction, key: folderKey, observe: folderObserve})
	registerRecovery(func(f failure) []entryAction {
		switch mcp.Code(f.Code) {
		case mcp.CodeWorkspaceFolderStale, mcp.CodeWorkspaceFolderNotConnected:
			return []entryAction{{Label: labelReconnect, Action: actFolderReconnect}}
		case mcp.CodeWorkspaceSideEffectUnknown: // reads the folder back and reconciles the save
			return []entryAction{{Label: labelReconcile, Action: actFolderReconnect}}
		case mcp.CodeWorkspaceFolderPermissionDenied:
			return []entryAction{{Label: labelGrant, Action: actFolderGrant}}
		}
		return nil
	})
}

func folderBind(a *app) {
	s := folderUIState
	s.mu.Lock()
	s.a = a
	s.mu.Unlock()
	doc := js.Global().Get("document")
	// The directory-upload fallback: read the FileList synchronously, import on a goroutine.
	on(doc, "change", func(_ js.Value, args []js.Value) any {
		el := args[0].Get("target")
		if el.Type() != js.TypeObject || el.Get("id").String() != uploadInputID {
			return nil
		}
		files := el.Get("files")
		if files.Type() != js.TypeObject || files.Length() == 0 {
			return nil
		}
		if s.host == nil {
			return nil
		}
		root, n := s.host.stage(files)
		el.Set("value", "")
		jsbridge.Go("folder.upload", func() { folderUpload(a, root, n) })
		return nil
	})
	// The beforeunload guard: only while the linked folder has unsaved changes.
	on(js.Global(), "beforeunload", func(_ js.Value, args []js.Value) any {
		if s.unsavedToFolder() {
			args[0].Call("preventDefault")
			args[0].Set("returnValue", "Changes are not yet written to the linked folder.")
			return "Changes are not yet written to the linked folder."
		}
		return nil
	})
}

func folderStart(a *app, ctx context.Context) {
	s := folderUIState
	if s.host == nil { // a read-only second tab
		return
	}
	jsbridge.Go("folder.status", func() {
		for range s.refresh {
			folderReadStatus(a, context.Background())
		}
	})
	if name := s.host.savedName(ctx); name != "" {
		s.mu.Lock()
		s.name, s.lastLinked = name, name
		s.mu.Unlock()
	} else if lost := s.host.lostName(ctx); lost != "" {
		s.mu.Lock()
		s.lost, s.lastLinked = lost, lost
		s.mu.Unlock()
	}
	// Reconnect a persisted folder (the workspace stays as stored in the browser).
	var res folderResult
	if err := a.rpc(ctx, "", studio.MethodReconnectFolder, map[string]any{}, &res); err != nil {
		a.log(2, "folder reconnect: "+err.Error())
	} else if res.Error != nil {
		folderFailure(a, "Reconnecting the folder", res.Error)
	} else if res.Linked {
		switch res.Permission {
		case "granted":
			a.addEntry(entry{Kind: "info", Text: "Reconnected the folder " + res.RootName + folderDirtyText(len(res.DirtyPaths))})
		default:
			a.addEntry(entry{Kind: "info", Text: "The folder " + res.RootName + " needs access again (permission " + res.Permission + ").",
				Actions: []entryAction{{Label: labelGrant, Action: actFolderGrant}}})
		}
		folderUnresolved(a, res.Unresolved)
	}
	s.changed()
}

func folderDirtyText(n int) string {
	if n == 0 {
		return "."
	}
	return "; " + strconv.Itoa(n) + " file(s) differ from the folder and are not yet written to it."
}

// folderReadStatus re-reads workspace.getStatus into the feature state.
func folderReadStatus(a *app, ctx context.Context) {
	// session/configure rebuilds the session (a fresh workspace manager, hydrated from
	// IndexedDB): link the persisted folder to it again.
	cur := a.h.Session()
	folderUIState.mu.Lock()
	prev := folderUIState.sess
	folderUIState.sess = cur
	folderUIState.mu.Unlock()
	if prev != nil && cur != nil && prev != cur {
		var res folderResult
		_ = a.rpc(ctx, "", studio.MethodReconnectFolder, map[string]any{}, &res)
	}
	var st struct {
		RootName        string   `json:"rootName"`
		DirtyPaths      []string `json:"dirtyPaths"`
		DeletedPaths    []string `json:"deletedPaths"`
		UnknownSavePath string   `json:"unknownSavePath"`
		Filesystem      struct {
			FolderLinked bool   `json:"folderLinked"`
			Permission   string `json:"permission"`
		} `json:"filesystem"`
	}
	if err := a.tool(ctx, "workspace.getStatus", nil, &st); err != nil {
		return
	}
	saved := ""
	if !st.Filesystem.FolderLinked && folderUIState.host != nil {
		saved = folderUIState.host.savedName(ctx)
	}
	s := folderUIState
	s.mu.Lock()
	s.linked = st.Filesystem.FolderLinked
	s.perm = st.Filesystem.Permission
	s.dirty, s.deleted, s.unknown = len(st.DirtyPaths), len(st.DeletedPaths), st.UnknownSavePath
	relinked := false
	if s.linked {
		s.name, s.lastLinked = st.RootName, st.RootName
		relinked, s.lost = s.lost != "", ""
	} else {
		s.name = saved
	}
	s.mu.Unlock()
	if relinked && s.host != nil {
		s.host.setLost(ctx, "")
	}
	a.markDirty()
}

// folderMarkLost records that the linked folder was lost (WORKSPACE_FOLDER_STALE): the
// workspace keeps its edits, the header keeps the name with Reconnect folder, and the name is
// persisted so a reload still offers it.
func folderMarkLost(a *app) {
	s := folderUIState
	s.mu.Lock()
	name := s.lastLinked
	if name == "" {
		name = s.name
	}
	s.lost = name
	// The core dropped the link with the stale error: say so now rather than at the next
	// status read, or a Ctrl+S right after the error still took the linked path and failed
	// with WORKSPACE_FOLDER_NOT_CONNECTED instead of the folder-lost message.
	s.linked = false
	s.mu.Unlock()
	if name != "" && s.host != nil {
		s.host.setLost(context.Background(), name)
	}
	s.changed()
	a.markDirty()
}

// folderForgetLost forgets the lost folder (the workspace was replaced by another folder).
func folderForgetLost() {
	s := folderUIState
	s.mu.Lock()
	had := s.lost != ""
	s.lost = ""
	s.mu.Unlock()
	if had && s.host != nil {
		s.host.setLost(context.Background(), "")
	}
}

// folderLostName is the lost folder's name ("" when none).
func folderLostName() string {
	s := folderUIState
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost
}

// folderProgress counts a finished write or delete of the running save (fsa.SetProgress).
func folderProgress(op, path string) {
	s := folderUIState
	s.mu.Lock()
	saving := s.saving
	if saving {
		s.saveDone++
	}
	a := s.a
	s.mu.Unlock()
	if saving && a != nil {
		a.markDirty()
	}
}

func folderObserve(a *app, e audit.ToolCallEvent) {
	if e.Type == audit.EventStarted || (e.Mode != "agent" && readOnlyTools[e.Name]) {
		return
	}
	if r := e.Result; r != nil && r.IsError && r.Error != nil && r.Error.Code == mcp.CodeWorkspaceFolderStale {
		folderMarkLost(a) // an agent's saveAll or reloadFolder found the root gone
	}
	folderUIState.changed()
}

func folderRender(a *app) {
	s := folderUIState
	if s.host == nil { // a read-only second tab: no folder operations
		setRegion(folderStatusRegion, "")
		return
	}
	s.mu.Lock()
	v := views.Folder{Linked: s.linked, Name: s.name, Perm: s.perm, Picker: fsa.HasPicker(),
		Unsaved: s.linked && (s.dirty > 0 || s.deleted > 0 || s.unknown != ""), Lost: s.lost}
	grant := (s.linked && (s.perm == "prompt" || s.perm == "denied")) || (!s.linked && s.name != "")
	switch {
	case !s.linked:
	case s.saving:
		v.Sync = fmt.Sprintf("Saving… (%d of %d)", min(s.saveDone, s.saveTotal), s.saveTotal)
	case s.perm != "granted":
		v.Sync = "Grant folder access to compare and save"
	case s.unknown != "":
		v.Sync = "Save interrupted: " + s.unknown + " needs reconciling"
	case s.dirty > 0 || s.deleted > 0:
		v.Sync = fmt.Sprintf("%d change(s) saved in browser, not yet written to the folder", s.dirty+s.deleted)
	default:
		v.Sync = "All changes written to the folder"
	}
	busy := s.busy
	s.mu.Unlock()
	doc := js.Global().Get("document")
	if doc.Call("getElementById", "folder-info").IsNull() {
		delete(lastHTML, "folder-info")
		delete(lastHTML, "folder-actions")
		// The buttons come first: the status text after them changes length with every edit
		// and save ("All changes written…" ↔ "n change(s) … not yet written…", "Saving… (n of
		// m)", the permission badge), and in front of the buttons it would move them sideways
		// by up to ~170 px between a pointer's aim and its click.
		setRegion(folderStatusRegion, `<span id="folder-actions" class="folder-actions"></span> <span id="folder-info" class="folder-info"></span>`)
	}
	setRegion("folder-info", views.FolderInfoHTML(v))
	// Grant folder access comes and goes with the permission; the morph keeps the other
	// buttons (by id) in place, so a permission change never replaces Save to folder under
	// the pointer.
	setRegion("folder-actions", views.FolderActionsHTML(v, grant))
	buttons := doc.Call("querySelectorAll", "#folder-actions button")
	for i := 0; i < buttons.Length(); i++ {
		if b := buttons.Index(i); b.Get("disabled").Bool() != busy {
			b.Set("disabled", busy)
		}
	}
}

func folderKey(a *app, k keyInfo) bool {
	if !k.Mod || k.Alt || k.DialogOpen || folderUIState.host == nil {
		return false
	}
	switch k.Key {
	case "o", "O":
		jsbridge.Go("folder.open", func() { folderOpen(a) })
		return true
	case "s", "S":
		jsbridge.Go("folder.save", func() { folderSaveAny(a) })
		return true
	}
	return false
}

func folderAction(a *app, act uiAction) bool {
	switch act.Name {
	case "save": // the editor's Save button (.editor-save)
		folderSaveAny(a)
	case actFolderOpen:
		folderOpen(a)
	case actFolderSave:
		folderSave(a)
	case actFolderReload:
		folderReload(a)
	case actFolderDisconnect:
		folderDisconnect(a)
	case actFolderGrant:
		folderGrant(a)
	case actFolderReconnect:
		folderReconnect(a)
	case actFolderSaveLocal:
		folderSaveInBrowser(a)
	case actFolderKeep, actFolderOurs:
		folderResolve(a, act.Get("arg"), act.Name == actFolderKeep)
	default:
		return false
	}
	return true
}

// folderResult is the result of a folder session method (folder_ops.go).
type folderResult struct {
	Cancelled  bool           `json:"cancelled"`
	RootName   string         `json:"rootName"`
	ActivePath string         `json:"activePath"`
	FileCount  int            `json:"fileCount"`
	Skipped    []skippedEntry `json:"skipped"`
	Revision   int64          `json:"revision"`
	Permission string         `json:"permission"`
	Linked     bool           `json:"linked"`
	Read       bool           `json:"read"`
	DirtyPaths []string       `json:"dirtyPaths"`
	Unresolved []string       `json:"unresolved"`
	Error      *mcp.ToolError `json:"error"`
	Preview    string         `json:"preview"`
}

type skippedEntry struct {
	Path    string `json:"path"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Count   int    `json:"count"` // a limit summary: the entries left out
}

// folderFailure adds a typed error entry with its recovery actions (REFERENCE §3.2 format).
func folderFailure(a *app, what string, te *mcp.ToolError) {
	details := ""
	if te.Details != nil {
		if b, err := json.MarshalIndent(te.Details, "", "  "); err == nil {
			details = string(b)
			if r := []rune(details); len(r) > 600 {
				details = string(r[:600]) + "…"
			}
		}
	}
	if te.Code == mcp.CodeWorkspaceFolderStale {
		folderMarkLost(a)
	}
	f := failure{Code: string(te.Code), Message: te.Message, Retryable: te.Retryable, Tool: what}
	actions := recoveryActions(f)
	a.addEntry(entry{Kind: "error", Text: what + ": [" + string(te.Code) + "] " + te.Message, Details: details, Actions: actions})
}

// folderTool calls a workspace tool in direct mode and returns its structured result or its
// typed error.
func folderTool(a *app, ctx context.Context, name string, out any) error {
	var res struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Error             *mcp.ToolError  `json:"error"`
	}
	params := map[string]any{"name": name, "arguments": map[string]any{}, "_meta": map[string]any{"source": "local", "mode": "direct"}}
	if err := a.rpc(ctx, "", "tools/call", params, &res); err != nil {
		return mcp.NewError(mcp.CodeToolExecutionFailed, false, nil, "%s", err.Error())
	}
	if res.IsError {
		if res.Error == nil {
			return mcp.NewError(mcp.CodeToolExecutionFailed, false, nil, "%s failed", name)
		}
		return res.Error
	}
	if out != nil && len(res.StructuredContent) > 0 {
		_ = json.Unmarshal(res.StructuredContent, out)
	}
	return nil
}

// begin marks the feature busy; false when another folder action runs.
func folderBegin(a *app) bool {
	s := folderUIState
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy {
		return false
	}
	s.busy = true
	a.markDirty()
	return true
}

func folderEnd(a *app) {
	s := folderUIState
	s.mu.Lock()
	s.busy = false
	s.mu.Unlock()
	s.changed()
	a.requestRefresh()
}

// workspaceDirty reports whether the browser workspace has unsaved edits or deletions.
func workspaceDirty(a *app, ctx context.Context) bool {
	var st struct {
		DirtyPaths   []string `json:"dirtyPaths"`
		DeletedPaths []string `json:"deletedPaths"`
	}
	if err := a.tool(ctx, "workspace.getStatus", nil, &st); err != nil {
		return false
	}
	return len(st.DirtyPaths) > 0 || len(st.DeletedPaths) > 0
}

func folderOpen(a *app) {
	ctx := context.Background()
	if !fsa.HasPicker() {
		if in := js.Global().Get("document").Call("getElementById", uploadInputID); !in.IsNull() {
			in.Call("click")
		}
		return
	}
	if !folderBegin(a) {
		return
	}
	defer folderEnd(a)
	a.flushDraft(ctx)
	text := "The workspace has unsaved changes. Opening a folder replaces the browser workspace with its files; the changes are lost."
	if lost := folderLostName(); lost != "" {
		text = "The workspace's folder " + lost + " was lost, so its changes may not be written to any folder. Opening a folder replaces the browser workspace with its files; the changes are lost (Reconnect folder or Download as ZIP keeps them)."
	}
	if (workspaceDirty(a, ctx) || folderLostName() != "") && !a.confirm(ctx, confirmOptions{Title: "Open another folder?",
		Text: text, OK: "Open folder", Danger: true}) {
		a.addEntry(entry{Kind: "info", Text: "Open folder cancelled; the workspace is unchanged."})
		return
	}
	var res folderResult
	if err := a.rpc(ctx, "", studio.MethodOpenFolder, map[string]any{}, &res); err != nil {
		a.addEntry(entry{Kind: "error", Text: err.Error()})
		return
	}
	switch {
	case res.Error != nil:
		folderFailure(a, "Open folder", res.Error)
	case res.Cancelled:
	default:
		folderForgetLost()
		a.addEntry(entry{Kind: "info", Text: fmt.Sprintf("Opened %s with %d file(s)", res.RootName, res.FileCount)})
		if dirs := folderUIState.host.pickedSkippedFolders(); len(dirs) > 0 {
			a.addEntry(entry{Kind: "info", Text: "Skipped folders (hidden or node_modules): " + strings.Join(dirs, ", ")})
		}
		folderSkipped(a, res.Skipped)
	}
	a.reload(ctx)
}

// folderSkipped lists what an import left out (so nobody works on a partial folder unaware).
func folderSkipped(a *app, skipped []skippedEntry) {
	if len(skipped) == 0 {
		return
	}
	var b strings.Builder
	total := 0
	for _, s := range skipped {
		total += max(s.Count, 1)
	}
	for i, s := range skipped {
		if i == 20 {
			fmt.Fprintf(&b, "\n… and %d more", len(skipped)-20)
			break
		}
		p := s.Path
		if p == "" {
			p = "(limit)"
		}
		msg := s.Message
		if msg == "" {
			msg = s.Reason
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p + ": " + msg)
	}
	a.addEntry(entry{Kind: "info", Text: fmt.Sprintf("Skipped %d item(s)", total), Details: b.String()})
}

// folderSaveAny is Save / Ctrl+S: workspace.saveAll while a folder is linked, otherwise the
// browser-only workspace.saveCheckpoint (REFERENCE §2.1; refused by the core while linked).
// After the link was lost (WORKSPACE_FOLDER_STALE) it saves nothing and says so, offering
// Reconnect folder, Save in browser only and Download as ZIP: a lost folder never silently
// turns Ctrl+S into a browser-only save.
func folderSaveAny(a *app) {
	folderUIState.mu.Lock()
	linked, lost := folderUIState.linked, folderUIState.lost
	folderUIState.mu.Unlock()
	if linked {
		folderSave(a)
		return
	}
	if lost != "" {
		a.flushDraft(context.Background())
		a.addEntry(entry{Kind: "error", Text: "Not saved: the folder " + lost + " was lost (moved, renamed or deleted), so the changes are not written to any folder. Reconnect the folder, save in this browser only, or download the workspace as a ZIP.",
			Actions: []entryAction{{Label: labelReconnect, Action: actFolderReconnect}, {Label: "Save in browser only", Action: actFolderSaveLocal}, {Label: "Download ZIP", Action: "download-zip"}}})
		return
	}
	folderSaveInBrowser(a)
}

// folderSaveInBrowser is the browser-only save (workspace.saveCheckpoint). With a lost folder
// the lost state stays: the changes are still not written to any folder.
func folderSaveInBrowser(a *app) {
	ctx := context.Background()
	a.flushDraft(ctx)
	var res struct {
		SavedPaths   []string `json:"savedPaths"`
		DeletedPaths []string `json:"deletedPaths"`
	}
	if te := folderTool(a, ctx, "workspace.saveCheckpoint", &res); te != nil {
		folderFailure(a, "Save", mcp.ToolErrorOf(te))
		return
	}
	folderUIState.changed()
	a.requestRefresh()
	lost := folderLostName()
	if len(res.SavedPaths)+len(res.DeletedPaths) == 0 && lost == "" {
		return
	}
	if lost != "" {
		text := fmt.Sprintf("Saved %d file(s) in this browser only", len(res.SavedPaths))
		if len(res.SavedPaths)+len(res.DeletedPaths) == 0 {
			text = "Nothing new to save in this browser"
		}
		a.addEntry(entry{Kind: "info", Text: text + "; the folder " + lost + " is still lost and the changes are not written to any folder."})
		return
	}
	a.addEntry(entry{Kind: "info", Text: fmt.Sprintf("Saved %d file(s) in this browser (no folder linked)", len(res.SavedPaths))})
}

func folderSave(a *app) {
	ctx := context.Background()
	if !folderBegin(a) {
		return
	}
	defer folderEnd(a)
	a.flushDraft(ctx)
	var st struct {
		DirtyPaths   []string `json:"dirtyPaths"`
		DeletedPaths []string `json:"deletedPaths"`
	}
	_ = a.tool(ctx, "workspace.getStatus", nil, &st)
	s := folderUIState
	s.mu.Lock()
	s.saving, s.saveDone, s.saveTotal = true, 0, len(st.DirtyPaths)+len(st.DeletedPaths)
	s.mu.Unlock()
	a.markDirty()
	defer func() {
		s.mu.Lock()
		s.saving = false
		s.mu.Unlock()
		a.markDirty()
	}()
	var res struct {
		SavedPaths   []string `json:"savedPaths"`
		DeletedPaths []string `json:"deletedPaths"`
	}
	if te := folderTool(a, ctx, "workspace.saveAll", &res); te != nil {
		folderFailure(a, "Save to folder", mcp.ToolErrorOf(te))
		if mcp.ToolErrorOf(te).Code == mcp.CodeWorkspaceSideEffectUnknown {
			if d, ok := mcp.ToolErrorOf(te).Details.(map[string]any); ok {
				if list, ok := d["unresolvedPaths"].([]any); ok {
					var paths []string
					for _, p := range list {
						if s, ok := p.(string); ok {
							paths = append(paths, s)
						}
					}
					folderUnresolved(a, paths)
				}
			}
		}
		return
	}
	text := fmt.Sprintf("Saved %d file(s)", len(res.SavedPaths))
	if len(res.DeletedPaths) > 0 {
		text += fmt.Sprintf(" and deleted %d file(s)", len(res.DeletedPaths))
	}
	a.addEntry(entry{Kind: "info", Text: text})
}

func folderReload(a *app) {
	ctx := context.Background()
	if !folderBegin(a) {
		return
	}
	defer folderEnd(a)
	a.flushDraft(ctx)
	if workspaceDirty(a, ctx) && !a.confirm(ctx, confirmOptions{Title: "Reload the folder?",
		Text: "The workspace has changes not yet written to the folder. Reloading replaces them with the folder's files.",
		OK:   "Reload folder", Danger: true}) {
		a.addEntry(entry{Kind: "info", Text: "Reload cancelled; the workspace is unchanged."})
		return
	}
	var res struct {
		FileCount int            `json:"fileCount"`
		Skipped   []skippedEntry `json:"skipped"`
	}
	if te := folderTool(a, ctx, "workspace.reloadFolder", &res); te != nil {
		folderFailure(a, "Reload folder", mcp.ToolErrorOf(te))
		return
	}
	a.addEntry(entry{Kind: "info", Text: fmt.Sprintf("Reloaded the connected folder with %d file(s)", res.FileCount)})
	folderSkipped(a, res.Skipped)
	a.reload(ctx)
}

func folderDisconnect(a *app) {
	ctx := context.Background()
	if !folderBegin(a) {
		return
	}
	defer folderEnd(a)
	a.flushDraft(ctx)
	if te := folderTool(a, ctx, "workspace.disconnectFolder", nil); te != nil {
		folderFailure(a, "Disconnect", mcp.ToolErrorOf(te))
		return
	}
	a.addEntry(entry{Kind: "info", Text: "Disconnected the folder. The workspace stays in this browser."})
}

func folderGrant(a *app) {
	ctx := context.Background()
	if !folderBegin(a) {
		return
	}
	defer folderEnd(a)
	var res folderResult
	if err := a.rpc(ctx, "", studio.MethodGrantFolderAccess, map[string]any{}, &res); err != nil {
		a.addEntry(entry{Kind: "error", Text: err.Error()})
		return
	}
	if res.Error != nil && !res.Linked {
		folderFailure(a, "Grant folder access", res.Error)
		return
	}
	a.addEntry(entry{Kind: "info", Text: "Write access restored for the connected folder."})
	if res.Error != nil {
		folderFailure(a, "Reconciling the folder", res.Error)
	}
	folderUnresolved(a, res.Unresolved)
}

// folderReconnect links the persisted folder again, or — when none is left (a stale root) —
// a folder the user picks; the workspace is kept either way.
func folderReconnect(a *app) {
	ctx := context.Background()
	if !folderBegin(a) {
		return
	}
	defer folderEnd(a)
	var res folderResult
	if err := a.rpc(ctx, "", studio.MethodReconnectFolder, map[string]any{}, &res); err != nil {
		a.addEntry(entry{Kind: "error", Text: err.Error()})
		return
	}
	if res.Error == nil && !res.Linked {
		if err := a.rpc(ctx, "", studio.MethodReconnectFolder, map[string]any{"pick": true}, &res); err != nil {
			a.addEntry(entry{Kind: "error", Text: err.Error()})
			return
		}
	}
	switch {
	case res.Error != nil && !res.Linked:
		folderFailure(a, "Reconnect folder", res.Error)
		return
	case !res.Linked:
		return // cancelled
	}
	if res.Permission != "granted" {
		a.addEntry(entry{Kind: "info", Text: "The folder " + res.RootName + " needs access again (permission " + res.Permission + ").",
			Actions: []entryAction{{Label: labelGrant, Action: actFolderGrant}}})
		return
	}
	a.addEntry(entry{Kind: "info", Text: "Reconnected the folder " + res.RootName + folderDirtyText(len(res.DirtyPaths))})
	if res.Error != nil {
		folderFailure(a, "Reconciling the folder", res.Error)
	}
	folderUnresolved(a, res.Unresolved)
}

// folderUnresolved offers the explicit choice for saves whose outcome stayed unknown.
func folderUnresolved(a *app, paths []string) {
	for _, p := range paths {
		a.addEntry(entry{Kind: "error", Text: "An interrupted save left " + p + " with bytes that are neither ours nor the previous ones. Choose which version to keep.",
			Actions: []entryAction{{Label: "Keep the folder's version", Action: actFolderKeep, Arg: p}, {Label: "Write ours", Action: actFolderOurs, Arg: p}}})
	}
}

func folderResolve(a *app, path string, keep bool) {
	ctx := context.Background()
	if path == "" || !folderBegin(a) {
		return
	}
	defer folderEnd(a)
	choice := "write-ours"
	if keep {
		choice = "keep-folder"
	}
	var res folderResult
	if err := a.rpc(ctx, "", studio.MethodResolveSave, map[string]any{"path": path, "choice": choice}, &res); err != nil {
		a.addEntry(entry{Kind: "error", Text: err.Error()})
		return
	}
	if res.Error != nil {
		folderFailure(a, "Resolve save", res.Error)
		return
	}
	if keep {
		a.addEntry(entry{Kind: "info", Text: "Kept the folder's version of " + path + "."})
	} else {
		a.addEntry(entry{Kind: "info", Text: "Our version of " + path + " will be written by the next save."})
	}
	a.reload(ctx)
}

// folderUpload imports the staged directory-upload files (no link; never written back).
func folderUpload(a *app, root string, n int) {
	ctx := context.Background()
	if !folderBegin(a) {
		return
	}
	defer folderEnd(a)
	a.flushDraft(ctx)
	if (workspaceDirty(a, ctx) || folderLostName() != "") && !a.confirm(ctx, confirmOptions{Title: "Replace the workspace?",
		Text: fmt.Sprintf("The workspace has unsaved changes. Uploading %s (%d file(s)) replaces the browser workspace; the changes are lost.", root, n),
		OK:   "Replace workspace", Danger: true}) {
		a.addEntry(entry{Kind: "info", Text: "Upload cancelled; the workspace is unchanged."})
		return
	}
	var res folderResult
	if err := a.rpc(ctx, "", studio.MethodUploadFolder, map[string]any{}, &res); err != nil {
		a.addEntry(entry{Kind: "error", Text: err.Error()})
		return
	}
	if res.Error != nil {
		folderFailure(a, "Choose workspace folder", res.Error)
		return
	}
	if folderUIState.host != nil {
		folderUIState.host.forget(ctx)
	}
	folderForgetLost()
	a.addEntry(entry{Kind: "info", Text: fmt.Sprintf("Opened %s with %d file(s)", res.RootName, res.FileCount) + " (uploaded: changes stay in this browser and are never written back)"})
	if folderUIState.host != nil {
		if dirs := folderUIState.host.uploadSkippedFolders(); len(dirs) > 0 {
			a.addEntry(entry{Kind: "info", Text: "Skipped folders (hidden or node_modules): " + strings.Join(dirs, ", ")})
		}
	}
	folderSkipped(a, res.Skipped)
	a.reload(ctx)
}
