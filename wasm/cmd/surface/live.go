//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/fsa"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
)

// The Live Code Editor page: the document in the widget, both clocks, scenarios, the safe
// runner, reset, and saves through a connected folder. Every control is one editor.* call.

// scenarios are editor.setScenario's values (its inputSchema enum; the buttons follow it).
var scenarios = []string{"success", "invalid", "blocked"}

// liveStatus is the part of editor.getStatus the page shows.
type liveStatus struct {
	WorkspaceRevision int64    `json:"workspaceRevision"`
	DocumentRevision  int64    `json:"documentRevision"`
	DocumentPath      string   `json:"documentPath"`
	RootName          string   `json:"rootName"`
	DirtyPaths        []string `json:"dirtyPaths"`
	Filesystem        struct {
		FolderLinked bool `json:"folderLinked"`
	} `json:"filesystem"`
}

// liveDocument is editor.getDocument's result (and every document mutation's).
type liveDocument struct {
	File              string `json:"file"`
	Source            string `json:"source"`
	Scenario          string `json:"scenario"`
	Revision          int64  `json:"revision"`
	WorkspaceRevision int64  `json:"workspaceRevision"`
	DocumentRevision  int64  `json:"documentRevision"`
}

// reloadLive reads the status, the files and the document (page reads: not traced).
func (a *app) reloadLive(ctx context.Context) {
	var st liveStatus
	var files struct {
		Files []struct {
			Path   string `json:"path"`
			IsText bool   `json:"isText"`
		} `json:"files"`
	}
	var doc liveDocument
	if err := a.read(ctx, "editor.getStatus", nil, &st); err != nil {
		a.log(2, "editor.getStatus: "+err.Error())
		return
	}
	if err := a.read(ctx, "editor.listFiles", nil, &files); err != nil {
		a.log(2, "editor.listFiles: "+err.Error())
	}
	if err := a.read(ctx, "editor.getDocument", nil, &doc); err != nil {
		a.log(2, "editor.getDocument: "+err.Error())
		return
	}
	paths := make([]string, 0, len(files.Files))
	for _, f := range files.Files {
		if f.IsText {
			paths = append(paths, f.Path)
		}
	}
	a.mu.Lock()
	a.st.wsRev, a.st.docRev, a.st.dirty = st.WorkspaceRevision, doc.DocumentRevision, st.DirtyPaths
	a.st.files, a.st.scenario = paths, doc.Scenario
	a.st.folderName, a.st.rootName = "", st.RootName
	if st.Filesystem.FolderLinked {
		a.st.folderName = st.RootName
	}
	// The editor's base moves with the document unless a draft (pending, or refused and
	// waiting for the user) holds text based on an older revision.
	if !a.editor.conflicted && a.editor.draftPath == "" {
		a.st.active, a.st.source, a.st.base = doc.File, doc.Source, doc.DocumentRevision
	}
	a.mu.Unlock()
}

// writeDraft (Live): editor.setDocument {source, expectedRevision}; the new document revision.
func (a *app) writeDraft(ctx context.Context, path, text string, expected *int64) (int64, error) {
	if a.surface == surfaceview.Realtime {
		return a.writeRealtime(ctx, path, text, expected)
	}
	// editor.setDocument writes the document's current file: the text must be path's. A draft
	// of another file is written only when the user chose it (Keep my text: expected nil), by
	// opening that file first; an automatic flush is refused instead.
	var cur liveDocument
	if err := a.read(ctx, "editor.getDocument", nil, &cur); err != nil {
		return 0, err
	}
	if cur.File != path {
		if expected != nil {
			return 0, errors.New("the document is now " + cur.File + ", not " + path + "; nothing was written.")
		}
		// An opened file whose preview failed is still open (applied): write on.
		if _, err := a.call(ctx, "editor.openFile", map[string]any{"path": path}, nil); err != nil && !appliedError(err) {
			return 0, err
		}
	}
	args := map[string]any{"source": text}
	if expected != nil {
		args["expectedRevision"] = *expected
	}
	raw, err := a.call(ctx, "editor.setDocument", args, nil)
	var doc liveDocument
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &doc)
	}
	if err != nil {
		return 0, err
	}
	return doc.DocumentRevision, nil
}

// liveAction runs one of the Live page's buttons; it reports whether it knew the action.
func (a *app) liveAction(ctx context.Context, act action) bool {
	guard := func(args map[string]any) map[string]any {
		a.mu.Lock()
		args["expectedRevision"] = a.st.docRev
		a.mu.Unlock()
		return args
	}
	switch act.name {
	case "open-file":
		if a.refusedDraftFirst() {
			return true
		}
		a.flushDraft(ctx)
		a.act(ctx, "editor.openFile", map[string]any{"path": act.path}, nil)
	case "set-scenario":
		a.flushDraft(ctx)
		a.act(ctx, "editor.setScenario", guard(map[string]any{"scenario": act.data["scenario"]}), nil)
	case "reset-document":
		if a.refusedDraftFirst() { // a refused text is the user's to keep or drop, not Reset's
			return true
		}
		a.dropDraft()
		a.act(ctx, "editor.resetDocument", guard(map[string]any{}), nil)
	case "run-scenario":
		a.flushDraft(ctx)
		var run struct {
			Scenario         string `json:"scenario"`
			DocumentRevision int64  `json:"documentRevision"`
			Runtime          string `json:"runtime"`
			Events           []struct {
				Step   string `json:"step"`
				Passed bool   `json:"passed"`
			} `json:"events"`
		}
		if err := a.rpc(ctx, "", "editor/runScenario", map[string]any{}, &run); err != nil {
			a.setNotice(err.Error())
			return true
		}
		v := &surfaceview.ScenarioRun{Scenario: run.Scenario, DocumentRevision: run.DocumentRevision, Runtime: run.Runtime}
		for _, e := range run.Events {
			v.Events = append(v.Events, surfaceview.RunEvent{Step: e.Step, Passed: e.Passed})
		}
		a.mu.Lock()
		a.st.run = v
		a.mu.Unlock()
		a.markDirty()
	case "save-file", "save-all":
		a.flushDraft(ctx)
		// One idempotency key per click: the save's durable record (IndexedDB) is keyed by it,
		// so a retry of the same click never writes twice (editor/recoverSave reads it back).
		key := "page-" + act.name + "-" + strconv.FormatInt(a.reqID.Add(1), 10)
		meta := map[string]any{"idempotencyKey": key}
		if act.name == "save-file" {
			a.mu.Lock()
			path := a.st.active
			a.mu.Unlock()
			a.act(ctx, "editor.saveFile", map[string]any{"path": path}, meta)
		} else {
			a.act(ctx, "editor.saveAll", map[string]any{}, meta)
		}
	case "connect-folder":
		a.connectFolder(ctx)
	case "recover-save":
		a.recoverSave(ctx)
	default:
		return false
	}
	return true
}

func (a *app) setNotice(s string) {
	a.mu.Lock()
	a.st.notice = s
	a.mu.Unlock()
	a.markDirty()
}

// connectFolder asks for a folder (the click's user activation) and rebuilds the session with
// it as Ports.Folder, so the new session imports it and saves write to it. A failed import
// rebuilds the session without the folder and says why.
func (a *app) connectFolder(ctx context.Context) {
	// A rebuilt session replaces the editor's text: a refused draft must be chosen first.
	if a.refusedDraftFirst() {
		return
	}
	a.flushDraft(ctx)
	f, err := fsa.Pick(ctx, nil)
	if err != nil {
		a.setNotice("Connect folder: " + err.Error())
		return
	}
	if f == nil {
		return // cancelled
	}
	// The import replaces the workspace (and its stored copy) with the folder's files. Untouched
	// examples are replaced without asking; anything else — an edit, or the files of a folder
	// connected before a reload — is named, and only an explicit OK replaces it (no lost work).
	a.mu.Lock()
	wsRev, files, root := a.st.wsRev, append([]string(nil), a.st.files...), a.st.rootName
	a.mu.Unlock()
	// The folder these files came from (its name is the workspace's root) is linked again
	// without replacing them (livesurface: Manager.LinkFolder): nothing to ask.
	relink := f.Name() == root
	// The name is all the page knows of a folder: another folder with the same name is
	// possible, and Save would write over its files. So relinking over changed files asks too,
	// saying what it does (new-user finding).
	if relink && wsRev > pristineRevision {
		msg := "The folder " + f.Name() + " has the name of the folder these files came from. OK keeps the files here and links it: " +
			"files that differ from the folder become unsaved, and Save writes them over the folder's files. " +
			"If this is another folder with the same name, choose Cancel."
		if !js.Global().Call("confirm", msg).Truthy() {
			a.setNotice("Connect folder cancelled: nothing changed.")
			return
		}
	}
	if !relink && wsRev > pristineRevision {
		msg := "Connect the folder " + f.Name() + "? Its files replace the " + strconv.Itoa(len(files)) + " files here (" +
			strings.Join(files, ", ") + "), which are not the untouched examples; changes not saved to a folder are lost. Copy what you want to keep first."
		if !js.Global().Call("confirm", msg).Truthy() {
			a.setNotice("Connect folder cancelled: nothing changed.")
			return
		}
	}
	a.portMu.Lock()
	a.folder = f
	a.portMu.Unlock()
	if err := a.rpc(ctx, "", "session/configure", map[string]any{}, nil); err != nil {
		a.portMu.Lock()
		a.folder = nil
		a.portMu.Unlock()
		// The failed build replaced the preview's listener: build again without the folder.
		if err2 := a.rpc(ctx, "", "session/configure", map[string]any{}, nil); err2 != nil {
			a.fatal("the session could not be rebuilt: " + err2.Error())
			return
		}
		a.setNotice("The folder " + f.Name() + " could not be opened: " + err.Error())
		return
	}
	text := "Connected the folder " + f.Name() + ": its files replace the ones here; Save writes to it."
	if relink {
		text = "Reconnected the folder " + f.Name() + ": the files here are kept; those that differ from the folder are unsaved until you save them."
	}
	a.addEntry(surfaceview.Entry{Kind: "info", Text: text})
}

func recoverTool(u *unknownSave) string {
	if u == nil {
		return ""
	}
	return u.tool
}

// unknownSave is a keyed save that failed with TOOL_EXECUTION_UNKNOWN: some files may be in the
// folder. Its durable record (the plan) stays "unknown" until editor/recoverSave reads the
// folder back.
type unknownSave struct{ tool, key string }

// recoverSave reads the folder back for the save whose outcome is unknown (editor/recoverSave:
// it compares bytes, or the plan's digests and lengths, and never writes) and says what it
// found: completed (the save is done, nothing written again), or which files the folder does
// not hold as planned — then Save writes again under a new key, an explicit choice.
func (a *app) recoverSave(ctx context.Context) {
	a.mu.Lock()
	u := a.st.recover
	a.mu.Unlock()
	if u == nil {
		return
	}
	var res struct {
		Status     string `json:"status"`
		Mismatches []struct {
			Path   string `json:"path"`
			Reason string `json:"reason"`
		} `json:"mismatches"`
	}
	a.setBusy(true)
	err := a.rpc(ctx, "", "editor/recoverSave", map[string]any{"tool": u.tool, "idempotencyKey": u.key}, &res)
	a.setBusy(false)
	text := ""
	switch {
	case err != nil:
		text = "Checking the folder failed: " + err.Error()
	case res.Status == "completed":
		text = u.tool + ": saved (checked by reading the folder back; nothing was written again)."
	case res.Status == "unknown":
		var parts []string
		for _, m := range res.Mismatches {
			parts = append(parts, m.Path+" ("+m.Reason+")")
		}
		text = u.tool + ": the folder does not hold the save: " + strings.Join(parts, ", ") + ". Save again to write it."
	default:
		text = u.tool + ": the save's record is " + res.Status + "."
	}
	a.mu.Lock()
	if err == nil {
		a.st.recover = nil
	}
	a.st.notice = text
	a.mu.Unlock()
	a.requestRefresh()
	a.markDirty()
}

// pristineRevision is the workspace revision of the untouched examples (the seed is 1, its
// hydration into a fresh profile 2); any edit, import or restore moves it higher.
const pristineRevision = 2

func (a *app) liveDocView(st state) surfaceview.LiveDoc {
	return surfaceview.LiveDoc{Files: st.files, Active: st.active, Scenario: st.scenario, Scenarios: scenarios,
		WorkspaceRevision: st.wsRev, DocumentRevision: st.docRev, Preview: previewLine(st),
		Dirty: st.dirty, FolderName: st.folderName, FolderPicker: fsa.HasPicker(), Conflict: st.conflict, ConflictDraft: a.conflictDraft(),
		Notice: st.notice, RecoverSave: recoverTool(st.recover), Run: st.run, ReadOnly: st.lock == "busy", Busy: st.busy}
}
