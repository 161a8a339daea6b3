package studio

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"path"
	"slices"
	"strings"
	"time"
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
	// ("duplicate"), text over 512 KiB or an asset over 4 MiB ("too-large"), an upload over
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

// Transfer limits.
const (
	// MaxUploadFiles bounds the entries of one workspace/upload (the import's file limit).
	MaxUploadFiles = workspace.MaxImportFiles
	// MaxArchiveFiles bounds the files of a workspace/archive.
	MaxArchiveFiles = 1_000
	// MaxArchiveContentBytes bounds the summed file bytes (text as UTF-8) of a
	// workspace/archive: 32 MiB.
	MaxArchiveContentBytes = 32 << 20
)

// ArchiveTime is the modification time of every archive entry (the ZIP/DOS epoch), so the
// same workspace always gives the same bytes.
var ArchiveTime = time.Date(1980, time.January, 1, 0, 0, 0, 0, time.UTC)

// storedExts are asset extensions already compressed: archived with zip.Store, not Deflate.
var storedExts = map[string]bool{"avif": true, "gif": true, "jpeg": true, "jpg": true, "png": true,
	"webp": true, "woff": true, "woff2": true}

// Archive writes files as a ZIP archive: one entry per file named by its workspace path,
// sorted by path (byte order), every entry dated ArchiveTime with mode 0644, text as its
// UTF-8 bytes and assets as their bytes (already compressed formats stored, the rest
// deflated). The output depends only on the paths and bytes.
//
// # Errors
//   - too many files (> MaxArchiveFiles) or bytes (> MaxArchiveContentBytes): *ArchiveLimitError
func Archive(files []*workspace.File) ([]byte, error) {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b *workspace.File) int { return strings.Compare(a.Path, b.Path) })
	total := 0
	for _, f := range sorted {
		total += len(fileBytes(f))
	}
	if len(sorted) > MaxArchiveFiles || total > MaxArchiveContentBytes {
		return nil, &ArchiveLimitError{Files: len(sorted), Bytes: total}
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range sorted {
		h := &zip.FileHeader{Name: f.Path, Method: zip.Deflate, Modified: ArchiveTime}
		if storedExts[strings.ToLower(strings.TrimPrefix(path.Ext(f.Path), "."))] {
			h.Method = zip.Store
		}
		h.SetMode(0o644)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(fileBytes(f)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ArchiveLimitError is Archive's refusal of a workspace over MaxArchiveFiles or
// MaxArchiveContentBytes: the workspace's file count and summed bytes.
type ArchiveLimitError struct {
	Files, Bytes int
}

func (e *ArchiveLimitError) Error() string {
	return fmt.Sprintf("the workspace (%d files, %d bytes) is over the archive limits (%d files, %d bytes)",
		e.Files, e.Bytes, MaxArchiveFiles, MaxArchiveContentBytes)
}

func fileBytes(f *workspace.File) []byte {
	if f.Kind == workspace.KindAsset {
		return f.Data
	}
	return []byte(f.Source)
}

// ArchiveName is the download name of a workspace's archive: DownloadName(rootName, ".zip").
func ArchiveName(rootName string) string { return DownloadName(rootName, ".zip") }

// DownloadName is the file name a download of the workspace named rootName gets, exactly as
// the browser saves it (so the chat can name it truthfully): path separators and control
// characters replaced by "_", leading and trailing dots and spaces removed (browsers drop
// them: "..zip" would be saved as "zip.zip"), "workspace" when nothing is left, plus ext.
func DownloadName(rootName, ext string) string {
	name := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, rootName)
	name = strings.Trim(name, ". ")
	if strings.Trim(name, "._ ") == "" {
		name = "workspace"
	}
	return name + ext
}

// UploadFile is one decoded workspace/upload entry: the path as given (not yet normalized)
// and its bytes (decoded base64, or the text as UTF-8).
type UploadFile struct {
	Path string
	Data []byte
}

// DecodeUploadParams strictly decodes workspace/upload params: a JSON object whose only
// member is "files", an array of 1..MaxUploadFiles objects, each with a string "path" and
// exactly one of "base64" (standard padded base64, no other characters) or "text" (a
// string); no other member, no repeated key (mcp.DecodeObject). The path is checked later,
// per entry (an unusable path refuses that entry only).
//
// # Errors
//   - a description of the first problem, prefixed by the entry index ("files[3]: …")
func DecodeUploadParams(params json.RawMessage) ([]UploadFile, error) {
	if len(bytes.TrimSpace(params)) == 0 {
		return nil, fmt.Errorf("params {files} are required")
	}
	if err := mcp.CheckJSON(params); err != nil {
		return nil, err
	}
	if k := mcp.JSONKind(params); k != "object" {
		return nil, fmt.Errorf("expected a JSON object, got %s", k)
	}
	var raw []byte
	unknown := ""
	mcp.EachMember(params, func(k, v []byte) bool {
		if string(k) != "files" {
			unknown = string(k)
			return false
		}
		raw = v
		return true
	})
	if unknown != "" {
		return nil, fmt.Errorf("unknown field %q (allowed: files)", unknown)
	}
	if raw == nil {
		return nil, fmt.Errorf("files is required")
	}
	if mcp.JSONKind(raw) != "array" {
		return nil, fmt.Errorf("files must be an array")
	}
	list := arrayElements(raw, math.MaxInt)
	if len(list) == 0 || len(list) > MaxUploadFiles {
		return nil, &UploadCountError{Count: len(list)}
	}
	out := make([]UploadFile, 0, len(list))
	for i, item := range list {
		f, err := decodeUploadEntry(item)
		if err != nil {
			return nil, fmt.Errorf("files[%d]: %w", i, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// UploadCountError is DecodeUploadParams' error for a files array with no entry or more than
// MaxUploadFiles: Count is the real number of entries. The method answers it as JSON-RPC
// -32602 with data {"code": "WORKSPACE_SOURCE_LIMIT", "reason": "file-limit", "count", "limit"}.
type UploadCountError struct{ Count int }

func (e *UploadCountError) Error() string {
	return fmt.Sprintf("[%s] one upload holds 1..%d files, not %d", mcp.CodeWorkspaceSourceLimit, MaxUploadFiles, e.Count)
}

// arrayElements splits a JSON array that passed mcp.CheckJSON into its raw elements (at most
// limit; the rest is not split). It tracks only strings and nesting: the input is known valid.
func arrayElements(arr []byte, limit int) [][]byte {
	arr = bytes.TrimSpace(arr)
	var out [][]byte
	depth, start, inStr := 0, -1, false
	for i := 1; i < len(arr)-1 && len(out) < limit; i++ {
		c := arr[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == ',' && depth == 0:
			out = append(out, bytes.TrimSpace(arr[start:i]))
			start = -1
			continue
		}
		if start < 0 {
			start = i
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	if start >= 0 && len(out) < limit {
		out = append(out, bytes.TrimSpace(arr[start:len(arr)-1]))
	}
	return out
}

func decodeUploadEntry(item []byte) (UploadFile, error) {
	if mcp.JSONKind(item) != "object" {
		return UploadFile{}, fmt.Errorf("must be an object {path, base64 | text}")
	}
	// The whole params passed mcp.CheckJSON (DecodeObject): valid UTF-8, no repeated key, so
	// the members can be walked without decoding the object again.
	var rawPath, b64, text []byte
	unknown := ""
	mcp.EachMember(item, func(k, v []byte) bool {
		switch string(k) {
		case "path":
			rawPath = v
		case "base64":
			b64 = v
		case "text":
			text = v
		default:
			unknown = string(k)
			return false
		}
		return true
	})
	if unknown != "" {
		return UploadFile{}, fmt.Errorf("unknown field %q (allowed: path, base64, text)", unknown)
	}
	var f UploadFile
	var ok bool
	if f.Path, ok = jsonString(rawPath); !ok {
		return UploadFile{}, fmt.Errorf("path must be a string")
	}
	switch {
	case (b64 == nil) == (text == nil):
		return UploadFile{}, fmt.Errorf("exactly one of base64 or text is required")
	case b64 != nil:
		if mcp.JSONKind(b64) != "string" {
			return UploadFile{}, fmt.Errorf("base64 must be a string")
		}
		b64 = bytes.TrimSpace(b64)
		enc := b64[1 : len(b64)-1]
		if bytes.IndexByte(enc, '\\') >= 0 { // escapes: decode the JSON string first
			s, _ := jsonString(b64)
			enc = []byte(s)
		}
		if bytes.ContainsAny(enc, "\r\n") {
			return UploadFile{}, fmt.Errorf("base64 must not contain line breaks")
		}
		data := make([]byte, base64.StdEncoding.DecodedLen(len(enc)))
		n, err := base64.StdEncoding.Strict().Decode(data, enc)
		if err != nil {
			return UploadFile{}, fmt.Errorf("base64 is not valid standard base64: %v", err)
		}
		f.Data = data[:n]
	default:
		s, ok := jsonString(text)
		if !ok {
			return UploadFile{}, fmt.Errorf("text must be a string")
		}
		f.Data = []byte(s)
	}
	return f, nil
}

// jsonString decodes a raw JSON value that passed mcp.CheckJSON as a string: the bytes
// between the quotes when there is no escape, encoding/json otherwise.
func jsonString(raw []byte) (string, bool) {
	if mcp.JSONKind(raw) != "string" {
		return "", false
	}
	raw = bytes.TrimSpace(raw)
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

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
	return bound(strings.ToValidUTF8(strings.ReplaceAll(p, "\x00", "\uFFFD"), "\uFFFD"), MaxPathChars)
}

// upload runs workspace/upload over decoded files.
func (e *studioSession) upload(ctx context.Context, files []UploadFile) (UploadResult, error) {
	var skipped []workspace.Skipped
	var usable []UploadFile
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
			usable = append(usable, UploadFile{Path: p, Data: f.Data})
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

func uploadEntries(files []UploadFile) iter.Seq[workspace.ImportEntry] {
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
		data, err := Archive(s.Files)
		if err != nil {
			var lim *ArchiveLimitError
			terr := mcp.NewError(mcp.CodeToolExecutionFailed, false, map[string]any{"operation": "archive"}, "%s", err.Error())
			done(mcp.ErrorResult("", terr))
			jerr := &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: MethodWorkspaceArchive + ": " + err.Error()}
			if errors.As(err, &lim) {
				jerr.Code = jsonrpc.CodeInvalidParams
				jerr.Data = map[string]any{"reason": "too-large", "files": lim.Files, "bytes": lim.Bytes}
			}
			return nil, jerr
		}
		res := ArchiveResult{Name: ArchiveName(s.RootName), MimeType: "application/zip",
			Base64: base64.StdEncoding.EncodeToString(data), Bytes: len(data), Files: len(s.Files), Revision: s.Revision}
		done(okResult(fmt.Sprintf("Archived %d file(s) as %s (%d bytes)", res.Files, res.Name, res.Bytes),
			map[string]any{"name": res.Name, "bytes": res.Bytes, "files": res.Files, "revision": res.Revision}))
		return res, nil
	}
	methods[MethodWorkspaceUpload] = func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		files, err := DecodeUploadParams(params)
		if err != nil {
			jerr := invalidParams(MethodWorkspaceUpload + ": " + strings.TrimPrefix(err.Error(), "mcp: "))
			var cnt *UploadCountError
			if errors.As(err, &cnt) {
				jerr.Data = map[string]any{"code": mcp.CodeWorkspaceSourceLimit, "reason": workspace.SkipFileLimit,
					"count": cnt.Count, "limit": MaxUploadFiles}
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
