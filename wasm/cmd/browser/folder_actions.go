//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/fsa"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/studio"
)

// The folder actions: Open, Save (and save in browser only), Reload, Disconnect, Grant,
// Reconnect, conflict resolution and the directory-upload fallback, each one registry path
// (workspace.* tools or the folder session methods of wasm/studio/folder_ops.go).

// folderResult is the result of a folder session method (folder_ops.go).
type folderResult struct {
	Cancelled    bool           `json:"cancelled"`
	RootName     string         `json:"rootName"`
	ActivePath   string         `json:"activePath"`
	FileCount    int            `json:"fileCount"`
	Skipped      []skippedEntry `json:"skipped"`
	Revision     int64          `json:"revision"`
	Permission   string         `json:"permission"`
	Linked       bool           `json:"linked"`
	Read         bool           `json:"read"`
	DirtyPaths   []string       `json:"dirtyPaths"`
	DeletedPaths []string       `json:"deletedPaths"`
	Unresolved   []string       `json:"unresolved"`
	Error        *mcp.ToolError `json:"error"`
	Preview      string         `json:"preview"`
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
	s := a.folderUIState
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
	s := a.folderUIState
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
	if lost := a.folderLostName(); lost != "" {
		text = "The workspace's folder " + lost + " was lost, so its changes may not be written to any folder. Opening a folder replaces the browser workspace with its files; the changes are lost (Reconnect folder or Download as ZIP keeps them)."
	}
	if (workspaceDirty(a, ctx) || a.folderLostName() != "") && !a.confirm(ctx, confirmOptions{Title: "Open another folder?",
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
		a.folderForgetLost()
		a.addEntry(entry{Kind: "info", Text: fmt.Sprintf("Opened %s with %d file(s)", res.RootName, res.FileCount)})
		if dirs := a.folderUIState.host.pickedSkippedFolders(); len(dirs) > 0 {
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
	a.folderUIState.mu.Lock()
	linked, lost := a.folderUIState.linked, a.folderUIState.lost
	a.folderUIState.mu.Unlock()
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
	a.folderUIState.changed()
	a.requestRefresh()
	lost := a.folderLostName()
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
	s := a.folderUIState
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
	a.addEntry(entry{Kind: "info", Text: "Reconnected the folder " + res.RootName + folderDirtyText(len(res.DirtyPaths)+len(res.DeletedPaths))})
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
	if (workspaceDirty(a, ctx) || a.folderLostName() != "") && !a.confirm(ctx, confirmOptions{Title: "Replace the workspace?",
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
	if a.folderUIState.host != nil {
		a.folderUIState.host.forget(ctx)
	}
	a.folderForgetLost()
	a.addEntry(entry{Kind: "info", Text: fmt.Sprintf("Opened %s with %d file(s)", res.RootName, res.FileCount) + " (uploaded: changes stay in this browser and are never written back)"})
	if a.folderUIState.host != nil {
		if dirs := a.folderUIState.host.uploadSkippedFolders(); len(dirs) > 0 {
			a.addEntry(entry{Kind: "info", Text: "Skipped folders (hidden or node_modules): " + strings.Join(dirs, ", ")})
		}
	}
	folderSkipped(a, res.Skipped)
	a.reload(ctx)
}
