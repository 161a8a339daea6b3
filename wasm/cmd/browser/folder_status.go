//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"strconv"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/fsa"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/views"
)

// The folder header's state: the status read after every change, the lost-folder
// bookkeeping, save progress and the render of #folder-region (views.FolderInfoHTML,
// views.FolderActionsHTML).

func folderStart(a *app, ctx context.Context) {
	s := a.folderUIState
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
			a.addEntry(entry{Kind: "info", Text: "Reconnected the folder " + res.RootName + folderDirtyText(len(res.DirtyPaths)+len(res.DeletedPaths))})
		default:
			a.addEntry(entry{Kind: "info", Text: "The folder " + res.RootName + " needs access again (permission " + res.Permission + ").",
				Actions: []entryAction{{Label: labelGrant, Action: actFolderGrant}}})
		}
		folderUnresolved(a, res.Unresolved)
	}
	s.changed()
}

// folderDirtyText ends the "Reconnected the folder …" message: n counts the workspace files
// that differ from the folder and the deletions not yet written to it.
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
	a.folderUIState.mu.Lock()
	prev := a.folderUIState.sess
	a.folderUIState.sess = cur
	a.folderUIState.mu.Unlock()
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
	if !st.Filesystem.FolderLinked && a.folderUIState.host != nil {
		saved = a.folderUIState.host.savedName(ctx)
	}
	s := a.folderUIState
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
	s := a.folderUIState
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
	if s.host != nil {
		// The core forgets a vanished root's persisted link on its own goroutine
		// (workspace.FolderUnlinker); forget it here too, before the error is shown, so a
		// reload right after the message never finds the stale link again.
		s.host.forget(context.Background())
		if name != "" {
			s.host.setLost(context.Background(), name)
		}
	}
	s.changed()
	a.markDirty()
}

// folderForgetLost forgets the lost folder (the workspace was replaced by another folder).
func (a *app) folderForgetLost() {
	s := a.folderUIState
	s.mu.Lock()
	had := s.lost != ""
	s.lost = ""
	s.mu.Unlock()
	if had && s.host != nil {
		s.host.setLost(context.Background(), "")
	}
}

// folderLostName is the lost folder's name ("" when none).
func (a *app) folderLostName() string {
	s := a.folderUIState
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost
}

// folderProgress counts a finished write or delete of the running save (fsa.SetProgress).
func (s *folderState) progress(op, path string) {
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
	a.folderUIState.changed()
}

func folderRender(a *app) {
	s := a.folderUIState
	if s.host == nil { // a read-only second tab: no folder operations
		a.setRegion(folderStatusRegion, "")
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
		delete(a.lastHTML, "folder-info")
		delete(a.lastHTML, "folder-actions")
		// The buttons come first: the status text after them changes length with every edit
		// and save ("All changes written…" ↔ "n change(s) … not yet written…", "Saving… (n of
		// m)", the permission badge), and in front of the buttons it would move them sideways
		// by up to ~170 px between a pointer's aim and its click.
		a.setRegion(folderStatusRegion, `<span id="folder-actions" class="folder-actions"></span> <span id="folder-info" class="folder-info"></span>`)
	}
	a.setRegion("folder-info", views.FolderInfoHTML(v))
	// Grant folder access comes and goes with the permission; the morph keeps the other
	// buttons (by id) in place, so a permission change never replaces Save to folder under
	// the pointer.
	a.setRegion("folder-actions", views.FolderActionsHTML(v, grant))
	buttons := doc.Call("querySelectorAll", "#folder-actions button")
	for i := 0; i < buttons.Length(); i++ {
		if b := buttons.Index(i); b.Get("disabled").Bool() != busy {
			b.Set("disabled", busy)
		}
	}
}
