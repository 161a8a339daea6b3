package workspace

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Metadata is the per-workspace record a Repository keeps beside the files (REFERENCE §1,
// Dexie table "workspaces"; SPEC §2.12 adds the revision).
//
// Shape: {"rootName": "canvas-landing", "activePath": "index.html", "revision": 7,
// "deletedPaths": ["old.css"]}. Revision is the monotonic workspace revision; DeletedPaths are
// the pending folder deletions, in queue order.
type Metadata struct {
	RootName     string   `json:"rootName"`
	ActivePath   string   `json:"activePath"`
	Revision     int64    `json:"revision"`
	DeletedPaths []string `json:"deletedPaths,omitempty"`
	// Instance is the workspace instance id (Manager.Instance); empty in workspaces stored
	// before it existed (Hydrate then keeps the Manager's new one).
	Instance string `json:"instance,omitempty"`
	// NotImported lists the files of the folder that the last import or reload left out
	// although the folder holds them (reasons SkipTooLarge, SkipNotText, SkipTotalLimit, and
	// SkipFileLimit for each file the 200-file cut left out; Imported.NotImported, at most one
	// per entry the import examined; SkipScanLimit for entries past the 2,000-entry scan bound,
	// at most MaxImportLateNames, then one entry with an empty Path counting those not named),
	// so the preview can say why a reference to one fails instead of calling it missing. Empty after a reset or a seed; kept across edits until
	// the next import or reload.
	NotImported []Skipped `json:"notImported,omitempty"`
}

// Snapshot is a whole stored workspace: metadata plus the files in workspace order.
// File values are immutable and may be shared with the manager.
type Snapshot struct {
	Metadata
	Files []*File `json:"files"`
}

// ErrNoWorkspace is returned by Repository.Load when nothing is stored yet.
var ErrNoWorkspace = errors.New("workspace: no stored workspace")

// WriteGate is implemented by a Repository that may refuse every write for a while: the
// browser's second tab, which does not hold the workspace lock, shows the workspace read-only
// (issue 14). Writable returns nil while writes are allowed, else the reason. The Manager asks
// it before every mutation and refuses the mutation with WORKSPACE_READ_ONLY, so no edit of
// any kind (editor, agent, catalog, recipes, uploads) changes even the in-memory workspace.
type WriteGate interface {
	Writable() error
}

// StaleWriteError is returned by SaveSnapshot and SaveChanges when the stored workspace is at a
// newer revision than the state being written (issue 14: a tab must never write a state older
// than what is stored, e.g. after another tab saved meanwhile). Nothing is written.
type StaleWriteError struct {
	Stored  int64 // the stored revision
	Writing int64 // the revision of the refused write
}

func (e *StaleWriteError) Error() string {
	return fmt.Sprintf("the workspace stored in this browser is newer (revision %d) than this tab's (revision %d); nothing was written. Reload to continue from the stored workspace", e.Stored, e.Writing)
}

// Repository is the durable store of the workspace (the Dexie repository of REFERENCE §1;
// IndexedDB in the browser, host state headless, MemoryRepository in tests).
//
// Contract:
//   - Load returns the stored snapshot already repaired with RepairSnapshot, or ErrNoWorkspace.
//   - SaveSnapshot replaces every file and the metadata at once (import, reset, undo/redo).
//   - SaveChanges writes the metadata, upserts put and removes del in one transaction (one file
//     per edit in the common case; metadata only when both are empty).
//   - Both refuse, writing nothing, with a *StaleWriteError when the stored revision is greater
//     than the revision written (checked in the same transaction as the write).
//
// Any error makes the manager fall back to memory mode with a storageError; it never makes a
// tool call fail (REFERENCE §2.2). Implementations must be safe for concurrent use, although
// the Manager calls them under its own lock.
type Repository interface {
	Load(ctx context.Context) (Snapshot, error)
	SaveSnapshot(ctx context.Context, s Snapshot) error
	SaveChanges(ctx context.Context, meta Metadata, put []*File, del []string) error
}

// RepairSnapshot applies the hydration repair of REFERENCE §1 in place: an ActivePath naming
// no file is replaced by the active-file heuristic (ChooseActivePath), and DeletedPaths that
// name an existing file are dropped (as are duplicates). Every Repository.Load applies it.
func RepairSnapshot(s *Snapshot) {
	exists := make(map[string]bool, len(s.Files))
	for _, f := range s.Files {
		exists[f.Path] = true
	}
	if !exists[s.ActivePath] {
		s.ActivePath = ChooseActivePath(s.Files)
	}
	var kept []string
	seen := map[string]bool{}
	for _, p := range s.DeletedPaths {
		if !exists[p] && !seen[p] {
			seen[p] = true
			kept = append(kept, p)
		}
	}
	s.DeletedPaths = kept
}

// ChooseActivePath picks the active file of a fresh workspace: "index.html", else the first
// HTML file, else the first text file, else the first file; "" for no files (REFERENCE §2.2).
func ChooseActivePath(files []*File) string {
	if e := htmlEntry(files); e != "" {
		return e
	}
	for _, f := range files {
		if f.Kind != KindAsset {
			return f.Path
		}
	}
	if len(files) > 0 {
		return files[0].Path
	}
	return ""
}

// htmlEntry is the preview entry (REFERENCE §5.1): "index.html", else the first HTML file.
func htmlEntry(files []*File) string {
	first := ""
	for _, f := range files {
		if f.Path == "index.html" {
			return f.Path
		}
		if first == "" && f.Language == "html" {
			first = f.Path
		}
	}
	return first
}

// MemoryRepository is an in-memory Repository, the reference implementation for tests and
// for hosts without durable storage. The zero value is empty and ready to use; it is safe for
// concurrent use.
type MemoryRepository struct {
	mu     sync.Mutex
	stored bool
	meta   Metadata
	files  []*File
	// Saves counts successful SaveSnapshot and SaveChanges calls (for tests).
	Saves int
}

// Load returns a repaired copy of the stored snapshot, or ErrNoWorkspace.
func (r *MemoryRepository) Load(ctx context.Context) (Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stored {
		return Snapshot{}, ErrNoWorkspace
	}
	s := Snapshot{Metadata: r.meta, Files: append([]*File(nil), r.files...)}
	s.DeletedPaths = append([]string(nil), r.meta.DeletedPaths...)
	RepairSnapshot(&s)
	return s, nil
}

// SaveSnapshot replaces the stored workspace.
func (r *MemoryRepository) SaveSnapshot(ctx context.Context, s Snapshot) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stored && r.meta.Revision > s.Revision {
		return &StaleWriteError{Stored: r.meta.Revision, Writing: s.Revision}
	}
	r.stored = true
	r.meta = s.Metadata
	r.meta.DeletedPaths = append([]string(nil), s.DeletedPaths...)
	r.files = append([]*File(nil), s.Files...)
	r.Saves++
	return nil
}

// SaveChanges writes meta, upserts put (in place, or appended when new) and removes del.
func (r *MemoryRepository) SaveChanges(ctx context.Context, meta Metadata, put []*File, del []string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stored && r.meta.Revision > meta.Revision {
		return &StaleWriteError{Stored: r.meta.Revision, Writing: meta.Revision}
	}
	r.stored = true
	r.meta = meta
	r.meta.DeletedPaths = append([]string(nil), meta.DeletedPaths...)
	files := append([]*File(nil), r.files...)
	for _, d := range del {
		for i, f := range files {
			if f.Path == d {
				files = append(files[:i], files[i+1:]...)
				break
			}
		}
	}
	for _, p := range put {
		replaced := false
		for i, f := range files {
			if f.Path == p.Path {
				files[i], replaced = p, true
				break
			}
		}
		if !replaced {
			files = append(files, p)
		}
	}
	r.files = files
	r.Saves++
	return nil
}

// SetStored replaces the stored snapshot without repair (tests use it to plant stale metadata).
func (r *MemoryRepository) SetStored(s Snapshot) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stored = true
	r.meta = s.Metadata
	r.files = append([]*File(nil), s.Files...)
}
