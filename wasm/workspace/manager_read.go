package workspace

import (
	"context"
)

// Filesystem modes reported by Status (REFERENCE §2, workspace.getStatus).
const (
	FilesystemLocalFolder = "local-folder"
	FilesystemBrowserOnly = "browser-only"
)

// HistoryState is {"canUndo", "canRedo"}.
type HistoryState struct {
	CanUndo bool `json:"canUndo"`
	CanRedo bool `json:"canRedo"`
}

// FilesystemState is {"mode", "folderLinked", "permission", "saveAllAvailable",
// "reloadAvailable"}: permission is the adapter's when a folder is linked, else
// "disconnected"; saveAllAvailable = reloadAvailable = folderLinked.
type FilesystemState struct {
	Mode             string     `json:"mode"`
	FolderLinked     bool       `json:"folderLinked"`
	Permission       Permission `json:"permission"`
	SaveAllAvailable bool       `json:"saveAllAvailable"`
	ReloadAvailable  bool       `json:"reloadAvailable"`
}

// Status is the workspace.getStatus snapshot (REFERENCE §2 row 1) plus the persistence meta.
// UnknownSavePath names a folder write whose outcome is unknown (SPEC §2.4); it is reconciled
// by the next SaveAll.
type Status struct {
	RootName        string          `json:"rootName"`
	ActivePath      string          `json:"activePath"`
	Revision        int64           `json:"revision"`
	Preview         PreviewState    `json:"preview"`
	FileCount       int             `json:"fileCount"`
	DirtyPaths      []string        `json:"dirtyPaths"`
	DeletedPaths    []string        `json:"deletedPaths"`
	History         HistoryState    `json:"history"`
	Filesystem      FilesystemState `json:"filesystem"`
	StorageMode     StorageMode     `json:"storageMode"`
	StorageError    string          `json:"storageError,omitempty"`
	UnknownSavePath string          `json:"unknownSavePath,omitempty"`
}

// Status returns the getStatus snapshot. It asks the linked folder for its permission (outside
// the lock). Dirty paths are in workspace order.
func (m *Manager) Status(ctx context.Context) Status {
	m.mu.Lock()
	folder := m.folder
	s := Status{
		RootName: m.rootName, ActivePath: m.active, Revision: m.revision, Preview: m.preview,
		FileCount: len(m.files), DirtyPaths: []string{}, DeletedPaths: append([]string{}, m.deleted...),
		History:     HistoryState{CanUndo: m.histIndex > 0, CanRedo: m.histIndex < len(m.history)-1},
		StorageMode: m.storageMode, StorageError: m.storageError,
	}
	// A read-only workspace (the Repository's WriteGate refuses) saves nothing: it never
	// claims "indexed-db" (issue 14).
	if g, ok := m.repo.(WriteGate); ok && s.StorageMode == StorageIndexedDB {
		if err := g.Writable(); err != nil {
			s.StorageMode, s.StorageError = StorageMemory, boundText(err.Error(), MaxMessageChars)
		}
	}
	for _, f := range m.files {
		if m.dirty(f) {
			s.DirtyPaths = append(s.DirtyPaths, f.Path)
		}
	}
	if m.unknown != nil {
		s.UnknownSavePath = m.unknown.path
	}
	m.mu.Unlock()
	s.Filesystem = FilesystemState{Mode: FilesystemBrowserOnly, Permission: PermissionDisconnected}
	if folder != nil {
		s.Filesystem = FilesystemState{Mode: FilesystemLocalFolder, FolderLinked: true,
			Permission: folder.Permission(ctx), SaveAllAvailable: true, ReloadAvailable: true}
	}
	return s
}

// FileInfo is one listFiles row: {"path", "language", "size", "kind", "mimeType"?, "dirty",
// "overBudget"?}. Size is UTF-16 code units for text, bytes for assets; OverBudget marks an
// imported text file longer than MaxSourceChars.
type FileInfo struct {
	Path       string `json:"path"`
	Language   string `json:"language"`
	Size       int    `json:"size"`
	Kind       string `json:"kind"`
	MimeType   string `json:"mimeType,omitempty"`
	Dirty      bool   `json:"dirty"`
	OverBudget bool   `json:"overBudget,omitempty"`
}

// Listing is the workspace.listFiles result: {"activePath", "revision", "dirty",
// "deletedPaths", "files"}. Dirty is true when any file is dirty or a deletion is pending.
type Listing struct {
	ActivePath   string     `json:"activePath"`
	Revision     int64      `json:"revision"`
	Dirty        bool       `json:"dirty"`
	DeletedPaths []string   `json:"deletedPaths"`
	Files        []FileInfo `json:"files"`
}

// ListFiles lists the files in workspace order (REFERENCE §2.1 listFiles).
func (m *Manager) ListFiles() Listing {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := Listing{ActivePath: m.active, Revision: m.revision, DeletedPaths: append([]string{}, m.deleted...),
		Files: make([]FileInfo, 0, len(m.files)), Dirty: len(m.deleted) > 0}
	for _, f := range m.files {
		d := m.dirty(f)
		l.Dirty = l.Dirty || d
		l.Files = append(l.Files, FileInfo{Path: f.Path, Language: f.Language, Size: f.Size, Kind: f.Kind,
			MimeType: f.MimeType, Dirty: d, OverBudget: f.OverBudget()})
	}
	return l
}

// ReadResult is the workspace.readFile result {"path", "source", "revision"}.
type ReadResult struct {
	Path     string `json:"path"`
	Source   string `json:"source"`
	Revision int64  `json:"revision"`
}

// ReadFile returns a text file's full source (also when it is over budget).
//
// # Errors
//   - WORKSPACE_PATH_INVALID: see NormalizePath
//   - WORKSPACE_FILE_NOT_FOUND: details {path}
//   - WORKSPACE_FILE_TYPE_CONFLICT: an asset; details {path, operation:"read",
//     actualKind:"asset", expectedKind:"text"}
func (m *Manager) ReadFile(path string) (ReadResult, error) {
	p, err := NormalizePath(path)
	if err != nil {
		return ReadResult{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f := m.get(p)
	if f == nil {
		return ReadResult{}, m.missingLocked(p)
	}
	if f.Kind == KindAsset {
		return ReadResult{}, TypeConflict(p, "read", KindAsset, KindText)
	}
	return ReadResult{Path: p, Source: f.Source, Revision: m.revision}, nil
}

// File returns the file at path (text or asset) for downloads and exports; the value is
// shared and must not be modified.
//
// # Errors
//   - WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND
func (m *Manager) File(path string) (*File, error) {
	p, err := NormalizePath(path)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if f := m.get(p); f != nil {
		return f, nil
	}
	return nil, m.missingLocked(p)
}

// Result is what a workspace mutation returns: the affected path(s), the active path, the
// revision after the call and whether anything changed. Operation-specific fields are zero
// when they do not apply (FromPath for rename, Language for create, Replacements for patch).
type Result struct {
	Path         string `json:"path,omitempty"`
	FromPath     string `json:"fromPath,omitempty"`
	ActivePath   string `json:"activePath"`
	Revision     int64  `json:"revision"`
	Changed      bool   `json:"changed"`
	Language     string `json:"language,omitempty"`
	Replacements int    `json:"replacements,omitempty"`
}

// OpenFile makes path the active file and persists the active path; the revision does not
// change and no checkpoint is added (REFERENCE §2.1 openFile).
//
// # Errors
//   - WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND {path}
func (m *Manager) OpenFile(ctx context.Context, path string) (Result, error) {
	p, err := NormalizePath(path)
	if err != nil {
		return Result{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.find(p) < 0 {
		return Result{}, m.missingLocked(p)
	}
	if m.active != p {
		m.active = p
		m.persistChanges(ctx, nil, nil)
	}
	return Result{Path: p, ActivePath: p, Revision: m.revision}, nil
}
