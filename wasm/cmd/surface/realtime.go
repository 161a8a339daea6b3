//go:build js && wasm

package main

import (
	"context"
	"encoding/json"

	"github.com/webcoding/studio/wasm/adapters/iframe"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
	"github.com/webcoding/studio/wasm/workspace"
)

// The realtime page: file tabs over web.getWorkspace / web.readFile, typing written through
// web.writeFile with expectedRevision, the revision and the preview state.

type realtimeWorkspace struct {
	ActivePath string `json:"activePath"`
	Revision   int64  `json:"revision"`
	Files      []struct {
		Path   string `json:"path"`
		IsText bool   `json:"isText"`
	} `json:"files"`
}

// reloadRealtime reads the workspace and the chosen tab's text (page reads: not traced).
func (a *app) reloadRealtime(ctx context.Context) {
	var ws realtimeWorkspace
	if err := a.read(ctx, "web.getWorkspace", nil, &ws); err != nil {
		a.log(2, "web.getWorkspace: "+err.Error())
		return
	}
	paths := make([]string, 0, len(ws.Files))
	for _, f := range ws.Files {
		if f.IsText {
			paths = append(paths, f.Path)
		}
	}
	a.mu.Lock()
	tab := a.st.active
	known := false
	for _, p := range paths {
		known = known || p == tab
	}
	if !known {
		tab = ws.ActivePath
	}
	// A pending or refused draft keeps the text and the revision it was based on.
	conflicted := a.editor.conflicted || a.editor.draftPath != ""
	a.mu.Unlock()
	var file struct {
		Path     string `json:"path"`
		Source   string `json:"source"`
		Revision int64  `json:"revision"`
	}
	if tab != "" {
		if err := a.read(ctx, "web.readFile", map[string]any{"path": tab}, &file); err != nil {
			a.log(2, "web.readFile: "+err.Error())
		}
	}
	a.mu.Lock()
	a.st.files, a.st.wsRev = paths, ws.Revision
	if !conflicted && file.Path != "" {
		a.st.active, a.st.source, a.st.base = file.Path, file.Source, file.Revision
	}
	a.mu.Unlock()
}

// writeRealtime is web.writeFile {path, source, expectedRevision}; the new revision.
func (a *app) writeRealtime(ctx context.Context, path, text string, expected *int64) (int64, error) {
	args := map[string]any{"path": path, "source": text}
	if expected != nil {
		args["expectedRevision"] = *expected
	}
	raw, err := a.call(ctx, "web.writeFile", args, nil)
	if err != nil {
		return 0, err
	}
	var res struct {
		Revision int64 `json:"revision"`
	}
	_ = json.Unmarshal(raw, &res)
	return res.Revision, nil
}

// mountRealtime mounts the current workspace in a port that shows nothing yet: the realtime
// surface mounts only after a mutation, and a page must show its site at once. The files are
// read through web.getWorkspace and web.readFile (page reads) and compiled by the port like
// any mount; a mutation later mounts its own revision as usual.
func (a *app) mountRealtime(ctx context.Context) {
	a.portMu.Lock()
	port := a.port
	a.portMu.Unlock()
	if port == nil || port.Status().State != iframe.StateIdle {
		return
	}
	var ws realtimeWorkspace
	if err := a.read(ctx, "web.getWorkspace", nil, &ws); err != nil {
		a.log(2, "web.getWorkspace: "+err.Error())
		return
	}
	var files []*workspace.File
	for _, f := range ws.Files {
		if !f.IsText {
			continue // the seed has none; an asset cannot be read through web.readFile
		}
		var file struct {
			Source string `json:"source"`
		}
		if err := a.read(ctx, "web.readFile", map[string]any{"path": f.Path}, &file); err != nil {
			a.log(2, "web.readFile: "+err.Error())
			return
		}
		files = append(files, workspace.NewTextFile(f.Path, file.Source))
	}
	if port.Status().State != iframe.StateIdle {
		return // a mutation mounted meanwhile
	}
	if err := port.Mount(ctx, preview.Mount{Revision: ws.Revision, Files: studio.PreviewFiles(files)}); err != nil {
		a.setNotice("Preview: " + err.Error())
	}
}

// realtimeAction runs one of the realtime page's own buttons (the tabs).
func (a *app) realtimeAction(ctx context.Context, act action) bool {
	if act.name != "open-tab" {
		return false
	}
	if a.refusedDraftFirst() {
		return true
	}
	a.flushDraft(ctx)
	a.mu.Lock()
	a.st.active = act.path
	a.mu.Unlock()
	a.reload(ctx)
	return true
}

func (a *app) realtimeDocView(st state) surfaceview.RealtimeDoc {
	return surfaceview.RealtimeDoc{Files: st.files, Active: st.active, Revision: st.wsRev, Preview: previewLine(st),
		Conflict: st.conflict, ConflictDraft: a.conflictDraft(), Notice: st.notice, ReadOnly: st.lock == "busy"}
}
