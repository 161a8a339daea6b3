package studio

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/webcoding/studio/wasm/transfer"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// Transfer operations (issue 8; SPEC §2.11: core operations that are not tools). Both are
// JSON-RPC session methods of the studio catalog and report to the trace through
// ObserveOperation (started, then completed or failed; arguments are a safe summary).
const (
	// MethodWorkspaceArchive returns the whole current workspace (unsaved edits included) as a
	// deterministic ZIP archive (Archive).
	//
	//	params {} (or absent)
	//	result {"name": "<rootName>.zip", "mimeType": "application/zip", "base64", "bytes",
	//	        "files", "revision"}; bytes is the archive's length in bytes, files its entries
	//
	// A workspace over MaxArchiveFiles files or MaxArchiveContentBytes bytes is a JSON-RPC
	// error -32602 with data {"reason": "too-large", "files", "bytes"}.
	MethodWorkspaceArchive = "workspace/archive"
	// MethodWorkspaceUpload adds or replaces files in the workspace in one revision and one
	// undo checkpoint, never removing other files (workspace.Manager.AddFiles).
	//
	//	params {"files": [{"path": string, "base64": string} | {"path": string, "text": string}, …]}
	//	       1..MaxUploadFiles entries, strictly decoded (DecodeUploadParams)
	//	result {"uploaded": [{"path", "kind", "size", "replaced"}…],
	//	        "skipped": [{"path", "reason", "message"?}…], "activePath", "revision",
	//	        "changed", "preview"?, "storageMode", "storageError"?}
	//
	// Every entry goes through the folder-import rules (workspace.ImportFiles, REFERENCE §4):
	// a path that does not normalize (reason "invalid-path", also over MaxPathChars code
	// points), a hidden or node_modules path ("hidden", "ignored"), a repeated path
	// ("duplicate"), text over 2 MiB or an asset over 4 MiB ("too-large"), an upload over
	// 12 MiB ("total-limit"), bytes that are neither an asset extension nor UTF-8 text
	// ("not-text"), and then the workspace's own bounds (200 files: "file-limit", 12 MiB:
	// "total-limit") refuse that entry only: it is listed in skipped with its reason and the
	// others land. Nothing is dropped silently. When nothing lands the result still lists
	// every reason (changed false) and the trace records the operation as failed with
	// WORKSPACE_NO_SUPPORTED_FILES. Malformed params are a JSON-RPC error -32602. After a
	// change the preview is mounted and acknowledged as after a tool; "preview" holds the
	// failure message when that did not succeed (the files stay).
	MethodWorkspaceUpload = "workspace/upload"
)

// UploadResult is the workspace/upload result (see MethodWorkspaceUpload).
type UploadResult struct {
	Uploaded     []workspace.AddedFile `json:"uploaded"`
	Skipped      []workspace.Skipped   `json:"skipped"`
	ActivePath   string                `json:"activePath"`
	Revision     int64                 `json:"revision"`
	Changed      bool                  `json:"changed"`
	Preview      string                `json:"preview,omitempty"`
	StorageMode  workspace.StorageMode `json:"storageMode"`
	StorageError string                `json:"storageError,omitempty"`
}

// ArchiveResult is the workspace/archive result (see MethodWorkspaceArchive).
type ArchiveResult struct {
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Base64   string `json:"base64"`
	Bytes    int    `json:"bytes"`
	Files    int    `json:"files"`
	Revision int64  `json:"revision"`
}

// shownPath bounds a caller's path for a skipped entry or a trace summary (valid UTF-8, no
// NUL, at most MaxPathChars code points).
func shownPath(p string) string {
	return mcp.Bound(strings.ToValidUTF8(strings.ReplaceAll(p, "\x00", "\uFFFD"), "\uFFFD"), MaxPathChars)
}

// upload runs workspace/upload over decoded files.
func (e *studioSession) upload(ctx context.Context, files []transfer.UploadFile) (UploadResult, error) {
	var skipped []workspace.Skipped
	var usable []transfer.UploadFile
	for _, f := range files {
		p, perr := workspace.NormalizePath(f.Path)
		switch {
		case utf8.RuneCountInString(f.Path) > MaxPathChars:
			skipped = append(skipped, workspace.Skipped{Path: shownPath(f.Path), Reason: workspace.SkipInvalidPath,
				Message: fmt.Sprintf("path longer than %d characters", MaxPathChars)})
		case perr != nil:
			skipped = append(skipped, workspace.Skipped{Path: shownPath(f.Path), Reason: workspace.SkipInvalidPath,
				Message: mcp.ToolErrorOf(perr).Details.(map[string]any)["reason"].(string)})
		case workspace.ExcludedPathReason(p) == workspace.PathReasonHidden:
			skipped = append(skipped, workspace.Skipped{Path: p, Reason: workspace.SkipHidden})
		case workspace.ExcludedPathReason(p) == workspace.PathReasonIgnored:
			skipped = append(skipped, workspace.Skipped{Path: p, Reason: workspace.SkipIgnored})
		default:
			usable = append(usable, transfer.UploadFile{Path: p, Data: f.Data})
		}
	}
	var imp workspace.Imported
	if len(usable) > 0 {
		var err error
		imp, err = workspace.ImportFiles(ctx, "upload", uploadEntries(usable))
		if err != nil && mcp.ToolErrorOf(err).Code != mcp.CodeWorkspaceNoSupportedFiles {
			return UploadResult{}, err
		}
	}
	skipped = append(skipped, imp.Skipped...)
	res := UploadResult{Uploaded: []workspace.AddedFile{}, Skipped: skipped}
	if len(imp.Files) > 0 {
		add, terr := e.m.AddFiles(ctx, workspace.Call{Tool: MethodWorkspaceUpload}, imp.Files)
		if terr != nil {
			return UploadResult{}, terr
		}
		res.Uploaded, res.Skipped = add.Added, append(res.Skipped, add.Skipped...)
		res.ActivePath, res.Revision, res.Changed = add.ActivePath, add.Revision, add.Changed
		if add.Changed {
			if err := e.sync(ctx, add.Revision, true, false); err != nil {
				res.Preview = err.Error()
			}
		}
	} else {
		st := e.m.Status(ctx)
		res.ActivePath, res.Revision = st.ActivePath, st.Revision
	}
	if res.Skipped == nil {
		res.Skipped = []workspace.Skipped{}
	}
	meta := e.meta(ctx)
	res.StorageMode, res.StorageError = meta.StorageMode, meta.StorageError
	return res, nil
}

func uploadEntries(files []transfer.UploadFile) iter.Seq[workspace.ImportEntry] {
	return func(yield func(workspace.ImportEntry) bool) {
		for _, f := range files {
			data := f.Data
			if !yield(workspace.ImportEntry{Path: f.Path, Size: int64(len(data)),
				Read: func(context.Context) ([]byte, error) { return data, nil }}) {
				return
			}
		}
	}
}

// transferMethods adds workspace/archive and workspace/upload to methods; p.Observer sees
// each run as an operation (ObserveOperation).
func (e *studioSession) transferMethods(methods map[string]rpcsession.Method, p Ports) {
	methods[MethodWorkspaceArchive] = func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		if err := noParams(params); err != nil {
			return nil, err
		}
		s := e.m.Snapshot()
		done := ObserveOperation(p, MethodWorkspaceArchive, map[string]any{"files": len(s.Files), "revision": s.Revision})
		data, err := transfer.Archive(s.Files)
		if err != nil {
			var lim *transfer.ArchiveLimitError
			terr := mcp.NewError(mcp.CodeToolExecutionFailed, false, map[string]any{"operation": "archive"}, "%s", err.Error())
			done(mcp.ErrorResult("", terr))
			jerr := &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: MethodWorkspaceArchive + ": " + err.Error()}
			if errors.As(err, &lim) {
				jerr.Code = jsonrpc.CodeInvalidParams
				jerr.Data = map[string]any{"reason": "too-large", "files": lim.Files, "bytes": lim.Bytes}
			}
			return nil, jerr
		}
		res := ArchiveResult{Name: transfer.ArchiveName(s.RootName), MimeType: "application/zip",
			Base64: base64.StdEncoding.EncodeToString(data), Bytes: len(data), Files: len(s.Files), Revision: s.Revision}
		done(okResult(fmt.Sprintf("Archived %d file(s) as %s (%d bytes)", res.Files, res.Name, res.Bytes),
			map[string]any{"name": res.Name, "bytes": res.Bytes, "files": res.Files, "revision": res.Revision}))
		return res, nil
	}
	methods[MethodWorkspaceUpload] = func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		files, err := transfer.DecodeUploadParams(params)
		if err != nil {
			jerr := invalidParams(MethodWorkspaceUpload + ": " + strings.TrimPrefix(err.Error(), "mcp: "))
			var cnt *transfer.UploadCountError
			if errors.As(err, &cnt) {
				jerr.Data = map[string]any{"code": mcp.CodeWorkspaceSourceLimit, "reason": workspace.SkipFileLimit,
					"count": cnt.Count, "limit": transfer.MaxUploadFiles}
			}
			return nil, jerr
		}
		paths := make([]string, 0, min(len(files), 20))
		for _, f := range files[:min(len(files), 20)] {
			paths = append(paths, shownPath(f.Path))
		}
		done := ObserveOperation(p, MethodWorkspaceUpload, map[string]any{"files": len(files), "paths": paths})
		res, err := e.upload(ctx, files)
		if err != nil {
			terr := mcp.ToolErrorOf(err)
			done(mcp.ErrorResult("", terr))
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: MethodWorkspaceUpload + ": " + terr.Error(),
				Data: map[string]any{"code": terr.Code, "retryable": terr.Retryable}}
		}
		if len(res.Uploaded) == 0 {
			done(mcp.ErrorResult("", mcp.NewError(mcp.CodeWorkspaceNoSupportedFiles, false,
				map[string]any{"operation": "upload", "skippedCount": len(res.Skipped), "skipped": res.Skipped},
				"None of the %d uploaded file(s) could be added.", len(files))))
			return res, nil
		}
		done(okResult(fmt.Sprintf("Uploaded %d file(s)", len(res.Uploaded)), res))
		return res, nil
	}
}

// okResult is the successful CallToolResult an operation reports to the trace.
func okResult(text string, structured any) *mcp.CallToolResult {
	sc, _ := json.Marshal(structured)
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent(text)}, StructuredContent: sc}
}
