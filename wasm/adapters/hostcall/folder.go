//go:build wasip1

package hostcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/webcoding/studio/wasm/workspace"
)

// Status codes of the folder and download host functions (the i32 each returns). The result
// bytes hold the answer for StatusOK and a UTF-8 error message otherwise (the host cuts a
// message to the buffer; only successful results are ever parked).
const (
	StatusOK         = 0 // success; result bytes are the answer
	StatusStale      = 1 // workspace.ErrFolderStale
	StatusMissing    = 2 // workspace.ErrFolderFileMissing
	StatusPermission = 3 // workspace.ErrFolderPermission
	StatusEscapes    = 4 // workspace.ErrFolderPathEscapes
	StatusFailed     = 5 // any other failure (an unknown outcome for writes)
	StatusNone       = 6 // no folder (or no download directory) is configured
	StatusTooLarge   = 7 // a successful result did not fit the buffer: take it with result_take
	// 8 and 9 are the HTTP statuses (http.go).
	StatusNotAFile = 10 // workspace.ErrFolderNotAFile: a directory is in the way; nothing changed
)

// resultBuf is the size of the buffer each call offers for its result (bytes). A larger
// result is parked by the host and fetched with result_take into a buffer of the exact size.
const resultBuf = 64 << 10

// out is the result slot the host fills: n = result length in bytes; ticket = a non-zero
// handle of a parked result when the status is StatusTooLarge.
type out struct {
	n, ticket uint32
}

// webcoding.info(buf, cap, out) → status: JSON {"folder":{"name","scopeId"}|null,"downloads":bool,"http":bool,"durable":bool}.
//
//go:wasmimport webcoding info
func hostInfo(buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.folder_permission(buf, cap, out) → status: the permission state as text.
//
//go:wasmimport webcoding folder_permission
func hostFolderPermission(buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.folder_tree(buf, cap, out) → status: JSON [{"path","size"}...] in walk order.
//
//go:wasmimport webcoding folder_tree
func hostFolderTree(buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.folder_read(path, pathLen, buf, cap, out) → status: the file's bytes.
//
//go:wasmimport webcoding folder_read
func hostFolderRead(path unsafe.Pointer, pathLen uint32, buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.folder_write(path, pathLen, data, dataLen, buf, cap, out) → status.
//
//go:wasmimport webcoding folder_write
func hostFolderWrite(path unsafe.Pointer, pathLen uint32, data unsafe.Pointer, dataLen uint32, buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.folder_delete(path, pathLen, buf, cap, out) → status.
//
//go:wasmimport webcoding folder_delete
func hostFolderDelete(path unsafe.Pointer, pathLen uint32, buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.download(name, nameLen, mime, mimeLen, data, dataLen, buf, cap, out) → status.
//
//go:wasmimport webcoding download
func hostDownload(name unsafe.Pointer, nameLen uint32, mime unsafe.Pointer, mimeLen uint32, data unsafe.Pointer, dataLen uint32, buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32

// webcoding.result_take(ticket, buf, cap) → status: copies a parked result (exactly its
// length) into buf and forgets it; StatusFailed for an unknown ticket or a short buffer.
//
//go:wasmimport webcoding result_take
func hostResultTake(ticket uint32, buf unsafe.Pointer, bufCap uint32) int32

func strPtr(s string) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.StringData(s))
}

func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(b))
}

// invoke runs one host call that answers through (buf, cap, out) and returns the status and
// the result bytes (a fresh slice), fetching a parked result when it did not fit.
func invoke(call func(buf unsafe.Pointer, bufCap uint32, o unsafe.Pointer) int32) (int32, []byte) {
	bp := scratch.Get().(*[]byte)
	defer scratch.Put(bp)
	buf := *bp
	var o out
	st := call(unsafe.Pointer(&buf[0]), uint32(len(buf)), unsafe.Pointer(&o))
	if st == StatusTooLarge {
		big := make([]byte, max(o.n, 1))
		if hostResultTake(o.ticket, unsafe.Pointer(&big[0]), o.n) != StatusOK {
			return StatusFailed, []byte("hostcall: the host lost a parked result")
		}
		return StatusOK, big[:o.n:o.n] // only successful results are parked

	}
	if o.n > uint32(len(buf)) {
		return StatusFailed, []byte("hostcall: the host reported a result longer than the buffer")
	}
	return st, append([]byte(nil), buf[:o.n]...) // buf goes back to the pool
}

// scratch holds the result buffers offered to the host (resultBuf bytes each), reused so an
// import of many small files does not allocate 64 KiB per file (guest memory never shrinks).
var scratch = sync.Pool{New: func() any { b := make([]byte, resultBuf); return &b }}

// statusError maps a non-OK status and its message to the workspace sentinels.
func statusError(op, path string, st int32, msg []byte) error {
	var sentinel error
	switch st {
	case StatusStale:
		sentinel = workspace.ErrFolderStale
	case StatusMissing:
		sentinel = workspace.ErrFolderFileMissing
	case StatusPermission:
		sentinel = workspace.ErrFolderPermission
	case StatusEscapes:
		sentinel = workspace.ErrFolderPathEscapes
	case StatusNotAFile:
		sentinel = workspace.ErrFolderNotAFile
	case StatusNone:
		return fmt.Errorf("hostcall: %s %s: %w: %s", op, path, ErrNotConfigured, msg)
	default:
		return fmt.Errorf("hostcall: %s %s: %s", op, path, msg)
	}
	return fmt.Errorf("%w: %s %s: %s", sentinel, op, path, msg)
}

// ErrNotConfigured: the host has no folder (or no download directory) for this call.
var ErrNotConfigured = errors.New("not configured in the host")

// HostInfo is what the host offers besides logging, asked once at assembly.
type HostInfo struct {
	// Folder is the linked folder's identity, nil when the host has none (--dir not given).
	Folder *FolderInfo `json:"folder"`
	// Downloads reports whether the host delivers workspace.downloadFile (--downloads DIR).
	Downloads bool `json:"downloads"`
	// HTTP reports whether the host performs HTTP requests (webcoding.http_do, see HTTP):
	// true when a provider is configured (agent --provider openrouter).
	HTTP bool `json:"http"`
	// Durable reports whether the host offers a durable-operation backend (Durable, through
	// webcoding.durable_*): true when the CLI was given --durable redis://… or postgres://….
	Durable bool `json:"durable"`
}

// FolderInfo identifies the host's folder.
type FolderInfo struct {
	Name    string `json:"name"`
	ScopeID string `json:"scopeId"`
}

// Info asks the host what it offers (webcoding.info). A host that answers something else is
// treated as offering nothing, and the failure is logged.
func Info() HostInfo {
	st, b := invoke(hostInfo)
	var info HostInfo
	if st != StatusOK {
		Log(8, "hostcall: info: status "+fmt.Sprint(st)+": "+string(b))
		return HostInfo{}
	}
	if err := json.Unmarshal(b, &info); err != nil {
		Log(8, "hostcall: info: "+err.Error())
		return HostInfo{}
	}
	return info
}

// Folder is the workspace.FolderAdapter of the host's folder (a directory on disk behind
// host/folder.DirFolder), reached through the webcoding.folder_* host functions. Paths go to
// the host as given; the host checks them (rooted, no "..", no absolute path, no symlink out)
// and answers ErrFolderPathEscapes when they would leave the folder.
//
// File bodies cross as raw bytes, metadata as JSON. Errors wrap the workspace sentinels by
// status (StatusStale → ErrFolderStale, StatusMissing → ErrFolderFileMissing,
// StatusPermission → ErrFolderPermission, StatusEscapes → ErrFolderPathEscapes,
// StatusNotAFile → ErrFolderNotAFile); anything
// else is a plain error (an unknown outcome). Safe for concurrent use: host calls do not
// yield, so each runs to completion on its goroutine.
type Folder struct {
	info FolderInfo
}

var _ workspace.FolderAdapter = (*Folder)(nil)

// NewFolder returns the adapter for the folder described by info (from Info).
func NewFolder(info FolderInfo) *Folder { return &Folder{info: info} }

// Name is the folder's display name (the directory's base name).
func (f *Folder) Name() string { return f.info.Name }

// ScopeID is the host's scope id for this folder ("folder:<32 hex>").
func (f *Folder) ScopeID() string { return f.info.ScopeID }

// Permission asks the host for the folder's permission state; a failed call reports unknown.
func (f *Folder) Permission(ctx context.Context) workspace.Permission {
	st, b := invoke(hostFolderPermission)
	switch {
	case st == StatusNone:
		return workspace.PermissionDisconnected
	case st != StatusOK:
		return workspace.PermissionUnknown
	}
	return workspace.Permission(b)
}

type treeEntry struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// ReadTree lists the folder's files (the host's walk order and skip rules); each entry's Read
// fetches the bytes through ReadFile.
func (f *Folder) ReadTree(ctx context.Context) ([]workspace.ImportEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, b := invoke(hostFolderTree)
	if st != StatusOK {
		return nil, statusError("read tree", ".", st, b)
	}
	var entries []treeEntry
	if err := json.Unmarshal(b, &entries); err != nil {
		return nil, fmt.Errorf("hostcall: read tree: %w", err)
	}
	out := make([]workspace.ImportEntry, len(entries))
	for i, e := range entries {
		p := e.Path
		out[i] = workspace.ImportEntry{Path: p, Size: e.Size,
			Read: func(ctx context.Context) ([]byte, error) { return f.ReadFile(ctx, p) }}
	}
	return out, nil
}

// ReadFile returns the bytes of one file.
func (f *Folder) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, b := invoke(func(buf unsafe.Pointer, n uint32, o unsafe.Pointer) int32 {
		return hostFolderRead(strPtr(path), uint32(len(path)), buf, n, o)
	})
	if st != StatusOK {
		return nil, statusError("read", path, st, b)
	}
	return b, nil
}

// WriteFile replaces one file atomically (the host writes a temporary file and renames it),
// creating parent directories.
func (f *Folder) WriteFile(ctx context.Context, path string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	st, b := invoke(func(buf unsafe.Pointer, n uint32, o unsafe.Pointer) int32 {
		return hostFolderWrite(strPtr(path), uint32(len(path)), bytesPtr(data), uint32(len(data)), buf, n, o)
	})
	if st != StatusOK {
		return statusError("write", path, st, b)
	}
	return nil
}

// DeleteFile removes one file; an absent file is success.
func (f *Folder) DeleteFile(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	st, b := invoke(func(buf unsafe.Pointer, n uint32, o unsafe.Pointer) int32 {
		return hostFolderDelete(strPtr(path), uint32(len(path)), buf, n, o)
	})
	if st != StatusOK {
		return statusError("delete", path, st, b)
	}
	return nil
}

// Download hands a workspace.downloadFile to the host, which writes data into its download
// directory under name's last path segment. It matches studio.Ports.Downloads. Errors: the
// host has no download directory (wraps ErrNotConfigured), the name is not a file name, or
// the write failed.
func Download(name, mimeType string, data []byte) error {
	st, b := invoke(func(buf unsafe.Pointer, n uint32, o unsafe.Pointer) int32 {
		return hostDownload(strPtr(name), uint32(len(name)), strPtr(mimeType), uint32(len(mimeType)),
			bytesPtr(data), uint32(len(data)), buf, n, o)
	})
	if st != StatusOK {
		return statusError("download", name, st, b)
	}
	return nil
}
