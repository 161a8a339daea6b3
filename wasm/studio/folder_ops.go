package studio

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/webcoding/studio/wasm/foldersave"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// FolderHost is the page's side of the folder operations that are not tools (SPEC §2.11:
// pick/import a folder, grant folder access, the directory-upload fallback). The directory
// handle stays behind it: the session methods below receive adapters, never handles, and no
// handle ever appears in a payload, a tool result or an iframe message.
//
// The browser implements it over the File System Access shim (wasm/cmd/browser folder.go,
// wasm/adapters/fsa); headless hosts have none (their --dir is Ports.Folder).
type FolderHost interface {
	// Pick asks the user for a folder (showDirectoryPicker, readwrite) and returns its adapter
	// with a new scope id. (nil, nil): the user cancelled.
	Pick(ctx context.Context) (workspace.FolderAdapter, error)
	// Saved returns the adapter of the persisted link (the stored handle), nil when none.
	Saved(ctx context.Context) (workspace.FolderAdapter, error)
	// Remember persists f as the link (handle, scope id and name next to the workspace
	// metadata) so a reload can reconnect.
	Remember(ctx context.Context, f workspace.FolderAdapter) error
	// RequestPermission asks for readwrite permission on f (it may prompt) and returns the
	// resulting state.
	RequestPermission(ctx context.Context, f workspace.FolderAdapter) workspace.Permission
	// TakeUpload returns (and forgets) the files the user chose in the directory-upload
	// fallback: the root folder's name and the entries (paths relative to it). ok is false when
	// nothing is staged.
	TakeUpload(ctx context.Context) (rootName string, entries []workspace.ImportEntry, ok bool)
}

// Folder session methods (SPEC §2.11). Each emits started/completed|failed lifecycle events
// (ObserveOperation) with a safe summary: counts and names, never file contents or handles.
// Every result is an object; a typed failure is the member "error" {code, message, retryable,
// details} (the REFERENCE §3.2 codes), so the chat can offer its recovery action.
const (
	// MethodOpenFolder picks a folder and opens it as the workspace (import rules of REFERENCE
	// §4, then linked and remembered), then waits for the preview.
	//
	//	params {"expectedRevision"?: int}
	//	result {"cancelled": true} | {"rootName", "activePath", "fileCount", "skipped": [...],
	//	       "revision", "permission"} | {"error"}
	//	errors WORKSPACE_NO_SUPPORTED_FILES (the current workspace and its link are untouched),
	//	       WORKSPACE_FOLDER_PERMISSION_DENIED, WORKSPACE_FOLDER_STALE,
	//	       WORKSPACE_REVISION_CONFLICT, TOOL_EXECUTION_FAILED (no folder host / picker error)
	MethodOpenFolder = "workspace/openFolder"
	// MethodReconnectFolder links a folder to the current workspace WITHOUT replacing it
	// (workspace.Manager.LinkFolder): the persisted link (a reload), or with pick:true a folder
	// the user picks (Reconnect folder after a stale root).
	//
	//	params {"pick"?: bool}
	//	result {"linked": false} (nothing persisted / cancelled) | workspace.LinkResult plus
	//	       "deletedPaths": [path…] (deletions not yet written to the folder) and
	//	       "unresolved": [path…] (saves left unknown after reconciliation) | {"error"}
	MethodReconnectFolder = "workspace/reconnectFolder"
	// MethodGrantFolderAccess re-requests readwrite permission for the linked (or persisted)
	// folder and, once granted, reads it as the baseline; the workspace is never replaced.
	//
	//	params {}
	//	result workspace.LinkResult (+ "deletedPaths", "unresolved") | {"linked": false} | {"error"}
	MethodGrantFolderAccess = "workspace/grantFolderAccess"
	// MethodUploadFolder replaces the workspace with the files staged by the directory-upload
	// fallback (<input webkitdirectory>); nothing is linked and a linked folder is forgotten.
	//
	//	params {"expectedRevision"?: int}
	//	result {"rootName", "activePath", "fileCount", "skipped", "revision"} | {"error"}
	MethodUploadFolder = "workspace/uploadFolder"
	// MethodResolveSave settles a folder write whose outcome stayed unknown after
	// reconciliation, by the user's explicit choice: "keep-folder" keeps the folder's version
	// (the record is resolved failed and the workspace file takes the folder's bytes), "write-ours"
	// resolves it failed so the next save writes the workspace version.
	//
	//	params {"path": string, "choice": "keep-folder"|"write-ours"}
	//	result {"path", "choice", "resolved": int} | {"error"}
	MethodResolveSave = "workspace/resolveSave"
)

// folderOpResult wraps a result with the optional typed error.
type folderOpResult map[string]any

func opError(e *mcp.ToolError) folderOpResult { return folderOpResult{"error": e} }

// finish ends an observed operation with res.
func finish(done func(*mcp.CallToolResult), res folderOpResult) (any, *jsonrpc.Error) {
	if e, ok := res["error"].(*mcp.ToolError); ok && e != nil {
		done(mcp.ErrorResult("", e))
		return res, nil
	}
	raw, _ := json.Marshal(res)
	done(&mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: raw})
	return res, nil
}

func noFolderHost(op string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeToolExecutionFailed, false, map[string]any{"operation": op, "reason": "no-folder-host"},
		"This host cannot open local folders.")
}

// decodeParams decodes params (absent = {}) into the allowed members.
func decodeParams(params json.RawMessage, allowed ...string) (map[string]json.RawMessage, *jsonrpc.Error) {
	if len(bytes.TrimSpace(params)) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	m, err := mcp.DecodeObject(params, allowed, nil)
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	return m, nil
}

// expectedRevision decodes params that may hold only "expectedRevision" (a non-negative
// integer; nil when absent).
func expectedRevision(params json.RawMessage) (*int64, *jsonrpc.Error) {
	m, perr := decodeParams(params, "expectedRevision")
	if perr != nil {
		return nil, perr
	}
	raw, ok := m["expectedRevision"]
	if !ok {
		return nil, nil
	}
	var v int64
	if json.Unmarshal(raw, &v) != nil || v < 0 {
		return nil, invalidParams("expectedRevision must be a non-negative integer")
	}
	return &v, nil
}

// folderMethods returns the folder session methods over the session's Ports.Folders.
func (e *studioSession) folderMethods() map[string]rpcsession.Method {
	return map[string]rpcsession.Method{
		MethodOpenFolder:        e.openFolder,
		MethodReconnectFolder:   e.reconnectFolder,
		MethodGrantFolderAccess: e.grantFolderAccess,
		MethodUploadFolder:      e.uploadFolder,
		MethodResolveSave:       e.resolveSave,
	}
}

func (e *studioSession) openFolder(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	exp, perr := expectedRevision(params)
	if perr != nil {
		return nil, perr
	}
	done := ObserveOperation(e.p, MethodOpenFolder, nil)
	if e.p.Folders == nil {
		return finish(done, opError(noFolderHost("import")))
	}
	f, err := e.p.Folders.Pick(ctx)
	if err != nil {
		return finish(done, opError(mcp.NewError(mcp.CodeToolExecutionFailed, true, map[string]any{"operation": "import"},
			"The folder could not be opened: %s", mcp.Bound(err.Error(), maxMessageChars))))
	}
	if f == nil {
		return finish(done, folderOpResult{"cancelled": true})
	}
	res, terr := e.m.ImportFolder(ctx, workspace.Call{Tool: MethodOpenFolder, ExpectedRevision: exp}, f)
	if terr != nil {
		return finish(done, opError(mcp.ToolErrorOf(terr)))
	}
	if err := e.p.Folders.Remember(ctx, f); err != nil && e.p.Log != nil {
		e.p.Log(2, "studio: the folder link was not persisted: "+err.Error())
	}
	out := folderOpResult{"rootName": res.RootName, "activePath": res.ActivePath, "fileCount": res.FileCount,
		"skipped": res.Skipped, "revision": res.Revision, "permission": f.Permission(ctx)}
	if err := e.sync(ctx, res.Revision, true, false); err != nil {
		out["preview"] = err.Error()
	}
	return finish(done, out)
}

func (e *studioSession) reconnectFolder(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	m, perr := decodeParams(params, "pick")
	if perr != nil {
		return nil, perr
	}
	pick := false
	if raw, ok := m["pick"]; ok && json.Unmarshal(raw, &pick) != nil {
		return nil, invalidParams("pick must be a boolean")
	}
	done := ObserveOperation(e.p, MethodReconnectFolder, map[string]any{"pick": pick})
	if e.p.Folders == nil {
		return finish(done, opError(noFolderHost("link")))
	}
	var f workspace.FolderAdapter
	var err error
	if pick {
		f, err = e.p.Folders.Pick(ctx)
	} else {
		f, err = e.p.Folders.Saved(ctx)
	}
	if err != nil {
		return finish(done, opError(mcp.NewError(mcp.CodeToolExecutionFailed, true, map[string]any{"operation": "link"},
			"The folder could not be reconnected: %s", mcp.Bound(err.Error(), maxMessageChars))))
	}
	if f == nil {
		return finish(done, folderOpResult{"linked": false})
	}
	return finish(done, e.link(ctx, f, pick))
}

func (e *studioSession) grantFolderAccess(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	if _, perr := decodeParams(params); perr != nil {
		return nil, perr
	}
	done := ObserveOperation(e.p, MethodGrantFolderAccess, nil)
	if e.p.Folders == nil {
		return finish(done, opError(noFolderHost("grant")))
	}
	f := e.m.Folder()
	if f == nil {
		var err error
		if f, err = e.p.Folders.Saved(ctx); err != nil || f == nil {
			return finish(done, opError(workspace.FolderNotConnected("grant")))
		}
	}
	perm := e.p.Folders.RequestPermission(ctx, f)
	if perm != workspace.PermissionGranted {
		return finish(done, opError(workspace.FolderPermissionDenied("grant", perm)))
	}
	return finish(done, e.link(ctx, f, false))
}

// link links f to the current workspace, remembers it when asked, and reconciles the save
// records left by an interrupted save (foldersave.Saver.Reconcile).
func (e *studioSession) link(ctx context.Context, f workspace.FolderAdapter, remember bool) folderOpResult {
	res, terr := e.m.LinkFolder(ctx, f)
	if terr != nil {
		return opError(mcp.ToolErrorOf(terr))
	}
	if remember {
		if err := e.p.Folders.Remember(ctx, f); err != nil && e.p.Log != nil {
			e.p.Log(2, "studio: the folder link was not persisted: "+err.Error())
		}
	}
	out := folderOpResult{"rootName": res.RootName, "permission": res.Permission, "linked": res.Linked, "read": res.Read,
		"dirtyPaths": res.DirtyPaths, "deletedPaths": e.m.Status(ctx).DeletedPaths, "revision": res.Revision, "unresolved": []string{}}
	if res.Read {
		unresolved, terr := e.save.Reconcile(ctx, f)
		if terr != nil {
			out["error"] = terr
		}
		out["unresolved"] = unresolved
	}
	return out
}

func (e *studioSession) uploadFolder(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	exp, perr := expectedRevision(params)
	if perr != nil {
		return nil, perr
	}
	if e.p.Folders == nil {
		done := ObserveOperation(e.p, MethodUploadFolder, nil)
		return finish(done, opError(noFolderHost("import")))
	}
	root, entries, ok := e.p.Folders.TakeUpload(ctx)
	done := ObserveOperation(e.p, MethodUploadFolder, map[string]any{"rootName": root, "entries": len(entries)})
	if !ok {
		return finish(done, opError(mcp.NewError(mcp.CodeToolExecutionFailed, false, map[string]any{"operation": "import", "reason": "nothing-staged"},
			"No folder was chosen for upload.")))
	}
	res, terr := e.m.ImportUpload(ctx, workspace.Call{Tool: MethodUploadFolder, ExpectedRevision: exp}, root, slices.Values(entries))
	if terr != nil {
		return finish(done, opError(mcp.ToolErrorOf(terr)))
	}
	out := folderOpResult{"rootName": res.RootName, "activePath": res.ActivePath, "fileCount": res.FileCount,
		"skipped": res.Skipped, "revision": res.Revision}
	if err := e.sync(ctx, res.Revision, true, false); err != nil {
		out["preview"] = err.Error()
	}
	return finish(done, out)
}

// resolveSave settles the unknown save records of a path by the user's choice
// (foldersave.Saver.Resolve), takes the folder's bytes for "keep-folder", and re-reads the
// folder as the baseline.
func (e *studioSession) resolveSave(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	m, perr := decodeParams(params, "path", "choice")
	if perr != nil {
		return nil, perr
	}
	var path, choice string
	if json.Unmarshal(m["path"], &path) != nil || path == "" {
		return nil, invalidParams("path must be a non-empty string")
	}
	if json.Unmarshal(m["choice"], &choice) != nil || (choice != foldersave.ChoiceKeepFolder && choice != foldersave.ChoiceWriteOurs) {
		return nil, invalidParams(`choice must be "keep-folder" or "write-ours"`)
	}
	done := ObserveOperation(e.p, MethodResolveSave, map[string]any{"path": path, "choice": choice})
	f := e.m.Folder()
	if f == nil {
		return finish(done, opError(workspace.FolderNotConnected("resolve")))
	}
	resolved, err := e.save.Resolve(ctx, f.ScopeID(), path, choice)
	if err != nil {
		return finish(done, opError(mcp.ToolErrorOf(err)))
	}
	if choice == foldersave.ChoiceKeepFolder {
		data, err := f.ReadFile(ctx, path)
		if err == nil {
			if _, terr := e.m.WriteFile(ctx, workspace.Call{Tool: MethodResolveSave}, path, string(data)); terr != nil {
				return finish(done, opError(mcp.ToolErrorOf(terr)))
			}
		}
	}
	// Re-read the folder as the baseline: the kept file is clean, ours stays dirty.
	if _, terr := e.m.LinkFolder(ctx, f); terr != nil {
		return finish(done, opError(mcp.ToolErrorOf(terr)))
	}
	return finish(done, folderOpResult{"path": path, "choice": choice, "resolved": resolved})
}
