// Package transfer is the workspace's zip/upload codec: Archive writes files as a
// deterministic ZIP archive, DecodeUploadParams strictly decodes the workspace/upload
// params, and ArchiveName/DownloadName name what the browser saves (issue 8). The studio's
// workspace/archive and workspace/upload session methods (wasm/studio/transfer.go) compose
// them with the workspace manager and the preview.
//
// Owns: the archive format (entry order, dates, modes, stored vs deflated) and the upload
// params' shape and limits.
//
// Must never: touch the workspace manager, the registry or the preview, or do I/O (layer
// order: wasm/doc.go, enforced by wasm/layout_test.go).
package transfer

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
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
