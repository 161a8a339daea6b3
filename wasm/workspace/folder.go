package workspace

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
)

// Permission is the read/write permission state of a linked folder. Granted, Prompt and
// Denied are the File System Access API's PermissionState values; Unknown (not yet queried
// or not answerable) and Disconnected (no folder linked) are ours. REFERENCE §2 (getStatus).
type Permission string

// Permission states.
const (
	PermissionGranted      Permission = "granted"
	PermissionPrompt       Permission = "prompt"
	PermissionDenied       Permission = "denied"
	PermissionUnknown      Permission = "unknown"
	PermissionDisconnected Permission = "disconnected"
)

// Sentinel errors a FolderAdapter returns (wrapped with %w as it likes); the manager maps them
// to tool errors.
var (
	// ErrFolderStale: the folder root itself is gone or no longer reachable (the File System
	// Access NotFoundError on the directory handle) → WORKSPACE_FOLDER_STALE.
	ErrFolderStale = errors.New("workspace: linked folder is stale")
	// ErrFolderFileMissing: the named file does not exist in an otherwise reachable folder.
	ErrFolderFileMissing = errors.New("workspace: file missing in linked folder")
	// ErrFolderPermission: read/write permission is not granted → WORKSPACE_FOLDER_PERMISSION_DENIED.
	ErrFolderPermission = errors.New("workspace: folder permission not granted")
	// ErrFolderPathEscapes: the path would leave the folder root (a "..", an absolute path or a
	// symlink pointing outside).
	ErrFolderPathEscapes = errors.New("workspace: path escapes the linked folder")
	// ErrFolderNotAFile: a directory (or another non-regular file) occupies the path, or a
	// file occupies one of its parent directories; the call changed nothing →
	// WORKSPACE_FILE_CONFLICT reason "directory-in-the-way".
	ErrFolderNotAFile = errors.New("workspace: a directory is in the way in the linked folder")
)

// ImportEntry is one file offered to the importer (ImportFiles): a folder walk or an upload.
//
// Path is relative to the root, "/"-separated (it is normalized again by the importer). Size
// is the size the source claims, in bytes; entries over a limit are skipped without calling
// Read. Read returns the bytes (it may be called at most once).
type ImportEntry struct {
	Path string
	Size int64
	Read func(ctx context.Context) ([]byte, error)
}

// FolderAdapter is the port to a linked local folder (SPEC §1 "FolderAdapter"): File System
// Access handles in the browser, a directory on disk natively (host/folder), the host through
// host functions under wasip1, MemFolder in tests. Paths are normalized workspace paths.
//
// Contract:
//
//   - Name is the folder's display name (the root name after import).
//   - ScopeID is "folder:<uuid>"-like, new for every pick; "" when none (REFERENCE §6.6).
//   - Permission reports the current readwrite permission without prompting.
//   - ReadTree lists the files for the importer. It may skip nothing: the importer applies the
//     limits, dot-folder and node_modules rules, in the order the entries come.
//   - ReadFile returns one file's bytes (SaveAll reads each path once before writing or
//     deleting it, to refuse overwriting bytes it did not load; and to reconcile an unknown
//     save).
//   - WriteFile replaces a file (creating parent directories) atomically where the platform can.
//   - DeleteFile removes a file; an already-absent file is success.
//
// Errors wrap ErrFolderStale (root gone), ErrFolderFileMissing (ReadFile of an absent file),
// ErrFolderPermission, ErrFolderPathEscapes, or ErrFolderNotAFile (ReadFile or WriteFile of a
// path where a directory is, or below a file; nothing changed); anything else counts as an
// unknown outcome.
// Implementations must be safe for concurrent use.
type FolderAdapter interface {
	Name() string
	ScopeID() string
	Permission(ctx context.Context) Permission
	ReadTree(ctx context.Context) ([]ImportEntry, error)
	ReadFile(ctx context.Context, path string) ([]byte, error)
	WriteFile(ctx context.Context, path string, data []byte) error
	DeleteFile(ctx context.Context, path string) error
}

// FolderUnlinker is implemented by a FolderAdapter that keeps a persisted copy of its link (the
// browser's stored directory handle): the Manager calls Unlinked when it drops the adapter
// (disconnectFolder, a stale root, another import or link), so the persisted copy is
// forgotten too (REFERENCE §2.1 disconnectFolder, §3.2 WORKSPACE_FOLDER_STALE). Unlinked is
// called with the Manager's lock held: it must not block or call back into the Manager.
type FolderUnlinker interface {
	Unlinked()
}

// MemFolder is an in-memory FolderAdapter for tests. Fields may be set before use; methods
// are safe for concurrent use. Hooks let a test inject failures.
type MemFolder struct {
	FolderName string
	Scope      string
	Perm       Permission // "" means granted
	Stale      bool       // every call fails with ErrFolderStale
	// Paths that are not already normalized (NormalizePath(p) != p) fail with ErrFolderPathEscapes.

	// FailWrite, when set, is called before each write or delete (op "write" | "delete"); a
	// non-nil result is returned instead of performing the operation.
	FailWrite func(op, path string) error

	mu     sync.Mutex
	files  map[string][]byte
	order  []string
	Writes []string // "write:path" / "delete:path" in the order performed
}

// NewMemFolder returns a MemFolder holding files (path → content) with the given name.
func NewMemFolder(name string, files map[string]string) *MemFolder {
	f := &MemFolder{FolderName: name, Scope: "folder:mem-" + name, files: map[string][]byte{}}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f.files[p] = []byte(files[p])
		f.order = append(f.order, p)
	}
	return f
}

func (f *MemFolder) Name() string    { return f.FolderName }
func (f *MemFolder) ScopeID() string { return f.Scope }

func (f *MemFolder) Permission(ctx context.Context) Permission {
	if f.Perm == "" {
		return PermissionGranted
	}
	return f.Perm
}

func (f *MemFolder) check(p string) error {
	if f.Stale {
		return ErrFolderStale
	}
	if n, err := NormalizePath(p); p != "." && (err != nil || n != p) {
		return ErrFolderPathEscapes
	}
	if f.Perm != "" && f.Perm != PermissionGranted {
		return ErrFolderPermission
	}
	return nil
}

func (f *MemFolder) ReadTree(ctx context.Context) ([]ImportEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("."); err != nil {
		return nil, err
	}
	var out []ImportEntry
	for _, p := range f.order {
		data := append([]byte(nil), f.files[p]...)
		out = append(out, ImportEntry{Path: p, Size: int64(len(data)),
			Read: func(context.Context) ([]byte, error) { return data, nil }})
	}
	return out, nil
}

func (f *MemFolder) ReadFile(ctx context.Context, p string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(p); err != nil {
		return nil, err
	}
	d, ok := f.files[p]
	if !ok {
		if f.blockedLocked(p) {
			return nil, ErrFolderNotAFile
		}
		return nil, ErrFolderFileMissing
	}
	return append([]byte(nil), d...), nil
}

func (f *MemFolder) WriteFile(ctx context.Context, p string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(p); err != nil {
		return err
	}
	if f.FailWrite != nil {
		if err := f.FailWrite("write", p); err != nil {
			return err
		}
	}
	if _, ok := f.files[p]; !ok {
		if f.blockedLocked(p) {
			return ErrFolderNotAFile
		}
		f.order = append(f.order, p)
	}
	f.files[p] = append([]byte(nil), data...)
	f.Writes = append(f.Writes, "write:"+p)
	return nil
}

func (f *MemFolder) DeleteFile(ctx context.Context, p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(p); err != nil {
		return err
	}
	if f.FailWrite != nil {
		if err := f.FailWrite("delete", p); err != nil {
			return err
		}
	}
	if _, ok := f.files[p]; ok {
		delete(f.files, p)
		for i, q := range f.order {
			if q == p {
				f.order = append(f.order[:i], f.order[i+1:]...)
				break
			}
		}
	}
	f.Writes = append(f.Writes, "delete:"+p)
	return nil
}

// blockedLocked reports whether p is a "directory" (some file lies below it) or lies below a
// file (mu held).
func (f *MemFolder) blockedLocked(p string) bool {
	for q := range f.files {
		if strings.HasPrefix(q, p+"/") || strings.HasPrefix(p, q+"/") {
			return true
		}
	}
	return false
}

// Content returns a file's current content and whether it exists (for tests).
func (f *MemFolder) Content(p string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.files[p]
	return string(d), ok
}
