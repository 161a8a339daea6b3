package wasmhost

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero/api"

	"github.com/webcoding/studio/host/folder"
	"github.com/webcoding/studio/wasm/workspace"
)

// Status codes of the folder and download host functions; the guest (wasm/adapters/hostcall)
// maps them back to the workspace sentinels. Keep both lists identical.
const (
	statusOK         = 0 // success; the result bytes are the answer
	statusStale      = 1 // workspace.ErrFolderStale
	statusMissing    = 2 // workspace.ErrFolderFileMissing
	statusPermission = 3 // workspace.ErrFolderPermission
	statusEscapes    = 4 // workspace.ErrFolderPathEscapes
	statusFailed     = 5 // any other failure; the result bytes are the message
	statusNone       = 6 // no folder / no download directory configured
	statusTooLarge   = 7 // a successful result was parked: fetch it with result_take
	// 8 and 9 are the HTTP statuses (http.go).
	statusNotAFile = 10 // workspace.ErrFolderNotAFile: a directory is in the way; nothing changed
)

// Bounds of parked results (results larger than the guest's buffer, fetched with result_take).
const (
	maxParked      = 16       // results parked at once; the oldest is dropped beyond it
	maxParkedBytes = 64 << 20 // one parked result (bytes): larger results fail
)

// hostIO is the folder and download state of a Host (Options.FolderDir, Options.DownloadsDir)
// plus the parked results. Host functions may run on an abandoned call concurrently with the
// next one, so it has its own lock.
type hostIO struct {
	folder       *folder.DirFolder // nil: no folder
	downloadsDir string            // "": no download target

	mu     sync.Mutex
	parked map[uint32][]byte
	order  []uint32
	ticket uint32
}

func (io *hostIO) park(b []byte) uint32 {
	io.mu.Lock()
	defer io.mu.Unlock()
	if io.parked == nil {
		io.parked = map[uint32][]byte{}
	}
	io.ticket++
	if io.ticket == 0 {
		io.ticket = 1
	}
	io.parked[io.ticket] = b
	io.order = append(io.order, io.ticket)
	for len(io.order) > maxParked {
		delete(io.parked, io.order[0])
		io.order = io.order[1:]
	}
	return io.ticket
}

func (io *hostIO) take(t uint32) ([]byte, bool) {
	io.mu.Lock()
	defer io.mu.Unlock()
	b, ok := io.parked[t]
	if ok {
		delete(io.parked, t)
		for i, x := range io.order {
			if x == t {
				io.order = append(io.order[:i], io.order[i+1:]...)
				break
			}
		}
	}
	return b, ok
}

// reply hands a result to the guest: the bytes go into its buffer (buf, bufCap) and their
// length into out[0]; a successful result that does not fit is parked and out[1] gets its
// ticket (statusTooLarge). An error message is cut to the buffer. h may be nil (no host on
// the context): nothing can be parked then.
func (h *Host) reply(m api.Module, st int32, data []byte, buf, bufCap, out uint32) int32 {
	mem := m.Memory()
	ticket := uint32(0)
	switch {
	case st != statusOK || uint32(len(data)) <= bufCap:
		if uint32(len(data)) > bufCap {
			data = data[:bufCap]
		}
		if len(data) > 0 && !mem.Write(buf, data) {
			return statusFailed
		}
	case h != nil && len(data) <= maxParkedBytes:
		ticket = h.io.park(data)
		st = statusTooLarge
	default:
		data = nil
		st = statusFailed
	}
	if !mem.WriteUint32Le(out, uint32(len(data))) || !mem.WriteUint32Le(out+4, ticket) {
		return statusFailed
	}
	return st
}

// fail replies with the status of err (the workspace sentinels) and its message.
func (h *Host) fail(m api.Module, err error, buf, bufCap, out uint32) int32 {
	st := int32(statusFailed)
	switch {
	case errors.Is(err, workspace.ErrFolderStale):
		st = statusStale
	case errors.Is(err, workspace.ErrFolderFileMissing):
		st = statusMissing
	case errors.Is(err, workspace.ErrFolderPermission):
		st = statusPermission
	case errors.Is(err, workspace.ErrFolderPathEscapes):
		st = statusEscapes
	case errors.Is(err, workspace.ErrFolderNotAFile):
		st = statusNotAFile
	}
	return h.reply(m, st, []byte(err.Error()), buf, bufCap, out)
}

// hostInfo answers {"folder":{"name","scopeId"}|null,"downloads":bool,"http":bool,"durable":bool}.
func hostInfo(ctx context.Context, m api.Module, buf, bufCap, out uint32) int32 {
	h := hostFrom(ctx)
	if h == nil {
		return h.reply(m, statusOK, []byte(`{"folder":null,"downloads":false,"http":false,"durable":false}`), buf, bufCap, out)
	}
	type folderInfo struct {
		Name    string `json:"name"`
		ScopeID string `json:"scopeId"`
	}
	var v struct {
		Folder    *folderInfo `json:"folder"`
		Downloads bool        `json:"downloads"`
		HTTP      bool        `json:"http"`
		Durable   bool        `json:"durable"`
	}
	if f := h.io.folder; f != nil {
		v.Folder = &folderInfo{Name: f.Name(), ScopeID: f.ScopeID()}
	}
	v.Downloads = h.io.downloadsDir != ""
	v.HTTP = h.opts.HTTP != nil
	v.Durable = h.opts.Durable != nil
	b, _ := json.Marshal(v)
	return h.reply(m, statusOK, b, buf, bufCap, out)
}

// folderOf returns the calling host's folder, or replies statusNone.
func folderOf(ctx context.Context) (*Host, *folder.DirFolder) {
	h := hostFrom(ctx)
	if h == nil {
		return nil, nil
	}
	return h, h.io.folder
}

// none replies statusNone without a Host (reply only touches h.io when parking, which an
// error never does).
func none(m api.Module, what string, buf, bufCap, out uint32) int32 {
	return (*Host)(nil).reply(m, statusNone, []byte(what), buf, bufCap, out)
}

func hostFolderPermission(ctx context.Context, m api.Module, buf, bufCap, out uint32) int32 {
	h, f := folderOf(ctx)
	if f == nil {
		return none(m, "no folder is linked", buf, bufCap, out)
	}
	return h.reply(m, statusOK, []byte(f.Permission(ctx)), buf, bufCap, out)
}

// hostFolderTree answers [{"path","size"}...] in the folder's walk order.
func hostFolderTree(ctx context.Context, m api.Module, buf, bufCap, out uint32) int32 {
	h, f := folderOf(ctx)
	if f == nil {
		return none(m, "no folder is linked", buf, bufCap, out)
	}
	entries, err := f.ReadTree(ctx)
	if err != nil {
		return h.fail(m, err, buf, bufCap, out)
	}
	type entry struct {
		Path string `json:"path"`
		Size int64  `json:"size"`
	}
	list := make([]entry, len(entries))
	for i, e := range entries {
		list[i] = entry{e.Path, e.Size}
	}
	b, err := json.Marshal(list)
	if err != nil {
		return h.fail(m, err, buf, bufCap, out)
	}
	return h.reply(m, statusOK, b, buf, bufCap, out)
}

// guestPath reads a path argument; ok is false when it lies outside guest memory.
func guestPath(m api.Module, ptr, size uint32) (string, bool) {
	return readString(m, ptr, size)
}

func hostFolderRead(ctx context.Context, m api.Module, pathPtr, pathLen, buf, bufCap, out uint32) int32 {
	return withFolderPath(ctx, m, pathPtr, pathLen, buf, bufCap, out, func(f *folder.DirFolder, p string) ([]byte, error) {
		return f.ReadFile(ctx, p)
	})
}

// withFolderPath is the one prologue and epilogue of the folder host functions that take only
// a path: no linked folder → statusNone; a path outside guest memory → statusFailed; else fn
// runs, and its error fails the call or its bytes are the statusOK answer.
func withFolderPath(ctx context.Context, m api.Module, pathPtr, pathLen, buf, bufCap, out uint32, fn func(f *folder.DirFolder, p string) ([]byte, error)) int32 {
	h, f := folderOf(ctx)
	if f == nil {
		return none(m, "no folder is linked", buf, bufCap, out)
	}
	p, ok := guestPath(m, pathPtr, pathLen)
	if !ok {
		return h.fail(m, errors.New("path out of guest memory"), buf, bufCap, out)
	}
	data, err := fn(f, p)
	if err != nil {
		return h.fail(m, err, buf, bufCap, out)
	}
	return h.reply(m, statusOK, data, buf, bufCap, out)
}

func hostFolderWrite(ctx context.Context, m api.Module, pathPtr, pathLen, dataPtr, dataLen, buf, bufCap, out uint32) int32 {
	h, f := folderOf(ctx)
	if f == nil {
		return none(m, "no folder is linked", buf, bufCap, out)
	}
	p, ok := guestPath(m, pathPtr, pathLen)
	data, ok2 := m.Memory().Read(dataPtr, dataLen)
	if !ok || !ok2 {
		return h.fail(m, errors.New("arguments out of guest memory"), buf, bufCap, out)
	}
	// DirFolder.WriteFile only reads data during the call; the view aliases guest memory,
	// which nothing else touches while this host function runs.
	if err := f.WriteFile(ctx, p, data); err != nil {
		return h.fail(m, err, buf, bufCap, out)
	}
	return h.reply(m, statusOK, nil, buf, bufCap, out)
}

func hostFolderDelete(ctx context.Context, m api.Module, pathPtr, pathLen, buf, bufCap, out uint32) int32 {
	return withFolderPath(ctx, m, pathPtr, pathLen, buf, bufCap, out, func(f *folder.DirFolder, p string) ([]byte, error) {
		return nil, f.DeleteFile(ctx, p)
	})
}

// hostResultTake copies a parked result into (buf, bufCap) and forgets it.
func hostResultTake(ctx context.Context, m api.Module, ticket, buf, bufCap uint32) int32 {
	h := hostFrom(ctx)
	if h == nil {
		return statusFailed
	}
	b, ok := h.io.take(ticket)
	if !ok || uint32(len(b)) > bufCap {
		return statusFailed
	}
	if len(b) > 0 && !m.Memory().Write(buf, b) {
		return statusFailed
	}
	return statusOK
}

// hostDownload writes a workspace.downloadFile into Options.DownloadsDir.
func hostDownload(ctx context.Context, m api.Module, namePtr, nameLen, mimePtr, mimeLen, dataPtr, dataLen, buf, bufCap, out uint32) int32 {
	h := hostFrom(ctx)
	if h == nil || h.io.downloadsDir == "" {
		return none(m, "the host has no download directory (--downloads DIR)", buf, bufCap, out)
	}
	name, ok := readString(m, namePtr, nameLen)
	data, ok2 := m.Memory().Read(dataPtr, dataLen)
	if !ok || !ok2 {
		return h.fail(m, errors.New("arguments out of guest memory"), buf, bufCap, out)
	}
	if err := writeDownload(h.io.downloadsDir, name, data); err != nil {
		return h.fail(m, err, buf, bufCap, out)
	}
	return h.reply(m, statusOK, nil, buf, bufCap, out)
}

// DownloadName returns the file name a download is written under: the last segment of name
// ("/" or "\" separated). Errors: the segment is empty, "." or "..", or holds NUL.
func DownloadName(name string) (string, error) {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, 0) {
		return "", fmt.Errorf("wasmhost: download: %q is not a file name", name)
	}
	return name, nil
}

// writeDownload writes data as dir/DownloadName(name), replacing an existing file atomically
// (a temporary file in dir, then rename). dir is created when missing; the file is opened
// through an os.Root on dir, so nothing outside dir is ever written.
func writeDownload(dir, name string, data []byte) error {
	base, err := DownloadName(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("wasmhost: download: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("wasmhost: download: %w", err)
	}
	defer root.Close()
	var r [8]byte
	_, _ = rand.Read(r[:])
	tmp := "." + base + ".tmp-" + hex.EncodeToString(r[:])
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("wasmhost: download: %w", err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = root.Rename(tmp, base)
	}
	if werr != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("wasmhost: download %s: %w", base, werr)
	}
	return nil
}
