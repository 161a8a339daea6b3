//go:build js && wasm

package main

import (
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
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
	s := a.folderUIState
	s.mu.Lock()
	s.a = a
	s.mu.Unlock()
	doc := js.Global().Get("document")
	// The directory-upload fallback: read the FileList synchronously, import on a goroutine.
	a.on(doc, "change", func(_ js.Value, args []js.Value) any {
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
	a.on(js.Global(), "beforeunload", func(_ js.Value, args []js.Value) any {
		if s.unsavedToFolder() {
			args[0].Call("preventDefault")
			args[0].Set("returnValue", "Changes are not yet written to the linked folder.")
			return "Changes are not yet written to the linked folder."
		}
		return nil
	})
}

func folderKey(a *app, k keyInfo) bool {
	if !k.Mod || k.Alt || k.DialogOpen || a.folderUIState.host == nil {
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
