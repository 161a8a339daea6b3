//go:build js && wasm

package fsa

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/workspace"
)

// ErrNoShim: the page has no globalThis.webcodingFolder (site/js/folder.js not loaded).
var ErrNoShim = errors.New("fsa: the folder shim is not loaded")

// Shim returns globalThis.webcodingFolder, or ErrNoShim.
func Shim() (js.Value, error) {
	s := js.Global().Get("webcodingFolder")
	if s.Type() != js.TypeObject {
		return js.Undefined(), ErrNoShim
	}
	return s, nil
}

// HasPicker reports whether the page can show a directory picker (showDirectoryPicker, or a
// handle injected by the test hook).
func HasPicker() bool {
	s, err := Shim()
	if err != nil {
		return false
	}
	return call(s, "hasPicker").Truthy()
}

// Folder is a workspace.FolderAdapter over one root directory handle.
type Folder struct {
	shim     js.Value
	handle   js.Value
	name     string
	scope    string
	onUnlink func()

	mu       sync.Mutex
	skipped  []string              // folders the last ReadTree did not enter
	progress func(op, path string) // after each successful write or delete (SetProgress)
}

// SetProgress sets fn to run after each successful WriteFile ("write") or DeleteFile
// ("delete") with the path, on the calling goroutine (it must not block); nil removes it.
func (f *Folder) SetProgress(fn func(op, path string)) {
	f.mu.Lock()
	f.progress = fn
	f.mu.Unlock()
}

func (f *Folder) done(op, path string) {
	f.mu.Lock()
	fn := f.progress
	f.mu.Unlock()
	if fn != nil {
		fn(op, path)
	}
}

var _ workspace.FolderAdapter = (*Folder)(nil)
var _ workspace.FolderUnlinker = (*Folder)(nil)

// New wraps handle (a FileSystemDirectoryHandle) with the scope id scope ("" → NewScopeID()).
// onUnlink, when set, runs on its own goroutine after the workspace manager dropped the folder
// (disconnect, stale root, another import): the browser forgets the persisted handle there.
func New(handle js.Value, scope string, onUnlink func()) (*Folder, error) {
	s, err := Shim()
	if err != nil {
		return nil, err
	}
	if handle.Type() != js.TypeObject || handle.Get("kind").String() != "directory" {
		return nil, errors.New("fsa: not a directory handle")
	}
	if scope == "" {
		scope = NewScopeID()
	}
	return &Folder{shim: s, handle: handle, name: handle.Get("name").String(), scope: scope, onUnlink: onUnlink}, nil
}

// NewScopeID returns "folder:<uuid v4>" (REFERENCE §6.6: new for every pick).
func NewScopeID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return "folder:" + h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Pick shows the directory picker (readwrite) and wraps the chosen folder with a new scope id.
// (nil, nil): the user cancelled.
func Pick(ctx context.Context, onUnlink func()) (*Folder, error) {
	s, err := Shim()
	if err != nil {
		return nil, err
	}
	v, err := await(ctx, call(s, "pick"))
	if err != nil {
		return nil, err
	}
	if v.IsNull() || v.IsUndefined() {
		return nil, nil
	}
	return New(v, "", onUnlink)
}

// Handle returns the directory handle (for persistence by structured clone only).
func (f *Folder) Handle() js.Value { return f.handle }

// SkippedFolders returns the folders (dot-folders, node_modules) the last ReadTree did not
// enter, as paths relative to the root.
func (f *Folder) SkippedFolders() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.skipped...)
}

func (f *Folder) Name() string    { return f.name }
func (f *Folder) ScopeID() string { return f.scope }

// Unlinked implements workspace.FolderUnlinker (never blocks).
func (f *Folder) Unlinked() {
	if f.onUnlink != nil {
		jsbridge.Go("fsa.unlinked", f.onUnlink)
	}
}

// Permission queries the readwrite permission without prompting; a failing query is unknown.
func (f *Folder) Permission(ctx context.Context) workspace.Permission {
	return f.permission(ctx, false)
}

// RequestPermission asks for readwrite permission (it may prompt; a real prompt needs a user
// gesture) and returns the resulting state.
func (f *Folder) RequestPermission(ctx context.Context) workspace.Permission {
	return f.permission(ctx, true)
}

func (f *Folder) permission(ctx context.Context, request bool) workspace.Permission {
	v, err := await(ctx, call(f.shim, "permission", f.handle, request))
	if err != nil || v.Type() != js.TypeString {
		return workspace.PermissionUnknown
	}
	switch p := workspace.Permission(v.String()); p {
	case workspace.PermissionGranted, workspace.PermissionPrompt, workspace.PermissionDenied:
		return p
	}
	return workspace.PermissionUnknown
}

// ReadTree walks the folder (sorted names, dot-folders and node_modules not entered, at most
// workspace.MaxImportScannedEntries+1 files) and returns the entries for the importer; each
// entry's Read reads the File snapshot taken during the walk.
func (f *Folder) ReadTree(ctx context.Context) ([]workspace.ImportEntry, error) {
	v, err := await(ctx, call(f.shim, "walk", f.handle, workspace.MaxImportScannedEntries+1))
	if err != nil {
		return nil, mapErr("read tree", ".", err)
	}
	list := v.Get("entries")
	n := list.Length()
	out := make([]workspace.ImportEntry, 0, n)
	for i := 0; i < n; i++ {
		e := list.Index(i)
		file := e.Get("file")
		out = append(out, workspace.ImportEntry{Path: e.Get("path").String(), Size: int64(e.Get("size").Float()),
			Read: func(ctx context.Context) ([]byte, error) {
				buf, err := await(ctx, file.Call("arrayBuffer"))
				if err != nil {
					return nil, err
				}
				return bytesOf(js.Global().Get("Uint8Array").New(buf)), nil
			}})
	}
	sk := v.Get("skippedFolders")
	var skipped []string
	for i := 0; i < sk.Length(); i++ {
		skipped = append(skipped, sk.Index(i).String())
	}
	f.mu.Lock()
	f.skipped = skipped
	f.mu.Unlock()
	return out, nil
}

// ReadFile returns one file's bytes.
func (f *Folder) ReadFile(ctx context.Context, path string) ([]byte, error) {
	v, err := await(ctx, call(f.shim, "read", f.handle, path))
	if err != nil {
		return nil, mapErr("read", path, err)
	}
	return bytesOf(v), nil
}

// WriteFile replaces a file, creating parent folders (createWritable: the new bytes replace
// the old ones when the stream closes).
func (f *Folder) WriteFile(ctx context.Context, path string, data []byte) error {
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	_, err := await(ctx, call(f.shim, "write", f.handle, path, arr))
	if err == nil {
		f.done("write", path)
	}
	return mapErr("write", path, err)
}

// DeleteFile removes a file; an absent file or parent is success once the root was found.
func (f *Folder) DeleteFile(ctx context.Context, path string) error {
	_, err := await(ctx, call(f.shim, "remove", f.handle, path))
	if err == nil {
		f.done("delete", path)
	}
	return mapErr("delete", path, err)
}

// call invokes a shim function, turning a synchronous throw into a rejected Promise.
func call(obj js.Value, name string, args ...any) (v js.Value) {
	defer func() {
		if r := recover(); r != nil {
			v = js.Global().Get("Promise").Call("reject", js.Global().Get("Error").New(fmt.Sprint(r)))
		}
	}()
	return obj.Call(name, args...)
}

func await(ctx context.Context, p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return p, nil // a plain value (hasPicker)
	}
	return jsbridge.Await(ctx, p)
}

func bytesOf(v js.Value) []byte {
	if v.Type() != js.TypeObject {
		return nil
	}
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// mapErr maps a shim rejection to the workspace sentinels (see the package documentation).
func mapErr(op, path string, err error) error {
	if err == nil {
		return nil
	}
	var re *jsbridge.RejectedError
	if !errors.As(err, &re) {
		return fmt.Errorf("fsa: %s %s: %w", op, path, err)
	}
	kind := ""
	if re.Reason.Type() == js.TypeObject && re.Reason.Get("kind").Type() == js.TypeString {
		kind = re.Reason.Get("kind").String()
	}
	var sentinel error
	switch kind {
	case "stale":
		sentinel = workspace.ErrFolderStale
	case "missing":
		sentinel = workspace.ErrFolderFileMissing
	case "permission":
		sentinel = workspace.ErrFolderPermission
	case "not-a-file":
		sentinel = workspace.ErrFolderNotAFile
	case "escapes":
		sentinel = workspace.ErrFolderPathEscapes
	default:
		return fmt.Errorf("fsa: %s %s: %s", op, path, re.Message)
	}
	return fmt.Errorf("%w: %s %s: %s", sentinel, op, path, re.Message)
}
